import type { Pool } from 'pg';
import { handleCommand } from '../domain/src/event-store/handle-command';
import { ConcurrencyError, type EventStore } from '../domain/src/event-store/port';
import { masterDecider } from '../domain/src/masters/decide';
import { masterItemStreamId, type MasterCommand } from '../domain/src/masters/events';
import {
  REFERENCE_DATA,
  REFERENCE_DATA_ACTOR,
  referenceCommandId,
  type ReferenceMaster,
} from '../domain/src/masters/reference-data';
import { DomainError } from '../domain/src/shared/errors';

/**
 * Loads the reference data (domain/src/masters/reference-data) through the masters' own commands, so every
 * row is an event an auditor can trace like any edit. Only items whose stream does not exist are created:
 * an item an administrator has changed, deactivated or that another run just created is never touched, and
 * rows added to the data in a later release arrive on the next start. Command ids are fixed per item, so a
 * run interrupted half way simply finishes on the next.
 */
export type LoadReferenceDataOptions = {
  /**
   * The PostgreSQL database holding the `events` table (PostgreSQL event store): finds the existing master
   * streams in one query. Without it (KurrentDB) each stream is read before it is created.
   */
  pool?: Pick<Pool, 'query'>;
  /** The data to load (tests load a part); default all of it. */
  data?: readonly ReferenceMaster[];
  /** Decision time recorded on the events (ISO); default now. */
  at?: string;
  /** Commands in flight at once: appends arriving together share one commit in the PostgreSQL store. */
  concurrency?: number;
  log?: (line: string) => void;
};

export type LoadReferenceDataResult = {
  /** Items this run decided to create (two runs at the same moment may both count one the store holds once). */
  created: number;
  existing: number;
  /** Global position of the last event appended (0 when nothing was): what to wait for the projector to pass. */
  lastGlobalPosition: number;
};

type Item = { resource: string; id: number | string; values: Record<string, unknown>; streamId: string };

const itemsOf = (data: readonly ReferenceMaster[]): Item[] =>
  data.flatMap(({ resource, rows }) =>
    rows.map(({ id, ...values }) => ({ resource, id, values, streamId: masterItemStreamId(resource, id) })),
  );

/** The streams among `streamIds` that hold events: one indexed query (unique (stream_id, version)). */
async function existingStreams(
  streamIds: readonly string[],
  store: EventStore,
  pool: LoadReferenceDataOptions['pool'],
  concurrency: number,
): Promise<Set<string>> {
  if (pool) {
    const { rows } = await pool.query<{ stream_id: string }>(
      'select distinct stream_id from events where stream_id = any($1::text[])',
      [streamIds],
    );
    return new Set(rows.map((r) => r.stream_id));
  }
  const found = new Set<string>();
  await inParallel(streamIds, concurrency, async (id) => {
    if ((await store.readStream(id)).length > 0) found.add(id);
  });
  return found;
}

async function inParallel<T>(items: readonly T[], concurrency: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  });
  await Promise.all(workers);
}

export async function loadReferenceData(
  store: EventStore,
  options: LoadReferenceDataOptions = {},
): Promise<LoadReferenceDataResult> {
  const data = options.data ?? REFERENCE_DATA;
  const concurrency = options.concurrency ?? 16;
  const at = options.at ?? new Date().toISOString();
  const items = itemsOf(data);
  const existing = await existingStreams(
    items.map((i) => i.streamId),
    store,
    options.pool,
    concurrency,
  );
  let created = 0;
  let lastGlobalPosition = 0;

  const create = async (item: Item): Promise<void> => {
    const command: MasterCommand = { type: 'CreateMasterItem', master: item.resource, id: item.id, values: item.values };
    const meta = {
      actor: REFERENCE_DATA_ACTOR,
      at,
      companyCode: null,
      correlationId: 'reference-data',
      causationId: null,
      workflowId: null,
      requestId: null,
      commandId: referenceCommandId(item.resource, item.id),
    };
    // A second loader (another process starting) may create the same item at the same moment: the retry
    // finds that loader's event under the same command id and appends nothing.
    for (let attempt = 1; ; attempt += 1) {
      try {
        const result = await handleCommand(store, item.streamId, masterDecider, command, meta);
        if (!result.replayed && result.lastGlobalPosition > 0) {
          created += 1;
          lastGlobalPosition = Math.max(lastGlobalPosition, result.lastGlobalPosition);
        }
        return;
      } catch (error) {
        if (error instanceof ConcurrencyError && attempt < 3) continue;
        // Someone else's item under this id (it exists now): left as it is.
        if (error instanceof DomainError && error.code === 'conflict') return;
        if (error instanceof DomainError)
          throw new Error(`reference data ${item.resource} ${item.id} was refused: ${error.message} ${JSON.stringify(error.errors ?? {})}`);
        throw error;
      }
    }
  };

  // Master by master in the data's order, so an item is created after the items it refers to.
  for (const master of data) {
    const todo = items.filter((i) => i.resource === master.resource && !existing.has(i.streamId));
    await inParallel(todo, concurrency, create);
  }
  const result = { created, existing: existing.size, lastGlobalPosition };
  options.log?.(`reference data: ${created} items created, ${existing.size} already there`);
  return result;
}

/**
 * For a database nothing else runs against yet (the tests' template, the bench, history recording): loads the
 * reference data into its PostgreSQL event store and brings every read model up to it, master_items filled
 * and every checkpoint at the head, as a first `npm start` leaves a database before anyone uses it.
 */
export async function loadReferenceDataWithReadModels(pool: Pool): Promise<LoadReferenceDataResult> {
  const { createPostgresEventStore } = await import('../platform/src/event-store/postgres');
  const { allProjections } = await import('../projections/src/registry');
  const { createProjector } = await import('../projections/src/runner');
  const store = createPostgresEventStore(pool);
  try {
    const result = await loadReferenceData(store, { pool });
    await createProjector({ pool, store, projections: allProjections(), log: () => undefined }).catchUp();
    return result;
  } finally {
    await store.close();
  }
}

/** `npm run reference-data`: loads what is missing into the configured store (safe beside a running system). */
async function main(): Promise<void> {
  const { loadConfig } = await import('../platform/src/config');
  const { openDatabase } = await import('../platform/src/db/connect');
  const { openEventStore } = await import('../platform/src/event-store/open');
  const config = loadConfig();
  const log = (line: string) => console.log(`[reference-data] ${line}`);
  const db = await openDatabase(config, { mode: 'app', log });
  const store = await openEventStore(config, db.pool);
  try {
    await loadReferenceData(store, { pool: config.eventStore.kind === 'postgres' ? db.pool : undefined, log });
  } finally {
    await store.close();
    await db.close();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
