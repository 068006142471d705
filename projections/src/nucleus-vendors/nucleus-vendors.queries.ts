import { clampRange, iso, likeEscape, sortOrder, type Db, type Range } from '../sql';
import type { NucleusVendorRowJson } from './nucleus-vendors.projection';

/** One nucleus vendor as GET /api/nucleus-vendors lists it (react-admin resource `nucleus-vendors`, id = PAN). */
export type NucleusVendorRow = {
  id: string;
  pan: string;
  name: string;
  companyCode: string;
  companyCodes: string[];
  city: string | null;
  region: string | null;
  mobile: string | null;
  email: string | null;
  gstin: string | null;
  parentCode: string | null;
  childCodes: {
    companyCode: string;
    stateCode: string | null;
    gstin: string | null;
    childCode: string | null;
    parentCode: string | null;
    problem: string | null;
  }[];
  source: 'nucleus' | 'sap-verified';
  blocked: boolean;
  /** pending: the ERP step has not answered yet; assigned; refused; not-in-erp (SAP-verified); partial. */
  erpStatus: 'pending' | 'assigned' | 'refused' | 'not-in-erp' | 'partial';
  uploadId: string;
  createdAt: string;
  updatedAt: string;
};

/** One upload once recorded (GET /api/mass-uploads/:uploadId after the append). */
export type MassUploadRow = {
  uploadId: string;
  kind: 'nucleus' | 'sap-verified';
  fileName: string;
  rows: number;
  parents: number;
  children: number;
  created: number;
  unchanged: number;
  state: 'recorded' | 'done';
  erp: { assigned: number; refused: number; notInErp: number };
  recordedAt: string;
  erpCompletedAt: string | null;
};

export const NUCLEUS_VENDOR_SORT_FIELDS = ['name', 'pan', 'companyCode', 'parentCode', 'updatedAt', 'createdAt'] as const;
export type NucleusVendorSortField = (typeof NUCLEUS_VENDOR_SORT_FIELDS)[number];
const SORT: Record<NucleusVendorSortField, string> = {
  name: 'lower(name)',
  pan: 'pan',
  companyCode: 'company_code',
  parentCode: 'parent_code',
  updatedAt: 'updated_at',
  createdAt: 'created_at',
};

type DbRow = {
  pan: string;
  name: string;
  company_code: string;
  company_codes: string[];
  city: string | null;
  region: string | null;
  mobile: string | null;
  email: string | null;
  gstin: string | null;
  parent_code: string | null;
  child_codes: NucleusVendorRow['childCodes'];
  source: NucleusVendorRow['source'];
  blocked: boolean;
  erp_status: NucleusVendorRow['erpStatus'];
  upload_id: string;
  created_at: Date;
  updated_at: Date;
};

/** `blocked` is read from the block projection's `vendor_blocks` (its one writer), by PAN. */
const COLUMNS = `pan, name, company_code, company_codes, city, region, mobile, email, gstin, parent_code, child_codes, source,
  EXISTS (SELECT 1 FROM vendor_blocks vb WHERE vb.pan = nucleus_vendors.pan AND vb.blocked) AS blocked,
  erp_status, upload_id, created_at, updated_at`;

const toRow = (r: DbRow): NucleusVendorRow => ({
  id: r.pan,
  pan: r.pan,
  name: r.name,
  companyCode: r.company_code,
  companyCodes: r.company_codes,
  city: r.city,
  region: r.region,
  mobile: r.mobile,
  email: r.email,
  gstin: r.gstin,
  parentCode: r.parent_code,
  childCodes: r.child_codes,
  source: r.source,
  blocked: r.blocked,
  erpStatus: r.erp_status,
  uploadId: r.upload_id,
  createdAt: iso(r.created_at) ?? '',
  updatedAt: iso(r.updated_at) ?? '',
});

export type NucleusVendorFilter = {
  /** Name, PAN or vendor code contains (case-insensitive). */
  q?: string;
  companyName?: string;
  pan?: string;
  vendorCode?: string;
  ids?: readonly string[];
};

/** The list, scoped to rows holding one of `companyCodes` (the caller's scope). */
export async function listNucleusVendors(
  db: Db,
  query: NucleusVendorFilter & {
    companyCodes: readonly string[];
    sort?: { field: NucleusVendorSortField; order: string };
    range?: Partial<Range>;
  },
): Promise<{ rows: NucleusVendorRow[]; total: number }> {
  const range = clampRange(query.range, 10);
  const params: unknown[] = [query.companyCodes];
  const where = ['company_codes && $1::text[]'];
  const like = (v: string) => {
    params.push(`%${likeEscape(v.toLowerCase())}%`);
    return `$${params.length}`;
  };
  if (query.q) where.push(`search LIKE ${like(query.q)}`);
  if (query.companyName) where.push(`lower(name) LIKE ${like(query.companyName)}`);
  if (query.pan) where.push(`lower(pan) LIKE ${like(query.pan)}`);
  if (query.vendorCode) {
    params.push(query.vendorCode.trim());
    where.push(`(parent_code = $${params.length} OR child_codes @> jsonb_build_array(jsonb_build_object('childCode', $${params.length}::text)))`);
  }
  if (query.ids) {
    params.push(query.ids);
    where.push(`pan = ANY($${params.length}::text[])`);
  }
  const column = SORT[query.sort?.field ?? 'name'];
  const order = sortOrder(query.sort?.order ?? 'ASC');
  params.push(range.limit, range.offset);
  const { rows } = await db.query<DbRow & { total: string }>(
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM nucleus_vendors WHERE ${where.join(' AND ')}
      ORDER BY ${column} ${order}, pan ASC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && range.offset > 0) {
    const count = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM nucleus_vendors WHERE ${where.join(' AND ')}`,
      params.slice(0, params.length - 2),
    );
    total = Number(count.rows[0]?.n ?? 0);
  }
  return { rows: rows.map(toRow), total };
}

/** One vendor by PAN, if it holds one of `companyCodes`. */
export async function getNucleusVendor(db: Db, pan: string, companyCodes: readonly string[]): Promise<NucleusVendorRow | null> {
  const { rows } = await db.query<DbRow>(
    `SELECT ${COLUMNS} FROM nucleus_vendors WHERE pan = $1 AND company_codes && $2::text[]`,
    [pan, companyCodes],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Count in scope (the SAP dashboard's nucleusVendor tab). */
export async function countNucleusVendors(db: Db, companyCodes: readonly string[]): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM nucleus_vendors WHERE company_codes && $1::text[]`, [companyCodes]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The values hash of every parent and child row the read model holds for these PANs: pan → rowKey → hash. A row
 * the ERP refused or did not find answers its hash marked with the stream's version (`<hash>|problem@<version>`):
 * it equals no file's hash, so the same row in a new file is recorded again and asked for again, and the mark
 * makes each such recording's event id new (a double click of the same file still lands on one id).
 */
export async function rowHashes(db: Db, pans: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  if (pans.length === 0) return out;
  const { rows } = await db.query<{ pan: string; row_key: string; hash: string }>(
    `SELECT v.pan, r.key AS row_key,
            CASE WHEN r.value->>'problem' IS NULL THEN r.value->>'valuesHash'
                 ELSE (r.value->>'valuesHash') || '|problem@' || v.version END AS hash
       FROM nucleus_vendors v, jsonb_each(v.rows) r WHERE v.pan = ANY($1::text[])`,
    [pans],
  );
  for (const r of rows) {
    let m = out.get(r.pan);
    if (!m) out.set(r.pan, (m = new Map()));
    m.set(r.row_key, r.hash);
  }
  return out;
}

export type { NucleusVendorRowJson };

type DbUpload = {
  upload_id: string;
  kind: MassUploadRow['kind'];
  file_name: string;
  rows: number;
  parents: number;
  children: number;
  created: number;
  unchanged: number;
  state: MassUploadRow['state'];
  erp_assigned: number;
  erp_refused: number;
  erp_not_in_erp: number;
  recorded_at: Date;
  erp_completed_at: Date | null;
};

export async function getMassUpload(db: Db, uploadId: string): Promise<MassUploadRow | null> {
  const { rows } = await db.query<DbUpload>(`SELECT * FROM mass_uploads WHERE upload_id = $1`, [uploadId]);
  const r = rows[0];
  if (!r) return null;
  return {
    uploadId: r.upload_id,
    kind: r.kind,
    fileName: r.file_name,
    rows: r.rows,
    parents: r.parents,
    children: r.children,
    created: r.created,
    unchanged: r.unchanged,
    state: r.state,
    erp: { assigned: r.erp_assigned, refused: r.erp_refused, notInErp: r.erp_not_in_erp },
    recordedAt: iso(r.recorded_at) ?? '',
    erpCompletedAt: iso(r.erp_completed_at),
  };
}
