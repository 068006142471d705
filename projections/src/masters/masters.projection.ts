import type { PoolClient } from 'pg';
import { masterByResource, uniqueKeysOf, uniqueKeyText, type MasterDefinition, type MasterValues } from '../../../domain/src/masters/definitions';
import { isMasterEvent, MASTER_STREAM_PREFIX, type MasterEvent } from '../../../domain/src/masters/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';
import { upsertRows, type Column } from '../sql';

/**
 * The `masters` read model: one row per master item (`master_items`, every master in one table keyed by
 * resource and id) and the Masters dashboard's counts (`master_counts`). A page of events is folded per item
 * in memory from the stored row, written back with one guarded upsert (stream version), and the counts of
 * the masters touched are recounted from the table, so a page applied twice changes nothing.
 */
export type MasterItemRecord = {
  master: string;
  id: string;
  /** The id as a number for idKind 'int' (sorting, the API's JSON); null for code ids (companies). */
  num_id: number | null;
  status: 'active' | 'inactive';
  values: MasterValues;
  /** Lower-case display and code values: what `q` searches (trigram index). */
  search: string;
  /** Lower-case display value: the default order of lists and selects. */
  sort_name: string;
  version: number;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
  unique_keys: string[];
};

const COLUMNS: readonly Column<MasterItemRecord>[] = [
  { name: 'master', type: 'text' },
  { name: 'id', type: 'text' },
  { name: 'num_id', type: 'bigint' },
  { name: 'status', type: 'text' },
  { name: 'values', type: 'jsonb' },
  { name: 'search', type: 'text' },
  { name: 'sort_name', type: 'text' },
  { name: 'version', type: 'integer' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
  { name: 'updated_by', type: 'text' },
  { name: 'unique_keys', type: 'text[]' },
];

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** What `q` matches: the display value plus every code and name field, lower-case. */
export function searchTextOf(def: MasterDefinition | undefined, values: MasterValues): string {
  if (!def) return '';
  const names = [def.display, ...def.fields.filter((f) => f.kind === 'code' || f.kind === 'name').map((f) => f.name)];
  return [...new Set(names)]
    .map((n) => text(values[n]))
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
}

export const mastersProjection: Projection = {
  name: 'masters',
  tables: ['master_items', 'master_counts'],
  schema: (t: TableNames) => `
    -- Trigram search for q (ILIKE '%…%'); where the extension cannot be created the lists scan instead.
    DO $$ BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN NULL;
    END $$;
    CREATE TABLE IF NOT EXISTS ${t('master_items')} (
      master text NOT NULL,
      id text NOT NULL,
      num_id bigint,
      status text NOT NULL,
      values jsonb NOT NULL,
      search text NOT NULL,
      sort_name text NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      updated_by text,
      PRIMARY KEY (master, id)
    );
    CREATE INDEX IF NOT EXISTS ${t('master_items')}_sort_idx ON ${t('master_items')} (master, sort_name, num_id, id);
    -- What BAs page through (active rows only, in display order) without skipping inactive ones.
    CREATE INDEX IF NOT EXISTS ${t('master_items')}_active_sort_idx ON ${t('master_items')} (master, sort_name, num_id) WHERE status = 'active';
    CREATE INDEX IF NOT EXISTS ${t('master_items')}_num_idx ON ${t('master_items')} (master, num_id);
    CREATE INDEX IF NOT EXISTS ${t('master_items')}_values_idx ON ${t('master_items')} USING gin (values jsonb_path_ops);
    -- Each unique key of the item as the api claims it (uniqueKeyText): the api's check for a holder that never
    -- claimed (reference data) finds it by index. It scanned every item of the master before, a cost that grew
    -- with each create (the soak: 4 → 64 ms a create over 6,000 block reasons). NULL on rows written before the
    -- column: the check falls back to comparing values for those until the item changes or a rebuild.
    ALTER TABLE ${t('master_items')} ADD COLUMN IF NOT EXISTS unique_keys text[];
    -- Without GIN's pending list (fastupdate): every create searches this index, and a burst of creates piled
    -- thousands of entries into the list, which each search reads through until a vacuum merges it.
    CREATE INDEX IF NOT EXISTS ${t('master_items')}_unique_keys_idx ON ${t('master_items')} USING gin (unique_keys) WITH (fastupdate = off);
    ALTER INDEX ${t('master_items')}_unique_keys_idx SET (fastupdate = off);
    SELECT gin_clean_pending_list('${t('master_items')}_unique_keys_idx'::regclass);
    CREATE INDEX IF NOT EXISTS ${t('master_items')}_unkeyed_idx ON ${t('master_items')} (master) WHERE unique_keys IS NULL;
    DO $$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        EXECUTE 'CREATE INDEX IF NOT EXISTS ${t('master_items')}_search_idx ON ${t('master_items')} USING gin (search gin_trgm_ops)';
      END IF;
    END $$;
    CREATE TABLE IF NOT EXISTS ${t('master_counts')} (
      master text PRIMARY KEY,
      active integer NOT NULL,
      inactive integer NOT NULL
    );
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const mine = events.filter((e) => e.streamId.startsWith(MASTER_STREAM_PREFIX) && isMasterEvent(e));
    if (mine.length === 0) return;
    const items = t('master_items');

    const keyOf = (master: string, id: unknown) => `${master}\u0000${String(id)}`;
    const touched = new Map<string, { master: string; id: string }>();
    for (const e of mine) {
      const d = (e.data as MasterEvent['data']);
      touched.set(keyOf(d.master, d.id), { master: d.master, id: String(d.id) });
    }
    const keys = [...touched.values()];
    const { rows: stored } = await client.query<MasterItemRecord>(
      `SELECT master, id, num_id, status, values, search, sort_name, version, unique_keys,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, updated_by
         FROM ${items} t
         JOIN unnest($1::text[], $2::text[]) AS k(master, id) USING (master, id)`,
      [keys.map((k) => k.master), keys.map((k) => k.id)],
    );
    const rows = new Map(stored.map((r) => [keyOf(r.master, r.id), { ...r, num_id: r.num_id === null ? null : Number(r.num_id) }]));
    const statusBefore = new Map(stored.map((r) => [keyOf(r.master, r.id), r.status]));
    const changed = new Map<string, MasterItemRecord>();

    for (const e of mine) {
      const event = { type: e.type, data: e.data } as MasterEvent;
      const { master, id } = event.data;
      const key = keyOf(master, id);
      const row = rows.get(key);
      // A page applied again, or an event already in the stored row: nothing to do.
      if (row && e.version <= row.version) continue;
      const by = e.metadata.actor.name ?? e.metadata.actor.userId;
      const at = e.metadata.at;
      let next: MasterItemRecord | undefined;
      switch (event.type) {
        case 'MasterItemCreated': {
          if (row) break;
          const def = masterByResource(master);
          next = {
            master,
            id: String(id),
            num_id: typeof id === 'number' ? id : null,
            status: 'active',
            values: event.data.values,
            search: '',
            sort_name: '',
            version: e.version,
            created_at: at,
            updated_at: at,
            updated_by: by,
            unique_keys: [],
          };
          next.search = searchTextOf(def, next.values);
          next.sort_name = text(def ? next.values[def.display] : '').toLowerCase();
          break;
        }
        case 'MasterItemChanged': {
          if (!row) break;
          const def = masterByResource(master);
          const values = { ...row.values, ...event.data.after };
          next = {
            ...row,
            values,
            search: searchTextOf(def, values),
            sort_name: text(def ? values[def.display] : '').toLowerCase(),
            version: e.version,
            updated_at: at,
            updated_by: by,
          };
          break;
        }
        case 'MasterItemStatusChanged':
          if (!row) break;
          next = { ...row, status: event.data.status, version: e.version, updated_at: at, updated_by: by };
          break;
        default:
          break;
      }
      if (!next) continue;
      // Kept from the values on every write, so a row written before the column gets its keys on its next change.
      const nextDef = masterByResource(master);
      next.unique_keys = nextDef ? uniqueKeysOf(nextDef).map((fields) => uniqueKeyText(fields, next!.values)) : [];
      rows.set(key, next);
      changed.set(key, next);
    }

    if (changed.size === 0) return;
    await upsertRows(client, items, COLUMNS, [...changed.values()], {
      conflict: ['master', 'id'],
      guard: `${items}.version < excluded.version`,
    });
    // Counts move by the status each written row had before this page and has now. They were recounted from
    // every item of the master on each page, which grows with the master (4.5 ms a page at 6,000 block reasons).
    // One writer (this projection, under its checkpoint lock) and rows read in this transaction, so the deltas
    // are exact; the projection's test compares the counts with a GROUP BY recount.
    const deltas = new Map<string, { active: number; inactive: number }>();
    for (const [key, row] of changed) {
      const before = statusBefore.get(key);
      if (before === row.status) continue;
      const d = deltas.get(row.master) ?? { active: 0, inactive: 0 };
      if (before === 'active' || before === 'inactive') d[before] -= 1;
      if (row.status === 'active' || row.status === 'inactive') d[row.status] += 1;
      deltas.set(row.master, d);
    }
    if (deltas.size === 0) return;
    const moved = [...deltas];
    await client.query(
      `INSERT INTO ${t('master_counts')} AS c (master, active, inactive)
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[])
       ON CONFLICT (master) DO UPDATE SET active = c.active + excluded.active, inactive = c.inactive + excluded.inactive`,
      [moved.map(([m]) => m), moved.map(([, d]) => d.active), moved.map(([, d]) => d.inactive)],
    );
  },
};
