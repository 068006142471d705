import { createHash } from 'node:crypto';
import type pg from 'pg';
import { GENESIS_HASH } from './schema';

/**
 * The hash chain (design.md §2): `hash = sha256(prev_hash ‖ canonical text of the event)`, hex-encoded.
 * PostgreSQL computes it while appending (`event_hash` in schema.ts); Node recomputes it here to verify.
 *
 * Canonical text, fields joined by '|', in this order:
 *   prev_hash | global_position | version | event_id | recorded_at (µs since the epoch)
 *   | len:stream_id | len:type | len:data::text | len:metadata::text
 * where `len:` is the value's UTF-8 byte length and a colon. Numbers and the uuid have a fixed alphabet, and
 * the free text is length-prefixed, so no two different events share a canonical text whatever their
 * stream ids, types or JSON contain. `data` and `metadata` are PostgreSQL's jsonb text output, which is
 * canonical for a jsonb value (keys sorted, fixed spacing); the verifier reads it back with `data::text`
 * rather than re-serialising in JavaScript.
 */
export type ChainRow = {
  globalPosition: number;
  streamId: string;
  version: number;
  eventId: string;
  type: string;
  /** recorded_at as whole microseconds since the Unix epoch, in decimal. */
  recordedMicros: string;
  dataText: string;
  metadataText: string;
  prevHash: string;
  hash: string;
};

const lp = (text: string): string => `${Buffer.byteLength(text, 'utf8')}:${text}`;

export function canonicalEventText(prevHash: string, row: Omit<ChainRow, 'prevHash' | 'hash'>): string {
  return [
    prevHash,
    String(row.globalPosition),
    String(row.version),
    row.eventId,
    row.recordedMicros,
    lp(row.streamId),
    lp(row.type),
    lp(row.dataText),
    lp(row.metadataText),
  ].join('|');
}

export const computeEventHash = (prevHash: string, row: Omit<ChainRow, 'prevHash' | 'hash'>): string =>
  createHash('sha256').update(canonicalEventText(prevHash, row), 'utf8').digest('hex');

export type ChainBreak = {
  /** The first position where the chain is broken (for a missing tail: the head position). */
  globalPosition: number;
  /** The event found there; null when the break is a missing event. */
  eventId: string | null;
  streamId: string | null;
  reason: string;
};

export type HashChainResult =
  | { ok: true; checked: number }
  | { ok: false; checked: number; broken: ChainBreak };

/** Where a verification stands between pages: the position and hash the next row must follow. */
export type ChainCursor = { position: number; hash: string; checked: number };

/**
 * Checks consecutive rows against the cursor: gapless positions, prev_hash linkage and each stored hash
 * against its recomputation. Pure, so the rules are unit-tested without a database.
 */
export function verifyRows(
  rows: readonly ChainRow[],
  cursor: ChainCursor,
): { cursor: ChainCursor; broken?: ChainBreak } {
  let { position, hash, checked } = cursor;
  for (const row of rows) {
    const at = { globalPosition: row.globalPosition, eventId: row.eventId, streamId: row.streamId };
    if (row.globalPosition !== position + 1) {
      const reason =
        row.globalPosition > position + 1
          ? `events at positions ${position + 1}..${row.globalPosition - 1} are missing`
          : `position ${row.globalPosition} is out of order after ${position}`;
      return { cursor: { position, hash, checked }, broken: { ...at, reason } };
    }
    if (row.prevHash !== hash) {
      return {
        cursor: { position, hash, checked },
        broken: { ...at, reason: `prev_hash does not match the hash of the event before it` },
      };
    }
    const recomputed = computeEventHash(row.prevHash, row);
    if (recomputed !== row.hash) {
      return {
        cursor: { position, hash, checked },
        broken: { ...at, reason: `stored hash does not match the event's content: the event was altered` },
      };
    }
    position = row.globalPosition;
    hash = row.hash;
    checked++;
  }
  return { cursor: { position, hash, checked } };
}

const PAGE_SQL = /* sql */ `
  select global_position, stream_id, version, event_id::text as event_id, type,
         data::text as data_text, metadata::text as metadata_text,
         (extract(epoch from recorded_at) * 1000000)::bigint::text as recorded_micros,
         prev_hash, hash
    from events
   where global_position > $1 and global_position <= $2
   order by global_position`;

type PageRow = {
  global_position: string | number;
  stream_id: string;
  version: number;
  event_id: string;
  type: string;
  data_text: string;
  metadata_text: string;
  recorded_micros: string;
  prev_hash: string;
  hash: string;
};

const toChainRow = (r: PageRow): ChainRow => ({
  globalPosition: Number(r.global_position),
  streamId: r.stream_id,
  version: r.version,
  eventId: r.event_id,
  type: r.type,
  recordedMicros: r.recorded_micros,
  dataText: r.data_text,
  metadataText: r.metadata_text,
  prevHash: r.prev_hash,
  hash: r.hash,
});

/** The hashed fields PostgreSQL renders as text, exactly as the chain hashes them (see canonicalEventText). */
export type HashedText = Pick<ChainRow, 'recordedMicros' | 'dataText' | 'metadataText'>;

/**
 * The exact hashed text of the given events, by event id, so an API can hand out what a reader needs to
 * recompute each hash (the store's parsed JSON would re-serialise differently). Ids not in the table (the
 * KurrentDB adapter keeps no chain) are simply absent.
 */
export async function readHashedText(
  pool: pg.Pool | pg.PoolClient | pg.Client,
  eventIds: readonly string[],
): Promise<Map<string, HashedText>> {
  const found = new Map<string, HashedText>();
  if (eventIds.length === 0) return found;
  const result = await pool.query<{ event_id: string; data_text: string; metadata_text: string; recorded_micros: string }>(
    `select event_id::text as event_id, data::text as data_text, metadata::text as metadata_text,
            (extract(epoch from recorded_at) * 1000000)::bigint::text as recorded_micros
       from events where event_id = any($1::uuid[])`,
    [eventIds],
  );
  for (const r of result.rows) {
    found.set(r.event_id, { recordedMicros: r.recorded_micros, dataText: r.data_text, metadataText: r.metadata_text });
  }
  return found;
}

/**
 * Walks the chain in pages from `fromPosition` (default 1) up to the head as it stood when the walk began,
 * and reports the first break: an altered event, a broken link, a missing event, or events missing after
 * the last one found (the head row still counts them). Starting past 1 trusts the stored hash of the event
 * before `fromPosition`.
 */
export async function verifyHashChain(
  pool: pg.Pool | pg.PoolClient | pg.Client,
  options: { fromPosition?: number; pageSize?: number } = {},
): Promise<HashChainResult> {
  const from = Math.max(1, Math.floor(options.fromPosition ?? 1));
  const pageSize = options.pageSize ?? 2000;
  const head = await pool.query<{ position: string | number; last_hash: string }>(
    'select position, last_hash from event_store_head where id',
  );
  const headRow = head.rows[0];
  if (!headRow) throw new Error('event_store_head has no row: the event store schema is not applied');
  const headPosition = Number(headRow.position);

  let cursor: ChainCursor = { position: from - 1, hash: GENESIS_HASH, checked: 0 };
  if (from > 1) {
    const before = await pool.query<{ hash: string }>('select hash from events where global_position = $1', [
      from - 1,
    ]);
    const prev = before.rows[0];
    if (!prev) {
      return {
        ok: false,
        checked: 0,
        broken: {
          globalPosition: from - 1,
          eventId: null,
          streamId: null,
          reason: `the event at ${from - 1} is missing`,
        },
      };
    }
    cursor = { ...cursor, hash: prev.hash };
  }

  // Pages are position ranges, not `limit`s: a bounded range scan whatever the statistics say, and a missing
  // event shows up as a gap inside the range.
  for (let low = cursor.position; low < headPosition; low += pageSize) {
    const page = await pool.query<PageRow>(PAGE_SQL, [low, Math.min(low + pageSize, headPosition)]);
    const result = verifyRows(page.rows.map(toChainRow), cursor);
    cursor = result.cursor;
    if (result.broken) return { ok: false, checked: cursor.checked, broken: result.broken };
  }

  if (cursor.position < headPosition) {
    return {
      ok: false,
      checked: cursor.checked,
      broken: {
        globalPosition: cursor.position + 1,
        eventId: null,
        streamId: null,
        reason:
          `events at positions ${cursor.position + 1}..${headPosition} are missing ` +
          `(the head is at ${headPosition})`,
      },
    };
  }
  if (headPosition > 0 && cursor.position === headPosition && cursor.hash !== headRow.last_hash) {
    return {
      ok: false,
      checked: cursor.checked,
      broken: {
        globalPosition: headPosition,
        eventId: null,
        streamId: null,
        reason: 'the last hash in event_store_head does not match the last event',
      },
    };
  }
  return { ok: true, checked: cursor.checked };
}
