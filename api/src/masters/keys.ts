import type pg from 'pg';
import type { EventStore } from '../../../domain/src/event-store/port';
import { fold } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import { masterDecider } from '../../../domain/src/masters/decide';
import {
  duplicateMessage,
  keyParts,
  keyText,
  uniqueKeysOf,
  uniqueKeyText,
  type MasterDefinition,
  type MasterValues,
} from '../../../domain/src/masters/definitions';
import { masterItemStreamId, type MasterEvent } from '../../../domain/src/masters/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { findByUniqueKey } from '../../../projections/src/masters/masters.queries';

/*
 * Uniqueness and ids of master items: operational state beside the events (not events themselves).
 *
 * `master_keys` holds one claim per unique key of an item (the normalised, lower-case values of the key's
 * fields). The API claims an item's keys before appending its events, so two concurrent creates of "Pune" in
 * Maharashtra cannot both succeed: the primary key lets only one insert through. A claim whose item stream
 * does not exist (the process died between claim and append) is stale after a grace period and may be taken
 * over. Items written without claims (the reference data, loaded through the decider) are caught by a second
 * check against the read model.
 *
 * `master_item_id_seq` numbers new items from 100000 up; the reference data keeps its own stable ids below.
 */
export const MASTERS_SCHEMA_SQL = /* sql */ `
create table if not exists master_keys (
  master text not null,
  key text not null,
  item_id text not null,
  claimed_at timestamptz not null default now(),
  primary key (master, key)
);
create sequence if not exists master_item_id_seq start with 100000 minvalue 100000;`;

export async function ensureMastersSchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  await db.query(MASTERS_SCHEMA_SQL);
}

/** A claim without its item's stream is taken over only after this long: the create may still be in flight. */
export const STALE_CLAIM_MS = 60_000;

export async function nextMasterId(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ id: string }>(`select nextval('master_item_id_seq')::text as id`);
  return Number(rows[0]!.id);
}

type Key = { fields: readonly string[]; key: string; parts: string[] };

export function keysOf(def: MasterDefinition, values: MasterValues): Key[] {
  return uniqueKeysOf(def).map((fields) => {
    const parts = keyParts(fields, values);
    return { fields, key: keyText(fields, parts), parts };
  });
}

const conflict = (def: MasterDefinition, fields: readonly string[]) =>
  new DomainError('conflict', duplicateMessage(def, fields), Object.fromEntries(fields.map((f) => [f, duplicateMessage(def, fields)])));

/** The current values of an item from its stream (not the read model, which may lag), or null if none. */
async function currentValues(store: EventStore, resource: string, id: string): Promise<MasterValues | null> {
  const events = await store.readStream(masterItemStreamId(resource, /^\d+$/.test(id) ? Number(id) : id));
  const state = fold(masterDecider, events.map((e: StoredEvent) => ({ type: e.type, data: e.data }) as MasterEvent));
  return state.exists ? state.values : null;
}

export type Claims = {
  /** After the append: drop the claims of keys the item no longer has. */
  commit: () => Promise<void>;
  /** The append failed: give back what this call claimed. */
  release: () => Promise<void>;
};

/**
 * Claims the keys of `values` for item `id` (`before`: its values until now, null for a new item). Throws a
 * 409 naming the key when another item holds one of them.
 */
export async function claimKeys(
  pool: pg.Pool,
  store: EventStore,
  def: MasterDefinition,
  id: string,
  values: MasterValues,
  before: MasterValues | null,
): Promise<Claims> {
  const next = keysOf(def, values);
  const previous = before ? keysOf(def, before) : [];
  const kept = new Set(previous.map((k) => k.key));
  const claimed: string[] = [];
  const release = async () => {
    if (claimed.length === 0) return;
    await pool.query(`delete from master_keys where master = $1 and key = any($2::text[]) and item_id = $3`, [
      def.resource,
      claimed,
      id,
    ]);
  };
  try {
    for (const k of next) {
      if (kept.has(k.key)) continue;
      await claimOne(pool, store, def, id, k);
      claimed.push(k.key);
      // Items that never claimed (reference data) are found in the read model.
      const holder = await findByUniqueKey(pool, def.resource, k.fields, k.parts, id);
      if (holder !== null) throw conflict(def, k.fields);
    }
  } catch (err) {
    await release();
    throw err;
  }
  const nextKeys = new Set(next.map((k) => k.key));
  const dropped = previous.filter((k) => !nextKeys.has(k.key)).map((k) => k.key);
  return {
    release,
    commit: async () => {
      if (dropped.length === 0) return;
      await pool.query(`delete from master_keys where master = $1 and key = any($2::text[]) and item_id = $3`, [
        def.resource,
        dropped,
        id,
      ]);
    },
  };
}

async function claimOne(pool: pg.Pool, store: EventStore, def: MasterDefinition, id: string, k: Key): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inserted = await pool.query(
      `insert into master_keys (master, key, item_id) values ($1, $2, $3) on conflict do nothing`,
      [def.resource, k.key, id],
    );
    if (inserted.rowCount === 1) return;
    const { rows } = await pool.query<{ item_id: string; age_ms: number }>(
      `select item_id, (extract(epoch from now() - claimed_at) * 1000)::float8 as age_ms
         from master_keys where master = $1 and key = $2`,
      [def.resource, k.key],
    );
    const holder = rows[0];
    if (!holder) continue; // released meanwhile: try again
    if (holder.item_id === id) return;
    const values = await currentValues(store, def.resource, holder.item_id);
    // Held while the holder's current values still give this key (or, without a stream yet, while the claim is young).
    const stillHeld = values !== null ? uniqueKeyText(k.fields, values) === k.key : holder.age_ms < STALE_CLAIM_MS;
    if (stillHeld) throw conflict(def, k.fields);
    // Stale: its item never came to be or no longer has this key. Taken over only if nobody else did first.
    const taken = await pool.query(
      `update master_keys set item_id = $3, claimed_at = now() where master = $1 and key = $2 and item_id = $4`,
      [def.resource, k.key, id, holder.item_id],
    );
    if (taken.rowCount === 1) return;
  }
  throw conflict(def, k.fields);
}
