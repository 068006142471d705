import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { AppendResult } from '../../../domain/src/event-store/port';
import type { EventMetadata, NewEvent } from '../../../domain/src/shared/events';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded-postgres';
import { verifyHashChain } from './hash';
import { createPostgresEventStore } from './postgres';
import { ensureEventStoreSchema } from './schema';

/**
 * A hard-killed PostgreSQL loses no acknowledged event (issue: "a hard-killed PostgreSQL loses no
 * acknowledged event"). It runs its own server with the default durable settings (fsync and synchronous
 * commit on), unlike the shared test server.
 */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const metadata: EventMetadata = {
  actor: { userId: 'crash-test', role: 'system' },
  companyCode: '1000',
  correlationId: 'crash',
  causationId: null,
  workflowId: null,
  requestId: null,
  at: '2026-02-01T10:00:00.000Z',
};

type Ack = { streamId: string; events: NewEvent[]; result: AppendResult };

describe('durability of the PostgreSQL event store', () => {
  let work: string;
  let server: EmbeddedPostgres | undefined;

  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'event-store-crash-'));
    // Run as root, PostgreSQL runs as the postgres user, which must be able to reach its data folder.
    chmodSync(work, 0o755);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('keeps every acknowledged append, at the same positions, when the server is SIGKILLed mid-stream', async () => {
    const dataDir = path.join(work, 'data');
    const port = await freePort();
    server = await startEmbeddedPostgres({ dataDir, port });
    const pool = new pg.Pool({ connectionString: server.url(), max: 9 });
    pool.on('error', () => undefined); // idle connections die with the server; that is the point
    await ensureEventStoreSchema(pool);
    const store = createPostgresEventStore(pool);

    const acks: Ack[] = [];
    let failures = 0;
    const writer = async (w: number) => {
      const streamId = `crash-${w}-${randomUUID().slice(0, 8)}`;
      let expectedVersion: number | 'no_stream' = 'no_stream';
      for (let i = 0; ; i++) {
        const events = Array.from({ length: 1 + (i % 3) }, () => ({
          eventId: randomUUID(),
          type: 'CrashTestEvent',
          data: { w, i },
          metadata,
        }));
        try {
          const result = await store.appendToStream(streamId, events, { expectedVersion });
          acks.push({ streamId, events, result });
          expectedVersion = result.nextExpectedVersion;
        } catch {
          failures++;
          return; // the server is gone: this append may or may not have committed
        }
      }
    };

    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    while (acks.length < 150) await new Promise((r) => setTimeout(r, 10));
    await server.kill();
    await Promise.all(writers);
    const acknowledged = acks.length;
    await pool.end().catch(() => undefined);
    expect(failures).toBe(8);

    server = await startEmbeddedPostgres({ dataDir, port });
    const after = new pg.Pool({ connectionString: server.url(), max: 2 });
    // pool.end() resolves once its clients are told to end, not once the server has let them go, so the stop in
    // afterAll can reach a backend first and its "terminating connection" arrives as an idle client's error.
    after.on('error', () => undefined);
    try {
      const recovered = createPostgresEventStore(after);
      for (const ack of acks.slice(0, acknowledged)) {
        const stored = await recovered.readStream(ack.streamId);
        const last = ack.result.nextExpectedVersion;
        const mine = stored.slice(last - ack.events.length + 1, last + 1);
        expect(mine.map((e) => e.eventId)).toEqual(ack.events.map((e) => e.eventId));
        expect(mine[mine.length - 1]?.globalPosition).toBe(ack.result.lastGlobalPosition);
      }
      const rows = await after.query<{ p: string }>(
        'select global_position::text as p from events order by global_position',
      );
      const positions = rows.rows.map((r) => Number(r.p));
      expect(positions).toEqual(Array.from({ length: positions.length }, (_, i) => i + 1));
      expect(positions.length).toBeGreaterThanOrEqual(acks.reduce((n, a) => n + a.events.length, 0));
      expect(await verifyHashChain(after)).toEqual({ ok: true, checked: positions.length });
      // Still writable after recovery, continuing the chain.
      const next = { eventId: randomUUID(), type: 'AfterCrash', data: {}, metadata };
      await recovered.appendToStream('after-crash', [next], { expectedVersion: 'no_stream' });
      expect(await verifyHashChain(after)).toEqual({ ok: true, checked: positions.length + 1 });
    } finally {
      await after.end();
    }
  });
});
