import pg, { type Pool, type PoolClient } from 'pg';
import type { EventStore } from '../../domain/src/event-store/port';
import type { StoredEvent } from '../../domain/src/shared/events';
import { CHECKPOINTS_DDL, lockCheckpoint, saveCheckpoint } from './checkpoints';
import type { Projection, TableNames } from './projection';
import { allProjections } from './registry';

/**
 * `npm run projections:rebuild` (design.md §5): every projection is built from position 0 into fresh tables
 * beside the live ones, while the live ones keep serving and the projector keeps running. Then, in one
 * transaction holding every projection's checkpoint lock (which the projector takes before each write), the
 * rebuild applies whatever was appended meanwhile, drops the live tables, renames the fresh ones into place
 * and sets the checkpoints to the position it reached. Events appended after that lie beyond the new
 * checkpoints, so the projector applies them: nothing is lost or applied twice.
 */
export const REBUILD_SUFFIX = '__rebuild';
export const rebuildTables: TableNames = (base) => `${base}${REBUILD_SUFFIX}`;

export type RebuildOptions = {
  pool: Pool;
  store: Pick<EventStore, 'readAll'>;
  projections?: readonly Projection[];
  /** Events per page (and per transaction) while building. */
  pageSize?: number;
  log?: (line: string) => void;
  /** Called after each page built; tests append events here to prove the swap catches them. */
  onPage?: (position: number) => Promise<void> | void;
  /** Called between the bulk build and the swap; tests append events here that only the swap can catch. */
  beforeSwap?: () => Promise<void> | void;
  /** false: build only and leave the `__rebuild` tables beside the live ones (to compare them). */
  swap?: boolean;
};

export type RebuildResult = {
  position: number;
  events: number;
  /** Of `events`, how many were appended during the build and applied inside the swap transaction. */
  swapEvents: number;
  ms: number;
  eventsPerSecond: number;
};

async function inTransaction(db: Pool, work: (client: PoolClient) => Promise<void>): Promise<void> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

async function applyPage(
  client: PoolClient,
  projections: readonly Projection[],
  events: readonly StoredEvent[],
): Promise<void> {
  for (const p of projections) await p.apply(client, events, rebuildTables);
}

export async function dropRebuildTables(
  db: Pick<Pool | PoolClient, 'query'>,
  projections: readonly Projection[],
): Promise<void> {
  const tables = projections.flatMap((p) => p.tables.map(rebuildTables));
  if (tables.length > 0) await db.query(`DROP TABLE IF EXISTS ${tables.join(', ')} CASCADE`);
}

/** Renames the rebuilt table over the live name, with its constraints and indexes losing the suffix too. */
async function swapTable(client: PoolClient, base: string): Promise<void> {
  const fresh = rebuildTables(base);
  await client.query(`DROP TABLE IF EXISTS ${base} CASCADE`);
  await client.query(`ALTER TABLE ${fresh} RENAME TO ${base}`);
  const constraints = await client.query<{ sql: string }>(
    `SELECT format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I', $1::text, conname, replace(conname, $2, '')) AS sql
     FROM pg_constraint WHERE conrelid = $1::regclass AND strpos(conname, $2) > 0`,
    [base, REBUILD_SUFFIX],
  );
  for (const { sql } of constraints.rows) await client.query(sql);
  // Renaming a primary key or unique constraint renamed its index already; the plain indexes remain.
  const indexes = await client.query<{ sql: string }>(
    `SELECT format('ALTER INDEX %I RENAME TO %I', c.relname, replace(c.relname, $2, '')) AS sql
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = $1::regclass AND strpos(c.relname, $2) > 0`,
    [base, REBUILD_SUFFIX],
  );
  for (const { sql } of indexes.rows) await client.query(sql);
}

/**
 * Drops the rebuild tables' plain indexes (not those backing a constraint: upserts need their keys) and
 * returns their definitions: building an index once over the loaded rows is much cheaper than maintaining
 * it row by row during the load.
 */
async function deferIndexes(client: PoolClient, tables: readonly string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT quote_ident(c.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = ANY($1::regclass[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [tables],
  );
  for (const r of rows) await client.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => r.def);
}

/**
 * The bulk build: every page of events, in order, applied by each projection in its own transaction on its
 * own connection. Each projection works through the pages at its own pace (at most LOOKAHEAD pages ahead
 * of the slowest), so while PostgreSQL writes one projection's page, this process prepares another's.
 */
const LOOKAHEAD = 2;

async function buildPages(
  bulk: Pool,
  store: Pick<EventStore, 'readAll'>,
  projections: readonly Projection[],
  pageSize: number,
  onPage: ((position: number) => Promise<void> | void) | undefined,
  log: (line: string) => void,
): Promise<{ position: number; count: number }> {
  // Page i is read once, after page i-1 (it starts where that one ended), and dropped when all are past it.
  const pages = new Map<number, Promise<readonly StoredEvent[]>>();
  const sizes: { events: number; last: number }[] = [];
  let requested = -1;
  const pageAt = (i: number): Promise<readonly StoredEvent[]> => {
    for (; requested < i; ) {
      const previous = requested < 0 ? Promise.resolve(null) : pages.get(requested)!;
      requested += 1;
      const index = requested;
      const page = previous.then(async (before) => {
        if (before && before.length === 0) return [];
        const events = await store.readAll(before ? before[before.length - 1]!.globalPosition : 0, pageSize);
        sizes[index] = { events: events.length, last: events[events.length - 1]?.globalPosition ?? 0 };
        return events;
      });
      page.catch(() => undefined); // awaited by a worker; this only keeps an abandoned read from going unhandled
      pages.set(requested, page);
    }
    return pages.get(i)!;
  };

  const done = projections.map(() => -1);
  let failed = false;
  let waiting: (() => void)[] = [];
  const slowest = () => Math.min(...done);
  let reported = -1;
  let count = 0;
  let position = 0;
  let reporting: Promise<void> = Promise.resolve();

  const progressed = () => {
    const upTo = slowest();
    for (const [i] of pages) if (i < upTo) pages.delete(i);
    const wake = waiting;
    waiting = [];
    for (const w of wake) w();
  };

  const worker = async (projection: Projection, j: number) => {
    for (let i = 0; !failed; i += 1) {
      while (!failed && i > slowest() + LOOKAHEAD) await new Promise<void>((r) => waiting.push(r));
      if (failed) return;
      void pageAt(i + 1);
      const page = await pageAt(i);
      if (page.length === 0) {
        done[j] = Number.MAX_SAFE_INTEGER;
        progressed();
        return;
      }
      await inTransaction(bulk, (c) => projection.apply(c, page, rebuildTables));
      done[j] = i;
      // The slowest projection finishing a page completes it: count it and tell the caller, in page order.
      for (;;) {
        const size = sizes[reported + 1];
        if (reported >= slowest() || !size || size.events === 0) break;
        reported += 1;
        count += size.events;
        position = size.last;
        const at = position;
        if (count % (pageSize * 10) < size.events) log(`rebuild: ${count} events applied (position ${at})`);
        if (onPage) reporting = reporting.then(() => onPage(at));
      }
      progressed();
      await reporting;
    }
  };

  try {
    await Promise.all(projections.map(worker));
  } catch (e) {
    failed = true;
    progressed();
    throw e;
  }
  await reporting;
  if (projections.length === 0) {
    // Nothing to build: still read to the end, so the position is the head.
    for (let i = 0; (await pageAt(i)).length > 0; i += 1) {
      count += sizes[i]?.events ?? 0;
      position = sizes[i]?.last ?? position;
      pages.delete(i);
    }
  }
  return { position, count };
}

export async function rebuildProjections(options: RebuildOptions): Promise<RebuildResult> {
  const { pool, store } = options;
  const projections = [...(options.projections ?? allProjections())].sort((a, b) => a.name.localeCompare(b.name));
  const pageSize = options.pageSize ?? 20_000;
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  let position = 0;
  let count = 0;

  const client = await pool.connect();
  const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [REBUILD_LOCK]);
  if (!lock[0]?.ok) {
    client.release();
    throw new Error('Another projections rebuild is running on this database');
  }
  try {
    await client.query(CHECKPOINTS_DDL);
    await dropRebuildTables(client, projections);
    for (const p of projections) await client.query(p.schema(rebuildTables));
    const indexes = await deferIndexes(client, projections.flatMap((p) => p.tables.map(rebuildTables)));

    // One connection per projection, so the projections' writes use every core; the fresh tables are thrown
    // away if we crash before the swap, so their commits need not wait for the disk.
    const bulk = new pg.Pool({
      ...pool.options,
      max: Math.max(1, projections.length),
      application_name: 'projections-rebuild',
      options: '-c synchronous_commit=off',
    });
    bulk.on('error', () => undefined);
    try {
      const built = await buildPages(bulk, store, projections, pageSize, options.onPage, log);
      position = built.position;
      count = built.count;
      log(`rebuild: ${count} events applied in ${Date.now() - started} ms; building ${indexes.length} indexes`);
      await Promise.all(
        indexes.map((def) =>
          inTransaction(bulk, async (c) => {
            await c.query(`SET LOCAL maintenance_work_mem = '128MB'`);
            await c.query(def);
          }),
        ),
      );
      // Fresh tables have no statistics yet: without them the planner guesses, and a filtered list page over
      // 100,000 rows goes from an index walk to a sort of every match.
      await Promise.all(
        projections.flatMap((p) => p.tables.map((table) => bulk.query(`ANALYZE ${rebuildTables(table)}`))),
      );
    } finally {
      await bulk.end();
    }

    if (options.swap === false) {
      const ms = Date.now() - started;
      return { position, events: count, swapEvents: 0, ms, eventsPerSecond: rate(count, ms) };
    }

    log(`rebuild: tables ready after ${Date.now() - started} ms; swapping`);
    await options.beforeSwap?.();
    const bulkCount = count;
    await client.query('BEGIN');
    // Waits for any projector transaction in flight, and holds projectors off until the swap commits.
    for (const p of projections) await lockCheckpoint(client, p.name);
    for (;;) {
      const page = await store.readAll(position, pageSize);
      const last = page[page.length - 1];
      if (!last) break;
      await applyPage(client, projections, page);
      position = last.globalPosition;
      count += page.length;
    }
    for (const p of projections) {
      for (const table of p.tables) await swapTable(client, table);
      await saveCheckpoint(client, p.name, position);
    }
    await client.query('COMMIT');
    const ms = Date.now() - started;
    const names = projections.map((p) => p.name).join(', ');
    log(`rebuild: ${names} rebuilt from ${count} events up to position ${position} in ${ms} ms`);
    return { position, events: count, swapEvents: count - bulkCount, ms, eventsPerSecond: rate(count, ms) };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    await dropRebuildTables(client, projections).catch(() => undefined);
    throw e;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [REBUILD_LOCK]).catch(() => undefined);
    client.release();
  }
}

/** Arbitrary constant: one rebuild at a time per database (the `__rebuild` tables are shared). */
const REBUILD_LOCK = 7_340_032;

const rate = (events: number, ms: number): number => Math.round((events * 1000) / Math.max(ms, 1));
