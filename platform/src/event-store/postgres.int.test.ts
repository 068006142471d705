import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { NewEvent } from '../../../domain/src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { eventStoreContract } from './contract';
import { verifyHashChain } from './hash';
import { DuplicateEventIdError, createPostgresEventStore } from './postgres';
import { EVENTS_CHANNEL, ensureEventStoreSchema } from './schema';
import { emptyTestDatabase, testMetadata } from './testing';

eventStoreContract(
  'PostgreSQL',
  async () => {
    const db = await createTestDatabase({ poolSize: 12, empty: true });
    return {
      // The application role: appends only through append_to_stream(s), as in production.
      store: createPostgresEventStore(db.appPool),
      cleanup: db.drop,
      verifyHashChain: () => verifyHashChain(db.pool),
    };
  },
  { hashChain: true },
);

const ev = (type: string, data: unknown): NewEvent => ({ eventId: randomUUID(), type, data, metadata: testMetadata });

describe('PostgreSQL event store', () => {
  const db = emptyTestDatabase();

  it('applies its schema idempotently', async () => {
    await ensureEventStoreSchema(db().pool);
    await ensureEventStoreSchema(db().pool);
    const store = createPostgresEventStore(db().pool);
    await store.appendToStream(`idem-${randomUUID()}`, [ev('A', {})], { expectedVersion: 'no_stream' });
    await ensureEventStoreSchema(db().pool);
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });

  it('notifies listeners at commit with the append’s last global position', async () => {
    const listener = new pg.Client({ connectionString: db().url });
    await listener.connect();
    try {
      await listener.query(`listen ${EVENTS_CHANNEL}`);
      const notified = new Promise<string | undefined>((resolve) =>
        listener.once('notification', (n) => resolve(n.payload)),
      );
      const result = await createPostgresEventStore(db().pool).appendToStream(
        `notify-${randomUUID()}`,
        [ev('A', {}), ev('B', {})],
        { expectedVersion: 'no_stream' },
      );
      expect(await notified).toBe(String(result.lastGlobalPosition));
    } finally {
      await listener.end();
    }
  });

  it('close() leaves the caller’s pool open and refuses further use of the store', async () => {
    const store = createPostgresEventStore(db().pool);
    await store.close();
    await expect(store.headPosition()).rejects.toThrow(/closed/);
    await expect(db().pool.query('select 1')).resolves.toBeDefined();
  });

  it('coalesces concurrent appends, yet a faulty one fails alone and the others commit', async () => {
    const store = createPostgresEventStore(db().pool);
    const taken = ev('Taken', {});
    await store.appendToStream(`taken-${randomUUID()}`, [taken], { expectedVersion: 'no_stream' });
    const streams = Array.from({ length: 8 }, () => `group-${randomUUID()}`);
    // The first append goes out alone; the seven behind it go together, including both faulty ones.
    const faulty = new Map([
      [3, [ev('A', {}), taken]], // a later id already stands in another stream
      [5, [ev('B', { text: 'NUL \u0000 is not storable in jsonb' })]],
    ]);
    const results = await Promise.allSettled(
      streams.map((s, i) =>
        store.appendToStream(s, faulty.get(i) ?? [ev('Ok', { i })], { expectedVersion: 'no_stream' }),
      ),
    );
    const expected = streams.map((_, i) => (faulty.has(i) ? 'rejected' : 'fulfilled'));
    expect(results.map((r) => r.status)).toEqual(expected);
    expect((results[3] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
    for (const [i, s] of streams.entries()) {
      expect(await store.readStream(s)).toHaveLength(faulty.has(i) ? 0 : 1);
    }
    const positions = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.lastGlobalPosition] : []));
    expect(new Set(positions).size).toBe(6);
    expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
  });

  describe('append_to_streams (several appends in one call)', () => {
    type Item = { streamId: string; expected: string; events: { eventId: string; type: string; data: unknown; metadata?: unknown }[]; metadata?: unknown };
    type Result = { status: string; next: number; last: number; replayed: boolean; detail: string | null };
    const call = async (items: Item[]): Promise<Result[]> =>
      (await db().pool.query<{ r: Result[] }>('select append_to_streams($1::jsonb) as r', [JSON.stringify(items)])).rows[0]!.r;
    const item = (streamId: string, events: NewEvent[], expected = 'any'): Item => ({
      streamId,
      expected,
      events: events.map(({ eventId, type, data }) => ({ eventId, type, data, metadata: testMetadata })),
    });
    const head = async () => Number((await db().pool.query<{ position: string }>('select position from event_store_head')).rows[0]!.position);

    it('appends new streams set-based: versions, positions and the hash chain as if one by one', async () => {
      const before = await head();
      const streams = Array.from({ length: 4 }, () => `many-${randomUUID()}`);
      const events = [[ev('A', { i: 0 })], [ev('A', { i: 1 }), ev('B', { i: 1 })], [ev('A', { i: 2 })], [ev('A', { i: 3 }), ev('B', { i: 3 }), ev('C', { i: 3 })]];
      // The last item shares one metadata object among its events, as postgres.ts sends a decision's events.
      const items = streams.map((s, i) => item(s, events[i]!, i === 0 ? 'no_stream' : 'any'));
      items[3] = { streamId: streams[3]!, expected: 'any', events: events[3]!.map(({ eventId, type, data }) => ({ eventId, type, data })), metadata: testMetadata };
      const results = await call(items);
      expect(results).toEqual([
        { status: 'ok', next: 0, last: before + 1, replayed: false, detail: null },
        { status: 'ok', next: 1, last: before + 3, replayed: false, detail: null },
        { status: 'ok', next: 0, last: before + 4, replayed: false, detail: null },
        { status: 'ok', next: 2, last: before + 7, replayed: false, detail: null },
      ]);
      const store = createPostgresEventStore(db().pool);
      const read = await store.readStream(streams[3]!);
      expect(read.map((e) => [e.type, e.version, e.globalPosition, e.metadata])).toEqual([
        ['A', 0, before + 5, testMetadata],
        ['B', 1, before + 6, testMetadata],
        ['C', 2, before + 7, testMetadata],
      ]);
      expect(await head()).toBe(before + 7);
      expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
    });

    it('answers a retried batch as the original appends, and a batch mixing retries with new appends item by item', async () => {
      const streams = [`retry-${randomUUID()}`, `retry-${randomUUID()}`];
      const first = [item(streams[0]!, [ev('A', {})]), item(streams[1]!, [ev('A', {})])];
      const original = await call(first);
      const before = await head();
      expect(await call(first)).toEqual(original.map((r) => ({ ...r, replayed: true })));
      const fresh = `retry-${randomUUID()}`;
      const mixed = await call([first[0]!, item(fresh, [ev('A', {})])]);
      expect(mixed).toEqual([
        { ...original[0], replayed: true },
        { status: 'ok', next: 0, last: before + 1, replayed: false, detail: null },
      ]);
      expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
    });

    it('answers an event id that comes twice in one batch item by item: the first append stands, the second is refused', async () => {
      const before = await head();
      const shared = ev('A', { shared: true });
      const streams = [`dup-${randomUUID()}`, `dup-${randomUUID()}`, `dup-${randomUUID()}`];
      const results = await call([item(streams[0]!, [shared]), item(streams[1]!, [ev('A', {})]), item(streams[2]!, [shared])]);
      expect(results).toEqual([
        { status: 'ok', next: 0, last: before + 1, replayed: false, detail: null },
        { status: 'ok', next: 0, last: before + 2, replayed: false, detail: null },
        { status: 'ESDUP', next: null, last: null, replayed: false, detail: streams[0] },
      ]);
      const store = createPostgresEventStore(db().pool);
      expect(await store.readStream(streams[2]!)).toHaveLength(0);
      expect(await head()).toBe(before + 2);
      expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
    });

    it('refuses an unmet expected version for that item only, and appends the same stream twice in order', async () => {
      const existing = `exists-${randomUUID()}`;
      await call([item(existing, [ev('A', {})])]);
      const twice = `twice-${randomUUID()}`;
      const other = `other-${randomUUID()}`;
      const results = await call([item(existing, [ev('B', {})], 'no_stream'), item(twice, [ev('A', {})]), item(twice, [ev('B', {})], '0'), item(other, [ev('A', {})], '5')]);
      expect(results.map((r) => [r.status, r.detail])).toEqual([
        ['ESCNF', '0'],
        ['ok', null],
        ['ok', null],
        ['ESCNF', 'no_stream'],
      ]);
      const store = createPostgresEventStore(db().pool);
      expect((await store.readStream(twice)).map((e) => [e.type, e.version])).toEqual([
        ['A', 0],
        ['B', 1],
      ]);
      expect(await store.readStream(existing)).toHaveLength(1);
      expect(await store.readStream(other)).toHaveLength(0);
      expect(await verifyHashChain(db().pool)).toMatchObject({ ok: true });
    });
  });

  describe('tamper evidence', () => {
    let tamper: TestDatabase;
    const ids: { position: number; eventId: string; streamId: string }[] = [];

    beforeEach(async () => {
      tamper = await createTestDatabase({ poolSize: 2, empty: true });
      ids.length = 0;
      const store = createPostgresEventStore(tamper.pool);
      for (let i = 0; i < 4; i++) {
        const streamId = `ba-${i}`;
        const events = [
          ev('BusinessAssociateCreated', { baId: String(i) }),
          ev('CompanyDetailsSaved', { name: `Co ${i}` }),
        ];
        const result = await store.appendToStream(streamId, events, { expectedVersion: 'no_stream' });
        events.forEach((e, k) =>
          ids.push({ position: result.lastGlobalPosition - 1 + k, eventId: e.eventId, streamId }),
        );
      }
    });
    afterEach(async () => {
      await tamper.drop();
    });

    /** Changes stored events the way only a superuser could: past the append-only trigger. */
    const forge = async (sql: string, params: unknown[] = []) => {
      const client = await tamper.pool.connect();
      try {
        await client.query('begin');
        await client.query('set local session_replication_role = replica');
        await client.query(sql, params);
        await client.query('commit');
      } finally {
        client.release();
      }
    };

    it('refuses UPDATE, DELETE and TRUNCATE of stored events', async () => {
      for (const sql of [
        `update events set data = '{}' where global_position = 1`,
        'delete from events where global_position = 8',
        'truncate events',
      ]) {
        await expect(tamper.pool.query(sql)).rejects.toThrow(/append-only/);
      }
      await expect(verifyHashChain(tamper.pool)).resolves.toEqual({ ok: true, checked: 8 });
    });

    it('names exactly the event whose data was altered with SQL, past the trigger', async () => {
      await expect(verifyHashChain(tamper.pool)).resolves.toEqual({ ok: true, checked: 8 });
      const target = ids[5]!;
      const sql = `update events set data = jsonb_set(data, '{name}', '"Forged"') where global_position = $1`;
      await forge(sql, [target.position]);
      expect(await verifyHashChain(tamper.pool, { pageSize: 3 })).toEqual({
        ok: false,
        checked: target.position - 1,
        broken: {
          globalPosition: target.position,
          eventId: target.eventId,
          streamId: target.streamId,
          reason: expect.stringMatching(/altered/),
        },
      });
    });

    it('catches altered metadata, type and recorded time too', async () => {
      const changes = [
        `update events set metadata = jsonb_set(metadata, '{actor,role}', '"MLL-ADMIN"')
          where global_position = 2`,
        `update events set type = 'OnboardingRejected' where global_position = 2`,
        `update events set recorded_at = recorded_at - interval '1 day' where global_position = 2`,
      ];
      for (const change of changes) {
        const client = await tamper.pool.connect();
        try {
          await client.query('begin');
          await client.query('set local session_replication_role = replica');
          await client.query(change);
          expect(await verifyHashChain(client)).toMatchObject({ ok: false, broken: { globalPosition: 2 } });
        } finally {
          await client.query('rollback');
          client.release();
        }
      }
    });

    it('reports a deleted event, and a deleted tail, as missing', async () => {
      await forge('delete from events where global_position = 8');
      expect(await verifyHashChain(tamper.pool)).toMatchObject({
        ok: false,
        checked: 7,
        broken: { globalPosition: 8, eventId: null, reason: expect.stringMatching(/missing/) },
      });
      await forge('delete from events where global_position = 3');
      expect(await verifyHashChain(tamper.pool)).toMatchObject({
        ok: false,
        checked: 2,
        broken: {
          globalPosition: 4,
          eventId: ids[3]?.eventId,
          reason: 'events at positions 3..3 are missing',
        },
      });
      // A reader is not stalled by the hole.
      const page = await createPostgresEventStore(tamper.pool).readAll(2, 1);
      expect(page.map((e) => e.globalPosition)).toEqual([4]);
    });

    it('verifies from a given position onwards', async () => {
      const result = await verifyHashChain(tamper.pool, { fromPosition: 5 });
      expect(result).toEqual({ ok: true, checked: 4 });
    });

    it('`audit:verify` exits 0 on an intact chain and non-zero naming the first altered event', async () => {
      const run = () =>
        new Promise<{ code: number | null; output: string }>((resolve, reject) => {
          // The chain alone: anchors are anchors.int.test.ts's subject (this database has none).
          const child = spawn('npx', ['tsx', 'scripts/audit-verify.ts', '--no-anchors'], {
            cwd: path.resolve(__dirname, '../../..'),
            env: { ...process.env, DATABASE_URL: tamper.url },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let output = '';
          child.stdout.on('data', (c: Buffer) => (output += c.toString()));
          child.stderr.on('data', (c: Buffer) => (output += c.toString()));
          child.once('error', reject);
          child.once('close', (code) => resolve({ code, output }));
        });

      const intact = await run();
      expect(intact).toMatchObject({ code: 0, output: expect.stringMatching(/intact: 8 events checked/) });

      const target = ids[2]!;
      await forge(`update events set data = '{"baId": "forged"}' where event_id = $1`, [target.eventId]);
      const broken = await run();
      expect(broken.code).toBe(1);
      expect(broken.output).toContain(`global position ${target.position}`);
      expect(broken.output).toContain(target.eventId);
      expect(broken.output).toContain(target.streamId);
    });
  });
});
