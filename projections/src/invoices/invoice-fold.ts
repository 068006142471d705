import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Column } from '../sql';
import type { InvoiceAttachmentData, InvoiceEventData, InvoiceRecordData, InvoiceStatus } from './invoice-events';

/** One `invoices` row as the projection writes it (amounts as decimal text, times as ISO text). */
export type InvoiceDbRow = {
  id: string;
  ba_id: string;
  company_code: string | null;
  status: InvoiceStatus;
  invoice_number: string;
  invoice_date: string | null;
  financial_year: string | null;
  taxable_amount: string | null;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  total_amount: string;
  net_payable: string;
  hsn_code: string;
  comments: string;
  submit_to_user_id: string | null;
  submit_to_name: string | null;
  billing_from_code: string | null;
  from_state_id: number | null;
  billing_to_code: string | null;
  billing_to_name: string | null;
  to_state_id: number | null;
  attachments: InvoiceAttachmentData[];
  memo_id: string | null;
  memo_number: string | null;
  remarks: string | null;
  erp_document_number: string | null;
  booking: boolean;
  last_erp_error: string | null;
  sla_breached: boolean;
  status_since: string;
  submitted_at: string | null;
  released_at: string | null;
  created_at: string;
  updated_at: string;
  stream_version: number;
  global_position: number;
};

export const INVOICE_COLUMNS = [
  { name: 'id', type: 'text' },
  { name: 'ba_id', type: 'text' },
  { name: 'company_code', type: 'text' },
  { name: 'status', type: 'text' },
  { name: 'invoice_number', type: 'text' },
  { name: 'invoice_date', type: 'text' },
  { name: 'financial_year', type: 'text' },
  { name: 'taxable_amount', type: 'numeric' },
  { name: 'cgst', type: 'numeric' },
  { name: 'sgst', type: 'numeric' },
  { name: 'igst', type: 'numeric' },
  { name: 'td', type: 'numeric' },
  { name: 'total_amount', type: 'numeric' },
  { name: 'net_payable', type: 'numeric' },
  { name: 'hsn_code', type: 'text' },
  { name: 'comments', type: 'text' },
  { name: 'submit_to_user_id', type: 'text' },
  { name: 'submit_to_name', type: 'text' },
  { name: 'billing_from_code', type: 'text' },
  { name: 'from_state_id', type: 'integer' },
  { name: 'billing_to_code', type: 'text' },
  { name: 'billing_to_name', type: 'text' },
  { name: 'to_state_id', type: 'integer' },
  { name: 'attachments', type: 'jsonb' },
  { name: 'memo_id', type: 'text' },
  { name: 'memo_number', type: 'text' },
  { name: 'remarks', type: 'text' },
  { name: 'erp_document_number', type: 'text' },
  { name: 'booking', type: 'boolean' },
  { name: 'last_erp_error', type: 'text' },
  { name: 'sla_breached', type: 'boolean' },
  { name: 'status_since', type: 'timestamptz' },
  { name: 'submitted_at', type: 'timestamptz' },
  { name: 'released_at', type: 'timestamptz' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
  { name: 'stream_version', type: 'integer' },
  { name: 'global_position', type: 'bigint' },
] as const satisfies readonly Column<InvoiceDbRow>[];

const AMOUNT = /^(\d{1,13})(?:\.(\d{1,2}))?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A draft may hold gaps (contract): an empty or malformed amount is absent, never a guess. */
export function paiseOf(v: unknown): bigint | null {
  if (typeof v !== 'string') return null;
  const m = AMOUNT.exec(v.trim());
  if (!m) return null;
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? '0').padEnd(2, '0'));
}

/** Paise as the decimal text numeric(16,2) holds: 1180000n → "11800.00". */
export function decimalOf(paise: bigint): string {
  const negative = paise < 0n;
  const abs = negative ? -paise : paise;
  return `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** The columns an InvoiceRecord sets. Totals in exact integer paise: total = taxable + taxes, net = total − TD. */
function withFields(row: InvoiceDbRow, f: InvoiceRecordData, companyCode: string | null): InvoiceDbRow {
  const taxable = paiseOf(f.taxableAmount);
  const [cgst, sgst, igst, td] = [f.cgst, f.sgst, f.igst, f.td].map((v) => paiseOf(v) ?? 0n) as [bigint, bigint, bigint, bigint];
  const total = (taxable ?? 0n) + cgst + sgst + igst;
  return {
    ...row,
    invoice_number: text(f.invoiceNumber).trim(),
    invoice_date: typeof f.invoiceDate === 'string' && DATE.test(f.invoiceDate) ? f.invoiceDate : null,
    financial_year: textOrNull(f.financialYear),
    taxable_amount: taxable === null ? null : decimalOf(taxable),
    cgst: decimalOf(cgst),
    sgst: decimalOf(sgst),
    igst: decimalOf(igst),
    td: decimalOf(td),
    total_amount: decimalOf(total),
    net_payable: decimalOf(total - td),
    hsn_code: text(f.hsnCode),
    comments: text(f.comments),
    submit_to_user_id: textOrNull(f.submitToUserId),
    submit_to_name: textOrNull(f.submitToName),
    billing_from_code: textOrNull(f.billingFromCode),
    from_state_id: intOrNull(f.fromStateId),
    billing_to_code: textOrNull(f.billingToCode),
    billing_to_name: textOrNull(f.billingToName),
    to_state_id: intOrNull(f.toStateId),
    company_code: companyCode ?? textOrNull(f.companyCode) ?? row.company_code,
  };
}

function emptyRow(id: string, baId: string, at: string): InvoiceDbRow {
  return {
    id,
    ba_id: baId,
    company_code: null,
    status: 'draft',
    invoice_number: '',
    invoice_date: null,
    financial_year: null,
    taxable_amount: null,
    cgst: '0.00',
    sgst: '0.00',
    igst: '0.00',
    td: '0.00',
    total_amount: '0.00',
    net_payable: '0.00',
    hsn_code: '',
    comments: '',
    submit_to_user_id: null,
    submit_to_name: null,
    billing_from_code: null,
    from_state_id: null,
    billing_to_code: null,
    billing_to_name: null,
    to_state_id: null,
    attachments: [],
    memo_id: null,
    memo_number: null,
    remarks: null,
    erp_document_number: null,
    booking: false,
    last_erp_error: null,
    sla_breached: false,
    status_since: at,
    submitted_at: null,
    released_at: null,
    created_at: at,
    updated_at: at,
    stream_version: -1,
    global_position: 0,
  };
}

/**
 * The row after one event of the invoice's stream; `row` is null before InvoiceDrafted. Returns `row` itself
 * (same object) when the event changes nothing: an event at or below the row's version (a page applied again),
 * or one the read model does not show.
 */
export function foldInvoice(row: InvoiceDbRow | null, stored: StoredEvent): InvoiceDbRow | null {
  const event = { type: stored.type, data: stored.data } as InvoiceEventData;
  const at = stored.metadata.at;
  if (row && stored.version <= row.stream_version) return row;
  if (!row && event.type !== 'InvoiceDrafted') return row;
  const moved = (next: InvoiceDbRow): InvoiceDbRow => ({ ...next, updated_at: at, stream_version: stored.version, global_position: stored.globalPosition });
  /** A new status: the SLA clock and its flag start again. */
  const toStatus = (r: InvoiceDbRow, status: InvoiceStatus): InvoiceDbRow => ({ ...r, status, status_since: at, sla_breached: false });
  switch (event.type) {
    case 'InvoiceDrafted': {
      if (row) return row;
      const d = event.data;
      return moved(withFields(emptyRow(d.invoiceId, d.baId, at), d.fields, d.companyCode));
    }
    case 'InvoiceDraftSaved':
      return moved(withFields(row!, event.data.fields, event.data.companyCode));
    case 'InvoiceDiscarded':
      return moved(toStatus(row!, 'discarded'));
    case 'InvoiceAttachmentAdded': {
      const a = event.data.attachment;
      return moved({ ...row!, attachments: [...row!.attachments, { attachmentId: a.attachmentId, name: a.name, size: a.size, type: a.type, sha256: a.sha256 }] });
    }
    case 'InvoiceAttachmentRemoved':
      return moved({ ...row!, attachments: row!.attachments.filter((a) => a.attachmentId !== event.data.attachmentId) });
    case 'InvoiceSubmitted':
      return moved({ ...toStatus(withFields(row!, event.data.fields, event.data.companyCode), 'S'), submitted_at: at });
    case 'InvoiceAcknowledged':
      return moved(toStatus(row!, 'A'));
    case 'InvoiceVerified':
      return moved(toStatus(row!, 'V'));
    case 'InvoiceBookingRequested':
    case 'InvoiceErpRequestSubmitted':
      return moved({ ...row!, booking: true });
    case 'InvoiceErpCallFailed':
      return moved({ ...row!, booking: true, last_erp_error: event.data.error });
    case 'InvoiceErpRefused':
      // Stays Verified: accounts may correct the cause in the ERP and book again.
      return moved({ ...row!, booking: false, last_erp_error: event.data.message });
    case 'InvoiceBooked':
      return moved({ ...toStatus(row!, 'B'), booking: false, last_erp_error: null, erp_document_number: event.data.erpDocumentNumber });
    case 'InvoiceReleased':
      return moved({ ...toStatus(row!, 'P'), released_at: at });
    case 'InvoiceRejected':
      return moved({ ...toStatus(row!, 'C'), remarks: event.data.remarks, booking: false });
    case 'InvoiceRevoked':
      return moved({ ...toStatus(row!, 'R'), remarks: event.data.remarks ?? null, booking: false });
    case 'InvoiceSlaBreached':
      // Only while the invoice is still in the status the timer watched (a late event of an older status is moot).
      return moved({ ...row!, sla_breached: row!.sla_breached || row!.status === event.data.status });
    default:
      return row;
  }
}
