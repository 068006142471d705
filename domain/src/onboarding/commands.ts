import type { ReferencedItem } from '../masters/references';

/** Imperative names; the payloads are already validated shapes (the API parses raw input with zod). */
export type CreateBusinessAssociate = {
  type: 'CreateBusinessAssociate';
  baId: string;
  companyCode: string;
  adminUserId: string | null;
  mobileNo: string | null;
  email: string | null;
  /**
   * The company as the Companies master holds it (null: none), resolved by the deciding activity. Absent in
   * decisions replayed from before the masters, which checked the frozen catalogue (legacy-catalog.ts).
   */
  company?: ReferencedItem | null;
};
/**
 * `details` is raw input: the decider parses it with the shared schema so no path skips validation. It
 * carries the resolved service, state and city under `references` (details.ts `withReferences`).
 */
export type SaveCompanyDetails = { type: 'SaveCompanyDetails'; details: unknown };
/**
 * `companyCode` on the submission and stage commands: absent or the BA's first code = the first application;
 * another code = the application CompanyCodeApplied opened. `documentTypes`: the documents master as it is now
 * (resolved by the deciding activity), which says which documents the BA's service makes mandatory.
 */
export type SubmitOnboarding = { type: 'SubmitOnboarding'; companyCode?: string; documentTypes?: DocumentTypeRef[] };
export type ApproveReviewStage = { type: 'ApproveReviewStage'; stage: number; remarks?: string | null; companyCode?: string };
export type RejectReviewStage = { type: 'RejectReviewStage'; stage: number; remarks?: string | null; companyCode?: string };

/** A documents-master row as the deciding activity resolved it. */
export type DocumentTypeRef = {
  id: number;
  name: string;
  status: 'active' | 'inactive';
  kind: 'onboarding' | 'additional';
  mandatoryServiceIds: number[];
  needsValidityDate: boolean;
  isGstDocument: boolean;
};
/** A state as the deciding activity resolved it: its GST state code is what a GSTIN starts with. */
export type StateRef = ReferencedItem & { gstStateCode?: string | null };

/*
 * Issue 8 item commands. Payloads marked `unknown` are raw input the decider parses with the shared schemas
 * (items-schema.ts); `*Ref` fields are master items resolved by the deciding activity (never by workflow code).
 * Item ids (accountId, gstId, docId, concessionId, requestId) are chosen by the API (uuid) so a retried request
 * names the same item.
 */
export type SaveBankAccount = { type: 'SaveBankAccount'; accountId: string; primary: boolean; account: unknown };
export type DeleteBankAccount = { type: 'DeleteBankAccount'; accountId: string };
export type ReviewBankAccount = { type: 'ReviewBankAccount'; accountId: string; decision: 'approved' | 'rejected'; remarks?: string | null };

export type SaveGstRegistration = {
  type: 'SaveGstRegistration';
  gstId: string;
  registration: unknown;
  state?: StateRef | null;
  city?: ReferencedItem | null;
};
export type DeleteGstRegistration = { type: 'DeleteGstRegistration'; gstId: string };

/** `document` is raw input plus the stored file (the API stored the bytes first; the event names the blob). */
export type UploadDocument = {
  type: 'UploadDocument';
  docId: string;
  document: unknown;
  documentType?: DocumentTypeRef | null;
};
export type DeleteDocument = { type: 'DeleteDocument'; docId: string };
export type ReviewDocument = {
  type: 'ReviewDocument';
  docId: string;
  decision: 'approved' | 'rejected';
  /** YYYY-MM-DD; required to approve a document whose type needs a validity date. */
  approvedTill?: string | null;
  remarks?: string | null;
};
/** Sent by the document-expiry timers (system actor). */
export type MarkDocumentExpiring = { type: 'MarkDocumentExpiring'; docId: string; validTill: string; daysBefore: number };
export type MarkDocumentExpired = { type: 'MarkDocumentExpired'; docId: string; validTill: string };

export type SaveConcession = {
  type: 'SaveConcession';
  concessionId: string;
  concession: unknown;
  exemptionReason?: ReferencedItem | null;
};
export type DeleteConcession = { type: 'DeleteConcession'; concessionId: string };
export type ReviewConcession = { type: 'ReviewConcession'; concessionId: string; decision: 'approved' | 'rejected'; remarks?: string | null };

export type SaveVerticalMapping = { type: 'SaveVerticalMapping'; mapping: unknown; references?: Record<string, ReferencedItem[]> };
export type ReviewVerticalMapping = { type: 'ReviewVerticalMapping'; decision: 'approved' | 'rejected'; remarks?: string | null };

export type ApplyForCompanyCode = { type: 'ApplyForCompanyCode'; companyCode: string; company?: ReferencedItem | null };

export type RaiseChangeRequest = { type: 'RaiseChangeRequest'; requestId: string; section: 'company' | 'bank'; proposed: unknown };
export type ApproveChangeRequest = { type: 'ApproveChangeRequest'; requestId: string };
export type RejectChangeRequest = { type: 'RejectChangeRequest'; requestId: string; remarks?: string | null };

export type OnboardingItemCommand =
  | SaveBankAccount
  | DeleteBankAccount
  | ReviewBankAccount
  | SaveGstRegistration
  | DeleteGstRegistration
  | UploadDocument
  | DeleteDocument
  | ReviewDocument
  | MarkDocumentExpiring
  | MarkDocumentExpired
  | SaveConcession
  | DeleteConcession
  | ReviewConcession
  | SaveVerticalMapping
  | ReviewVerticalMapping
  | ApplyForCompanyCode
  | RaiseChangeRequest
  | ApproveChangeRequest
  | RejectChangeRequest;
/** Sent by the workflow's SLA timer, never by a person. */
export type MarkReviewOverdue = { type: 'MarkReviewOverdue'; submission: number; stage: 1 | 2; dueAt: string };

export type OnboardingCommand =
  | CreateBusinessAssociate
  | SaveCompanyDetails
  | SubmitOnboarding
  | ApproveReviewStage
  | RejectReviewStage
  | MarkReviewOverdue
  | OnboardingItemCommand;
