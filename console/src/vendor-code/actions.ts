import { mayApproveSap, mayRequestSap } from './access';
import { requestableStates } from './commands';
import type { VendorCodeRow } from './types';

export type SapActionKey =
  | 'request-parent'
  | 'request-child'
  | 'set-category'
  | 'approve-category'
  | 'reject-category'
  | 'recon-account'
  | 'withholding-tax'
  | 'reject-request';

/**
 * Which vendor-code actions the page offers this user for this row (issue 9 contract "Roles"): requesters
 * (MLL Accounts, Accounts_HEAD, MDM, MLL-ADMIN) request codes, set the category, change the recon account and
 * withholding tax, and reject a request; approvers (Accounts_HEAD, MLL-ADMIN) approve or reject the category —
 * never the person who set it. The API refuses the same; this only keeps impossible buttons off the page.
 */
export function sapActions(row: VendorCodeRow, roles: readonly string[] | undefined, userId: string | undefined): SapActionKey[] {
  const actions: SapActionKey[] = [];
  const requester = mayRequestSap(roles);
  const hasParent = Boolean(row.parentCode);
  if (requester && (row.status === 'not-requested' || row.status === 'rejected')) actions.push('request-parent');
  if (requester && hasParent && requestableStates(row).length > 0) actions.push('request-child');
  if (requester && hasParent && row.vendorCategoryStatus !== 'approved' && row.vendorCategoryStatus !== 'pending') {
    actions.push('set-category');
  }
  const setter = Boolean(userId) && row.vendorCategorySetBy === userId;
  if (mayApproveSap(roles) && row.vendorCategoryStatus === 'pending' && !setter) {
    actions.push('approve-category', 'reject-category');
  }
  if (requester && hasParent) actions.push('recon-account', 'withholding-tax');
  if (requester && (row.status === 'requested' || row.status === 'verification-pending' || row.status === 'verified')) {
    actions.push('reject-request');
  }
  return actions;
}
