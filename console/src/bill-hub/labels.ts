import type { StatusColour } from '../../../domain/src/rfp/model';
import { STATUS_COLOUR_CHIPS } from '../rfp/labels';
import type { InvoiceStatus } from './types';

/** The contract's status labels (spec 001 §3 status codes S, A, V, B, P, C, R): the domain's, as the API sends. */
export { INVOICE_STATUS_LABELS } from '../../../domain/src/invoices/events';

/**
 * Spec 001 §3 names five status colours "for RFP and BA items"; which invoice status wears which is ours:
 * the staff steps still open (verified, booked) are "in progress", revoked ends like rejected.
 */
export const INVOICE_STATUS_COLOURS: Record<InvoiceStatus, StatusColour> = {
  draft: 'inProgress',
  S: 'submitted',
  A: 'acknowledged',
  V: 'inProgress',
  B: 'inProgress',
  P: 'released',
  C: 'rejected',
  R: 'rejected',
  discarded: 'rejected',
};

export const invoiceChipColour = (status: InvoiceStatus) => STATUS_COLOUR_CHIPS[INVOICE_STATUS_COLOURS[status]];

/** The list's tabs, in the brief's order; staff never see drafts or discarded invoices. */
export const INVOICE_TABS: { key: string; label: string; status: InvoiceStatus | null }[] = [
  { key: 'S', label: 'Submitted', status: 'S' },
  { key: 'A', label: 'Acknowledged', status: 'A' },
  { key: 'V', label: 'Verified', status: 'V' },
  { key: 'B', label: 'Booked', status: 'B' },
  { key: 'P', label: 'Released', status: 'P' },
  { key: 'C', label: 'Rejected', status: 'C' },
  { key: 'R', label: 'Revoked', status: 'R' },
  { key: 'all', label: 'All', status: null },
];

/** The memo's PDF name (contract: "Memo-<number with / as ->.pdf"), the fallback when the API sends none. */
export const memoPdfName = (memoNumber: string) => `Memo-${memoNumber.replace(/\//g, '-')}.pdf`;

/** The staff actions an invoice can offer (the API's allowedActions), in the order of the workflow. */
export const STAFF_ACTIONS = ['acknowledge', 'verify', 'book', 'release', 'reject', 'revoke'] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];

export const ACTION_LABELS: Record<StaffAction, string> = {
  acknowledge: 'Acknowledge',
  verify: 'Verify',
  book: 'Book',
  release: 'Release',
  reject: 'Reject',
  revoke: 'Revoke',
};

/** The API's messages (contract); shown when an answer carries none. */
export const ACTION_MESSAGES: Record<StaffAction, string> = {
  acknowledge: 'Invoice acknowledged',
  verify: 'Invoice verified',
  book: 'Invoice booked',
  release: 'Invoice released',
  reject: 'Invoice rejected',
  revoke: 'Invoice revoked',
};

export const BILL_HUB_TEXTS = {
  bookingRequested: 'Booking requested; waiting for ERP',
  waitingForErp: 'Waiting for the ERP to book this invoice.',
  remarksRequired: 'Remarks are required',
  advanceRecorded: 'Advance payment recorded',
  amountInvalid: 'Please enter a valid amount',
  amountZero: 'Amount must be greater than zero',
  referenceRequired: 'Reference is required',
  paidOnRequired: 'Paid on date is required',
  noInvoices: 'No invoices found',
  noMemos: 'No memos found',
} as const;

/** A state by name, else its id, else "NA" (the read model names the GST states it knows). */
export const stateText = (name: string | null, id: number | null): string => name ?? (id === null ? 'NA' : String(id));
