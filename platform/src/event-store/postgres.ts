import type pg from 'pg';
import {
  ConcurrencyError,
  DuplicateEventIdError,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type ReadStreamOptions,
} from '../../../domain/src/event-store/port';
import type { EventMetadata, NewEvent, StoredEvent } from '../../../domain/src/shared/events';
import { int4Array, jsonbArray, jsonbElement, textArray, uuidArray } from './binary-arrays';

export { DuplicateEventIdError };

/**
 * The PostgreSQL adapter of the EventStore port (design.md §2). An append is one call of a SQL function
 * (schema.ts): one round trip, serialised on the head row, so global positions are gapless and in commit
 * order, and the hash chain is extended inside the same transaction. The store created by
 * `createPostgresEventStore` also groups appends that arrive while one is in flight into a single call
 * (see createAppender); `appendToStream` appends on a given connection, e.g. in the caller's transaction.
 */


type Queryable = pg.Pool | pg.ClientBase;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Versions are `int` columns; the SQL function accepts up to nine digits. */
const MAX_VERSION = 999_999_999;

/** Checks an expected version and returns the text form `append_to_stream` takes. */
export function expectedText(streamId: string, expected: ExpectedVersion): string {
  if (expected === 'no_stream' || expected === 'stream_exists' || expected === 'any') return expected;
  const valid = typeof expected === 'number' && Number.isInteger(expected) && expected >= 0;
  if (valid && expected <= MAX_VERSION) return String(expected);
  throw new TypeError(
    `Invalid expectedVersion ${JSON.stringify(expected)} for ${streamId}: ` +
      `a version from 0 to ${MAX_VERSION}, 'no_stream', 'stream_exists' or 'any'`,
  );
}

/**
 * Bad input is a programming error: refuse it before touching the store, so nothing is written. Shared by
 * both adapters so they refuse the same things.
 */
export function validateEvents(streamId: string, events: readonly NewEvent[]): void {
  if (typeof streamId !== 'string' || streamId.length === 0) {
    throw new TypeError('streamId must be a non-empty string');
  }
  if (!Array.isArray(events)) throw new TypeError(`events for ${streamId} must be an array`);
  const seen = new Set<string>();
  events.forEach((e, i) => {
    const where = `event ${i} for ${streamId}`;
    if (typeof e?.eventId !== 'string' || !UUID.test(e.eventId)) {
      throw new TypeError(`${where}: eventId must be a UUID`);
    }
    const id = e.eventId.toLowerCase();
    if (seen.has(id)) throw new TypeError(`${where}: eventId ${e.eventId} appears twice in one append`);
    seen.add(id);
    if (typeof e.type !== 'string' || e.type.length === 0) {
      throw new TypeError(`${where}: type must be a non-empty string`);
    }
    if (e.data === undefined) throw new TypeError(`${where}: data is missing`);
    if (typeof e.metadata !== 'object' || e.metadata === null || Array.isArray(e.metadata)) {
      throw new TypeError(`${where}: metadata must be an object`);
    }
  });
}

const actualFrom = (detail: string | undefined): number | 'no_stream' =>
  detail === undefined || detail === 'no_stream' ? 'no_stream' : Number(detail);

/**
 * An append's events as the columns append_columns takes (schema.ts). Each event's data is kept as its jsonb
 * element bytes, built when the append is queued: a queued append waits for the call in flight, and a string
 * living that long is promoted into V8's old generation (a mass upload's 100,000 of them grew it by hundreds of
 * MB before a full collection); a Buffer is a small object whose bytes live outside the heap.
 */
type Payload = {
  ids: string[];
  types: string[];
  data: Buffer[];
  /** Each event's metadata as JSON; events sharing one metadata object share one string. */
  metadata: string[];
};

function toPayload(events: readonly NewEvent[]): Payload {
  const payload: Payload = { ids: [], types: [], data: [], metadata: [] };
  let lastObject: unknown;
  let lastText = '';
  for (const e of events) {
    payload.ids.push(e.eventId);
    payload.types.push(e.type);
    payload.data.push(jsonbElement(JSON.stringify(e.data ?? null)));
    // A decision's events (and a mass upload's appends) carry one metadata object: rendered once.
    if (e.metadata !== lastObject) {
      lastObject = e.metadata;
      lastText = JSON.stringify(e.metadata);
    }
    payload.metadata.push(lastText);
  }
  return payload;
}

type ColumnAppend = { streamId: string; expected: string; payload: Payload };

const APPEND_COLUMNS = `select append_columns($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[],
  $7::int[], $8::jsonb[]) as results`;

/** append_columns' parameters for these appends, each distinct metadata text sent once. */
function columnsOf(appends: readonly ColumnAppend[]): Buffer[] {
  const ids: string[] = [];
  const types: string[] = [];
  const data: Buffer[] = [];
  const metaIndex: number[] = [];
  const metaTexts: string[] = [];
  const indexOf = new Map<string, number>();
  for (const { payload } of appends) {
    // Element by element: spreading an append's arrays into push() overflows the stack past ~120,000 events.
    for (let i = 0; i < payload.ids.length; i += 1) {
      ids.push(payload.ids[i]!);
      types.push(payload.types[i]!);
      data.push(payload.data[i]!);
    }
    for (const text of payload.metadata) {
      let index = indexOf.get(text);
      if (index === undefined) {
        metaTexts.push(text);
        index = metaTexts.length;
        indexOf.set(text, index);
      }
      metaIndex.push(index);
    }
  }
  return [
    textArray(appends.map((a) => a.streamId)),
    textArray(appends.map((a) => a.expected)),
    int4Array(appends.map((a) => a.payload.ids.length)),
    uuidArray(ids),
    textArray(types),
    jsonbArray(data),
    int4Array(metaIndex),
    jsonbArray(metaTexts.map(jsonbElement)),
  ];
}

export type ItemResult = { status: string; next: number; last: number | string; replayed: boolean; detail: string | null };

/** One call of append_columns: a result per append, in order. */
async function appendColumns(db: Queryable, appends: readonly ColumnAppend[]): Promise<ItemResult[]> {
  const result = await db.query<{ results: ItemResult[] }>({
    name: 'event_store_append_columns',
    text: APPEND_COLUMNS,
    values: columnsOf(appends),
  });
  const results = result.rows[0]?.results ?? [];
  if (results.length !== appends.length) throw new Error('append_columns returned fewer results than appends');
  return results;
}

/**
 * Several appends in one call of append_columns on a given connection, answered per append as the SQL function
 * answers (status 'ok', 'ESCNF' or 'ESDUP'); what the appender below sends, for callers and tests that need the
 * call itself.
 */
export async function appendMany(
  db: Queryable,
  appends: readonly { streamId: string; expectedVersion: ExpectedVersion; events: readonly NewEvent[] }[],
): Promise<ItemResult[]> {
  const columns = appends.map(({ streamId, expectedVersion, events }) => {
    const expected = expectedText(streamId, expectedVersion);
    validateEvents(streamId, events);
    return { streamId, expected, payload: toPayload(events) };
  });
  return appendColumns(db, columns);
}

/** An append's result, or the error of a refused one. */
function outcome(
  r: ItemResult,
  streamId: string,
  expectedVersion: ExpectedVersion,
  firstEventId: string,
): (AppendResult & { replayed: boolean }) | Error {
  if (r.status === 'ok') return { nextExpectedVersion: r.next, lastGlobalPosition: Number(r.last), replayed: r.replayed };
  return refusal(r.status, r.detail, streamId, expectedVersion, firstEventId) ?? new Error(`append_columns: unknown status ${r.status}`);
}

/**
 * Appends through any connection, so a caller may do it inside its own transaction (e.g. with an inline
 * projection); the head row then stays locked until that transaction ends, which keeps the order right but
 * holds up every other writer: keep such transactions short.
 */
export async function appendToStream(
  db: Queryable,
  streamId: string,
  events: readonly NewEvent[],
  options: { expectedVersion: ExpectedVersion },
): Promise<AppendResult & { replayed: boolean }> {
  const expected = expectedText(streamId, options.expectedVersion);
  validateEvents(streamId, events);
  return appendOne(db, { streamId, expected, payload: toPayload(events) }, options.expectedVersion);
}

async function appendOne(db: Queryable, append: ColumnAppend, expectedVersion: ExpectedVersion): Promise<AppendResult & { replayed: boolean }> {
  const firstEventId = append.payload.ids[0] ?? '';
  let results: ItemResult[];
  try {
    results = await appendColumns(db, [append]);
  } catch (error) {
    throw uniqueViolation(error as Partial<pg.DatabaseError>, append.streamId, expectedVersion) ?? error;
  }
  const result = outcome(results[0]!, append.streamId, expectedVersion, firstEventId);
  if (result instanceof Error) throw result;
  return result;
}

/** The error for a refused append (append_split_locked's status), if it is one. */
function refusal(
  code: string | undefined,
  detail: string | null | undefined,
  streamId: string,
  expected: ExpectedVersion,
  firstEventId: string,
): Error | undefined {
  if (code === 'ESCNF') return new ConcurrencyError(streamId, expected, actualFrom(detail ?? undefined));
  if (code === 'ESDUP') return new DuplicateEventIdError(firstEventId, streamId, detail ?? null);
  return undefined;
}

function uniqueViolation(
  e: Partial<pg.DatabaseError>,
  streamId: string,
  expected: ExpectedVersion,
): Error | undefined {
  if (e.code !== '23505') return undefined;
  // A later event id of the append stands in another stream (only the first one is looked up beforehand).
  if (e.constraint === 'events_event_id_key') {
    const id = /\(event_id\)=\(([^)]+)\)/.exec(e.detail ?? '')?.[1] ?? '';
    return new DuplicateEventIdError(id, streamId, null);
  }
  // Only possible for a writer that bypassed the append functions' lock: still a concurrency conflict.
  if (e.constraint === 'events_stream_version_key') {
    return new ConcurrencyError(streamId, expected, 'no_stream');
  }
  return undefined;
}

/**
 * A queued append holds its payload, not its events: the event objects (a mass upload's are 100,000) then die
 * young instead of being kept, and promoted, while the call is in flight.
 */
type Pending = ColumnAppend & {
  eventCount: number;
  expectedVersion: ExpectedVersion;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

/**
 * Bounds of one coalesced call, so a batch stays a short transaction (~20-40 ms at the bound). Appends on
 * streams of their own go in set-based (append_columns_locked), so more of them per call only saves round trips.
 */
const MAX_ITEMS = 1000;
const MAX_EVENTS = 1000;
/**
 * Appends this large gain nothing from grouping (their own work dwarfs a flush) and go straight out on
 * their own connection, so the server parses one while another holds the lock.
 */
const ALONE_FROM_EVENTS = 200;
/** Coalesced calls at once (see pump). */
const CALLS_IN_FLIGHT = 2;

/**
 * Group commit for appends from one process. Appends are serialised in the database anyway (one head row),
 * and each transaction pays its own WAL flush while holding that lock, so concurrent single-event appends
 * would be limited by flushes one after another. Instead, while one call is in flight, the appends that
 * arrive queue up and go together as one `append_columns` call: one round trip, one commit, each append
 * still all-or-nothing and answered on its own. With a single caller this is exactly one call per append.
 * Large appends skip the queue (ALONE_FROM_EVENTS).
 */
function createAppender(pool: pg.Pool) {
  const queue: Pending[] = [];
  /** Streams with an append in a call not yet answered: a later append to one of them waits for that answer. */
  const streamsInFlight = new Set<string>();
  let queuedEvents = 0;
  let calls = 0;
  let scheduled = false;

  const take = (): Pending[] => {
    const batch: Pending[] = [];
    let events = 0;
    while (queue.length > 0 && batch.length < MAX_ITEMS) {
      const next = queue[0]!;
      if (batch.length > 0 && events + next.eventCount > MAX_EVENTS) break;
      // The queue's order is each stream's order: nothing passes an append whose stream is still in flight.
      if (streamsInFlight.has(next.streamId)) break;
      batch.push(queue.shift()!);
      events += next.eventCount;
    }
    queuedEvents -= events;
    return batch;
  };

  const single = async (p: Pending): Promise<void> => {
    try {
      const { nextExpectedVersion, lastGlobalPosition } = await appendOne(pool, p, p.expectedVersion);
      p.resolve({ nextExpectedVersion, lastGlobalPosition });
    } catch (error) {
      p.reject(error);
    }
  };

  const many = async (batch: Pending[]): Promise<void> => {
    let results: ItemResult[];
    try {
      results = await appendColumns(pool, batch);
    } catch {
      // The whole call failed (an event id standing in another stream, a dropped connection...): nothing of
      // it committed, or it did and a retry is idempotent. One call each, so only the faulty append fails.
      for (const p of batch) await single(p);
      return;
    }
    batch.forEach((p, i) => {
      const result = outcome(results[i]!, p.streamId, p.expectedVersion, p.payload.ids[0] ?? '');
      if (result instanceof Error) p.reject(result);
      else p.resolve({ nextExpectedVersion: result.nextExpectedVersion, lastGlobalPosition: result.lastGlobalPosition });
    });
  };
  const send = async (batch: Pending[]): Promise<void> => {
    calls += 1;
    for (const p of batch) streamsInFlight.add(p.streamId);
    try {
      if (batch.length === 1) await single(batch[0]!);
      else await many(batch);
    } finally {
      calls -= 1;
      for (const p of batch) streamsInFlight.delete(p.streamId);
      schedule();
    }
  };

  /**
   * Up to CALLS_IN_FLIGHT calls at once: while one holds the head lock, the server already parses the next
   * one's columns and renders its texts (about a third of a call's work) on another core.
   */
  const pump = (): void => {
    scheduled = false;
    while (calls < CALLS_IN_FLIGHT && queue.length > 0) {
      const batch = take();
      if (batch.length === 0) return;
      void send(batch);
    }
  };

  /**
   * One turn of the event loop first: callers woken by the previous call's answers append their next events
   * in promise callbacks, and this lets them all join the next call instead of trickling in. A queue that
   * already fills a call goes at once.
   */
  const schedule = (): void => {
    if (queue.length === 0 || calls >= CALLS_IN_FLIGHT) return;
    if (queue.length >= MAX_ITEMS || queuedEvents >= MAX_EVENTS) return pump();
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  };

  return (streamId: string, events: readonly NewEvent[], options: { expectedVersion: ExpectedVersion }) =>
    new Promise<AppendResult>((resolve, reject) => {
      const expected = expectedText(streamId, options.expectedVersion);
      validateEvents(streamId, events);
      const payload = toPayload(events);
      const { expectedVersion } = options;
      const pending: Pending = { streamId, eventCount: events.length, expectedVersion, expected, payload, resolve, reject };
      if (events.length >= ALONE_FROM_EVENTS) return void single(pending);
      queue.push(pending);
      queuedEvents += pending.eventCount;
      schedule();
    });
}

/** The columns below, in order. Rows come as arrays, which spares pg building an object per row. */
type EventRow = [
  globalPosition: string | number,
  streamId: string,
  version: number,
  eventId: string,
  type: string,
  data: unknown,
  metadata: EventMetadata,
  recordedAt: string,
  prevHash: string,
  hash: string,
];

// Loading a stream is on every command's path, so the server does what it does faster than Node:
// recorded_at comes formatted (parsing a timestamptz into a Date and back cost more than the rest of a row).
const COLUMNS = `global_position, stream_id, version, event_id, type, data, metadata,
  to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), prev_hash, hash`;

const toStored = (r: EventRow): StoredEvent => ({
  eventId: r[3],
  type: r[4],
  data: r[5],
  metadata: r[6],
  streamId: r[1],
  version: r[2],
  globalPosition: Number(r[0]),
  recordedAt: r[7],
  prevHash: r[8],
  hash: r[9],
});

const atLeast = (name: string, n: number, min: number): void => {
  if (!Number.isInteger(n) || n < min) {
    throw new TypeError(`${name} must be an integer of ${min} or more, got ${n}`);
  }
};

export async function readStream(
  db: Queryable,
  streamId: string,
  options: ReadStreamOptions = {},
): Promise<StoredEvent[]> {
  const from = options.fromVersion ?? 0;
  atLeast('fromVersion', from, 0);
  const result = await db.query<EventRow>({
    name: 'event_store_read_stream',
    rowMode: 'array',
    text: `select ${COLUMNS} from events where stream_id = $1 and version >= $2 order by version`,
    values: [streamId, from],
  });
  return result.rows.map(toStored);
}

export async function readAll(db: Queryable, after: number, limit: number): Promise<StoredEvent[]> {
  atLeast('after', after, 0);
  atLeast('limit', limit, 1);
  const result = await db.query<EventRow>({
    name: 'event_store_read_all',
    rowMode: 'array',
    // Positions are gapless, so the page is exactly the range (after, after + limit]. Bounding both ends
    // keeps the plan an index range scan even on stale statistics, where `> $1 order by … limit` may sort
    // the whole tail.
    text: `select ${COLUMNS} from events
            where global_position > $1 and global_position <= $1 + $2 order by global_position`,
    values: [after, limit],
  });
  if (result.rows.length > 0 || (await headPosition(db)) <= after) return result.rows.map(toStored);
  // An empty range below the head means events were deleted (tampering, which audit:verify reports): read
  // on past the hole rather than stall a projection there.
  const past = await db.query<EventRow>({
    name: 'event_store_read_all_past_gap',
    rowMode: 'array',
    text: `select ${COLUMNS} from events where global_position > $1 order by global_position limit $2`,
    values: [after, limit],
  });
  return past.rows.map(toStored);
}

/** The head row is updated in the appending transaction, so it is exactly the newest committed position. */
export async function headPosition(db: Queryable): Promise<number> {
  const result = await db.query<{ position: string | number }>({
    name: 'event_store_head_position',
    text: 'select position from event_store_head where id',
  });
  return Number(result.rows[0]?.position ?? 0);
}

/**
 * The pool belongs to the caller: `close()` stops this store from being used but leaves the pool open
 * (the api, worker and projector share one pool), unless `endPoolOnClose` hands the pool over to the store.
 */
export function createPostgresEventStore(
  pool: pg.Pool,
  options: { endPoolOnClose?: boolean } = {},
): EventStore {
  let closed = false;
  const open = (): pg.Pool => {
    if (closed) throw new Error('The event store is closed');
    return pool;
  };
  const append = createAppender(pool);
  return {
    appendToStream: async (streamId, events, opts) => {
      open();
      return append(streamId, events, opts);
    },
    readStream: async (streamId, opts) => readStream(open(), streamId, opts),
    readAll: async (after, limit) => readAll(open(), after, limit),
    headPosition: async () => headPosition(open()),
    close: async () => {
      if (closed) return;
      closed = true;
      if (options.endPoolOnClose) await pool.end();
    },
  };
}
