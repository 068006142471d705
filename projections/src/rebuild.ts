import pg, { type Pool, type PoolClient } from 'pg';
import type { EventStore } from '../../domain/src/event-store/port';
import type { StoredEvent } from '../../domain/src/shared/events';
import { CHECKPOINTS_DDL, lockCheckpoint, saveCheckpoint } from './checkpoints';
import { REBUILD_SUFFIX, type Projection, type TableNames } from './projection';
import { allProjections } from './registry';

/**
 * `npm run projections:rebuild` (design.md §5): every projection is built from position 0 into fresh tables
 * beside the live ones, while the live ones keep serving and the projector keeps running. Then, in one
 * transaction holding every projection's checkpoint lock (which the projector takes before each write), the
 * rebuild applies whatever was appended meanwhile, drops the live tables, renames the fresh ones into place
 * and sets the checkpoints to the position it reached. Events appended after that lie beyond the new
 * checkpoints, so the projector applies them: nothing is lost or applied twice.
 */
export { REBUILD_SUFFIX };
export const rebuildTables: TableNames = (base) => `${base}${REBUILD_SUFFIX}`;

export type RebuildOptions = {
  pool: Pool;
  store: Pick<EventStore, 'readAll'>;
  projections?: readonly Projection[];
  /**
   * Events per page (and per transaction) while building. A page is held until every projection has applied
   * it (and up to LOOKAHEAD more are read ahead), so this bounds the rebuild's memory: 5,000 costs no speed
   * against 20,000 but holds a quarter of the events (peak RSS about 290 MB instead of 400 MB at 100,000).
   */
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

/**
 * The statements that put the rebuilt tables in place of the live ones: each live table dropped, its rebuilt
 * table renamed over it, then the constraints and indexes carrying the suffix renamed without it. They are
 * worked out from the catalog in one query and sent as one multi-statement string: the swap holds every
 * projector off, so it should not wait on a round trip per table, constraint and index (about 200 of them).
 */
async function swapStatements(client: PoolClient, bases: readonly string[]): Promise<string[]> {
  const fresh = bases.map(rebuildTables);
  // By oid, which a table rename keeps. Renaming a primary key or unique constraint renames its index too:
  // only the indexes no suffixed constraint renames are renamed on their own.
  const { rows } = await client.query<{ sql: string }>(
    `SELECT format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I', replace(t.relname, $2, ''), k.conname,
                   replace(k.conname, $2, '')) AS sql, 0 AS step
     FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
     WHERE k.conrelid = ANY($1::regclass[]) AND strpos(k.conname, $2) > 0
     UNION ALL
     SELECT format('ALTER INDEX %I RENAME TO %I', c.relname, replace(c.relname, $2, '')), 1
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = ANY($1::regclass[]) AND strpos(c.relname, $2) > 0
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND strpos(k.conname, $2) > 0)
     ORDER BY step`,
    [fresh, REBUILD_SUFFIX],
  );
  return [
    ...bases.flatMap((base) => [`DROP TABLE IF EXISTS ${base} CASCADE`, `ALTER TABLE ${rebuildTables(base)} RENAME TO ${base}`]),
    ...rows.map((r) => r.sql),
  ];
}

/** A plain index of a rebuild table, dropped for the load and created again once its table is loaded. */
type DeferredIndex = { table: string; def: string };

/**
 * Drops the rebuild tables' plain indexes (not those backing a constraint: upserts need their keys) and
 * returns their definitions: building an index once over the loaded rows is much cheaper than maintaining
 * it row by row during the load.
 */
async function deferIndexes(client: PoolClient, tables: readonly string[]): Promise<DeferredIndex[]> {
  const { rows } = await client.query<{ name: string; table: string; def: string }>(
    `SELECT quote_ident(c.relname) AS name, t.relname AS table, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
     WHERE i.indrelid = ANY($1::regclass[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [tables],
  );
  if (rows.length > 0) await client.query(rows.map((r) => `DROP INDEX ${r.name}`).join(';\n'));
  return rows.map(({ table, def }) => ({ table, def }));
}

/**
 * Makes a projection's loaded tables ready for the swap: their deferred indexes, then statistics (fresh
 * tables have none: without them the planner guesses, and a filtered list page over 100,000 rows goes from
 * an index walk to a sort of every match). Run as soon as that projection has applied the last page, so it
 * overlaps the projections still loading.
 */
async function finishTables(bulk: Pool, tables: readonly string[], indexes: readonly DeferredIndex[]): Promise<void> {
  await Promise.all(
    indexes
      .filter((index) => tables.includes(index.table))
      .map((index) =>
        inTransaction(bulk, async (c) => {
          await c.query(`SET LOCAL maintenance_work_mem = '128MB'`);
          await c.query(index.def);
        }),
      ),
  );
  await Promise.all(tables.map((table) => bulk.query(`ANALYZE ${table}`)));
}

/**
 * The bulk build: every page of events, in order, applied by each projection in its own transaction on its
 * own connection. Each projection works through the pages at its own pace (at most LOOKAHEAD pages ahead
 * of the slowest), so while PostgreSQL writes one projection's page, this process prepares another's. A
 * projection past the last page is `finished` (indexes, statistics) while the others still load.
 */
const LOOKAHEAD = 2;

async function buildPages(
  bulk: Pool,
  store: Pick<EventStore, 'readAll'>,
  projections: readonly Projection[],
  pageSize: number,
  onPage: ((position: number) => Promise<void> | void) | undefined,
  log: (line: string) => void,
  finished: (projection: Projection) => Promise<void>,
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
        await finished(projection);
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
  const pageSize = options.pageSize ?? 5_000;
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
    await client.query(projections.map((p) => p.schema(rebuildTables)).join('\n;\n'));
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
      const finished = (p: Projection) => finishTables(bulk, p.tables.map(rebuildTables), indexes);
      const built = await buildPages(bulk, store, projections, pageSize, options.onPage, log, finished);
      position = built.position;
      count = built.count;
      log(`rebuild: ${count} events applied and ${indexes.length} indexes built in ${Date.now() - started} ms`);
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
    const statements = await swapStatements(client, projections.flatMap((p) => p.tables));
    if (statements.length > 0) await client.query(statements.join(';\n'));
    for (const p of projections) await saveCheckpoint(client, p.name, position);
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
