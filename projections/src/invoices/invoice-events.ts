import type { MemoEvent, MemoTotals } from '../../../domain/src/memos/events';
import {
  INVOICE_NUMBER_STREAM_PREFIX,
  INVOICE_STREAM_PREFIX,
  type InvoiceAttachment,
  type InvoiceEvent,
  type InvoiceRecord,
} from '../../../domain/src/invoices/events';

/**
 * The invoice and memo events as the read side uses them: helper A's and B's domain types
 * (domain/src/invoices/events.ts, domain/src/memos/events.ts), named here once for the read models, plus the
 * stream tests the projections share (the reservation and memo side streams share the prefixes).
 */
export { INVOICE_NUMBER_STREAM_PREFIX, INVOICE_STATUSES, INVOICE_STATUS_LABELS, INVOICE_STREAM_PREFIX } from '../../../domain/src/invoices/events';
export type { InvoiceStatus } from '../../../domain/src/invoices/events';
export const MEMO_STREAM_PREFIX = 'memo-';
/** `memo-claims-<baId>` and `memo-seq-<companyCode>-<fy>` share the memo prefix and are not memos. */
const MEMO_SIDE_STREAMS = ['memo-claims-', 'memo-seq-'] as const;

export const isInvoiceStream = (streamId: string): boolean =>
  streamId.startsWith(INVOICE_STREAM_PREFIX) && !streamId.startsWith(INVOICE_NUMBER_STREAM_PREFIX);
export const isMemoStream = (streamId: string): boolean =>
  streamId.startsWith(MEMO_STREAM_PREFIX) && !MEMO_SIDE_STREAMS.some((p) => streamId.startsWith(p));

export type InvoiceRecordData = InvoiceRecord;
export type InvoiceAttachmentData = InvoiceAttachment;
export type InvoiceEventData = InvoiceEvent;
export type MemoTotalsData = MemoTotals;
export type MemoEventData = MemoEvent;
