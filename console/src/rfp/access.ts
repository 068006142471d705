import { AUDITOR_ROLE } from '../../../domain/src/identity/roles';
import { RFP_DECIDERS, RFP_STAFF } from '../../../domain/src/rfp/roles';

/**
 * Who sees and does what on the RFP screens (domain/src/rfp/roles.ts; the API checks the same per route):
 * the six RFP staff roles and the Auditor read; the staff roles change (T&C, backhaul); MLL Procurement and
 * MLL-ADMIN close bidding, award, close and reopen.
 */
const holds = (list: readonly string[]) => (roles: readonly string[] | undefined) =>
  (roles ?? []).some((r) => list.includes(r));

export const mayReadRfps = holds([...RFP_STAFF, AUDITOR_ROLE]);
export const mayChangeRfps = holds(RFP_STAFF);
export const mayDecideRfps = holds(RFP_DECIDERS);
