import { STATES } from '../../../domain/src/masters/reference-data/states';
import { invoicesOfMemo, type InvoiceRow } from '../invoices/invoices.queries';
import { clampRange, likeEscape, sortOrder, type Db, type Range } from '../sql';

/** A memo as both front ends list it (issue 11 contract, `MemoRow`). Amounts are decimal strings. */
export type MemoRow = {
  id: string;
  memoNumber: string;
  baId: string;
  baName: string | null;
  companyCode: string;
  financialYear: string;
  fromStateId: number | null;
  fromStateName: string | null;
  toStateId: number | null;
  toStateName: string | null;
  invoiceIds: string[];
  invoiceCount: number;
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  totalAmount: string;
  netPayable: string;
  /** Sum of the advances paid against the memo. */
  advanceAmount: string;
  /** netPayable − advanceAmount. */
  balance: string;
  comments: string | null;
  submittedAt: string;
  submittedBy: { userId: string; name: string | null };
};

export type MemoAdvance = {
  advanceId: string;
  amount: string;
  reference: string;
  paidOn: string;
  by: { userId: string; name: string | null; role: string };
  recordedAt: string;
};

export type MemoDetail = MemoRow & { invoices: InvoiceRow[]; advances: MemoAdvance[] };

export type MemoScope = { baId: string } | { companyCodes: readonly string[] };
export type MemoListFilter = { baId?: string; companyCode?: string; q?: string; fromStateId?: number; toStateId?: number };

export const MEMO_SORT_FIELDS = ['submittedAt', 'memoNumber', 'netPayable'] as const;
const SORT_COLUMNS: Record<(typeof MEMO_SORT_FIELDS)[number], string> = {
  submittedAt: 'm.submitted_at',
  memoNumber: 'm.memo_number',
  netPayable: 'm.net_payable',
};

const stateNames = new Map(STATES.map((s) => [s.id, s.name]));
const stateName = (id: number | null): string | null => (id === null ? null : (stateNames.get(id) ?? null));
const isoOf = (column: string, alias: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${alias}`;

const COLUMNS = `m.id, m.memo_number, m.ba_id, ba.company_name AS ba_name, m.company_code, m.financial_year, m.from_state_id, m.to_state_id,
  m.invoice_ids, m.taxable_amount::text AS taxable_amount, m.cgst::text AS cgst, m.sgst::text AS sgst, m.igst::text AS igst, m.td::text AS td,
  m.total_amount::text AS total_amount, m.net_payable::text AS net_payable, m.advance_amount::text AS advance_amount,
  (m.net_payable - m.advance_amount)::text AS balance, m.comments, ${isoOf('m.submitted_at', 'submitted_at')}, m.submitted_by`;
const FROM = 'memos m LEFT JOIN business_associates ba ON ba.id = m.ba_id';

type DbRow = {
  id: string;
  memo_number: string;
  ba_id: string;
  ba_name: string | null;
  company_code: string;
  financial_year: string;
  from_state_id: number | null;
  to_state_id: number | null;
  invoice_ids: string[];
  taxable_amount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  total_amount: string;
  net_payable: string;
  advance_amount: string;
  balance: string;
  comments: string | null;
  submitted_at: string;
  submitted_by: { userId: string; name?: string };
};

const toRow = (r: DbRow): MemoRow => ({
  id: r.id,
  memoNumber: r.memo_number,
  baId: r.ba_id,
  baName: r.ba_name,
  companyCode: r.company_code,
  financialYear: r.financial_year,
  fromStateId: r.from_state_id,
  fromStateName: stateName(r.from_state_id),
  toStateId: r.to_state_id,
  toStateName: stateName(r.to_state_id),
  invoiceIds: r.invoice_ids,
  invoiceCount: r.invoice_ids.length,
  taxableAmount: r.taxable_amount,
  cgst: r.cgst,
  sgst: r.sgst,
  igst: r.igst,
  td: r.td,
  totalAmount: r.total_amount,
  netPayable: r.net_payable,
  advanceAmount: r.advance_amount,
  balance: r.balance,
  comments: r.comments,
  submittedAt: r.submitted_at,
  submittedBy: { userId: r.submitted_by.userId, name: r.submitted_by.name ?? null },
});

/** One page of memos within the scope (a BA's own, or the staff's company codes), newest first by default. */
export async function listMemos(
  db: Db,
  query: { scope: MemoScope; filter?: MemoListFilter; sort?: { field: string; order: string }; range?: Partial<Range> },
): Promise<{ rows: MemoRow[]; total: number }> {
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  const { scope } = query;
  if ('baId' in scope) where.push(`m.ba_id = ${param(scope.baId)}`);
  else where.push(`m.company_code = ANY(${param([...scope.companyCodes])}::text[])`);
  const f = query.filter ?? {};
  if (f.baId) where.push(`m.ba_id = ${param(f.baId)}`);
  if (f.companyCode) where.push(`m.company_code = ${param(f.companyCode)}`);
  if (f.q) where.push(`lower(m.memo_number) LIKE ${param(`%${likeEscape(f.q.trim().toLowerCase())}%`)}`);
  if (f.fromStateId !== undefined) where.push(`m.from_state_id = ${param(f.fromStateId)}`);
  if (f.toStateId !== undefined) where.push(`m.to_state_id = ${param(f.toStateId)}`);
  const whereSql = `WHERE ${where.join(' AND ')}`;
  const column = (query.sort && SORT_COLUMNS[query.sort.field as keyof typeof SORT_COLUMNS]) ?? 'm.submitted_at';
  const order = query.sort ? sortOrder(query.sort.order) : 'DESC';
  const range = clampRange(query.range);
  const counted = params.length;
  const { rows } = await db.query<DbRow>(
    `SELECT ${COLUMNS} FROM ${FROM} ${whereSql} ORDER BY ${column} ${order}, m.id ${order} LIMIT ${param(range.limit)} OFFSET ${param(range.offset)}`,
    params,
  );
  const { rows: count } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM memos m ${whereSql}`, params.slice(0, counted));
  return { rows: rows.map(toRow), total: Number(count[0]?.n ?? 0) };
}

/** A memo with its invoices and advances (oldest advance first); null when unknown. */
export async function getMemo(db: Db, id: string): Promise<MemoDetail | null> {
  const { rows } = await db.query<DbRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE m.id = $1`, [id]);
  const row = rows[0];
  if (!row) return null;
  const [invoices, advances] = await Promise.all([invoicesOfMemo(db, id), advancesOf(db, id)]);
  return { ...toRow(row), invoices, advances };
}

export async function advancesOf(db: Db, memoId: string): Promise<MemoAdvance[]> {
  const { rows } = await db.query<{
    advance_id: string;
    amount: string;
    reference: string;
    paid_on: string;
    recorded_by: { userId: string; name?: string; role: string };
    recorded_at: string;
  }>(
    `SELECT advance_id, amount::text AS amount, reference, paid_on, recorded_by, ${isoOf('recorded_at', 'recorded_at')}
     FROM memo_advances WHERE memo_id = $1 ORDER BY global_position`,
    [memoId],
  );
  return rows.map((r) => ({
    advanceId: r.advance_id,
    amount: r.amount,
    reference: r.reference,
    paidOn: r.paid_on,
    by: { userId: r.recorded_by.userId, name: r.recorded_by.name ?? null, role: r.recorded_by.role },
    recordedAt: r.recorded_at,
  }));
}
