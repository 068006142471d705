import { REVIEW_STAGE_ROLES } from '../../../../domain/src/identity/roles';
import type { BusinessAssociate } from '../../shared/types';

/** The roles that review items (documents, bank accounts, concessions, the vertical mapping): either stage's. */
const REVIEW_ROLES: readonly string[] = [...new Set([...REVIEW_STAGE_ROLES[1], ...REVIEW_STAGE_ROLES[2]])];

export const mayReviewItems = (roles: readonly string[] | undefined): boolean =>
  (roles ?? []).some((r) => REVIEW_ROLES.includes(r));

/** Staff may upload a concession on the BA's behalf (spec 000 §6): the same reviewing roles. */
export const mayUploadConcession = mayReviewItems;

/**
 * Whether an item may be reviewed now (the API checks the same): while the application is under review; after
 * verification only what a verified BA adds (additional documents, concessions, additional bank accounts).
 */
export function itemReviewOpen(
  record: Pick<BusinessAssociate, 'status'> | undefined,
  item: 'document' | 'additional-document' | 'bank' | 'additional-bank' | 'concession' | 'vertical-mapping',
): boolean {
  if (!record) return false;
  if (record.status === 'inprogress') return true;
  if (record.status !== 'verified') return false;
  return item === 'additional-document' || item === 'concession' || item === 'additional-bank';
}
