import { AUDITOR_ROLE, INVOICE_ACCOUNTS, INVOICE_COMMERCIAL, STAFF_ROLES } from '../../../domain/src/identity/roles';

/**
 * Who sees what on the Bill-Hub screens (domain/src/identity/roles.ts; the API checks the same per route):
 * every staff role and the Auditor read invoices and memos of their company codes; commercial staff
 * acknowledge, verify and reject; accounts staff book, release, reject, revoke and record advances. The
 * invoice's own buttons follow the API's `allowedActions`, which already applies these roles and the status.
 */
const holds = (list: readonly string[]) => (roles: readonly string[] | undefined) =>
  (roles ?? []).some((r) => list.includes(r));

export const mayReadBillHub = holds([...STAFF_ROLES, AUDITOR_ROLE]);
export const mayRecordAdvance = holds(INVOICE_ACCOUNTS);
export const isInvoiceCommercial = holds(INVOICE_COMMERCIAL);
