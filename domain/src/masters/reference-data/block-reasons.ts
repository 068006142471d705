import type { ReferenceRow } from './types';

export type BlockReasonRow = ReferenceRow<{ reason: string }>;

const REASONS = [
  'Poor service performance',
  'Documents found to be forged',
  'Statutory documents expired',
  'GST registration cancelled',
  'PAN inoperative',
  'Duplicate vendor code',
  'Legal dispute',
  'No transactions for 24 months',
  'Blocked at the vendor request',
] as const;

export const BLOCK_REASONS: readonly BlockReasonRow[] = REASONS.map((reason, i) => ({ id: i + 1, reason }));
