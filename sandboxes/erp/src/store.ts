import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ErpOperation, ErpRequestStatus, ErpVendor, ErpVendorData } from '../../../domain/src/erp/port';

/**
 * The sandbox ERP's vendor master, in its own PostgreSQL schema `erp_sandbox` (never the portal's tables):
 * - `requests`: one row per idempotency key (unique), the operation, its state and outcome;
 * - `vendors`: the vendor master (parents and their per-state children);
 * - `vendor_codes`: the sequence every code is drawn from (10 digits, 1000000001 onwards).
 * Accepting a request is one statement (insert … on conflict do nothing on the key) and processing it is one
 * transaction holding the request row, so neither concurrency nor a retry can create a second vendor.
 */
export const SCHEMA = 'erp_sandbox';

const DDL = `
  create schema if not exists erp_sandbox;
  create sequence if not exists erp_sandbox.vendor_codes start with 1000000001 minvalue 1000000001 maxvalue 9999999999;
  create table if not exists erp_sandbox.vendors (
    vendor_code text primary key,
    kind text not null check (kind in ('parent', 'child')),
    parent_code text references erp_sandbox.vendors (vendor_code),
    company_code text not null,
    pan text not null,
    name text not null,
    state_code text,
    gstin text,
    payment_terms_code text,
    vendor_category text,
    recon_account text,
    withholding_tax jsonb,
    blocked boolean not null default false,
    source text not null default 'portal' check (source in ('portal', 'nucleus')),
    data jsonb not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create index if not exists vendors_pan on erp_sandbox.vendors (pan);
  create table if not exists erp_sandbox.requests (
    request_id text primary key,
    idempotency_key text not null unique,
    operation jsonb not null,
    state text not null default 'pending' check (state in ('pending', 'done', 'rejected')),
    vendor_code text,
    message text,
    accepted_at timestamptz not null default clock_timestamp(),
    due_at timestamptz not null,
    decided_at timestamptz
  );
  create index if not exists requests_due on erp_sandbox.requests (due_at) where state = 'pending';
  -- Bill-Hub invoice postings (issue 11): the accounting document number a post-invoice answers with.
  alter table erp_sandbox.requests add column if not exists document_number text;
  create sequence if not exists erp_sandbox.document_numbers start with 5100000001 minvalue 5100000001 maxvalue 5199999999;
`;

const TABLES = ['erp_sandbox.vendors', 'erp_sandbox.requests', 'erp_sandbox.vendor_codes', 'erp_sandbox.document_numbers'];

/** Arbitrary constant: two sandboxes starting on one database do not run the DDL at once. */
const SCHEMA_LOCK = 7_340_099;

/**
 * Creates the schema when it is missing (idempotent). Needs CREATE on the database: run as the owner (the
 * supervisor does before it starts the sandbox; tests pass the owner's URL). When `appRole` is given it may
 * also use the schema (the sandbox process connects as the application role under `npm start`).
 * A connection without CREATE finds an existing schema and does nothing.
 */
export async function ensureErpSandboxSchema(pool: pg.Pool, options: { appRole?: string } = {}): Promise<void> {
  if (await schemaReady(pool)) {
    if (options.appRole) await grant(pool, options.appRole);
    return;
  }
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    try {
      await client.query(DDL);
      if (options.appRole) await grant(client, options.appRole);
    } catch (e) {
      if ((e as { code?: string }).code === '42501') {
        throw new Error(
          `The sandbox ERP's schema ${SCHEMA} does not exist and this connection may not create it: ` +
            "start it once with the owner's connection (`npm start` and compose's migrate do; tests: pass " +
            "createTestDatabase()'s `url`, not `appUrl`), or point ERP_URL at another ERP",
        );
      }
      throw e;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}

async function schemaReady(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ missing: number }>(
    'select count(*)::int as missing from unnest($1::text[]) t(name) where to_regclass(t.name) is null',
    [TABLES],
  );
  return rows[0]?.missing === 0;
}

async function grant(db: pg.Pool | pg.PoolClient, appRole: string): Promise<void> {
  const role = pg.escapeIdentifier(appRole);
  const exists = await db.query('select 1 from pg_roles where rolname = $1', [appRole]);
  if (exists.rowCount === 0) return;
  await db.query(`
    grant usage on schema erp_sandbox to ${role};
    grant select, insert, update, delete on all tables in schema erp_sandbox to ${role};
    grant usage, select on all sequences in schema erp_sandbox to ${role};
  `);
}

type RequestRow = {
  request_id: string;
  idempotency_key: string;
  operation: ErpOperation;
  state: 'pending' | 'done' | 'rejected';
  vendor_code: string | null;
  message: string | null;
  document_number?: string | null;
};

type VendorRow = {
  vendor_code: string;
  kind: 'parent' | 'child';
  parent_code: string | null;
  company_code: string;
  pan: string;
  name: string;
  state_code: string | null;
  gstin: string | null;
  payment_terms_code: string | null;
  vendor_category: string | null;
  recon_account: string | null;
  withholding_tax: { taxType: string; taxCode: string } | null;
  blocked: boolean;
  source: 'portal' | 'nucleus';
};

const toVendor = (r: VendorRow): ErpVendor => ({
  vendorCode: r.vendor_code,
  kind: r.kind,
  parentCode: r.parent_code,
  companyCode: r.company_code,
  pan: r.pan,
  name: r.name,
  stateCode: r.state_code,
  gstin: r.gstin,
  paymentTermsCode: r.payment_terms_code,
  vendorCategory: r.vendor_category,
  reconAccount: r.recon_account,
  withholdingTax: r.withholding_tax,
  blocked: r.blocked,
  source: r.source,
});

export const toStatus = (r: Pick<RequestRow, 'request_id' | 'state' | 'vendor_code' | 'message' | 'document_number'>): ErpRequestStatus =>
  r.state === 'done'
    ? {
        requestId: r.request_id,
        state: 'done',
        vendorCode: r.vendor_code ?? '',
        message: r.message ?? '',
        ...(r.document_number ? { documentNumber: r.document_number } : {}),
      }
    : r.state === 'rejected'
      ? { requestId: r.request_id, state: 'rejected', message: r.message ?? '' }
      : { requestId: r.request_id, state: 'pending' };

/** What processing decided for one request. */
type Outcome = { state: 'done'; vendorCode: string; message: string; documentNumber?: string } | { state: 'rejected'; message: string };

export type ErpSandboxStore = ReturnType<typeof createErpSandboxStore>;

export type StoreOptions = {
  /** How long a request stays pending before it is processed. */
  processingMs: () => number;
  /** PANs whose create requests end rejected (the `rejectPans` fault). */
  rejectPans: () => readonly string[];
};

export function createErpSandboxStore(pool: pg.Pool, options: StoreOptions) {
  /** Accepts an operation under its key; the same key answers the request it already has. */
  async function accept(idempotencyKey: string, operation: ErpOperation): Promise<{ requestId: string; created: boolean }> {
    const inserted = await pool.query<{ request_id: string }>(
      `insert into erp_sandbox.requests (request_id, idempotency_key, operation, due_at)
       values ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
       on conflict (idempotency_key) do nothing
       returning request_id`,
      [randomUUID(), idempotencyKey, JSON.stringify(operation), options.processingMs()],
    );
    if (inserted.rows[0]) return { requestId: inserted.rows[0].request_id, created: true };
    const existing = await pool.query<{ request_id: string }>(
      'select request_id from erp_sandbox.requests where idempotency_key = $1',
      [idempotencyKey],
    );
    return { requestId: existing.rows[0]!.request_id, created: false };
  }

  /** The request's state, processed first when it is due. Null: unknown id. */
  async function status(requestId: string): Promise<ErpRequestStatus | null> {
    await processDue(requestId);
    const { rows } = await pool.query<RequestRow>('select * from erp_sandbox.requests where request_id = $1', [requestId]);
    return rows[0] ? toStatus(rows[0]) : null;
  }

  /**
   * Processes due pending requests (all of them, or the one named), each in its own transaction that locks
   * the request row: a request is decided exactly once, whoever gets there first.
   */
  async function processDue(requestId?: string): Promise<number> {
    const { rows } = await pool.query<{ request_id: string }>(
      `select request_id from erp_sandbox.requests
        where state = 'pending' and due_at <= clock_timestamp() and ($1::text is null or request_id = $1)
        order by due_at, accepted_at limit 100`,
      [requestId ?? null],
    );
    let processed = 0;
    for (const { request_id } of rows) if (await processOne(request_id)) processed += 1;
    return processed;
  }

  async function processOne(requestId: string): Promise<boolean> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<RequestRow>(
        `select * from erp_sandbox.requests where request_id = $1 and state = 'pending' for update skip locked`,
        [requestId],
      );
      const request = rows[0];
      if (!request) {
        await client.query('rollback');
        return false;
      }
      const outcome = await apply(client, request.operation, request.idempotency_key);
      await client.query(
        `update erp_sandbox.requests set state = $2, vendor_code = $3, message = $4, document_number = $5, decided_at = clock_timestamp()
          where request_id = $1`,
        [
          requestId,
          outcome.state,
          outcome.state === 'done' ? outcome.vendorCode : null,
          outcome.message,
          outcome.state === 'done' ? (outcome.documentNumber ?? null) : null,
        ],
      );
      await client.query('commit');
      return true;
    } catch (e) {
      await client.query('rollback').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  /** The ERP's business rules for one operation, inside the request's transaction. */
  async function apply(db: pg.PoolClient, op: ErpOperation, key: string): Promise<Outcome> {
    const vendor = async (code: string) =>
      (await db.query<VendorRow>('select * from erp_sandbox.vendors where vendor_code = $1 for update', [code])).rows[0];
    const rejectedPan = (pan: string) => options.rejectPans().includes(pan.toUpperCase());
    switch (op.op) {
      case 'create-parent': {
        const data = op.vendor;
        if (rejectedPan(data.pan)) return { state: 'rejected', message: `PAN ${data.pan} is rejected by the ERP` };
        const existing = (
          await db.query<VendorRow>(
            `select * from erp_sandbox.vendors where kind = 'parent' and pan = $1 and company_code = $2`,
            [data.pan.toUpperCase(), data.companyCode],
          )
        ).rows[0];
        if (existing) {
          return {
            state: 'rejected',
            message: `A vendor with PAN ${data.pan} already exists in company code ${data.companyCode}: ${existing.vendor_code}`,
          };
        }
        const code = await insertVendor(db, { kind: 'parent', parentCode: null, stateCode: null, data, source: sourceOf(key, data) });
        return { state: 'done', vendorCode: code, message: `Vendor ${code} created` };
      }
      case 'create-child': {
        const data = op.vendor;
        if (rejectedPan(data.pan)) return { state: 'rejected', message: `PAN ${data.pan} is rejected by the ERP` };
        const parent = await vendor(op.parentCode);
        if (!parent || parent.kind !== 'parent') {
          return { state: 'rejected', message: `Parent vendor ${op.parentCode} does not exist` };
        }
        const sibling = (
          await db.query<VendorRow>(
            `select * from erp_sandbox.vendors where parent_code = $1 and state_code = $2`,
            [op.parentCode, op.stateCode],
          )
        ).rows[0];
        if (sibling) {
          return {
            state: 'rejected',
            message: `Parent vendor ${op.parentCode} already has a child for state ${op.stateCode}: ${sibling.vendor_code}`,
          };
        }
        const code = await insertVendor(db, {
          kind: 'child',
          parentCode: parent.vendor_code,
          stateCode: op.stateCode,
          data: { ...data, companyCode: data.companyCode || parent.company_code },
          source: parent.source,
        });
        return { state: 'done', vendorCode: code, message: `Child vendor ${code} created under ${parent.vendor_code}` };
      }
      case 'set-payment-terms':
      case 'set-vendor-category':
      case 'change-recon-account':
      case 'update-withholding-tax': {
        const found = await vendor(op.vendorCode);
        if (!found) return { state: 'rejected', message: `Vendor ${op.vendorCode} does not exist` };
        const [column, value, what] =
          op.op === 'set-payment-terms'
            ? ['payment_terms_code', op.paymentTermsCode, 'Payment terms']
            : op.op === 'set-vendor-category'
              ? ['vendor_category', op.vendorCategory, 'Vendor category']
              : op.op === 'change-recon-account'
                ? ['recon_account', op.reconAccount, 'Reconciliation account']
                : ['withholding_tax', JSON.stringify({ taxType: op.taxType, taxCode: op.taxCode }), 'Withholding tax'];
        await db.query(`update erp_sandbox.vendors set ${column} = $2, updated_at = now() where vendor_code = $1`, [
          op.vendorCode,
          value,
        ]);
        return { state: 'done', vendorCode: op.vendorCode, message: `${what} of vendor ${op.vendorCode} updated` };
      }
      case 'block':
      case 'unblock': {
        const found = await vendor(op.vendorCode);
        if (!found) return { state: 'rejected', message: `Vendor ${op.vendorCode} does not exist` };
        if (found.company_code !== op.companyCode) {
          return { state: 'rejected', message: `Vendor ${op.vendorCode} does not exist in company code ${op.companyCode}` };
        }
        if (found.kind !== op.scope) {
          return { state: 'rejected', message: `Vendor ${op.vendorCode} is a ${found.kind} vendor, not a ${op.scope} vendor` };
        }
        const blocked = op.op === 'block';
        const verb = blocked ? 'blocked' : 'unblocked';
        // A parent's block covers its children (SAP blocks the account group); a child's only itself.
        const touched = await db.query(
          `update erp_sandbox.vendors set blocked = $2, updated_at = now()
            where (vendor_code = $1 or ($3 and parent_code = $1)) and blocked <> $2`,
          [op.vendorCode, blocked, op.scope === 'parent'],
        );
        if (found.blocked === blocked && touched.rowCount === 0) {
          return { state: 'done', vendorCode: op.vendorCode, message: `Vendor ${op.vendorCode} is already ${verb}` };
        }
        return { state: 'done', vendorCode: op.vendorCode, message: `Vendor ${op.vendorCode} ${verb}` };
      }
      case 'post-invoice':
        return postInvoice(db, op);
    }
  }

  /**
   * Books an invoice: refused when the vendor is known here and blocked, or when the same vendor already has a
   * posting of that invoice number in the year (another key); else a new accounting document. Vendors the
   * sandbox does not know are accepted, so a portal seeded without the ERP can still book.
   */
  async function postInvoice(db: pg.PoolClient, op: Extract<ErpOperation, { op: 'post-invoice' }>): Promise<Outcome> {
    const found = (await db.query<VendorRow>('select * from erp_sandbox.vendors where vendor_code = $1', [op.vendorCode])).rows[0];
    if (found?.blocked) return { state: 'rejected', message: `Vendor ${op.vendorCode} is blocked for posting` };
    if (Number(op.amount) <= 0) return { state: 'rejected', message: 'The amount to post must be greater than zero' };
    const posted = (
      await db.query<{ document_number: string }>(
        `select document_number from erp_sandbox.requests
          where state = 'done' and operation->>'op' = 'post-invoice' and operation->>'vendorCode' = $1
            and upper(operation->>'invoiceNumber') = upper($2) and operation->>'financialYear' = $3`,
        [op.vendorCode, op.invoiceNumber.trim(), op.financialYear],
      )
    ).rows[0];
    if (posted) return { state: 'rejected', message: `Invoice ${op.invoiceNumber} is already posted as document ${posted.document_number}` };
    const { rows } = await db.query<{ n: string }>(`select nextval('erp_sandbox.document_numbers')::text as n`);
    const documentNumber = rows[0]!.n;
    return { state: 'done', vendorCode: op.vendorCode, message: `Invoice ${op.invoiceNumber} posted as document ${documentNumber}`, documentNumber };
  }

  async function insertVendor(
    db: pg.PoolClient,
    v: { kind: 'parent' | 'child'; parentCode: string | null; stateCode: string | null; data: ErpVendorData; source?: string },
  ): Promise<string> {
    const d = v.data;
    const { rows } = await db.query<{ vendor_code: string }>(
      `insert into erp_sandbox.vendors (vendor_code, kind, parent_code, company_code, pan, name, state_code, gstin,
         payment_terms_code, recon_account, withholding_tax, source, data)
       values (nextval('erp_sandbox.vendor_codes')::text, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       returning vendor_code`,
      [
        v.kind,
        v.parentCode,
        d.companyCode,
        d.pan.toUpperCase(),
        d.name,
        v.stateCode,
        d.gstin,
        d.paymentTermsCode,
        d.reconAccount,
        d.withholdingTax ? JSON.stringify({ taxType: d.withholdingTax.taxType, taxCode: d.withholdingTax.taxCode }) : null,
        v.source ?? 'portal',
        JSON.stringify(d),
      ],
    );
    return rows[0]!.vendor_code;
  }

  async function vendorsByPan(pan: string): Promise<ErpVendor[]> {
    await processDue();
    const { rows } = await pool.query<VendorRow>(
      'select * from erp_sandbox.vendors where pan = $1 order by vendor_code',
      [pan.toUpperCase()],
    );
    return rows.map(toVendor);
  }

  async function vendor(code: string): Promise<ErpVendor | null> {
    await processDue();
    const { rows } = await pool.query<VendorRow>('select * from erp_sandbox.vendors where vendor_code = $1', [code]);
    return rows[0] ? toVendor(rows[0]) : null;
  }

  async function list(filter: { source?: 'portal' | 'nucleus'; page: number; perPage: number }): Promise<{ vendors: ErpVendor[]; total: number }> {
    await processDue();
    const { rows } = await pool.query<VendorRow & { total: number }>(
      `select *, count(*) over ()::int as total from erp_sandbox.vendors
        where ($1::text is null or source = $1)
        order by vendor_code limit $2 offset $3`,
      [filter.source ?? null, filter.perPage, (filter.page - 1) * filter.perPage],
    );
    return { vendors: rows.map(toVendor), total: rows[0]?.total ?? 0 };
  }

  return { accept, status, processDue, vendorsByPan, vendor, list };
}

/**
 * A parent created by the Nucleus mass upload is tagged `source: 'nucleus'` (its children inherit it): its
 * idempotency key starts with `nucleus-` (the contract's `nucleus-<PAN>-<companyCode>`), or the caller says so
 * in `vendor.extra.source` (the port's ErpVendorData has no field of its own for it). Else it is the portal's.
 */
function sourceOf(key: string, d: ErpVendorData): 'portal' | 'nucleus' {
  return key.startsWith('nucleus-') || d.extra?.source === 'nucleus' ? 'nucleus' : 'portal';
}
