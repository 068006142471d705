import type { BankAccountRow, ConcessionRow, DocumentRow, ReviewStatus, VerticalMappingRow } from './types';

export type ReviewTally = { notReviewed: number; rejected: number };

/**
 * What stands between the first application and its stage-1 approval (the API refuses with 422 too): every
 * onboarding document, bank account, concession and the vertical mapping must be approved.
 */
export function tallyReviews(items: {
  documents?: readonly DocumentRow[];
  bankAccounts?: readonly BankAccountRow[];
  concessions?: readonly ConcessionRow[];
  verticalMapping?: VerticalMappingRow | null;
}): ReviewTally {
  const statuses: (ReviewStatus | null)[] = [
    ...(items.documents ?? []).filter((d) => d.kind !== 'additional').map((d) => d.reviewStatus),
    ...(items.bankAccounts ?? []).map((b) => b.reviewStatus),
    ...(items.concessions ?? []).map((c) => c.reviewStatus),
    ...(items.verticalMapping?.reviewStatus ? [items.verticalMapping.reviewStatus] : []),
  ];
  return {
    notReviewed: statuses.filter((s) => s === 'pending').length,
    rejected: statuses.filter((s) => s === 'rejected').length,
  };
}

/** The reason the stage-1 Approve is disabled, in the API's words; null when nothing blocks it. */
export function stageOneBlocker({ notReviewed, rejected }: ReviewTally): string | null {
  if (notReviewed === 0 && rejected === 0) return null;
  return (
    'Every document, bank account, concession and the vertical mapping must be approved before stage 1 ' +
    `(${notReviewed} not reviewed, ${rejected} rejected)`
  );
}

export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  pending: 'Not reviewed',
  approved: 'Approved',
  rejected: 'Rejected',
};
