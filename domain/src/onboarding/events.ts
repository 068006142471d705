import type { DomainEvent } from '../shared/events';
import type { CompanyDetails } from './details';

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
  { baId: string; submission: number; resubmission: boolean }
>;
export type ReviewStageApproved = DomainEvent<
  'ReviewStageApproved',
  { baId: string; submission: number; stage: 1 | 2; remarks: string | null; approvedBy: string; role: string }
>;
export type BusinessAssociateVerified = DomainEvent<
  'BusinessAssociateVerified',
  { baId: string; submission: number; welcomeMessage: string }
>;
export type OnboardingRejected = DomainEvent<
  'OnboardingRejected',
  { baId: string; submission: number; stage: 1 | 2; remarks: string; rejectedBy: string; role: string }
>;
export type ReviewOverdue = DomainEvent<
  'ReviewOverdue',
  { baId: string; submission: number; stage: 1 | 2; dueAt: string }
>;

export type OnboardingEvent =
  | BusinessAssociateCreated
  | CompanyDetailsSaved
  | OnboardingSubmitted
  | ReviewStageApproved
  | BusinessAssociateVerified
  | OnboardingRejected
  | ReviewOverdue;

export const ONBOARDING_EVENT_TYPES = [
  'BusinessAssociateCreated',
  'CompanyDetailsSaved',
  'OnboardingSubmitted',
  'ReviewStageApproved',
  'BusinessAssociateVerified',
  'OnboardingRejected',
  'ReviewOverdue',
] as const satisfies readonly OnboardingEvent['type'][];

export const baStreamId = (baId: string): string => `ba-${baId}`;
