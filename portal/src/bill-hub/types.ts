/**
 * The Bill-Hub wire shapes (issue 11 contract) as the portal reads them: the read models' rows where they exist
 * (type-only imports), the rest from the contract. Amounts are decimal strings ("12500.00"), dates YYYY-MM-DD,
 * instants ISO.
 */

import type { InvoiceHistoryEntry, InvoiceRow } from '../../../api/src/contract';

// The contract's row types (type-only: no server code reaches the bundle).
export type { InvoiceAttachment, InvoiceRow, InvoiceStatus, MemoAdvance, MemoDetail, MemoRow } from '../../../api/src/contract';
export type { InvoiceFields } from '../../../domain/src/invoices/events';
export type HistoryEntry = InvoiceHistoryEntry;

/** GET /api/invoices/:id. */
export type InvoiceDetail = InvoiceRow & { history: HistoryEntry[]; allowedActions: string[] };

export type FormOptions = {
  billingFrom: { code: string; companyCode: string; stateId: number; stateName: string | null }[];
  billingTo: { code: string; name: string; stateId: number; stateName: string | null }[];
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
