import { evolveInvoice, initialInvoiceState, type InvoiceState } from '../invoices/decide';
import { INVOICE_EVENT_TYPES, type InvoiceEvent, type InvoiceRecord } from '../invoices/events';
import type { DomainEvent } from '../shared/events';

/**
 * What a memo needs to know of one invoice, folded from the invoice's own stream `invoice-<id>` (strongly
 * consistent, unlike the read model). The invoice decider's `evolveInvoice` does the folding, so the memo
 * follows the invoice's statuses by the invoice's own rule; this module only keeps the few facts a memo reads,
 * read leniently (a missing amount is "0") because the memo adds them up.
 */
export type MemoInvoiceStatus = InvoiceState['status'];

export type MemoInvoiceView = {
  invoiceId: string;
  baId: string | null;
  companyCode: string | null;
  status: MemoInvoiceStatus;
  invoiceNumber: string;
  fromStateId: number | null;
  toStateId: number | null;
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
};

export const emptyInvoiceView = (invoiceId: string): MemoInvoiceView => ({
  invoiceId,
  baId: null,
  companyCode: null,
  status: 'none',
  invoiceNumber: '',
  fromStateId: null,
  toStateId: null,
  taxableAmount: '0',
  cgst: '0',
  sgst: '0',
  igst: '0',
  td: '0',
});

const INVOICE_EVENTS: ReadonlySet<string> = new Set(INVOICE_EVENT_TYPES);
const isInvoiceEvent = (event: DomainEvent): event is InvoiceEvent => INVOICE_EVENTS.has(event.type);
/** The events that carry the invoice's record (its fields); every other event leaves the view's facts alone. */
const RECORD_EVENTS: ReadonlySet<string> = new Set<InvoiceEvent['type']>(['InvoiceDrafted', 'InvoiceDraftSaved', 'InvoiceSubmitted']);

/** The invoice state a view stands for: enough of it for `evolveInvoice` to take the next event. */
const stateOf = (view: MemoInvoiceView): InvoiceState => ({
  ...initialInvoiceState,
  status: view.status,
  invoiceId: view.invoiceId,
  baId: view.baId,
  companyCode: view.companyCode,
});

/** The record's facts a memo reads, as the draft, a saved draft or a submission left them. */
const withRecord = (view: MemoInvoiceView, record: Partial<InvoiceRecord> | null | undefined, companyCode: unknown): MemoInvoiceView => {
  const f = record ?? {};
  return {
    ...view,
    companyCode: typeof companyCode === 'string' ? companyCode : (f.companyCode ?? view.companyCode),
    invoiceNumber: f.invoiceNumber ?? view.invoiceNumber,
    fromStateId: f.fromStateId ?? null,
    toStateId: f.toStateId ?? null,
    taxableAmount: f.taxableAmount || '0',
    cgst: f.cgst || '0',
    sgst: f.sgst || '0',
    igst: f.igst || '0',
    td: f.td || '0',
  };
};

/** One invoice event applied; events that are not the invoice's leave the view as it is. */
export function evolveInvoiceView(view: MemoInvoiceView, event: DomainEvent): MemoInvoiceView {
  if (!isInvoiceEvent(event)) return view;
  // A stored event always has data; an event built by hand without it must not break the fold.
  const after = evolveInvoice(stateOf(view), { ...event, data: event.data ?? {} } as InvoiceEvent);
  const facts = RECORD_EVENTS.has(event.type) ? withRecord(view, after.record, after.companyCode) : view;
  return { ...facts, status: after.status, baId: typeof after.baId === 'string' ? after.baId : view.baId };
}

export const foldInvoiceView = (invoiceId: string, events: readonly DomainEvent[]): MemoInvoiceView =>
  events.reduce(evolveInvoiceView, emptyInvoiceView(invoiceId));
