/**
 * The Bill-Hub rows as the API sends them: the contract's types (type-only imports, nothing of the server reaches
 * the bundle). Amounts are decimal strings ("12500.00").
 */
import type { InvoiceHistoryEntry, InvoiceRow } from '../../../api/src/contract';

export type { InvoiceAttachment, InvoiceHistoryEntry, InvoiceRow, InvoiceStatus, MemoAdvance, MemoDetail, MemoRow } from '../../../api/src/contract';
export { INVOICE_STATUSES } from '../../../domain/src/invoices/events';

/** GET /api/invoices/:id: the row, its stream's history and what the caller may do now. */
export type InvoiceDetail = InvoiceRow & { history: InvoiceHistoryEntry[]; allowedActions: string[] };
