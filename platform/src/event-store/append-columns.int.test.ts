import { randomUUID } from 'node:crypto';
import type { EventMetadata, NewEvent } from '../../../domain/src/shared/events';
import { int4Array, jsonbArray, jsonbElement, textArray, uuidArray } from './binary-arrays';
import { verifyHashChain } from './hash';
import { appendMany, createPostgresEventStore } from './postgres';
import { emptyTestDatabase, testMetadata } from './testing';

/**
 * append_columns: the adapter's append, its appends sent as columns (binary arrays) rather than one JSON
 * document. What it must keep from append_to_streams: versions, positions, metadata and the hash chain as if
 * the appends went one by one; each append all-or-nothing on its own; a malformed call refused whole.
 */
const ev = (type: string, data: unknown, metadata: EventMetadata = testMetadata): NewEvent => ({ eventId: randomUUID(), type, data, metadata });

describe('append_columns', () => {
  const db = emptyTestDatabase();
  const head = async () => Number((await db().pool.query<{ position: string }>('select position from event_store_head')).rows[0]!.position);
  const read = (streamId: string) => createPostgresEventStore(db().pool).readStream(streamId);

  it('receives the binary arrays exactly as sent: text (any script), int4, uuid (any case), jsonb, empty', async () => {
    const texts = ['', 'nucleus-vendor-ABCDE1234F', 'Ünïcödé → ₹ 𝄞 日本', 'quote " and \\ backslash'];
    const ids = [randomUUID(), randomUUID().toUpperCase()];
    const json = ['{"b": 1, "a": [true, null]}', '"text"', 'null'];
    const { rows } = await db().pool.query(
      'select $1::text[] as t, $2::int[] as i, $3::uuid[]::text[] as u, $4::jsonb[]::text[] as j, $5::text[] as e, $6::jsonb[] as ej',
      [textArray(texts), int4Array([0, -1, 2_147_483_647]), uuidArray(ids), jsonbArray(json.map(jsonbElement)), textArray([]), jsonbArray([])],
    );
    expect(rows[0]).toEqual({
      t: texts,
      i: [0, -1, 2_147_483_647],
      u: ids.map((id) => id.toLowerCase()),
      j: ['{"a": [true, null], "b": 1}', '"text"', 'null'],
      e: [],
      ej: [],
    });
  });

  it('appends new streams set-based: versions, positions, each event its own metadata, and the hash chain', async () => {
    const before = await head();
    const other: EventMetadata = { ...testMetadata, companyCode: '2000' };
    const streams = Array.from({ length: 3 }, () => `cols-${randomUUID()}`);
    const results = await appendMany(db().appPool, [
      { streamId: streams[0]!, expectedVersion: 'no_stream', events: [ev('A', { i: 0 })] },
      { streamId: streams[1]!, expectedVersion: 'any', events: [ev('A', { i: 1 }, other), ev('B', { i: 1 })] },
      { streamId: streams[2]!, expectedVersion: 'any', events: [ev('A', { i: 2 }, other)] },
    ]);
    expect(results).toEqual([
      { status: 'ok', next: 0, last: before + 1, replayed: false, detail: null },
      { status: 'ok', next: 1, last: before + 3, replayed: false, detail: null },
      { status: 'ok', next: 0, last: before + 4, replayed: false, detail: null },
    ]);
    expect((await read(streams[1]!)).map((e) => [e.type, e.version, e.globalPosition, e.data, e.metadata])).toEqual([
      ['A', 0, before + 2, { i: 1 }, other],
      ['B', 1, before + 3, { i: 1 }, testMetadata],
    ]);
    expect((await read(streams[2]!))[0]!.metadata).toEqual(other);
    expect(await head()).toBe(before + 4);
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });

  it('answers a retried call as the original appends, and a call mixing a retry with a new append item by item', async () => {
    const first = [
      { streamId: `retry-${randomUUID()}`, expectedVersion: 'no_stream' as const, events: [ev('A', {})] },
      { streamId: `retry-${randomUUID()}`, expectedVersion: 'no_stream' as const, events: [ev('A', {}), ev('B', {})] },
    ];
    const original = await appendMany(db().appPool, first);
    const before = await head();
    expect(await appendMany(db().appPool, first)).toEqual(original.map((r) => ({ ...r, replayed: true })));
    const fresh = `retry-${randomUUID()}`;
    expect(await appendMany(db().appPool, [first[1]!, { streamId: fresh, expectedVersion: 'any', events: [ev('A', {})] }])).toEqual([
      { ...original[1], replayed: true },
      { status: 'ok', next: 0, last: before + 1, replayed: false, detail: null },
    ]);
    expect(await head()).toBe(before + 1);
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });

  it('refuses only the append at fault: an event id standing elsewhere, an unmet expected version; one stream twice goes in order', async () => {
    const before = await head();
    const shared = ev('A', { shared: true });
    const existing = `exists-${randomUUID()}`;
    await appendMany(db().appPool, [{ streamId: existing, expectedVersion: 'any', events: [ev('A', {})] }]);
    const [a, twice, b, missing] = [`dup-${randomUUID()}`, `twice-${randomUUID()}`, `dup-${randomUUID()}`, `missing-${randomUUID()}`];
    const results = await appendMany(db().appPool, [
      { streamId: a, expectedVersion: 'any', events: [shared] },
      { streamId: twice, expectedVersion: 'no_stream', events: [ev('A', {})] },
      { streamId: b, expectedVersion: 'any', events: [shared] },
      { streamId: twice, expectedVersion: 0, events: [ev('B', {})] },
      { streamId: existing, expectedVersion: 'no_stream', events: [ev('B', {})] },
      { streamId: missing, expectedVersion: 3, events: [ev('A', {})] },
      { streamId: existing, expectedVersion: 0, events: [] },
    ]);
    expect(results.map((r) => [r.status, r.detail])).toEqual([
      ['ok', null],
      ['ok', null],
      ['ESDUP', a],
      ['ok', null],
      ['ESCNF', '0'],
      ['ESCNF', 'no_stream'],
      ['ok', null],
    ]);
    expect(results[6]).toMatchObject({ next: 0, last: before + 1 });
    expect((await read(twice)).map((e) => [e.type, e.version])).toEqual([
      ['A', 0],
      ['B', 1],
    ]);
    expect(await read(b)).toHaveLength(0);
    expect(await read(existing)).toHaveLength(1);
    expect(await head()).toBe(before + 4);
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });

  it('refuses a malformed call whole (22023), writing nothing', async () => {
    const before = await head();
    const call = (values: Buffer[]) =>
      db().appPool.query('select append_columns($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::int[], $8::jsonb[])', values);
    const meta = jsonbArray([jsonbElement(JSON.stringify(testMetadata))]);
    const good = (over: Partial<Record<'streams' | 'expected' | 'counts' | 'metaIndex', Buffer>> = {}) => [
      over.streams ?? textArray([`bad-${randomUUID()}`, `bad-${randomUUID()}`]),
      over.expected ?? textArray(['any', 'any']),
      over.counts ?? int4Array([1, 1]),
      uuidArray([randomUUID(), randomUUID()]),
      textArray(['A', 'A']),
      jsonbArray([jsonbElement('{}'), jsonbElement('{}')]),
      over.metaIndex ?? int4Array([1, 1]),
      meta,
    ];
    const refused: [string, string | undefined][] = [];
    for (const [what, values] of [
      ['counts that do not add up to the events', good({ counts: int4Array([1, 2]) })],
      ['a count missing', good({ counts: int4Array([2]) })],
      ['a metadata index past the metadata', good({ metaIndex: int4Array([1, 2]) })],
      ['an empty stream id', good({ streams: textArray(['', `bad-${randomUUID()}`]) })],
      ['an unknown expected version', good({ expected: textArray(['any', 'latest']) })],
      ['no appends at all', [textArray([]), textArray([]), int4Array([]), uuidArray([]), textArray([]), jsonbArray([]), int4Array([]), meta]],
    ] as const) {
      refused.push([what, await call([...values]).then(() => 'appended', (e: { code?: string }) => e.code)]);
    }
    expect(refused).toEqual(refused.map(([what]) => [what, '22023']));
    await call(good());
    expect(await head()).toBe(before + 2);
  });

  it('keeps each stream in the order its appends were queued while two calls are in flight', async () => {
    // The first call is slow to parse (large events); without the per-stream fence the second, small call could
    // take the head lock first and put a later append of a stream before an earlier one.
    const store = createPostgresEventStore(db().appPool);
    const streams = Array.from({ length: 5 }, () => `order-${randomUUID()}`);
    const big = 'x'.repeat(4_000);
    const appends: Promise<unknown>[] = [];
    for (let i = 0; i < 1500; i += 1) {
      const streamId = streams[i % streams.length]!;
      appends.push(store.appendToStream(streamId, [ev('N', { i, pad: i < 990 ? big : '' })], { expectedVersion: 'any' }));
    }
    await Promise.all(appends);
    for (const streamId of streams) {
      const order = (await read(streamId)).map((e) => (e.data as { i: number }).i);
      expect(order).toEqual([...order].sort((x, y) => x - y));
      expect(order).toHaveLength(300);
    }
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });
});
