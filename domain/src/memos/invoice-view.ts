import type { DomainEvent } from '../shared/events';

/**
 * What a memo needs to know of one invoice, folded from the invoice's own stream `invoice-<id>` (strongly
 * consistent, unlike the read model). Written against the contract's wire events (issue 11 "Streams and
 * events") rather than the invoice decider's internal state, so the two capabilities only share the events.
 */
export type MemoInvoiceStatus = 'none' | 'draft' | 'S' | 'A' | 'V' | 'B' | 'P' | 'C' | 'R' | 'discarded';

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

type RecordFields = Partial<{
  invoiceNumber: string;
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  companyCode: string | null;
  fromStateId: number | null;
  toStateId: number | null;
}>;

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

const withFields = (view: MemoInvoiceView, fields: RecordFields | undefined, companyCode: unknown): MemoInvoiceView => {
  const f = fields ?? {};
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

/** One invoice event applied; events this view does not need leave it as it is. */
export function evolveInvoiceView(view: MemoInvoiceView, event: DomainEvent): MemoInvoiceView {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const baId = typeof data['baId'] === 'string' ? data['baId'] : view.baId;
  const fields = data['fields'] as RecordFields | undefined;
  switch (event.type) {
    case 'InvoiceDrafted':
      return { ...withFields(view, fields, data['companyCode']), baId, status: 'draft' };
    case 'InvoiceDraftSaved':
      return { ...withFields(view, fields, data['companyCode']), baId };
    case 'InvoiceSubmitted':
      return { ...withFields(view, fields, data['companyCode']), baId, status: 'S' };
    case 'InvoiceDiscarded':
      return { ...view, status: 'discarded' };
    case 'InvoiceAcknowledged':
      return { ...view, status: 'A' };
    case 'InvoiceVerified':
      return { ...view, status: 'V' };
    case 'InvoiceBooked':
      return { ...view, status: 'B' };
    case 'InvoiceReleased':
      return { ...view, status: 'P' };
    case 'InvoiceRejected':
      return { ...view, status: 'C' };
    case 'InvoiceRevoked':
      return { ...view, status: 'R' };
    default:
      return view;
  }
}

export const foldInvoiceView = (invoiceId: string, events: readonly DomainEvent[]): MemoInvoiceView =>
  events.reduce(evolveInvoiceView, emptyInvoiceView(invoiceId));
