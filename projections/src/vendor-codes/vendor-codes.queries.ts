import type { VendorCodeState, VendorCodeStatus } from '../../../domain/src/vendor-code/state';
import { clampRange, iso, likeEscape, sortOrder, type Db, type Range } from '../sql';
import type { GstRow } from './vendor-codes.projection';

/** One BA × company code as the SAP dashboard and the BA's ERP page show it (GET /api/vendor-codes). */
export type VendorCodeRow = {
  /** `${baId}:${companyCode}` */
  id: string;
  baId: string;
  companyCode: string;
  companyName: string | null;
  panNumber: string | null;
  status: VendorCodeStatus;
  parentCode: string | null;
  childCodes: {
    stateId: number;
    stateName: string | null;
    gstNo: string | null;
    childCode: string | null;
    paymentTermsCode: string | null;
    status: 'not-requested' | 'requested' | 'created' | 'refused';
  }[];
  vendorCategory: string | null;
  vendorCategoryStatus: 'none' | 'pending' | 'approved' | 'rejected';
  /** userId of whoever set the category, so the UI can hide Approve for them. */
  vendorCategorySetBy: string | null;
  reconAccount: string | null;
  withholdingTax: { taxType: string; taxCode: string } | null;
  waitingForErp: boolean;
  lastErpError: string | null;
  rejection: { reason: string; remarks: string | null; sendToBa: boolean; at: string } | null;
  blocked: boolean;
  requestedAt: string | null;
  updatedAt: string;
};

export type VendorCodeTab = 'all' | 'requested' | 'verification-pending' | 'verified' | 'processed';
export const VENDOR_CODE_SORT_FIELDS = ['updatedAt', 'requestedAt', 'companyName', 'status'] as const;
export type VendorCodeSortField = (typeof VENDOR_CODE_SORT_FIELDS)[number];
const SORT_COLUMNS: Record<VendorCodeSortField, string> = {
  updatedAt: 'v.updated_at',
  requestedAt: 'v.requested_at',
  companyName: 'lower(v.company_name)',
  status: 'v.status',
};

/** Staff: their company codes (or the active one); a BA: its own rows. */
export type VendorCodeScope = { companyCodes: readonly string[]; baId?: string };

type DbRow = {
  id: string;
  ba_id: string;
  company_code: string;
  company_name: string | null;
  pan_number: string | null;
  status: VendorCodeStatus;
  parent_code: string | null;
  state: VendorCodeState;
  gst: Record<string, GstRow>;
  waiting_for_erp: boolean;
  last_erp_error: string | null;
  blocked: boolean;
  requested_at: Date | null;
  updated_at: Date;
  rejected_at?: Date | null;
};

/**
 * `blocked` is read from the block projection's `vendor_blocks` (its one writer), not from a copy here: a rebuild
 * of either read model stays exact.
 */
const COLUMNS = `v.id, v.ba_id, v.company_code, v.company_name, v.pan_number, v.status, v.parent_code, v.state, v.gst,
  v.waiting_for_erp, v.last_erp_error,
  EXISTS (SELECT 1 FROM vendor_blocks vb WHERE vb.ba_id = v.ba_id AND vb.company_code = v.company_code AND vb.blocked) AS blocked,
  v.requested_at, v.updated_at`;

/** State names are looked up when read (masters may be renamed). */
async function stateNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; name: string | null }>(
    `SELECT id, values->>'name' AS name FROM master_items WHERE master = 'states' AND id = ANY($1::text[])`,
    [[...new Set(ids)].map(String)],
  );
  return new Map(rows.map((r) => [Number(r.id), r.name ?? '']));
}

async function toRows(db: Db, rows: readonly DbRow[]): Promise<VendorCodeRow[]> {
  const ids = rows.flatMap((r) => [
    ...Object.values(r.gst ?? {}).map((g) => g.stateId),
    ...Object.values(r.state.children ?? {}).map((c) => c.stateId),
  ]);
  const names = await stateNames(db, ids);
  return rows.map((r) => {
    const s = r.state;
    const children = new Map<number, VendorCodeRow['childCodes'][number]>();
    for (const g of Object.values(r.gst ?? {}))
      children.set(g.stateId, {
        stateId: g.stateId,
        stateName: names.get(g.stateId) ?? null,
        gstNo: g.gstNo,
        childCode: null,
        paymentTermsCode: null,
        status: 'not-requested',
      });
    for (const c of Object.values(s.children ?? {}))
      children.set(c.stateId, {
        stateId: c.stateId,
        stateName: names.get(c.stateId) ?? null,
        gstNo: c.gstNo ?? children.get(c.stateId)?.gstNo ?? null,
        childCode: c.childCode,
        paymentTermsCode: c.paymentTermsCode || null,
        status: c.status === 'assigned' ? 'created' : c.status,
      });
    return {
      id: r.id,
      baId: r.ba_id,
      companyCode: r.company_code,
      companyName: r.company_name,
      panNumber: r.pan_number,
      status: r.status,
      parentCode: r.parent_code,
      childCodes: [...children.values()].sort((a, b) => a.stateId - b.stateId),
      vendorCategory: s.vendorCategory.name,
      vendorCategoryStatus: s.vendorCategory.status,
      vendorCategorySetBy: s.vendorCategory.setBy,
      reconAccount: s.reconAccount?.code ?? null,
      withholdingTax: s.withholdingTax ? { taxType: s.withholdingTax.taxType, taxCode: s.withholdingTax.taxCode } : null,
      waitingForErp: r.waiting_for_erp,
      lastErpError: r.last_erp_error,
      rejection:
        s.parent.status === 'rejected' && s.rejection
          ? { reason: s.rejection.reason, remarks: s.rejection.remarks, sendToBa: s.rejection.sendToBa, at: iso(r.updated_at) ?? '' }
          : null,
      blocked: r.blocked,
      requestedAt: iso(r.requested_at),
      updatedAt: iso(r.updated_at) ?? '',
    };
  });
}

function scopeWhere(scope: VendorCodeScope, params: unknown[]): string[] {
  params.push(scope.companyCodes);
  const where = [`v.company_code = ANY($${params.length}::text[])`];
  if (scope.baId !== undefined) {
    params.push(scope.baId);
    where.push(`v.ba_id = $${params.length}`);
  }
  return where;
}

export async function listVendorCodes(
  db: Db,
  query: {
    scope: VendorCodeScope;
    filter: { tab?: VendorCodeTab; baId?: string; q?: string };
    sort?: { field: VendorCodeSortField; order: string };
    range?: Partial<Range>;
  },
): Promise<{ rows: VendorCodeRow[]; total: number }> {
  const range = clampRange(query.range, 25);
  const params: unknown[] = [];
  const where = scopeWhere(query.scope, params);
  const { tab, baId, q } = query.filter;
  if (tab && tab !== 'all') {
    params.push(tab);
    where.push(`v.status = $${params.length}`);
  }
  if (baId) {
    params.push(baId);
    where.push(`v.ba_id = $${params.length}`);
  }
  if (q && q.trim() !== '') {
    params.push(`%${likeEscape(q.trim().toLowerCase())}%`);
    where.push(`(lower(coalesce(v.company_name, '')) LIKE $${params.length} OR lower(coalesce(v.pan_number, '')) LIKE $${params.length})`);
  }
  const column = SORT_COLUMNS[query.sort?.field ?? 'updatedAt'];
  const order = sortOrder(query.sort?.order ?? 'DESC');
  const total = Number(
    (await db.query<{ n: string }>(`SELECT count(*) AS n FROM vendor_codes v WHERE ${where.join(' AND ')}`, params)).rows[0]?.n ?? 0,
  );
  params.push(range.limit, range.offset);
  const { rows } = await db.query<DbRow>(
    `SELECT ${COLUMNS} FROM vendor_codes v WHERE ${where.join(' AND ')}
     ORDER BY ${column} ${order} NULLS LAST, v.id ASC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return { rows: await toRows(db, rows), total };
}

export type VendorCodeCounts = {
  all: number;
  requested: number;
  verificationPending: number;
  verified: number;
  processed: number;
  nucleusVendor: number;
};

/** The dashboard tabs' counts in scope; `nucleusVendor` from helper MASS's `nucleus_vendors` when it exists. */
export async function countVendorCodes(db: Db, scope: VendorCodeScope): Promise<VendorCodeCounts> {
  const params: unknown[] = [];
  const where = scopeWhere(scope, params);
  const { rows } = await db.query<{ status: string; n: string }>(
    `SELECT v.status, count(*) AS n FROM vendor_codes v WHERE ${where.join(' AND ')} GROUP BY v.status`,
    params,
  );
  const by = new Map(rows.map((r) => [r.status, Number(r.n)]));
  let nucleusVendor = 0;
  if (scope.baId === undefined) {
    const { rows: exists } = await db.query<{ t: string | null }>(`SELECT to_regclass('nucleus_vendors')::text AS t`);
    if (exists[0]?.t) {
      const { rows: n } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM nucleus_vendors WHERE company_code = ANY($1::text[])`,
        [scope.companyCodes],
      );
      nucleusVendor = Number(n[0]?.n ?? 0);
    }
  }
  return {
    all: [...by.values()].reduce((a, b) => a + b, 0),
    requested: by.get('requested') ?? 0,
    verificationPending: by.get('verification-pending') ?? 0,
    verified: by.get('verified') ?? 0,
    processed: by.get('processed') ?? 0,
    nucleusVendor,
  };
}

/** One row by `${baId}:${companyCode}`, or null. */
export async function getVendorCode(db: Db, id: string): Promise<VendorCodeRow | null> {
  const { rows } = await db.query<DbRow>(`SELECT ${COLUMNS} FROM vendor_codes v WHERE v.id = $1`, [id]);
  return rows[0] ? ((await toRows(db, rows))[0] ?? null) : null;
}

/** Every row of one BA (all its verified company codes). */
export async function listVendorCodesOfBa(db: Db, baId: string, companyCodes?: readonly string[]): Promise<VendorCodeRow[]> {
  const params: unknown[] = [baId];
  let where = 'v.ba_id = $1';
  if (companyCodes) {
    params.push(companyCodes);
    where += ' AND v.company_code = ANY($2::text[])';
  }
  const { rows } = await db.query<DbRow>(`SELECT ${COLUMNS} FROM vendor_codes v WHERE ${where} ORDER BY v.company_code`, params);
  return toRows(db, rows);
}
