import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';
import { applyCountDeltas, insertNew, moveCount, updateWhere, type CountDeltas } from '../sql';
import { isInvoiceStream, isMemoStream, type MemoEventData } from './invoice-events';
import { foldInvoice, INVOICE_COLUMNS, type InvoiceDbRow } from './invoice-fold';

/**
 * `invoices`: one row per Bill-Hub invoice (GET /api/invoices), from the `invoice-<id>` streams, version-guarded
 * like `blocks`. It also reads `MemoSubmitted` from the `memo-<id>` streams to note which memo holds an invoice:
 * the memo event names its invoices, the invoice streams never hear of it. That write is an idempotent SET of
 * the same two columns, so a page applied twice or a rebuild gives the same row.
 *
 * Each page is folded in memory per invoice (./invoice-fold.ts) and written once per invoice: new invoices in one
 * INSERT, changed ones in one UPDATE guarded by stream version. One write per invoice and page keeps the table
 * free of the dead row versions an UPDATE per event would leave (a rebuild's copy would start four times its size).
 *
 * Names that live elsewhere are joined at read time (invoices.queries.ts): the BA's name from
 * `business_associates`, its parent vendor code from `vendor_codes` — one writer per table (ARCHITECTURE.md
 * "Block and unblock", no cross-projection writes).
 */
export const invoicesProjection: Projection = {
  name: 'invoices',
  tables: ['invoices', 'invoice_status_counts'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('invoices')} (
      id text PRIMARY KEY,
      ba_id text NOT NULL,
      company_code text,
      status text NOT NULL,
      invoice_number text NOT NULL,
      -- What the number search and sort compare (case ignored); a plain column, so its index serves index-only scans.
      number_key text GENERATED ALWAYS AS (lower(invoice_number)) STORED,
      invoice_date text,
      financial_year text,
      taxable_amount numeric(16,2),
      cgst numeric(16,2) NOT NULL DEFAULT 0,
      sgst numeric(16,2) NOT NULL DEFAULT 0,
      igst numeric(16,2) NOT NULL DEFAULT 0,
      td numeric(16,2) NOT NULL DEFAULT 0,
      total_amount numeric(16,2) NOT NULL DEFAULT 0,
      net_payable numeric(16,2) NOT NULL DEFAULT 0,
      hsn_code text NOT NULL DEFAULT '',
      comments text NOT NULL DEFAULT '',
      submit_to_user_id text,
      submit_to_name text,
      billing_from_code text,
      from_state_id integer,
      billing_to_code text,
      billing_to_name text,
      to_state_id integer,
      attachments jsonb NOT NULL DEFAULT '[]',
      memo_id text,
      memo_number text,
      remarks text,
      erp_document_number text,
      booking boolean NOT NULL DEFAULT false,
      last_erp_error text,
      sla_breached boolean NOT NULL DEFAULT false,
      status_since timestamptz NOT NULL,
      submitted_at timestamptz,
      released_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      stream_version integer NOT NULL,
      global_position bigint NOT NULL
    );
    -- Data folders that took the table from an early issue-11 build lack the search column.
    ALTER TABLE ${t('invoices')} ADD COLUMN IF NOT EXISTS number_key text GENERATED ALWAYS AS (lower(invoice_number)) STORED;
    -- The staff list: company code, status tab, newest invoice date first.
    CREATE INDEX IF NOT EXISTS ${t('invoices')}_scope_idx ON ${t('invoices')} (company_code, status, invoice_date, id);
    -- The default order (newest invoice date first) over several company codes: walked in order, filtered.
    CREATE INDEX IF NOT EXISTS ${t('invoices')}_date_idx ON ${t('invoices')} (invoice_date, id);
    -- Sorting by amount or submission time without sorting every row of the scope. The scope's columns ride
    -- along (INCLUDE): a page's ids, even a deep one, come from an index-only walk, no row visited to filter it.
    DROP INDEX IF EXISTS ${t('invoices')}_amount_idx;
    DROP INDEX IF EXISTS ${t('invoices')}_submitted_idx;
    CREATE INDEX IF NOT EXISTS ${t('invoices')}_amount_scope_idx ON ${t('invoices')} (total_amount, id) INCLUDE (company_code, status);
    -- By submission time only what staff see: a draft has none, and newest-first (NULLs first) would walk every draft.
    CREATE INDEX IF NOT EXISTS ${t('invoices')}_submitted_staff_idx ON ${t('invoices')} (submitted_at, id) INCLUDE (company_code, status)
      WHERE status <> ALL (ARRAY['draft', 'discarded']);
    -- The BA's own list and its status tabs.
    CREATE INDEX IF NOT EXISTS ${t('invoices')}_ba_idx ON ${t('invoices')} (ba_id, status, invoice_date, id);
    -- Invoice-number "contains" search: trigrams find the few matching rows (and their count) without reading
    -- every number; where the extension cannot be created the btree below still serves it.
    DO $$ BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN NULL;
    END $$;
    DO $$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        EXECUTE 'CREATE INDEX IF NOT EXISTS ${t('invoices')}_number_trgm_idx ON ${t('invoices')} USING gin (number_key gin_trgm_ops)';
      END IF;
    END $$;
    -- Invoice-number search: a prefix match seeks in it; a contains-match reads it whole (index-only, a fraction
    -- of the table) with the scope and the default order's columns at hand, never the rows themselves.
    CREATE INDEX IF NOT EXISTS ${t('invoices')}_number_idx ON ${t('invoices')} (number_key text_pattern_ops, company_code, status, invoice_date, id);
    -- A memo's invoices (GET /api/memos/:id).
    CREATE INDEX IF NOT EXISTS ${t('invoices')}_memo_idx ON ${t('invoices')} (memo_id) WHERE memo_id IS NOT NULL;
    -- The list's totals when it filters by nothing but company code and status (the console's tabs): summed
    -- from here instead of counting up to every invoice per page. Moved by the apply, by the rows it wrote;
    -- '' stands for a draft with no company code yet (no staff scope ever matches it).
    CREATE TABLE IF NOT EXISTS ${t('invoice_status_counts')} (
      company_code text NOT NULL,
      status text NOT NULL,
      count bigint NOT NULL,
      CONSTRAINT ${t('invoice_status_counts')}_pkey PRIMARY KEY (company_code, status)
    );
    -- Filled once from the rows of a data folder whose invoices predate the count table (no-op otherwise).
    INSERT INTO ${t('invoice_status_counts')} (company_code, status, count)
      SELECT coalesce(company_code, ''), status, count(*) FROM ${t('invoices')}
      WHERE NOT EXISTS (SELECT 1 FROM ${t('invoice_status_counts')}) GROUP BY 1, 2;
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const table = t('invoices');
    const byInvoice = new Map<string, StoredEvent[]>();
    for (const e of events) {
      if (!isInvoiceStream(e.streamId)) continue;
      const id = (e.data as { invoiceId?: unknown } | null)?.invoiceId;
      if (typeof id !== 'string') continue;
      const list = byInvoice.get(id);
      if (list) list.push(e);
      else byInvoice.set(id, [e]);
    }
    if (byInvoice.size > 0) {
      const deltas: CountDeltas = new Map();
      await applyInvoices(client, table, byInvoice, false, deltas);
      await applyCountDeltas(client, t('invoice_status_counts'), ['company_code', 'status'], deltas);
    }
    // After the invoices: a memo names invoices submitted before it, whatever page their rows were written in.
    for (const e of events) if (isMemoStream(e.streamId) && e.type === 'MemoSubmitted') await applyMemo(client, e, table);
  },
};

const SELECT_COLUMNS = INVOICE_COLUMNS.map((c) =>
  c.type === 'timestamptz'
    ? `to_char(${c.name} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${c.name}`
    : c.type === 'numeric'
      ? `${c.name}::text AS ${c.name}`
      : c.name,
).join(', ');

async function applyInvoices(
  client: PoolClient,
  table: string,
  byInvoice: ReadonlyMap<string, readonly StoredEvent[]>,
  loadAll: boolean,
  deltas: CountDeltas,
): Promise<void> {
  // Stored rows only for invoices whose stream began before this page (a rebuild's pages are mostly new ones).
  const known = [...byInvoice].filter(([, list]) => loadAll || (list[0]?.version ?? 0) > 0).map(([id]) => id);
  const { rows: stored } =
    known.length === 0
      ? { rows: [] as InvoiceDbRow[] }
      : await client.query<InvoiceDbRow>(`SELECT ${SELECT_COLUMNS} FROM ${table} WHERE id = ANY($1::text[])`, [known]);
  const loaded = new Map(stored.map((r) => [r.id, { ...r, global_position: Number(r.global_position) }]));
  const fresh: InvoiceDbRow[] = [];
  const changed: InvoiceDbRow[] = [];
  for (const [id, list] of byInvoice) {
    const before = loaded.get(id) ?? null;
    let row = before;
    for (const e of list) row = foldInvoice(row, e);
    if (!row || row === before) continue;
    (before ? changed : fresh).push(row);
  }
  const existing = await insertNew(client, table, INVOICE_COLUMNS, fresh, 'id');
  const updated = await updateWhere(client, table, INVOICE_COLUMNS, changed, 'id', 't.stream_version < x.stream_version');
  // Counts move by the rows these guarded statements wrote: a page applied again moves nothing.
  for (const row of fresh) if (!existing.has(row.id)) moveStatus(deltas, row, +1);
  for (const row of changed) {
    if (!updated.has(row.id)) continue;
    moveStatus(deltas, loaded.get(row.id)!, -1);
    moveStatus(deltas, row, +1);
  }
  if (existing.size === 0) return;
  // A page applied again: those rows were written before. Fold them once more onto what is stored (the version
  // guard then skips every event already in it).
  if (loadAll) throw new Error(`invoices: rows ${[...existing].join(', ')} appeared during the apply`);
  await applyInvoices(client, table, new Map([...existing].map((id) => [id, byInvoice.get(id) ?? []])), true, deltas);
}

/** Moves a row's invoice_status_counts cell (company_code, status) by `by`; no company code counts as ''. */
function moveStatus(deltas: CountDeltas, row: Pick<InvoiceDbRow, 'company_code' | 'status'>, by: number): void {
  moveCount(deltas, [row.company_code ?? '', row.status], by);
}

async function applyMemo(client: PoolClient, stored: StoredEvent, table: string): Promise<void> {
  const event = { type: stored.type, data: stored.data } as MemoEventData;
  if (event.type !== 'MemoSubmitted') return;
  const { memoId, memoNumber, invoiceIds } = event.data;
  if (!Array.isArray(invoiceIds) || invoiceIds.length === 0) return;
  await client.query(`UPDATE ${table} SET memo_id = $1, memo_number = $2 WHERE id = ANY($3::text[])`, [memoId, memoNumber, invoiceIds]);
}
