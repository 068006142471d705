/**
 * The Bill-Hub wire shapes (issue 11 contract) as the portal reads them: the read models' rows where they exist
 * (type-only imports), the rest from the contract. Amounts are decimal strings ("12500.00"), dates YYYY-MM-DD,
 * instants ISO.
 */

import type { InvoiceHistoryEntry } from '../../../projections/src/invoices/history';
import type { InvoiceRow } from '../../../projections/src/invoices/invoices.queries';

// The read models' row types (type-only: no server code reaches the bundle).
export type { InvoiceAttachment, InvoiceRow, InvoiceStatus } from '../../../projections/src/invoices/invoices.queries';
export type { MemoAdvance, MemoDetail, MemoRow } from '../../../projections/src/memos/memos.queries';
export type HistoryEntry = InvoiceHistoryEntry;

/** What the BA enters: the body of POST/PUT /api/invoices and of submit. */
export type InvoiceFields = {
  invoiceNumber: string;
  invoiceDate: string;
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  hsnCode: string;
  comments: string;
  submitToUserId: string;
  billingFromCode: string;
  billingToCode: string;
};

/** GET /api/invoices/:id. */
export type InvoiceDetail = InvoiceRow & { history: HistoryEntry[]; allowedActions: string[] };

export type FormOptions = {
  billingFrom: { code: string; companyCode: string; stateId: number; stateName: string }[];
  billingTo: { code: string; name: string; stateId: number; stateName: string }[];
  commercialUsers: { userId: string; name: string; companyCodes: string[] }[];
  /** Not in the contract: taken when the API sends it (Bill-Hub-only users cannot read the masters routes). */
  hsnCodes?: HsnOption[];
};

export type HsnOption = { hsnCode: string; description: string };

/** GET /api/invoices filter (react-admin simple-rest). */
export type InvoiceFilter = {
  status?: InvoiceRow['status'] | InvoiceRow['status'][];
  q?: string;
  fromStateId?: number;
  toStateId?: number;
  memoCandidates?: boolean;
};
