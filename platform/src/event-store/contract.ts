import { randomUUID } from 'node:crypto';
import {
  ConcurrencyError,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
} from '../../../domain/src/event-store/port';
import type { EventMetadata, NewEvent, StoredEvent } from '../../../domain/src/shared/events';
import type { HashChainResult } from './hash';

/**
 * The contract every EventStore adapter must meet (design.md §2), as jest tests registered by a function so
 * each adapter's *.int.test.ts runs the same suite against a real server. Tests use fresh stream ids, so a
 * shared server (KurrentDB) works too; `make` is called once per suite.
 */
export type ContractSubject = {
  store: EventStore;
  cleanup(): Promise<void>;
  /** Required when `hashChain` is set: verifies the whole chain (PostgreSQL's verifyHashChain). */
  verifyHashChain?: () => Promise<HashChainResult>;
};

export type ContractOptions = {
  hashChain: boolean;
  /** Global positions are consecutive integers (PostgreSQL); KurrentDB's are monotonic only. Default true. */
  gaplessPositions?: boolean;
  /**
   * The store refuses an event id that stands in another stream (PostgreSQL); KurrentDB only dedupes within
   * a stream. Default true.
   */
  uniqueEventIdsAcrossStreams?: boolean;
};

const metadata: EventMetadata = {
  actor: { userId: 'contract-user', role: 'MLL Procurement', name: 'Contract Test' },
  companyCode: '1000',
  correlationId: 'f6f9b1a4-3f0e-4a53-9a39-6c1d7c1f0a01',
  causationId: null,
  workflowId: 'onboarding-contract',
  requestId: 'req-1',
  at: '2026-02-01T10:00:00.000Z',
};

const ev = (type: string, data: unknown = { n: 1 }): NewEvent => ({
  eventId: randomUUID(),
  type,
  data,
  metadata,
});

const envelope = (e: StoredEvent) => ({
  eventId: e.eventId,
  type: e.type,
  data: e.data,
  metadata: e.metadata,
  streamId: e.streamId,
  version: e.version,
});

const stored = (events: readonly NewEvent[], streamId: string, from = 0) =>
  events.map((e, i) => ({ ...e, streamId, version: from + i }));

async function settle<T>(promises: Promise<T>[]): Promise<{ ok: T[]; failed: unknown[] }> {
  const results = await Promise.allSettled(promises);
  return {
    ok: results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
    failed: results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : [])),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function eventStoreContract(
  name: string,
  make: () => Promise<ContractSubject>,
  opts: ContractOptions,
): void {
  const gapless = opts.gaplessPositions ?? true;
  const uniqueIds = opts.uniqueEventIdsAcrossStreams ?? true;

  describe(`EventStore contract: ${name}`, () => {
    let subject: ContractSubject | undefined;
    const store = (): EventStore => {
      if (!subject) throw new Error('the contract subject was not created');
      return subject.store;
    };
    const append = (streamId: string, events: readonly NewEvent[], expectedVersion: ExpectedVersion) =>
      store().appendToStream(streamId, events, { expectedVersion });
    const idsOf = async (streamId: string, except = 'Seed') =>
      (await store().readStream(streamId)).filter((e) => e.type !== except).map((e) => e.eventId);
    const run = randomUUID().slice(0, 8);
    const stream = (label: string) => `contract-${run}-${label}-${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      subject = await make();
    });
    afterAll(async () => {
      await subject?.cleanup();
    });

    it('reads back what it appended: envelope, versions from 0, positions, from a version, all streams', async () => {
      const s = stream('raw');
      const events = [
        ev('A', { n: 1 }),
        ev('B', { nested: { list: [1, 2, { x: null }] } }),
        ev('C', { text: 'ü | "q" \n' }),
      ];
      const result = await append(s, events, 'no_stream');

      const read = await store().readStream(s);
      expect(read.map(envelope)).toEqual(stored(events, s));
      expect(result.nextExpectedVersion).toBe(2);
      expect(read[2]?.globalPosition).toBe(result.lastGlobalPosition);
      const positions = read.map((e) => e.globalPosition);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(new Set(positions).size).toBe(3);
      for (const e of read) expect(new Date(e.recordedAt).toISOString()).toBe(e.recordedAt);

      expect((await store().readStream(s, { fromVersion: 1 })).map((e) => e.version)).toEqual([1, 2]);
      expect(await store().readStream(stream('missing'))).toEqual([]);
      expect(await store().headPosition()).toBeGreaterThanOrEqual(result.lastGlobalPosition);
      const all = await store().readAll((read[0]?.globalPosition ?? 1) - 1, 50);
      expect(all.filter((e) => e.streamId === s).map(envelope)).toEqual(read.map(envelope));

      // Events of one append with metadata of their own keep each their own.
      const s2 = stream('raw-own-metadata');
      const otherMetadata = { ...metadata, requestId: 'req-2', causationId: 'cmd-2' };
      const own = [ev('D'), { ...ev('E'), metadata: otherMetadata }];
      await append(s2, own, 'no_stream');
      expect((await store().readStream(s2)).map(envelope)).toEqual(stored(own, s2));
    });

    describe('expected version', () => {
      const refused = async (s: string, expectedVersion: ExpectedVersion, actual: number | 'no_stream') => {
        const before = await idsOf(s);
        const error = await append(s, [ev('Refused')], expectedVersion).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(error).toMatchObject({ streamId: s, expected: expectedVersion, actual });
        // A refused append writes nothing.
        expect(await idsOf(s)).toEqual(before);
      };

      it("'no_stream' is accepted for a new stream and refused once it exists", async () => {
        const s = stream('no-stream');
        await expect(append(s, [ev('A')], 'no_stream')).resolves.toMatchObject({ nextExpectedVersion: 0 });
        await refused(s, 'no_stream', 0);
      });

      it("'stream_exists' is refused for a new stream and accepted once it exists", async () => {
        const s = stream('exists');
        await refused(s, 'stream_exists', 'no_stream');
        await append(s, [ev('A'), ev('B')], 'no_stream');
        const result = await append(s, [ev('C')], 'stream_exists');
        expect(result.nextExpectedVersion).toBe(2);
      });

      it('a number is accepted only when it is the version of the last event', async () => {
        const s = stream('number');
        await refused(s, 0, 'no_stream');
        await append(s, [ev('A'), ev('B')], 'no_stream');
        await refused(s, 0, 1); // stale
        await refused(s, 2, 1); // ahead
        await expect(append(s, [ev('C')], 1)).resolves.toMatchObject({ nextExpectedVersion: 2 });
      });

      it("'any' is accepted whether or not the stream exists", async () => {
        const s = stream('any');
        await append(s, [ev('A')], 'any');
        await append(s, [ev('B')], 'any');
        expect((await store().readStream(s)).map((e) => e.type)).toEqual(['A', 'B']);
      });
    });

    it('of 8 concurrent writers at one expected version exactly one wins; the rest get a ConcurrencyError', async () => {
      for (const expectedVersion of ['no_stream', 0] as const) {
        const s = stream('race');
        if (expectedVersion === 0) await append(s, [ev('Seed')], 'no_stream');
        const attempts = Array.from({ length: 8 }, (_, i) => [ev(`Writer${i}`), ev(`Writer${i}`)]);
        const { ok, failed } = await settle(attempts.map((events) => append(s, events, expectedVersion)));

        expect(ok).toHaveLength(1);
        expect(failed).toHaveLength(7);
        for (const e of failed) expect(e).toBeInstanceOf(ConcurrencyError);
        const ids = await idsOf(s);
        const winner = attempts.find((events) => events[0]?.eventId === ids[0]);
        expect(ids).toEqual(winner?.map((e) => e.eventId));
      }
    });

    describe('idempotent retry', () => {
      it('the same append retried 1 to 10 times returns the original result and stores one copy', async () => {
        const kinds: ExpectedVersion[] = ['no_stream', 'any', 'stream_exists', 0];
        for (let retries = 1; retries <= 10; retries++) {
          const s = stream(`retry${retries}`);
          const expectedVersion = kinds[retries % kinds.length] ?? 'any';
          if (expectedVersion !== 'no_stream') await append(s, [ev('Seed')], 'no_stream');
          const events = [ev('A'), ev('B')];
          const original = await append(s, events, expectedVersion);
          for (let i = 0; i < retries; i++) {
            await expect(append(s, events, expectedVersion)).resolves.toEqual(original);
          }
          expect(await idsOf(s)).toEqual(events.map((e) => e.eventId));
        }
      });

      it('the same append sent 10 times at once stores one copy and answers each with the same result', async () => {
        for (const expectedVersion of ['no_stream', 0] as const) {
          const s = stream('retry-concurrent');
          if (expectedVersion === 0) await append(s, [ev('Seed')], 'no_stream');
          const events = [ev('A'), ev('B'), ev('C')];
          const sends = Array.from({ length: 10 }, () => append(s, events, expectedVersion));
          const { ok, failed } = await settle(sends);
          expect(failed).toEqual([]);
          expect(new Set(ok.map((r) => JSON.stringify(r))).size).toBe(1);
          expect(await idsOf(s)).toEqual(events.map((e) => e.eventId));
          const last = (await store().readStream(s)).at(-1);
          expect(ok[0]?.lastGlobalPosition).toBe(last?.globalPosition);
        }
      });

      it('a retry still gets the original result after the stream has moved on', async () => {
        const s = stream('retry-later');
        const first = [ev('A')];
        const second = [ev('B'), ev('C')];
        const r1 = await append(s, first, 'no_stream');
        const r2 = await append(s, second, 0);
        await append(s, [ev('D')], 2);
        await expect(append(s, first, 'no_stream')).resolves.toEqual(r1);
        await expect(append(s, second, 0)).resolves.toEqual(r2);
        expect((await store().readStream(s)).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
      });

      it('the same ids sent as a different append are a conflict, not a retry', async () => {
        const s = stream('retry-different');
        const [a, b] = [ev('A'), ev('B')];
        await append(s, [a, b], 'no_stream');
        await expect(append(s, [a, ev('X')], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyError);
        expect((await store().readStream(s)).map((e) => e.type)).toEqual(['A', 'B']);
      });
    });

    if (uniqueIds) {
      it('an event id stands in one stream only: reusing it elsewhere is refused and writes nothing', async () => {
        const [s1, s2, s3] = [stream('ids1'), stream('ids2'), stream('ids3')];
        const taken = ev('A');
        await append(s1, [taken], 'no_stream');
        await expect(append(s2, [taken], 'any')).rejects.toThrow(/already stands/);
        await expect(append(s3, [ev('B'), taken], 'any')).rejects.toThrow(/already stands/);
        expect(await store().readStream(s2)).toEqual([]);
        expect(await store().readStream(s3)).toEqual([]);
      });
    }

    it('refuses malformed input before writing anything', async () => {
      const s = stream('bad');
      const malformed = { ...ev('B'), eventId: 'not-a-uuid' };
      await expect(append(s, [ev('A'), malformed], 'any')).rejects.toThrow(/eventId/);
      await expect(append(s, [ev('A')], -1)).rejects.toThrow(/expectedVersion/);
      expect(await store().readStream(s)).toEqual([]);
    });

    it('a reader following the global position under 8 writers sees every event exactly once, in order', async () => {
      const start = await store().headPosition();
      const shared = stream('shared');
      type Ack = { streamId: string; ids: string[]; result: AppendResult };
      const acks: Ack[] = [];
      let writing = true;

      const writer = async (w: number) => {
        const own = stream(`writer${w}`);
        let version: ExpectedVersion = 'no_stream';
        for (let i = 0; i < 40; i++) {
          const events = Array.from({ length: 1 + ((w + i) % 3) }, () => ev(`W${w}`, { w, i }));
          // Every fifth append goes to a stream all writers share, so streams interleave in the global order.
          const target = i % 5 === 4 ? shared : own;
          const result = await append(target, events, target === shared ? 'any' : version);
          if (target === own) version = result.nextExpectedVersion;
          acks.push({ streamId: target, ids: events.map((e) => e.eventId), result });
        }
      };

      const seen: StoredEvent[] = [];
      const reader = async () => {
        let checkpoint = start;
        let finalHead = Number.POSITIVE_INFINITY;
        while (checkpoint < finalHead) {
          const page = await store().readAll(checkpoint, 50);
          for (const e of page) {
            seen.push(e);
            checkpoint = e.globalPosition;
          }
          if (page.length > 0) continue;
          if (!writing && finalHead === Number.POSITIVE_INFINITY) finalHead = await store().headPosition();
          else await sleep(2);
        }
      };

      const reading = reader();
      await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
      writing = false;
      await reading;

      const mine = seen.filter((e) => e.streamId.startsWith(`contract-${run}-`));
      const positions = mine.map((e) => e.globalPosition);
      for (let i = 1; i < positions.length; i++) expect(positions[i]).toBeGreaterThan(positions[i - 1] ?? 0);
      if (gapless) {
        expect(positions).toEqual(Array.from({ length: positions.length }, (_, i) => start + 1 + i));
      }

      const ackedIds = acks.flatMap((a) => a.ids);
      expect(mine.map((e) => e.eventId).sort()).toEqual([...ackedIds].sort());
      const byId = new Map(mine.map((e) => [e.eventId, e]));
      for (const ack of acks) {
        expect(byId.get(ack.ids.at(-1) ?? '')?.globalPosition).toBe(ack.result.lastGlobalPosition);
      }
      const versionsByStream = new Map<string, number[]>();
      for (const e of mine) {
        versionsByStream.set(e.streamId, [...(versionsByStream.get(e.streamId) ?? []), e.version]);
      }
      for (const versions of versionsByStream.values()) {
        expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i));
      }
    });

    if (opts.hashChain) {
      it('keeps the hash chain intact after concurrent writes', async () => {
        if (!subject?.verifyHashChain) throw new Error('hashChain needs subject.verifyHashChain');
        const result = await subject.verifyHashChain();
        expect(result).toEqual({ ok: true, checked: await store().headPosition() });
        expect(result.checked).toBeGreaterThan(500);
      });
    }
  });
}
