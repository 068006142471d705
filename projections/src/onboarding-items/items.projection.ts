import type { PoolClient } from 'pg';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { onboardingEventsByBa, type OnboardingItem } from '../onboarding-events';
import type { Projection, TableNames } from '../projection';
import { upsertRows, type Column } from '../sql';
import { evolveItems, ITEM_TABLES, type ItemRows, type ItemTable } from './items.evolve';

/**
 * The BA's onboarding items as read models (issue 8): bank accounts, GST rows, documents, concessions, the
 * vertical mapping, the application per company code and the change requests, one table each.
 *
 * Every row carries the BA stream version of the last event that changed it, and a removed row (deleted, or a
 * document replaced by a newer upload) stays as a marked row: so one guard, "the stored row is older", makes
 * re-applying a page a no-op, deletions included. A page is folded per BA in memory (items.evolve.ts) onto
 * the BA's stored rows (read only for BAs whose stream did not start in this page) and the changed rows are
 * written with one upsert per table.
 */
type Shape = { columns: readonly Column<Record<string, unknown>>[]; key: readonly string[] };

const SHAPES: Record<ItemTable, Shape> = {
  ba_bank_accounts: {
    key: ['ba_id', 'id'],
    columns: cols(
      'ba_id text', 'id text', 'is_primary boolean', 'account_no text', 'ifsc_code text', 'micr_no text',
      'account_name text', 'bank_name text', 'bank_branch text', 'review_status text', 'review_remarks text',
      'reviewed_by text', 'reviewed_role text', 'reviewed_at timestamptz', 'removed boolean', 'created_at timestamptz',
      'updated_at timestamptz', 'version integer',
    ),
  },
  ba_gst_registrations: {
    key: ['ba_id', 'id'],
    columns: cols(
      'ba_id text', 'id text', 'state_id integer', 'gst_type text', 'gst_no text', 'address_line1 text',
      'address_line2 text', 'pin_code text', 'city_id integer', 'bank_account_id text', 'vendor_category text',
      'removed boolean', 'created_at timestamptz', 'updated_at timestamptz', 'version integer',
    ),
  },
  ba_documents: {
    key: ['ba_id', 'id'],
    columns: cols(
      'ba_id text', 'id text', 'kind text', 'document_type_id integer', 'document_type_name text',
      'document_number text', 'valid_till text', 'state_id integer', 'file jsonb', 'uploaded_by text',
      'uploaded_role text', 'uploaded_at timestamptz', 'replaces text', 'replaced_by text', 'removed boolean',
      'review_status text', 'review_remarks text', 'reviewed_by text', 'reviewed_role text', 'reviewed_at timestamptz',
      'approved_till text', 'expired boolean', 'reminded_days jsonb', 'updated_at timestamptz', 'version integer',
    ),
  },
  ba_concessions: {
    key: ['ba_id', 'id'],
    columns: cols(
      'ba_id text', 'id text', 'exemption_number text', 'exemption_rate text', 'exemption_from text',
      'exemption_to text', 'exemption_reason_id integer', 'exemption_threshold text', 'withholding_tax_type text',
      'withholding_tax_code text', 'section_code text', 'file jsonb', 'is_internal_upload boolean',
      'review_status text', 'review_remarks text', 'reviewed_by text', 'reviewed_role text', 'reviewed_at timestamptz',
      'removed boolean', 'created_at timestamptz', 'updated_at timestamptz', 'version integer',
    ),
  },
  ba_vertical_mappings: {
    key: ['ba_id'],
    columns: cols(
      'ba_id text', 'vertical_ids jsonb', 'sub_service_ids jsonb', 'vehicle_type_ids jsonb', 'zone_ids jsonb',
      'pickup_zone_ids jsonb', 'delivery_zone_ids jsonb', 'review_status text', 'review_remarks text',
      'reviewed_by text', 'reviewed_role text', 'reviewed_at timestamptz', 'updated_at timestamptz', 'version integer',
    ),
  },
  ba_company_applications: {
    key: ['ba_id', 'company_code'],
    columns: cols(
      'ba_id text', 'company_code text', 'is_first boolean', 'status text', 'stage smallint', 'submission integer',
      'stage1_approved_by text', 'remarks text', 'applied_at timestamptz', 'submitted_at timestamptz',
      'updated_at timestamptz', 'version integer',
    ),
  },
  ba_change_requests: {
    key: ['ba_id', 'id'],
    columns: cols(
      'ba_id text', 'id text', 'section text', 'proposed jsonb', 'changes jsonb', 'status text', 'approvals jsonb',
      'remarks text', 'raised_by text', 'raised_at timestamptz', 'decided_by text', 'decided_at timestamptz',
      'updated_at timestamptz', 'version integer',
    ),
  },
};

function cols(...specs: string[]): Column<Record<string, unknown>>[] {
  return specs.map((spec) => {
    const [name, type] = spec.split(' ') as [string, string];
    return { name, type };
  });
}

/** Indexes beyond the primary key: what the reads filter by. */
const EXTRA_DDL: Partial<Record<ItemTable, (table: string) => string>> = {
  // The additional-documents queue (staff, across BAs) filters by kind and review status.
  ba_documents: (d) => `
CREATE INDEX IF NOT EXISTS ${d}_queue_idx ON ${d} (kind, review_status, uploaded_at) WHERE NOT removed;`,
  // Duplicate checks look GSTINs and accounts up across BAs.
  ba_gst_registrations: (g) => `
CREATE INDEX IF NOT EXISTS ${g}_gst_no_idx ON ${g} (gst_no) WHERE NOT removed;`,
  ba_bank_accounts: (b) => `
CREATE INDEX IF NOT EXISTS ${b}_account_idx ON ${b} (account_no, ifsc_code) WHERE NOT removed;`,
};

const NOT_NULL = new Set(['ba_id', 'id', 'company_code', 'version', 'removed', 'updated_at']);

const schema = (t: TableNames): string =>
  ITEM_TABLES.map((name) => {
    const table = t(name);
    const shape = SHAPES[name];
    const columns = shape.columns.map((c) => `  ${c.name} ${c.type}${NOT_NULL.has(c.name) ? ' NOT NULL' : ''}`);
    return `
CREATE TABLE IF NOT EXISTS ${table} (
${columns.join(',\n')},
  CONSTRAINT ${table}_pkey PRIMARY KEY (${shape.key.join(', ')})
);${EXTRA_DDL[name]?.(table) ?? ''}`;
  }).join('\n');

/** Stored rows as the fold reads them: times as ISO text (they are written back through array literals). */
function normalise(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = v instanceof Date ? v.toISOString() : v;
  return out;
}

async function loadRows(client: PoolClient, t: TableNames, baIds: readonly string[]): Promise<Map<string, ItemRows>> {
  const byBa = new Map<string, ItemRows>();
  if (baIds.length === 0) return byBa;
  for (const id of baIds) byBa.set(id, emptyRows());
  for (const name of ITEM_TABLES) {
    const { rows } = await client.query(`SELECT * FROM ${t(name)} WHERE ba_id = ANY($1::text[])`, [baIds]);
    for (const row of rows as Record<string, unknown>[]) {
      const r = normalise(row);
      byBa.get(String(r.ba_id))?.[name].set(keyOf(name, r), r);
    }
  }
  return byBa;
}

export const keyOf = (name: ItemTable, row: Record<string, unknown>): string =>
  SHAPES[name].key.map((k) => String(row[k])).join('\u0000');

export const emptyRows = (): ItemRows =>
  Object.fromEntries(ITEM_TABLES.map((n) => [n, new Map()])) as unknown as ItemRows;

async function apply(client: PoolClient, events: readonly StoredEvent[], t: TableNames): Promise<void> {
  const byBa = onboardingEventsByBa(events);
  if (byBa.size === 0) return;
  // A stream starting in this page has no stored rows: only BAs seen before are read.
  const seen = [...byBa].filter(([, list]) => (list[0]?.stored.version ?? 0) > 0).map(([id]) => id);
  const stored = await loadRows(client, t, seen);
  const changed = Object.fromEntries(ITEM_TABLES.map((n) => [n, [] as Record<string, unknown>[]])) as Record<
    ItemTable,
    Record<string, unknown>[]
  >;
  for (const [baId, list] of byBa) {
    const rows = stored.get(baId) ?? emptyRows();
    const touched = foldBa(rows, list);
    for (const name of ITEM_TABLES) for (const key of touched[name]) changed[name].push(rows[name].get(key)!);
  }
  for (const name of ITEM_TABLES) {
    const table = t(name);
    const shape = SHAPES[name];
    await upsertRows(client, table, shape.columns, changed[name], {
      conflict: shape.key,
      guard: `${table}.version < excluded.version`,
    });
  }
}

/** Folds one BA's events onto its rows; returns the keys of the rows changed, per table. */
export function foldBa(rows: ItemRows, list: readonly OnboardingItem[]): Record<ItemTable, Set<string>> {
  const touched = Object.fromEntries(ITEM_TABLES.map((n) => [n, new Set<string>()])) as Record<ItemTable, Set<string>>;
  const put = (name: ItemTable, row: Record<string, unknown>) => {
    const key = keyOf(name, row);
    rows[name].set(key, row);
    touched[name].add(key);
  };
  for (const { stored, event } of list) evolveItems(rows, stored, event as OnboardingEvent, put);
  return touched;
}

export const onboardingItemsProjection: Projection = {
  name: 'onboarding_items',
  tables: ITEM_TABLES,
  schema,
  apply,
};
