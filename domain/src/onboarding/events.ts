import type { DomainEvent } from '../shared/events';
import type { CompanyDetails } from './details';
import type { BankAccount, BaDocument, ChangeRequest, Concession, GstRegistration, VerticalMapping } from './items';

/** Event names are wire contracts: add new ones, never rename. */
export type FieldChange = { before: unknown; after: unknown };

export type BusinessAssociateCreated = DomainEvent<
  'BusinessAssociateCreated',
  { baId: string; companyCode: string; adminUserId: string | null; mobileNo: string | null; email: string | null }
>;
export type CompanyDetailsSaved = DomainEvent<
  'CompanyDetailsSaved',
  { baId: string; details: CompanyDetails; changes: Record<string, FieldChange> }
>;
export type OnboardingSubmitted = DomainEvent<
  'OnboardingSubmitted',
  { baId: string; submission: number; resubmission: boolean; companyCode?: string }
>;
export type ReviewStageApproved = DomainEvent<
  'ReviewStageApproved',
  { baId: string; submission: number; stage: 1 | 2; remarks: string | null; approvedBy: string; role: string; companyCode?: string }
>;
export type BusinessAssociateVerified = DomainEvent<
  'BusinessAssociateVerified',
  { baId: string; submission: number; welcomeMessage: string; companyCode?: string }
>;
export type OnboardingRejected = DomainEvent<
  'OnboardingRejected',
  { baId: string; submission: number; stage: 1 | 2; remarks: string; rejectedBy: string; role: string; companyCode?: string }
>;
export type ReviewOverdue = DomainEvent<
  'ReviewOverdue',
  { baId: string; submission: number; stage: 1 | 2; dueAt: string }
>;

/*
 * Issue 8: the onboarding items and their reviews (items.ts). `companyCode` on submission and stage events:
 * absent = the BA's first company code (every event recorded before issue 8); set = an application for
 * another code (CompanyCodeApplied).
 */
/** Who decided, and when (the decision time, as the command's metadata had it). */
type ReviewedBy = { remarks: string | null; reviewedBy: string; role: string; at: string };

export type BankAccountSaved = DomainEvent<
  'BankAccountSaved',
  { baId: string; accountId: string; primary: boolean; account: BankAccount; changes: Record<string, FieldChange> }
>;
export type BankAccountDeleted = DomainEvent<'BankAccountDeleted', { baId: string; accountId: string }>;
export type BankAccountReviewed = DomainEvent<
  'BankAccountReviewed',
  { baId: string; accountId: string; decision: 'approved' | 'rejected' } & ReviewedBy
>;

export type GstRegistrationSaved = DomainEvent<
  'GstRegistrationSaved',
  { baId: string; gstId: string; registration: GstRegistration; changes: Record<string, FieldChange> }
>;
export type GstRegistrationDeleted = DomainEvent<'GstRegistrationDeleted', { baId: string; gstId: string }>;

/** `replaces`: the document this upload replaces (same type and state), which is gone from then on. */
export type DocumentUploaded = DomainEvent<
  'DocumentUploaded',
  { baId: string; docId: string; document: BaDocument; replaces: string | null; uploadedBy: string; role: string }
>;
export type DocumentDeleted = DomainEvent<'DocumentDeleted', { baId: string; docId: string }>;
export type DocumentReviewed = DomainEvent<
  'DocumentReviewed',
  { baId: string; docId: string; decision: 'approved' | 'rejected'; approvedTill: string | null } & ReviewedBy
>;
/** Sent by the document-expiry timers: `daysBefore` 0 is the reminder on the day. */
export type DocumentExpiryReminded = DomainEvent<
  'DocumentExpiryReminded',
  { baId: string; docId: string; documentTypeName: string; validTill: string; daysBefore: number }
>;
export type DocumentExpired = DomainEvent<
  'DocumentExpired',
  { baId: string; docId: string; documentTypeName: string; validTill: string }
>;

export type ConcessionSaved = DomainEvent<
  'ConcessionSaved',
  { baId: string; concessionId: string; concession: Concession; changes: Record<string, FieldChange> }
>;
export type ConcessionDeleted = DomainEvent<'ConcessionDeleted', { baId: string; concessionId: string }>;
export type ConcessionReviewed = DomainEvent<
  'ConcessionReviewed',
  { baId: string; concessionId: string; decision: 'approved' | 'rejected' } & ReviewedBy
>;

export type VerticalMappingSaved = DomainEvent<
  'VerticalMappingSaved',
  { baId: string; mapping: VerticalMapping; changes: Record<string, FieldChange> }
>;
export type VerticalMappingReviewed = DomainEvent<
  'VerticalMappingReviewed',
  { baId: string; decision: 'approved' | 'rejected' } & ReviewedBy
>;

export type CompanyCodeApplied = DomainEvent<'CompanyCodeApplied', { baId: string; companyCode: string }>;

export type ChangeRequestRaised = DomainEvent<
  'ChangeRequestRaised',
  { baId: string } & Pick<ChangeRequest, 'requestId' | 'section' | 'proposed' | 'changes'>
>;
/** `final`: the request is fully approved and its values now apply (a bank change needs two approvers). */
export type ChangeRequestApproved = DomainEvent<
  'ChangeRequestApproved',
  { baId: string; requestId: string; approvedBy: string; role: string; at: string; final: boolean }
>;
export type ChangeRequestRejected = DomainEvent<
  'ChangeRequestRejected',
  { baId: string; requestId: string; remarks: string; rejectedBy: string; role: string }
>;
/** Payments to the BA stop until the bank change request is decided (read by the vendor-code and Bill-Hub areas). */
export type PaymentsHeld = DomainEvent<'PaymentsHeld', { baId: string; reason: string; changeRequestId: string }>;
export type PaymentsReleased = DomainEvent<'PaymentsReleased', { baId: string; changeRequestId: string }>;

export type OnboardingItemEvent =
  | BankAccountSaved
  | BankAccountDeleted
  | BankAccountReviewed
  | GstRegistrationSaved
  | GstRegistrationDeleted
  | DocumentUploaded
  | DocumentDeleted
  | DocumentReviewed
  | DocumentExpiryReminded
  | DocumentExpired
  | ConcessionSaved
  | ConcessionDeleted
  | ConcessionReviewed
  | VerticalMappingSaved
  | VerticalMappingReviewed
  | CompanyCodeApplied
  | ChangeRequestRaised
  | ChangeRequestApproved
  | ChangeRequestRejected
  | PaymentsHeld
  | PaymentsReleased;

export type OnboardingEvent =
  | BusinessAssociateCreated
  | CompanyDetailsSaved
  | OnboardingSubmitted
  | ReviewStageApproved
  | BusinessAssociateVerified
  | OnboardingRejected
  | ReviewOverdue
  | OnboardingItemEvent;

export const ONBOARDING_EVENT_TYPES = [
  'BusinessAssociateCreated',
  'CompanyDetailsSaved',
  'OnboardingSubmitted',
  'ReviewStageApproved',
  'BusinessAssociateVerified',
  'OnboardingRejected',
  'ReviewOverdue',
  'BankAccountSaved',
  'BankAccountDeleted',
  'BankAccountReviewed',
  'GstRegistrationSaved',
  'GstRegistrationDeleted',
  'DocumentUploaded',
  'DocumentDeleted',
  'DocumentReviewed',
  'DocumentExpiryReminded',
  'DocumentExpired',
  'ConcessionSaved',
  'ConcessionDeleted',
  'ConcessionReviewed',
  'VerticalMappingSaved',
  'VerticalMappingReviewed',
  'CompanyCodeApplied',
  'ChangeRequestRaised',
  'ChangeRequestApproved',
  'ChangeRequestRejected',
  'PaymentsHeld',
  'PaymentsReleased',
] as const satisfies readonly OnboardingEvent['type'][];

export const baStreamId = (baId: string): string => `ba-${baId}`;
