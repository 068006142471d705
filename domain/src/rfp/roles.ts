import { AUDITOR_ROLE, BA_ROLES, SYSTEM_ROLE, type BaRole, type StaffRole } from '../identity/roles';

/**
 * Who may do what with RFPs. Spec 001 §6: the staff roles MLL Procurement, MLL-ADMIN, MLL Commercial, MLL
 * Accounts, MLL Operations and MLL Legal use the /rfp/MLL routes and create RFPs; BA Admin and BA User use
 * /rfp/BA. "Which staff role may award, close or reopen is not shown": decided as the RFP owners
 * (MLL Procurement, who runs sourcing) and MLL-ADMIN. Closing bidding early ends the BAs' chance to quote, so it
 * is theirs too; the due-date timer closes it as the system.
 */
export const RFP_STAFF: readonly StaffRole[] = [
  'MLL Procurement',
  'MLL-ADMIN',
  'MLL Commercial',
  'MLL Accounts',
  'MLL Operations',
  'MLL Legal',
];
export const RFP_DECIDERS: readonly StaffRole[] = ['MLL Procurement', 'MLL-ADMIN'];
export const RFP_BIDDERS: readonly BaRole[] = BA_ROLES;

/** One entry per thing a person does with an RFP; the API's route guards read the same table. */
export type RfpAction =
  | 'read'
  | 'create'
  | 'editDraft'
  | 'uploadLanes'
  | 'float'
  | 'closeBidding'
  | 'award'
  | 'close'
  | 'reopen'
  | 'inviteBackhaul'
  | 'uploadTerms'
  | 'respond';

export const RFP_ACTION_ROLES: Record<RfpAction, readonly string[]> = {
  // Auditors read everything and change nothing, as elsewhere; a BA reads only what was floated to it.
  read: [...RFP_STAFF, ...RFP_BIDDERS, AUDITOR_ROLE],
  create: RFP_STAFF,
  editDraft: RFP_STAFF,
  uploadLanes: RFP_STAFF,
  float: RFP_STAFF,
  closeBidding: [...RFP_DECIDERS, SYSTEM_ROLE],
  award: RFP_DECIDERS,
  close: RFP_DECIDERS,
  reopen: RFP_DECIDERS,
  inviteBackhaul: RFP_STAFF,
  uploadTerms: RFP_STAFF,
  respond: RFP_BIDDERS,
};

export const mayRfp = (action: RfpAction, role: string): boolean => RFP_ACTION_ROLES[action].includes(role);
