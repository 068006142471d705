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
export type SubmitOnboarding = { type: 'SubmitOnboarding' };
export type ApproveReviewStage = { type: 'ApproveReviewStage'; stage: number; remarks?: string | null };
export type RejectReviewStage = { type: 'RejectReviewStage'; stage: number; remarks?: string | null };
/** Sent by the workflow's SLA timer, never by a person. */
export type MarkReviewOverdue = { type: 'MarkReviewOverdue'; submission: number; stage: 1 | 2; dueAt: string };

export type OnboardingCommand =
  | CreateBusinessAssociate
  | SaveCompanyDetails
  | SubmitOnboarding
  | ApproveReviewStage
  | RejectReviewStage
  | MarkReviewOverdue;
