import { stateNameOf } from '../../../domain/src/masters/reference-data/states';
import type { StoredFile } from '../../../domain/src/shared/files';
import { clampRange, likeEscape, sortOrder, type Db, type Range } from '../sql';
import { INVOICE_STATUS_LABELS, type InvoiceStatus } from './invoice-events';

export type { InvoiceStatus } from './invoice-events';

export type InvoiceAttachment = { attachmentId: string; name: string; size: number; type: string };

/** An invoice as both front ends list and show it (issue 11 contract, `InvoiceRow`). Amounts are decimal strings. */
export type InvoiceRow = {
  id: string;
  baId: string;
  baName: string | null;
  /** The BA's parent vendor code in the invoice's company code, if it has one. */
  baCode: string | null;
  companyCode: string | null;
  status: InvoiceStatus;
  statusLabel: string;
  invoiceNumber: string;
  invoiceDate: string | null;
  financialYear: string | null;
  /** '' while a draft has none. */
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  totalAmount: string;
  netPayable: string;
  hsnCode: string;
  comments: string;
  submitToUserId: string | null;
  submitToName: string | null;
  billingFromCode: string | null;
  fromStateId: number | null;
  fromStateName: string | null;
  billingToCode: string | null;
  billingToName: string | null;
  toStateId: number | null;
  toStateName: string | null;
  attachments: InvoiceAttachment[];
  memoId: string | null;
  memoNumber: string | null;
  /** The last rejection's or revocation's remarks. */
  remarks: string | null;
  erpDocumentNumber: string | null;
  /** Booking asked and the ERP has not answered yet (status stays V). */
  booking: boolean;
  lastErpError: string | null;
  /** The SLA of the current status has passed. */
  slaBreached: boolean;
  statusSince: string;
  submittedAt: string | null;
  releasedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** The row plus what only the server needs: the stored files (their sha256 names the blob). */
export type InvoiceRecord = InvoiceRow & { files: (StoredFile & { attachmentId: string })[] };

/** Whose invoices a query may return: a BA's own (drafts included) or the staff's company codes (never drafts). */
export type InvoiceScope = { baId: string } | { companyCodes: readonly string[] };

export type InvoiceListFilter = {
  status?: InvoiceStatus | InvoiceStatus[];
  /** Invoice number contains (case-insensitive). */
  q?: string;
  baId?: string;
  companyCode?: string;
  fromStateId?: number;
  toStateId?: number;
  /** Invoice date range, YYYY-MM-DD, inclusive. */
  dateFrom?: string;
  dateTo?: string;
  memoId?: string;
  /** true: invoices a memo may take (S, A or V and in no memo). */
  memoCandidates?: boolean;
  slaBreached?: boolean;
};

export const INVOICE_SORT_FIELDS = ['invoiceDate', 'submittedAt', 'updatedAt', 'invoiceNumber', 'totalAmount', 'status'] as const;
export type InvoiceSortField = (typeof INVOICE_SORT_FIELDS)[number];
const SORT_COLUMNS: Record<InvoiceSortField, string> = {
  invoiceDate: 'i.invoice_date',
  submittedAt: 'i.submitted_at',
  updatedAt: 'i.updated_at',
  invoiceNumber: 'i.number_key',
  totalAmount: 'i.total_amount',
  status: 'i.status',
};

/** Staff never see an invoice before it is submitted, nor a discarded draft. */
const STAFF_HIDDEN: readonly InvoiceStatus[] = ['draft', 'discarded'];
const MEMO_STATUSES: readonly InvoiceStatus[] = ['S', 'A', 'V'];

const stateName = stateNameOf;

const isoOf = (column: string, alias: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${alias}`;
const money = (column: string) => `${column}::text AS ${column.replace(/^i\./, '')}`;

const COLUMNS = `i.id, i.ba_id, ba.company_name AS ba_name,
  (SELECT vc.parent_code FROM vendor_codes vc WHERE vc.ba_id = i.ba_id AND vc.company_code = i.company_code AND vc.parent_code IS NOT NULL
    ORDER BY vc.id LIMIT 1) AS ba_code,
  i.company_code, i.status, i.invoice_number, i.invoice_date, i.financial_year, ${money('i.taxable_amount')}, ${money('i.cgst')},
  ${money('i.sgst')}, ${money('i.igst')}, ${money('i.td')}, ${money('i.total_amount')}, ${money('i.net_payable')}, i.hsn_code, i.comments,
  i.submit_to_user_id, i.submit_to_name, i.billing_from_code, i.from_state_id, i.billing_to_code, i.billing_to_name, i.to_state_id,
  i.attachments, i.memo_id, i.memo_number, i.remarks, i.erp_document_number, i.booking, i.last_erp_error, i.sla_breached,
  ${isoOf('i.status_since', 'status_since')}, ${isoOf('i.submitted_at', 'submitted_at')}, ${isoOf('i.released_at', 'released_at')},
  ${isoOf('i.created_at', 'created_at')}, ${isoOf('i.updated_at', 'updated_at')}`;
const FROM = 'invoices i LEFT JOIN business_associates ba ON ba.id = i.ba_id';

type DbRow = {
  id: string;
  ba_id: string;
  ba_name: string | null;
  ba_code: string | null;
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
  attachments: (StoredFile & { attachmentId: string })[];
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
};

const toRecord = (r: DbRow): InvoiceRecord => ({
  id: r.id,
  baId: r.ba_id,
  baName: r.ba_name,
  baCode: r.ba_code,
  companyCode: r.company_code,
  status: r.status,
  statusLabel: INVOICE_STATUS_LABELS[r.status] ?? r.status,
  invoiceNumber: r.invoice_number,
  invoiceDate: r.invoice_date,
  financialYear: r.financial_year,
  taxableAmount: r.taxable_amount ?? '',
  cgst: r.cgst,
  sgst: r.sgst,
  igst: r.igst,
  td: r.td,
  totalAmount: r.total_amount,
  netPayable: r.net_payable,
  hsnCode: r.hsn_code,
  comments: r.comments,
  submitToUserId: r.submit_to_user_id,
  submitToName: r.submit_to_name,
  billingFromCode: r.billing_from_code,
  fromStateId: r.from_state_id,
  fromStateName: stateName(r.from_state_id),
  billingToCode: r.billing_to_code,
  billingToName: r.billing_to_name,
  toStateId: r.to_state_id,
  toStateName: stateName(r.to_state_id),
  attachments: r.attachments.map((a) => ({ attachmentId: a.attachmentId, name: a.name, size: a.size, type: a.type })),
  files: r.attachments,
  memoId: r.memo_id,
  memoNumber: r.memo_number,
  remarks: r.remarks,
  erpDocumentNumber: r.erp_document_number,
  booking: r.booking,
  lastErpError: r.last_erp_error,
  slaBreached: r.sla_breached,
  statusSince: r.status_since,
  submittedAt: r.submitted_at,
  releasedAt: r.released_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toInvoiceRow = (record: InvoiceRecord): InvoiceRow => {
  const { files: _files, ...row } = record;
  return row;
};

/** WHERE conditions of a scope and filter, with their parameters appended through `param`. */
function conditions(scope: InvoiceScope, f: InvoiceListFilter, param: (v: unknown) => string): string[] {
  const where: string[] = [];
  const statuses = f.status === undefined ? null : Array.isArray(f.status) ? f.status : [f.status];
  if ('baId' in scope) {
    where.push(`i.ba_id = ${param(scope.baId)}`);
    // A discarded draft is gone for the BA too, unless it asks for that tab.
    if (!statuses?.includes('discarded')) where.push(`i.status <> 'discarded'`);
  } else {
    where.push(`i.company_code = ANY(${param([...scope.companyCodes])}::text[])`);
    where.push(`i.status <> ALL(${param([...STAFF_HIDDEN])}::text[])`);
  }
  if (statuses) where.push(statuses.length === 1 ? `i.status = ${param(statuses[0])}` : `i.status = ANY(${param(statuses)}::text[])`);
  if (f.q) where.push(`i.number_key LIKE ${param(`%${likeEscape(f.q.trim().toLowerCase())}%`)}`);
  if (f.baId) where.push(`i.ba_id = ${param(f.baId)}`);
  if (f.companyCode) where.push(`i.company_code = ${param(f.companyCode)}`);
  if (f.fromStateId !== undefined) where.push(`i.from_state_id = ${param(f.fromStateId)}`);
  if (f.toStateId !== undefined) where.push(`i.to_state_id = ${param(f.toStateId)}`);
  if (f.dateFrom) where.push(`i.invoice_date >= ${param(f.dateFrom)}`);
  if (f.dateTo) where.push(`i.invoice_date <= ${param(f.dateTo)}`);
  if (f.memoId) where.push(`i.memo_id = ${param(f.memoId)}`);
  if (f.memoCandidates === true) where.push(`i.memo_id IS NULL AND i.status = ANY(${param([...MEMO_STATUSES])}::text[])`);
  if (f.memoCandidates === false) where.push(`NOT (i.memo_id IS NULL AND i.status = ANY(${param([...MEMO_STATUSES])}::text[]))`);
  if (f.slaBreached !== undefined) where.push(`i.sla_breached = ${param(f.slaBreached)}`);
  return where;
}

/** One page of invoices within the scope; newest invoice date first by default. */
export async function listInvoices(
  db: Db,
  query: { scope: InvoiceScope; filter?: InvoiceListFilter; sort?: { field: string; order: string }; range?: Partial<Range> },
): Promise<{ rows: InvoiceRow[]; total: number }> {
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = conditions(query.scope, query.filter ?? {}, param);
  const whereSql = `WHERE ${where.join(' AND ')}`;
  const column = (query.sort && SORT_COLUMNS[query.sort.field as InvoiceSortField]) ?? 'i.invoice_date';
  const order = query.sort ? sortOrder(query.sort.order) : 'DESC';
  const range = clampRange(query.range);
  // The page's ids first, sorting only the key and the id (narrow rows: a deep page sorts in memory, and the
  // default order walks the (invoice_date, id) index); the wide columns and joins only for the page's rows.
  // PostgreSQL's default null order (last ascending, first descending) matches that index: a BA's drafts with no
  // date yet come first in the default newest-first list.
  // The exact total in the same statement (one round trip; the lateral join keeps it when the page is empty):
  // summed from invoice_status_counts when only company codes and statuses filter (the tabs), else counted
  // (a number search through its trigram index, a handful of rows).
  const byCounts = countable(query.scope, query.filter ?? {});
  const totalSql = `SELECT ${byCounts ? 'coalesce(sum(i.count), 0)' : 'count(*)'} AS total
    FROM ${byCounts ? 'invoice_status_counts' : 'invoices'} i ${whereSql}`;
  const { rows } = await db.query<DbRow & { __total: string }>(
    `SELECT t.total AS __total, w.* FROM (${totalSql}) t
     LEFT JOIN LATERAL (
       SELECT ${COLUMNS}, p.sort_key
       FROM (SELECT i.id, ${column} AS sort_key FROM invoices i ${whereSql}
             ORDER BY ${column} ${order}, i.id ${order} LIMIT ${param(range.limit)} OFFSET ${param(range.offset)}) p
       JOIN invoices i ON i.id = p.id
       LEFT JOIN business_associates ba ON ba.id = i.ba_id
     ) w ON true
     ORDER BY w.sort_key ${order}, w.id ${order}`,
    params,
  );
  return { rows: rows.filter((r) => r.id !== null).map((r) => toInvoiceRow(toRecord(r))), total: Number(rows[0]?.__total ?? 0) };
}

/**
 * Whether invoice_status_counts answers the total: a staff scope filtered by nothing but company code and status
 * (the conditions then name only `i.company_code` and `i.status`, which that table has under the same alias).
 */
function countable(scope: InvoiceScope, filter: InvoiceListFilter): boolean {
  if (!('companyCodes' in scope) || scope.companyCodes.includes('')) return false;
  return Object.entries(filter).every(([key, value]) => value === undefined || key === 'status' || key === 'companyCode');
}

/** One invoice whatever its scope (the API decides who may see it), with its stored files. */
export async function getInvoice(db: Db, id: string): Promise<InvoiceRecord | null> {
  const { rows } = await db.query<DbRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE i.id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The invoices of a memo (GET /api/memos/:id), in invoice-date order, then by number (a stable print). */
export async function invoicesOfMemo(db: Db, memoId: string): Promise<InvoiceRow[]> {
  const { rows } = await db.query<DbRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE i.memo_id = $1 ORDER BY i.invoice_date, i.invoice_number, i.id`, [memoId]);
  return rows.map((r) => toInvoiceRow(toRecord(r)));
}

/** Count of a BA's invoices by status (drafts included, discarded left out): the BA home's summary. */
export async function invoiceCountsByStatus(db: Db, baId: string): Promise<Partial<Record<InvoiceStatus, number>>> {
  const { rows } = await db.query<{ status: InvoiceStatus; n: string }>(
    `SELECT status, count(*) AS n FROM invoices WHERE ba_id = $1 AND status <> 'discarded' GROUP BY status`,
    [baId],
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
