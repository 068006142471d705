import type { PoolClient } from 'pg';
import {
  MASS_UPLOAD_STREAM_PREFIX,
  NUCLEUS_VENDOR_STREAM_PREFIX,
  type MassUploadEvent,
  type NucleusVendorEvent,
} from '../../../domain/src/mass-upload/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';
import { upsertRows, type Column } from '../sql';

/**
 * `nucleus_vendors`: one row per PAN recorded by a nucleus or SAP-verified mass upload (GET /api/nucleus-vendors),
 * with each parent and child row's values hash (what the upload compares a new row against), the codes the
 * ERP assigned and the ERP's refusals. Whether a vendor is blocked is the block projection's (`vendor_blocks`,
 * read by PAN in the queries), never a copy here.
 * `mass_uploads`: one row per upload (GET /api/mass-uploads/:uploadId once recorded) with the ERP step's counts.
 */
export type NucleusVendorRowJson = {
  row: 'parent' | 'child';
  companyCode: string;
  stateCode: string | null;
  gstin: string | null;
  name: string;
  city: string | null;
  valuesHash: string;
  vendorCode: string | null;
  parentCode: string | null;
  problem: string | null;
  uploadId: string;
};

type VendorRow = {
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
  child_codes: unknown;
  rows: unknown;
  source: string;
  upload_id: string;
  erp_status: string;
  search: string;
  created_at: string;
  updated_at: string;
  version: number;
  global_position: number;
};

const COLUMNS: Column<VendorRow>[] = [
  { name: 'pan', type: 'text' },
  { name: 'name', type: 'text' },
  { name: 'company_code', type: 'text' },
  { name: 'company_codes', type: 'text[]' },
  { name: 'city', type: 'text' },
  { name: 'region', type: 'text' },
  { name: 'mobile', type: 'text' },
  { name: 'email', type: 'text' },
  { name: 'gstin', type: 'text' },
  { name: 'parent_code', type: 'text' },
  { name: 'child_codes', type: 'jsonb' },
  { name: 'rows', type: 'jsonb' },
  { name: 'source', type: 'text' },
  { name: 'upload_id', type: 'text' },
  { name: 'erp_status', type: 'text' },
  { name: 'search', type: 'text' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
  { name: 'version', type: 'integer' },
  { name: 'global_position', type: 'bigint' },
];

type Folded = {
  pan: string;
  rows: Record<string, NucleusVendorRowJson>;
  mobile: string | null;
  email: string | null;
  region: string | null;
  source: string;
  uploadId: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  globalPosition: number;
};

function apply(f: Folded, e: StoredEvent): void {
  const event = { type: e.type, data: e.data } as NucleusVendorEvent;
  switch (event.type) {
    case 'NucleusVendorRecorded': {
      const { values, rowKey, row, valuesHash, uploadId, kind } = event.data;
      const before = f.rows[rowKey];
      f.rows[rowKey] = {
        row,
        companyCode: values.companyCode ?? '',
        stateCode: row === 'child' ? (values.region ?? null) : null,
        gstin: values.gstin ?? null,
        name: values.name ?? '',
        city: values.city ?? null,
        valuesHash,
        vendorCode: before?.vendorCode ?? null,
        parentCode: before?.parentCode ?? values.parentVendorCode ?? null,
        problem: null,
        uploadId,
      };
      if (row === 'parent') {
        f.mobile = values.mobileNo ?? f.mobile;
        f.email = values.email ?? f.email;
        f.region = values.region ?? f.region;
      }
      f.source = kind;
      f.uploadId = uploadId;
      break;
    }
    case 'NucleusVendorCodeAssigned': {
      const r = f.rows[event.data.rowKey];
      if (r) Object.assign(r, { vendorCode: event.data.vendorCode, parentCode: event.data.parentCode, problem: null });
      break;
    }
    case 'ErpRequestRefused': {
      const r = f.rows[event.data.rowKey];
      if (r) r.problem = event.data.message;
      break;
    }
    case 'NucleusVendorNotInErp': {
      const r = f.rows[event.data.rowKey];
      if (r) r.problem = 'Not found in the ERP';
      break;
    }
    default:
      break;
  }
  f.updatedAt = e.metadata.at;
  f.version = e.version;
  f.globalPosition = e.globalPosition;
}

function toRow(f: Folded): VendorRow {
  const all = Object.values(f.rows);
  const parents = all.filter((r) => r.row === 'parent');
  const children = all.filter((r) => r.row === 'child');
  const main = parents[0] ?? children[0];
  const codes = [...new Set(all.map((r) => r.companyCode))].sort();
  const statuses = all.map((r) => (r.problem ? (r.problem === 'Not found in the ERP' ? 'not-in-erp' : 'refused') : r.vendorCode ? 'assigned' : 'pending'));
  const erpStatus = statuses.every((s) => s === statuses[0]) ? (statuses[0] ?? 'pending') : statuses.includes('pending') ? 'pending' : 'partial';
  const parentCode = parents.find((p) => p.vendorCode)?.vendorCode ?? children.find((c) => c.parentCode)?.parentCode ?? null;
  const childCodes = children.map((c) => ({
    companyCode: c.companyCode,
    stateCode: c.stateCode,
    gstin: c.gstin,
    childCode: c.vendorCode,
    parentCode: c.parentCode,
    problem: c.problem,
  }));
  const search = [f.pan, main?.name ?? '', ...all.map((r) => r.vendorCode ?? ''), ...all.map((r) => r.parentCode ?? '')]
    .join(' ')
    .toLowerCase();
  return {
    pan: f.pan,
    name: main?.name ?? '',
    company_code: main?.companyCode ?? '',
    company_codes: codes,
    city: main?.city ?? null,
    region: f.region,
    mobile: f.mobile,
    email: f.email,
    gstin: parents.find((p) => p.gstin)?.gstin ?? children.find((c) => c.gstin)?.gstin ?? null,
    parent_code: parentCode,
    child_codes: childCodes,
    rows: f.rows,
    source: f.source,
    upload_id: f.uploadId,
    erp_status: erpStatus,
    search,
    created_at: f.createdAt,
    updated_at: f.updatedAt,
    version: f.version,
    global_position: f.globalPosition,
  };
}

type DbVendor = {
  pan: string;
  rows: Record<string, NucleusVendorRowJson>;
  mobile: string | null;
  email: string | null;
  region: string | null;
  source: string;
  upload_id: string;
  created_at: Date;
  version: number;
};

async function applyVendors(client: PoolClient, events: readonly StoredEvent[], table: string): Promise<void> {
  if (events.length === 0) return;
  const pans = [...new Set(events.map((e) => e.streamId.slice(NUCLEUS_VENDOR_STREAM_PREFIX.length)))];
  const { rows: existing } = await client.query<DbVendor>(
    `SELECT pan, rows, mobile, email, region, source, upload_id, created_at, version FROM ${table} WHERE pan = ANY($1::text[])`,
    [pans],
  );
  const folded = new Map<string, Folded>(
    existing.map((r) => [
      r.pan,
      {
        pan: r.pan,
        rows: r.rows,
        mobile: r.mobile,
        email: r.email,
        region: r.region,
        source: r.source,
        uploadId: r.upload_id,
        createdAt: r.created_at.toISOString(),
        updatedAt: '',
        version: r.version,
        globalPosition: 0,
      },
    ]),
  );
  const touched = new Set<string>();
  for (const e of events) {
    const pan = e.streamId.slice(NUCLEUS_VENDOR_STREAM_PREFIX.length);
    let f = folded.get(pan);
    if (!f) {
      f = { pan, rows: {}, mobile: null, email: null, region: null, source: 'nucleus', uploadId: '', createdAt: e.metadata.at, updatedAt: e.metadata.at, version: -1, globalPosition: 0 };
      folded.set(pan, f);
    }
    // Guarded on the stream version: a page applied twice changes nothing.
    if (e.version <= f.version) continue;
    apply(f, e);
    touched.add(pan);
  }
  const rows = [...touched].map((pan) => toRow(folded.get(pan)!));
  await upsertRows(client, table, COLUMNS, rows, { conflict: ['pan'], guard: `${table}.version < excluded.version` });
}

async function applyUploads(client: PoolClient, events: readonly StoredEvent[], vendorEvents: readonly StoredEvent[], table: string): Promise<void> {
  for (const e of events) {
    const event = { type: e.type, data: e.data } as MassUploadEvent;
    if (event.type === 'MassUploadRecorded') {
      const d = event.data;
      await client.query(
        `INSERT INTO ${table} (upload_id, kind, file_name, sha256, rows, parents, children, created, unchanged, state,
           recorded_at, recorded_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'recorded', $10, $11) ON CONFLICT (upload_id) DO NOTHING`,
        [d.uploadId, d.kind, d.fileName, d.sha256, d.rows, d.parents, d.children, d.created, d.unchanged, e.metadata.at, e.metadata.actor.userId],
      );
    } else if (event.type === 'MassUploadErpCompleted') {
      await client.query(`UPDATE ${table} SET state = 'done', erp_completed_at = $2 WHERE upload_id = $1`, [event.data.uploadId, e.metadata.at]);
    }
  }
  // The ERP step's progress: counted per upload from the vendor streams' results.
  const counts = new Map<string, { assigned: number; refused: number; notInErp: number }>();
  for (const e of vendorEvents) {
    const uploadId = (e.data as { uploadId?: string }).uploadId;
    if (!uploadId) continue;
    const c = counts.get(uploadId) ?? { assigned: 0, refused: 0, notInErp: 0 };
    if (e.type === 'NucleusVendorCodeAssigned') c.assigned += 1;
    else if (e.type === 'ErpRequestRefused') c.refused += 1;
    else if (e.type === 'NucleusVendorNotInErp') c.notInErp += 1;
    else continue;
    counts.set(uploadId, c);
  }
  for (const [uploadId, c] of counts)
    await client.query(
      `UPDATE ${table} SET erp_assigned = erp_assigned + $2, erp_refused = erp_refused + $3, erp_not_in_erp = erp_not_in_erp + $4
        WHERE upload_id = $1`,
      [uploadId, c.assigned, c.refused, c.notInErp],
    );
}

export const nucleusVendorsProjection: Projection = {
  name: 'nucleus_vendors',
  tables: ['nucleus_vendors', 'mass_uploads'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('nucleus_vendors')} (
      pan text PRIMARY KEY,
      name text NOT NULL,
      company_code text NOT NULL,
      company_codes text[] NOT NULL,
      city text,
      region text,
      mobile text,
      email text,
      gstin text,
      parent_code text,
      child_codes jsonb NOT NULL DEFAULT '[]',
      rows jsonb NOT NULL DEFAULT '{}',
      source text NOT NULL,
      upload_id text NOT NULL,
      erp_status text NOT NULL,
      search text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL,
      global_position bigint NOT NULL
    );
    -- Whether a vendor is blocked is read from vendor_blocks: drop the copy older data folders still have.
    ALTER TABLE ${t('nucleus_vendors')} DROP COLUMN IF EXISTS blocked;
    CREATE INDEX IF NOT EXISTS ${t('nucleus_vendors')}_codes_idx ON ${t('nucleus_vendors')} USING gin (company_codes);
    CREATE INDEX IF NOT EXISTS ${t('nucleus_vendors')}_name_idx ON ${t('nucleus_vendors')} (lower(name), pan);
    CREATE TABLE IF NOT EXISTS ${t('mass_uploads')} (
      upload_id text PRIMARY KEY,
      kind text NOT NULL,
      file_name text NOT NULL,
      sha256 text NOT NULL,
      rows integer NOT NULL,
      parents integer NOT NULL,
      children integer NOT NULL,
      created integer NOT NULL,
      unchanged integer NOT NULL,
      state text NOT NULL,
      erp_assigned integer NOT NULL DEFAULT 0,
      erp_refused integer NOT NULL DEFAULT 0,
      erp_not_in_erp integer NOT NULL DEFAULT 0,
      recorded_at timestamptz NOT NULL,
      recorded_by text NOT NULL,
      erp_completed_at timestamptz
    );
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const vendors = events.filter((e) => e.streamId.startsWith(NUCLEUS_VENDOR_STREAM_PREFIX));
    const uploads = events.filter((e) => e.streamId.startsWith(MASS_UPLOAD_STREAM_PREFIX));
    await applyVendors(client, vendors, t('nucleus_vendors'));
    await applyUploads(client, uploads, vendors, t('mass_uploads'));
  },
};
