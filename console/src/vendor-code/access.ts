import { AUDITOR_ROLE, STAFF_ROLES } from '../../../domain/src/identity/roles';

/**
 * Who sees and does what in the SAP area (issue 9 contract "Roles"; the API enforces the same per route and the
 * deciders the rules about people). The lists mirror domain/src/identity/roles.ts's SAP_REQUESTERS,
 * SAP_APPROVERS, BLOCK_REQUESTERS, BLOCK_APPROVERS, MASS_UPLOADERS and VENDOR_CODE_CREATORS.
 */
export const SAP_REQUESTERS: readonly string[] = ['MLL Accounts', 'MLL Accounts_HEAD', 'MDM', 'MLL-ADMIN'];
export const SAP_APPROVERS: readonly string[] = ['MLL Accounts_HEAD', 'MLL-ADMIN'];
export const BLOCK_REQUESTERS: readonly string[] = [
  'MLL Accounts',
  'MLL Accounts_HEAD',
  'MLL Procurement',
  'MLL Legal',
  'BA Engagement Manager',
  'MLL-ADMIN',
];
export const BLOCK_APPROVERS: readonly string[] = ['MLL Accounts_HEAD', 'MLL Legal', 'MLL-ADMIN'];
export const MASS_UPLOADERS: readonly string[] = ['MLL-ADMIN', 'MDM'];
/** Spec 000 §6: "one main admin alone" creates utility and other-company vendor codes. */
export const VENDOR_CODE_CREATORS: readonly string[] = ['MLL-ADMIN'];

const SAP_READERS: readonly string[] = [...STAFF_ROLES, AUDITOR_ROLE];

const holds = (list: readonly string[]) => (roles: readonly string[] | undefined) =>
  (roles ?? []).some((r) => list.includes(r));

/** Every staff role and the Auditor read the SAP dashboard, the BA ERP page, nucleus vendors and blocks. */
export const mayReadSap = holds(SAP_READERS);
export const mayRequestSap = holds(SAP_REQUESTERS);
export const mayApproveSap = holds(SAP_APPROVERS);
export const mayRequestBlock = holds(BLOCK_REQUESTERS);
export const mayApproveBlock = holds(BLOCK_APPROVERS);
export const mayMassUpload = holds(MASS_UPLOADERS);
export const mayCreateVendorCodes = holds(VENDOR_CODE_CREATORS);
