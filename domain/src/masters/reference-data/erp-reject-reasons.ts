import type { ReferenceRow } from './types';

export type ErpRejectReasonRow = ReferenceRow<{ reason: string }>;

/** Why a vendor-code request is sent back (spec 000: reject with a reason, optionally to the BA). */
const REASONS = [
  'PAN and company name do not match',
  'Bank account details are incorrect',
  'Cancelled cheque is not legible',
  'GSTIN is not active',
  'Address is incomplete',
  'A vendor code already exists for this PAN',
  'Wrong payment term',
  'Wrong reconciliation account',
  'Withholding tax details are incorrect',
] as const;

export const ERP_REJECT_REASONS: readonly ErpRejectReasonRow[] = REASONS.map((reason, i) => ({ id: i + 1, reason }));
