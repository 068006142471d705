import { randomUUID } from 'node:crypto';
import type { EventMetadata, NewEvent } from '../../../domain/src/shared/events';
import { ConcurrencyError } from '../../../domain/src/event-store/port';
import { verifyHashChain } from './hash';
import { createPostgresEventStore } from './postgres';
import { ensureEventStoreSchema } from './schema';
import { emptyTestDatabase, testMetadata } from './testing';

/**
 * Issue 12: append_to_stream takes an append's events apart (append_events_split) before it takes the head
 * lock, and append_split_locked hashes and inserts them from arrays. These cover what that split must keep:
 * order, each event's own or the shared metadata, JSON that renders unlike its input, retries, and the
 * privilege fence. Large appends (≥ 200 events) go straight to append_to_stream, as a mass upload's do.
 */
const shared: EventMetadata = { ...testMetadata, actor: { ...testMetadata.actor, name: 'Zoë “Quotes” \\ Ünïcode' } };

/** Data whose jsonb rendering differs from JSON.stringify's (key order, spacing, numbers, escapes). */
const awkward = (i: number) => ({
  zeta: i,
  a: { nested: [1, 2.50, 1e3, -0, 'x'], 'key with "quotes"': '\u001f\t\n' },
  emoji: '🚚 ₹ 你好',
  big: 12345678901234567890,
  flag: i % 2 === 0,
  nothing: null,
});

const events = (n: number, metadata: (i: number) => EventMetadata): NewEvent[] =>
  Array.from({ length: n }, (_, i) => ({ eventId: randomUUID(), type: `T${i % 3}`, data: awkward(i), metadata: metadata(i) }));

describe('append_to_stream with events taken apart before the lock', () => {
  const db = emptyTestDatabase();

  const head = async () =>
    Number((await db().pool.query<{ position: string }>('select position from event_store_head')).rows[0]!.position);

  it('keeps order, shared metadata and the hash chain of a large append', async () => {
    const store = createPostgresEventStore(db().appPool);
    const stream = `split-shared-${randomUUID()}`;
    const batch = events(300, () => shared);
    const before = await head();
    const result = await store.appendToStream(stream, batch, { expectedVersion: 'no_stream' });
    expect(result).toEqual({ nextExpectedVersion: 299, lastGlobalPosition: before + 300 });
    const read = await store.readStream(stream);
    expect(read.map((e) => [e.eventId, e.type, e.version, e.globalPosition])).toEqual(
      batch.map((e, i) => [e.eventId, e.type, i, before + 1 + i]),
    );
    expect(read.map((e) => e.metadata)).toEqual(batch.map(() => shared));
    expect(read[17]!.data).toEqual(JSON.parse(JSON.stringify(awkward(17))));
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });

  it('keeps each event’s own metadata, and appends on to an existing stream', async () => {
    const store = createPostgresEventStore(db().appPool);
    const stream = `split-own-${randomUUID()}`;
    await store.appendToStream(stream, events(2, () => shared), { expectedVersion: 'no_stream' });
    const own = (i: number): EventMetadata => ({ ...shared, correlationId: `corr-${i}`, requestId: i % 2 ? `r-${i}` : null });
    const batch = events(250, own);
    const result = await store.appendToStream(stream, batch, { expectedVersion: 1 });
    expect(result.nextExpectedVersion).toBe(251);
    const read = await store.readStream(stream, { fromVersion: 2 });
    expect(read.map((e) => e.metadata)).toEqual(batch.map((_, i) => own(i)));
    expect(read.map((e) => e.version)).toEqual(batch.map((_, i) => i + 2));
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });

  it('answers a retried large append as the original, and its ids at other versions as a conflict', async () => {
    const store = createPostgresEventStore(db().appPool);
    const stream = `split-retry-${randomUUID()}`;
    const batch = events(220, () => shared);
    const first = await store.appendToStream(stream, batch, { expectedVersion: 'no_stream' });
    const at = await head();
    await expect(store.appendToStream(stream, batch, { expectedVersion: 'no_stream' })).resolves.toEqual(first);
    // The tail of the append at the version it stands at is a retry too; at another version, a conflict.
    await expect(store.appendToStream(stream, batch.slice(1), { expectedVersion: 0 })).resolves.toEqual(first);
    await expect(store.appendToStream(stream, batch.slice(1), { expectedVersion: 'no_stream' })).rejects.toBeInstanceOf(
      ConcurrencyError,
    );
    expect(await head()).toBe(at);
    expect(await store.readStream(stream)).toHaveLength(220);
  });

  it('continues the chain across a re-applied schema (every start re-runs it on existing data)', async () => {
    const store = createPostgresEventStore(db().appPool);
    const stream = `split-reapply-${randomUUID()}`;
    await store.appendToStream(stream, events(210, () => shared), { expectedVersion: 'no_stream' });
    await ensureEventStoreSchema(db().pool);
    await store.appendToStream(stream, events(3, () => shared), { expectedVersion: 209 });
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });

  it('lets only the append functions call append_split_locked (it writes without the head lock)', async () => {
    await expect(
      db().appPool.query(
        `select append_split_locked('x', 'any', '{}'::uuid[], '{}', '{}', '{}', '{}', '{}', null)`,
      ),
    ).rejects.toThrow(/permission denied/);
  });
});
