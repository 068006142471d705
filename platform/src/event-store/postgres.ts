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

type AppendRow = { next_expected_version: number; last_global_position: string | number; replayed: boolean };

/**
 * What append_to_stream takes: the events' JSON, and their metadata once when they all share the same object.
 * The events go as UTF-8 bytes rather than a string: a queued append waits for the call in flight, and a
 * string living that long is promoted into V8's old generation, which a mass upload's 100,000 of them grow
 * by hundreds of MB before a full collection; a Buffer is a small object whose bytes live outside the heap.
 */
type Payload = {
  /** jsonb's binary format: the version byte, then the JSON (see jsonbBytes). */
  events: Buffer;
  metadata: string | null;
};

function toPayload(events: readonly NewEvent[]): Payload {
  const first = events[0]?.metadata;
  if (events.length > 1 && events.every((e) => e.metadata === first)) {
    // A decision's events carry one metadata object (handleCommand): send, parse and render it once.
    return {
      events: jsonbBytes(JSON.stringify(events.map((e) => ({ eventId: e.eventId, type: e.type, data: e.data ?? null })))),
      metadata: JSON.stringify(first),
    };
  }
  const own = events.map(({ eventId, type, data, metadata }) => ({
    eventId,
    type,
    data: data ?? null,
    metadata,
  }));
  return { events: jsonbBytes(JSON.stringify(own)), metadata: null };
}

/**
 * jsonb's binary wire format is a version byte (1) and the JSON text; node-postgres sends a Buffer parameter
 * in binary format, so JSON bytes go out without being turned back into a string.
 */
const JSONB_VERSION = 1;

/**
 * JSON text straight into a jsonb parameter, encoded once into its final buffer: a single append sends it
 * as it is (a mass upload's 1,000-event append is ~600 kB, which Buffer.from and a copy behind the version
 * byte cost twice); a coalesced call takes the JSON part with `subarray(1)`, without a copy.
 */
function jsonbBytes(json: string): Buffer {
  const out = Buffer.allocUnsafe(1 + Buffer.byteLength(json));
  out[0] = JSONB_VERSION;
  out.write(json, 1);
  return out;
}

function jsonbParameter(parts: readonly (string | Buffer)[]): Buffer {
  const chunks = parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part));
  const out = Buffer.allocUnsafe(1 + chunks.reduce((n, c) => n + c.length, 0));
  out[0] = JSONB_VERSION;
  let at = 1;
  for (const c of chunks) at += c.copy(out, at);
  return out;
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
  return appendValidated(db, streamId, events[0]?.eventId ?? '', options.expectedVersion, expected, toPayload(events));
}

async function appendValidated(
  db: Queryable,
  streamId: string,
  firstEventId: string,
  expectedVersion: ExpectedVersion,
  expected: string,
  payload: Payload,
): Promise<AppendResult & { replayed: boolean }> {
  try {
    const result = await db.query<AppendRow>({
      name: 'event_store_append',
      text: `select next_expected_version, last_global_position, replayed
               from append_to_stream($1, $2, $3::jsonb, $4::jsonb)`,
      values: [streamId, expected, payload.events, payload.metadata],
    });
    const row = result.rows[0];
    if (!row) throw new Error('append_to_stream returned no row');
    return {
      nextExpectedVersion: row.next_expected_version,
      lastGlobalPosition: Number(row.last_global_position),
      replayed: row.replayed,
    };
  } catch (error) {
    const e = error as Partial<pg.DatabaseError>;
    throw (
      refusal(e.code, e.detail, streamId, expectedVersion, firstEventId) ??
      uniqueViolation(e, streamId, expectedVersion) ??
      error
    );
  }
}

/** The error for a refused append (append_locked's status / append_to_stream's SQLSTATE), if it is one. */
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
  // Only possible for a writer that bypassed append_to_stream's lock: still a concurrency conflict.
  if (e.constraint === 'events_stream_version_key') {
    return new ConcurrencyError(streamId, expected, 'no_stream');
  }
  return undefined;
}

/**
 * A queued append holds its serialised payload, not its events: the event objects (a mass upload's are 100,000)
 * then die young instead of being kept, and promoted, while the call is in flight.
 */
type Pending = {
  streamId: string;
  firstEventId: string;
  eventCount: number;
  expectedVersion: ExpectedVersion;
  expected: string;
  payload: Payload;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

type ItemResult = { status: string; next: number; last: number; replayed: boolean; detail: string | null };

/**
 * Bounds of one coalesced call, so a batch stays a short transaction (~20-40 ms at the bound). Appends on
 * streams of their own go in set-based (append_many_locked), so more of them per call only saves round trips.
 */
const MAX_ITEMS = 1000;
const MAX_EVENTS = 1000;
/**
 * Appends this large gain nothing from grouping (their own work dwarfs a flush) and go straight out on
 * their own connection, so the server parses one while another holds the lock.
 */
const ALONE_FROM_EVENTS = 200;

/**
 * Group commit for appends from one process. Appends are serialised in the database anyway (one head row),
 * and each transaction pays its own WAL flush while holding that lock, so concurrent single-event appends
 * would be limited by flushes one after another. Instead, while one call is in flight, the appends that
 * arrive queue up and go together as one `append_to_streams` call: one round trip, one commit, each append
 * still all-or-nothing and answered on its own. With a single caller this is exactly one call per append.
 * Large appends skip the queue (ALONE_FROM_EVENTS).
 */
function createAppender(pool: pg.Pool) {
  const queue: Pending[] = [];
  let running = false;

  const take = (): Pending[] => {
    const batch: Pending[] = [];
    let events = 0;
    while (queue.length > 0 && batch.length < MAX_ITEMS) {
      const next = queue[0]!;
      if (batch.length > 0 && events + next.eventCount > MAX_EVENTS) break;
      batch.push(queue.shift()!);
      events += next.eventCount;
    }
    return batch;
  };

  const single = async (p: Pending): Promise<void> => {
    try {
      const { nextExpectedVersion, lastGlobalPosition } = await appendValidated(
        pool,
        p.streamId,
        p.firstEventId,
        p.expectedVersion,
        p.expected,
        p.payload,
      );
      p.resolve({ nextExpectedVersion, lastGlobalPosition });
    } catch (error) {
      p.reject(error);
    }
  };

  const many = async (batch: Pending[]): Promise<void> => {
    // [{"streamId", "expected", "events", "metadata"?}, …], each append's events copied in as they are.
    const parts: (string | Buffer)[] = ['['];
    batch.forEach((p, i) => {
      parts.push(`${i > 0 ? ',' : ''}{"streamId":${JSON.stringify(p.streamId)},"expected":"${p.expected}","events":`);
      parts.push(p.payload.events.subarray(1));
      parts.push(p.payload.metadata ? `,"metadata":${p.payload.metadata}}` : '}');
    });
    parts.push(']');
    const body = jsonbParameter(parts);
    let results: ItemResult[];
    try {
      const result = await pool.query<{ results: ItemResult[] }>({
        name: 'event_store_append_many',
        text: 'select append_to_streams($1::jsonb) as results',
        values: [body],
      });
      results = result.rows[0]?.results ?? [];
    } catch {
      // The whole call failed (one item the server refused to parse, a dropped connection...): nothing of
      // it committed, or it did and a retry is idempotent. One call each, so only the faulty append fails.
      for (const p of batch) await single(p);
      return;
    }
    batch.forEach((p, i) => {
      const r = results[i];
      if (!r) return p.reject(new Error('append_to_streams returned fewer results than appends'));
      if (r.status === 'ok') {
        return p.resolve({ nextExpectedVersion: r.next, lastGlobalPosition: Number(r.last) });
      }
      const refused = refusal(r.status, r.detail, p.streamId, p.expectedVersion, p.firstEventId);
      p.reject(refused ?? new Error(`append_to_streams: unknown status ${r.status}`));
    });
  };

  const drain = async (): Promise<void> => {
    running = true;
    try {
      while (queue.length > 0) {
        // One turn of the event loop first: callers woken by the previous call's answers append their next
        // events in promise callbacks, and this lets them all join the next call instead of trickling in.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = take();
        if (batch.length === 1) await single(batch[0]!);
        else await many(batch);
      }
    } finally {
      running = false;
    }
  };

  return (streamId: string, events: readonly NewEvent[], options: { expectedVersion: ExpectedVersion }) =>
    new Promise<AppendResult>((resolve, reject) => {
      const expected = expectedText(streamId, options.expectedVersion);
      validateEvents(streamId, events);
      const payload = toPayload(events);
      const { expectedVersion } = options;
      const pending: Pending = { streamId, firstEventId: events[0]?.eventId ?? '', eventCount: events.length, expectedVersion, expected, payload, resolve, reject };
      if (events.length >= ALONE_FROM_EVENTS) return void single(pending);
      queue.push(pending);
      if (!running) void drain();
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
