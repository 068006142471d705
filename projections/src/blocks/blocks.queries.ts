import type { StoredFile } from '../../../domain/src/shared/files';
import { clampRange, sortOrder, type Db, type Range } from '../sql';

export type BlockRowStatus = 'pending' | 'approved' | 'applied' | 'rejected' | 'refused' | 'ended';

/** A block or unblock request as the console lists it (GET /api/blocks, /api/blocks/:id). */
export type BlockRow = {
  id: string;
  action: 'block' | 'unblock';
  baId: string | null;
  /** The BA's company name (null for a nucleus vendor, known by PAN). */
  companyName: string | null;
  pan: string;
  scope: 'parent' | 'child';
  companyCode: string;
  vendorCode: string;
  reasonId: string;
  reason: string;
  comments: string;
  fileName: string | null;
  fileType: string | null;
  /** YYYY-MM-DD: a block ends at the start of this day (India); null = until unblocked. */
  endDate: string | null;
  /**
   * pending (waiting for a second person) → approved (going to the ERP) → applied; rejected by the approver;
   * refused by the ERP; ended (the end date came and the unblock is done).
   */
  status: BlockRowStatus;
  requestedBy: { userId: string; name: string | null; role: string };
  requestedAt: string;
  decidedBy: { userId: string; name: string | null; role: string } | null;
  decidedAt: string | null;
  remarks: string | null;
  /** Approved and not yet answered by the ERP (an outage or a slow ERP); `lastErpError` says why. */
  waitingForErp: boolean;
  lastErpError: string | null;
  /** The ERP's last word: "Successfully Blocked" / "Successfully Unblocked", or its refusal. */
  erpMessage: string | null;
  appliedAt: string | null;
  endedAt: string | null;
  updatedAt: string;
};

export type BlockRecord = BlockRow & { file: StoredFile | null };

export type BlockListFilter = {
  status?: BlockRowStatus;
  baId?: string;
  pan?: string;
  action?: 'block' | 'unblock';
};

export const BLOCK_SORT_FIELDS = ['requestedAt', 'updatedAt', 'status', 'vendorCode'] as const;
const SORT_COLUMNS: Record<(typeof BLOCK_SORT_FIELDS)[number], string> = {
  requestedAt: 'b.requested_at',
  updatedAt: 'b.updated_at',
  status: 'b.status',
  vendorCode: 'b.vendor_code',
};

const isoOf = (column: string, alias: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${alias}`;
const COLUMNS = `b.id, b.action, b.ba_id, ba.company_name, b.pan, b.level, b.company_code, b.vendor_code, b.reason_id, b.reason,
  b.comments, b.file, b.end_date, b.status, b.requested_by, ${isoOf('b.requested_at', 'requested_at')}, b.decided_by,
  ${isoOf('b.decided_at', 'decided_at')}, b.remarks, b.waiting_for_erp, b.last_erp_error, b.erp_message,
  ${isoOf('b.applied_at', 'applied_at')}, ${isoOf('b.ended_at', 'ended_at')}, ${isoOf('b.updated_at', 'updated_at')}`;
const FROM = 'blocks b LEFT JOIN business_associates ba ON ba.id = b.ba_id';

type Actor = { userId: string; name?: string; role: string };
type DbRow = {
  id: string;
  action: 'block' | 'unblock';
  ba_id: string | null;
  company_name: string | null;
  pan: string;
  level: 'parent' | 'child';
  company_code: string;
  vendor_code: string;
  reason_id: string;
  reason: string;
  comments: string;
  file: StoredFile | null;
  end_date: string | null;
  status: BlockRowStatus;
  requested_by: Actor;
  requested_at: string;
  decided_by: Actor | null;
  decided_at: string | null;
  remarks: string | null;
  waiting_for_erp: boolean;
  last_erp_error: string | null;
  erp_message: string | null;
  applied_at: string | null;
  ended_at: string | null;
  updated_at: string;
};

const person = (a: Actor) => ({ userId: a.userId, name: a.name ?? null, role: a.role });

const toRecord = (r: DbRow): BlockRecord => ({
  id: r.id,
  action: r.action,
  baId: r.ba_id,
  companyName: r.company_name,
  pan: r.pan,
  scope: r.level,
  companyCode: r.company_code,
  vendorCode: r.vendor_code,
  reasonId: r.reason_id,
  reason: r.reason,
  comments: r.comments,
  fileName: r.file?.name ?? null,
  fileType: r.file?.type ?? null,
  file: r.file,
  endDate: r.end_date,
  status: r.status,
  requestedBy: person(r.requested_by),
  requestedAt: r.requested_at,
  decidedBy: r.decided_by ? person(r.decided_by) : null,
  decidedAt: r.decided_at,
  remarks: r.remarks,
  waitingForErp: r.waiting_for_erp,
  lastErpError: r.last_erp_error,
  erpMessage: r.erp_message,
  appliedAt: r.applied_at,
  endedAt: r.ended_at,
  updatedAt: r.updated_at,
});

export const toBlockRow = (record: BlockRecord): BlockRow => {
  const { file: _file, ...row } = record;
  return row;
};

/** One page of requests within the caller's company codes ('all': not limited), newest first by default. */
export async function listBlocks(
  db: Db,
  query: { companyCodes: readonly string[] | 'all'; filter?: BlockListFilter; sort?: { field: string; order: string }; range?: Partial<Range> },
): Promise<{ rows: BlockRow[]; total: number }> {
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (query.companyCodes !== 'all') where.push(`b.company_code = ANY(${param([...query.companyCodes])}::text[])`);
  const f = query.filter ?? {};
  if (f.status) where.push(`b.status = ${param(f.status)}`);
  if (f.baId) where.push(`b.ba_id = ${param(f.baId)}`);
  if (f.pan) where.push(`b.pan = ${param(f.pan.toUpperCase())}`);
  if (f.action) where.push(`b.action = ${param(f.action)}`);
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const column = (query.sort && SORT_COLUMNS[query.sort.field as keyof typeof SORT_COLUMNS]) ?? 'b.requested_at';
  const order = query.sort && column !== 'b.requested_at' ? sortOrder(query.sort.order) : query.sort ? sortOrder(query.sort.order) : 'DESC';
  const range = clampRange(query.range);
  const { rows } = await db.query<DbRow & { __total: string }>(
    `SELECT count(*) OVER () AS __total, ${COLUMNS} FROM ${FROM} ${whereSql}
     ORDER BY ${column} ${order}, b.id ${order} LIMIT ${param(range.limit)} OFFSET ${param(range.offset)}`,
    params,
  );
  let total = Number(rows[0]?.__total ?? 0);
  if (rows.length === 0 && range.offset > 0) {
    const counted = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${FROM} ${whereSql}`, params.slice(0, params.length - 2));
    total = Number(counted.rows[0]?.n ?? 0);
  }
  return { rows: rows.map((r) => toBlockRow(toRecord(r))), total };
}

export async function getBlock(db: Db, id: string): Promise<BlockRecord | null> {
  const { rows } = await db.query<DbRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE b.id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** A vendor code's block state as the portal knows it (vendor_blocks). */
export type VendorBlockRow = {
  vendorCode: string;
  baId: string | null;
  pan: string;
  companyCode: string;
  level: 'parent' | 'child';
  blocked: boolean;
  since: string | null;
  blockedByRequest: string | null;
  pendingRequest: string | null;
};

export async function vendorBlocksOf(db: Db, target: { baId?: string; pan?: string; vendorCode?: string }): Promise<VendorBlockRow[]> {
  const { rows } = await db.query<{
    vendor_code: string;
    ba_id: string | null;
    pan: string;
    company_code: string;
    level: 'parent' | 'child';
    blocked: boolean;
    since: string | null;
    blocked_by_request: string | null;
    pending_request: string | null;
  }>(
    `SELECT vendor_code, ba_id, pan, company_code, level, blocked, ${isoOf('since', 'since')}, blocked_by_request, pending_request
     FROM vendor_blocks WHERE ($1::text IS NULL OR ba_id = $1) AND ($2::text IS NULL OR pan = $2) AND ($3::text IS NULL OR vendor_code = $3)
     ORDER BY vendor_code`,
    [target.baId ?? null, target.pan?.toUpperCase() ?? null, target.vendorCode ?? null],
  );
  return rows.map((r) => ({
    vendorCode: r.vendor_code,
    baId: r.ba_id,
    pan: r.pan,
    companyCode: r.company_code,
    level: r.level,
    blocked: r.blocked,
    since: r.since,
    blockedByRequest: r.blocked_by_request,
    pendingRequest: r.pending_request,
  }));
}

/**
 * Whether a BA (any of its vendor codes, parent or child, in any company code) or a vendor by PAN is blocked in
 * the ERP through the portal — for the RFP and Bill-Hub issues: a blocked vendor's users may not act there.
 */
export async function isVendorBlocked(db: Db, target: { baId: string } | { pan: string }): Promise<boolean> {
  const { rows } =
    'baId' in target
      ? await db.query<{ blocked: boolean }>('SELECT EXISTS (SELECT 1 FROM vendor_blocks WHERE ba_id = $1 AND blocked) AS blocked', [target.baId])
      : await db.query<{ blocked: boolean }>('SELECT EXISTS (SELECT 1 FROM vendor_blocks WHERE pan = $1 AND blocked) AS blocked', [
          target.pan.toUpperCase(),
        ]);
  return rows[0]?.blocked === true;
}
