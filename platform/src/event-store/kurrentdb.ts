import {
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamRecordedEvent,
  type AppendStreamState,
  type Position,
  type RecordedEvent,
} from '@kurrent/kurrentdb-client';
import type pg from 'pg';
import {
  ConcurrencyError,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type ReadStreamOptions,
} from '../../../domain/src/event-store/port';
import type { EventMetadata, NewEvent, StoredEvent } from '../../../domain/src/shared/events';
import { expectedText, validateEvents } from './postgres';

/**
 * The KurrentDB (EventStoreDB) adapter of the EventStore port, kept thin (design.md §2):
 * - expected versions map to the client's `streamState`; our event ids are passed through, and the server
 *   recognises a retried append by them (idempotent for a given expected version);
 * - `globalPosition` is the event's commit position in the transaction log. It is monotonic in commit order,
 *   so `readAll(after)` with a saved checkpoint never skips an event, but it is NOT gapless (it is a byte
 *   offset) and only exact below 2^53 (9 PB of log). It assumes the server reports commit = prepare position
 *   for every event, which KurrentDB 20.6+ does; `readAll` resumes from that position.
 * - There is no hash chain: `prevHash` and `hash` are empty. KurrentDB is itself append-only; the chain and
 *   `npm run audit:verify` are PostgreSQL-only.
 * - Event ids are unique per stream only (the server does not refuse an id used in another stream).
 */
export type KurrentDbEventStore = EventStore & {
  /**
   * Follows `$all` live from the checkpoint saved in PostgreSQL under `subscriber`, saving the position after
   * each handled event (at-least-once: handlers must be idempotent, as projections are). Needs
   * `checkpointPool`.
   */
  subscribe(subscriber: string, handle: (event: StoredEvent) => Promise<void>): { stop(): Promise<void> };
};

const toStreamState = (expected: ExpectedVersion): AppendStreamState => {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return BigInt(expected);
  }
};

const toStored = (
  e: RecordedEvent | AllStreamRecordedEvent,
  position: Position | undefined,
): StoredEvent => ({
  eventId: e.id,
  type: e.type,
  data: e.data,
  metadata: e.metadata as EventMetadata,
  streamId: e.streamId,
  version: Number(e.revision),
  globalPosition: Number(position?.commit ?? -1),
  recordedAt: e.created.toISOString(),
  prevHash: '',
  hash: '',
});

/** Checkpoints of `subscribe`, one row per subscriber. */
export async function ensureKurrentDbCheckpointSchema(pool: pg.Pool | pg.PoolClient): Promise<void> {
  await pool.query(`create table if not exists kurrentdb_checkpoints (
    subscriber text primary key,
    commit_position bigint not null,
    prepare_position bigint not null,
    updated_at timestamptz not null default now())`);
}

export function createKurrentDbEventStore(
  connectionString: string,
  opts: { checkpointPool?: pg.Pool } = {},
): KurrentDbEventStore {
  const client = KurrentDBClient.connectionString(connectionString);

  async function positionOf(streamId: string, revision: bigint): Promise<number> {
    const read = client.readStream(streamId, { fromRevision: revision, maxCount: 1, direction: FORWARDS });
    for await (const resolved of read) {
      if (resolved.event?.position) return Number(resolved.event.position.commit);
    }
    throw new Error(`KurrentDB did not report the position of ${streamId}@${revision}`);
  }

  async function appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedVersion: ExpectedVersion },
  ): Promise<AppendResult> {
    expectedText(streamId, options.expectedVersion);
    validateEvents(streamId, events);
    try {
      const result = await client.appendToStream(
        streamId,
        events.map((e) =>
          jsonEvent({
            id: e.eventId,
            type: e.type,
            data: (e.data ?? null) as never,
            metadata: e.metadata as unknown as Record<string, unknown>,
          }),
        ),
        { streamState: toStreamState(options.expectedVersion) },
      );
      const next = result.nextExpectedRevision;
      const position = result.position ? Number(result.position.commit) : await positionOf(streamId, next);
      return { nextExpectedVersion: Number(next), lastGlobalPosition: position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualState === NO_STREAM ? 'no_stream' : Number(error.actualState);
        throw new ConcurrencyError(streamId, options.expectedVersion, actual);
      }
      throw error;
    }
  }

  async function readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, {
        fromRevision: options.fromVersion ? BigInt(options.fromVersion) : START,
        direction: FORWARDS,
      })) {
        if (resolved.event) out.push(toStored(resolved.event, resolved.event.position));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  async function readAll(after: number, limit: number): Promise<StoredEvent[]> {
    if (!Number.isInteger(after) || after < 0) throw new TypeError(`after must be 0 or more, got ${after}`);
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be 1 or more, got ${limit}`);
    const at = BigInt(after);
    const from: Position | typeof START = after === 0 ? START : { commit: at, prepare: at };
    const out: StoredEvent[] = [];
    // Reading from a position includes the event at it: ask for one more and drop what is not after it.
    for await (const resolved of client.readAll({
      fromPosition: from,
      maxCount: limit + 1,
      direction: FORWARDS,
      filter: excludeSystemEvents(),
    })) {
      const e = resolved.event;
      if (!e || e.position.commit <= BigInt(after)) continue;
      out.push(toStored(e, e.position));
      if (out.length === limit) break;
    }
    return out;
  }

  async function headPosition(): Promise<number> {
    for await (const resolved of client.readAll({
      fromPosition: END,
      direction: BACKWARDS,
      maxCount: 1,
      filter: excludeSystemEvents(),
    })) {
      if (resolved.event) return Number(resolved.event.position.commit);
    }
    return 0;
  }

  function subscribe(
    subscriber: string,
    handle: (event: StoredEvent) => Promise<void>,
  ): { stop(): Promise<void> } {
    const pool = opts.checkpointPool;
    if (!pool) throw new Error('createKurrentDbEventStore: subscribe needs opts.checkpointPool');
    let stopped = false;
    let subscription: ReturnType<KurrentDBClient['subscribeToAll']> | undefined;
    const running = (async () => {
      // The table is created by the owner in applySchema: the app role may not run DDL (design.md §12).
      const saved = await pool.query<{ commit_position: string; prepare_position: string }>(
        `select commit_position::text, prepare_position::text
           from kurrentdb_checkpoints where subscriber = $1`,
        [subscriber],
      );
      const row = saved.rows[0];
      const fromPosition = row
        ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) }
        : START;
      if (stopped) return;
      subscription = client.subscribeToAll({ fromPosition, filter: excludeSystemEvents() });
      for await (const resolved of subscription) {
        const e = resolved.event;
        // A subscription from a position starts after it; the check guards a restart at the same position.
        if (!e || (row && e.position.commit <= BigInt(row.commit_position))) continue;
        await handle(toStored(e, e.position));
        await pool.query(
          `insert into kurrentdb_checkpoints (subscriber, commit_position, prepare_position)
           values ($1, $2, $3)
           on conflict (subscriber) do update
             set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position,
                 updated_at = now()`,
          [subscriber, e.position.commit.toString(), e.position.prepare.toString()],
        );
        if (stopped) break;
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        await subscription?.unsubscribe();
        await running.catch(() => undefined);
      },
    };
  }

  return {
    appendToStream,
    readStream,
    readAll,
    headPosition,
    subscribe,
    close: async () => {
      await client.dispose();
    },
  };
}
