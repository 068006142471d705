import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { EventMetadata, NewEvent } from '../domain/src/shared/events';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { percentile } from './stats';

/**
 * Event-store figures for `npm run bench` (bench/run.ts prints them). Each function takes a pool on a fresh
 * database with the schema applied; the pool needs at least `WRITERS` connections. The raw-insert figure is
 * the same-run baseline the single-event appends are compared with.
 */
export type BenchFigure = {
  name: string;
  eventsPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  n: number;
};

export const WRITERS = 8;

const metadata: EventMetadata = {
  actor: { userId: 'bench-user', role: 'MLL Procurement', name: 'Bench User' },
  companyCode: '1000',
  correlationId: '00000000-0000-4000-8000-000000000001',
  causationId: '00000000-0000-4000-8000-000000000002',
  workflowId: 'onboarding-bench',
  requestId: 'req-bench',
  at: '2026-01-01T00:00:00.000Z',
};

/** About the size of a real CompanyDetailsSaved event. */
const data = (n: number) => ({
  baId: `bench-${n}`,
  details: {
    companyName: 'Acme Logistics Private Limited',
    panNumber: 'ABCDE1234F',
    contactPersonName: 'Ravi Kumar',
    cinNumber: 'U12345MH2020PTC123456',
    serviceId: 3,
    stateId: 27,
    cityId: 412,
    addressLine1: '12, Industrial Estate, Phase 2',
    addressLine2: null,
    pinCode: '400001',
    companyLandline: null,
    contactPersonMobileNumber: '9876543210',
    ownFleet: 12,
    attachedFleet: 30,
  },
  changes: { companyName: { before: null, after: 'Acme Logistics Private Limited' } },
});

const newEvent = (n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'CompanyDetailsSaved',
  data: data(n),
  metadata,
});

const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

/** Runs `writers` loops of `perWriter` operations each, timing every operation. */
async function timedWriters(
  writers: number,
  perWriter: number,
  op: (writer: number, i: number) => Promise<void>,
): Promise<Run> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < perWriter; i++) {
        const t0 = performance.now();
        await op(w, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { elapsedMs: performance.now() - started, latencies: latencies.sort((a, b) => a - b) };
}

type Run = { elapsedMs: number; latencies: number[] };

const figure = (name: string, events: number, run: Run): BenchFigure => ({
  name,
  eventsPerSecond: Math.round((events * 1000) / run.elapsedMs),
  p50Ms: round(percentile(run.latencies, 50)),
  p99Ms: round(percentile(run.latencies, 99)),
  n: run.latencies.length,
});

/** Baseline: the same rows as plain single-row INSERTs (own commit each) into a table of the same shape. */
export async function benchRawInserts(
  pool: pg.Pool,
  options: { perWriter?: number } = {},
): Promise<BenchFigure> {
  const perWriter = options.perWriter ?? 500;
  const table = `bench_raw_events_${process.pid}`;
  await pool.query(`drop table if exists ${table}`);
  await pool.query(`create table ${table} (
    global_position bigint generated always as identity primary key, stream_id text not null,
    version int not null, event_id uuid not null unique, type text not null, data jsonb not null,
    metadata jsonb not null, recorded_at timestamptz not null default now(), unique (stream_id, version))`);
  try {
    const metaJson = JSON.stringify(metadata);
    const insert = (stream: string, version: number, n: number) =>
      pool.query({
        name: `bench_raw_insert_${table}`,
        text: `insert into ${table} (stream_id, version, event_id, type, data, metadata)
               values ($1, $2, $3, $4, $5, $6)`,
        values: [stream, version, randomUUID(), 'CompanyDetailsSaved', JSON.stringify(data(n)), metaJson],
      });
    await timedWriters(WRITERS, 20, (w, i) => insert(`warm-${w}`, i, i).then(() => undefined));
    const run = await timedWriters(WRITERS, perWriter, (w, i) =>
      insert(`raw-${w}`, i, i).then(() => undefined),
    );
    return figure(`raw pg single-row INSERTs, ${WRITERS} writers (baseline)`, WRITERS * perWriter, run);
  } finally {
    await pool.query(`drop table if exists ${table}`);
  }
}

/** Single-event appends through the port, each writer on its own stream with its expected version. */
export async function benchSingleAppends(
  pool: pg.Pool,
  options: { perWriter?: number } = {},
): Promise<BenchFigure> {
  const perWriter = options.perWriter ?? 500;
  const store = createPostgresEventStore(pool);
  const tag = randomUUID().slice(0, 8);
  const append = (stream: string, i: number) =>
    store
      .appendToStream(stream, [newEvent(i)], { expectedVersion: i === 0 ? 'no_stream' : i - 1 })
      .then(() => undefined);
  await timedWriters(WRITERS, 20, (w, i) => append(`bench-warm-${tag}-${w}`, i));
  const run = await timedWriters(WRITERS, perWriter, (w, i) => append(`bench-single-${tag}-${w}`, i));
  return figure(`single-event appends through the port, ${WRITERS} writers`, WRITERS * perWriter, run);
}

/**
 * Appends of `batchSize` events in one call (one transaction each) from `writers` concurrent writers (the
 * server parses one append's JSON while another holds the append lock).
 */
export async function benchBatchAppends(
  pool: pg.Pool,
  options: { batches?: number; batchSize?: number; writers?: number } = {},
): Promise<BenchFigure> {
  const writers = options.writers ?? 2;
  const perWriter = Math.ceil((options.batches ?? 20) / writers);
  const batchSize = options.batchSize ?? 1000;
  const store = createPostgresEventStore(pool);
  const tag = randomUUID().slice(0, 8);
  const batch = () => Array.from({ length: batchSize }, (_, i) => newEvent(i));
  await store.appendToStream(`bench-batch-warm-${tag}`, batch(), { expectedVersion: 'no_stream' });
  const run = await timedWriters(writers, perWriter, (w, i) =>
    store
      .appendToStream(`bench-batch-${tag}-${w}-${i}`, batch(), { expectedVersion: 'no_stream' })
      .then(() => undefined),
  );
  const name = `batch appends of ${batchSize} events per append, ${writers} writer(s)`;
  return { ...figure(name, writers * perWriter * batchSize, run), n: writers * perWriter };
}

/**
 * Baseline for the batch appends (issue 12): what PostgreSQL itself costs for the same rows, sent the same
 * way: one JSON parameter of `batchSize` events per statement, parsed as jsonb and inserted with one
 * INSERT … SELECT (own commit each) into a table of the events' shape with the same three unique indexes,
 * from the same number of writers. No lock, no versions, no hash chain: the gap to it is the store's own cost.
 */
export async function benchRawBatchInserts(
  pool: pg.Pool,
  options: { batches?: number; batchSize?: number; writers?: number } = {},
): Promise<BenchFigure> {
  const writers = options.writers ?? 2;
  const perWriter = Math.ceil((options.batches ?? 20) / writers);
  const batchSize = options.batchSize ?? 1000;
  const table = `bench_raw_batch_${process.pid}`;
  await pool.query(`drop table if exists ${table}`);
  await pool.query(`create table ${table} (
    global_position bigint generated always as identity primary key, stream_id text not null,
    version int not null, event_id uuid not null unique, type text not null, data jsonb not null,
    metadata jsonb not null, recorded_at timestamptz not null default now(), unique (stream_id, version))`);
  try {
    const metaJson = JSON.stringify(metadata);
    const insert = (stream: string) =>
      pool.query({
        name: `bench_raw_batch_${table}`,
        text: `insert into ${table} (stream_id, version, event_id, type, data, metadata)
               select $1, (x.ord - 1)::int, (x.value->>'eventId')::uuid, x.value->>'type', x.value->'data', $3::jsonb
                 from jsonb_array_elements($2::jsonb) with ordinality as x(value, ord)`,
        values: [
          stream,
          JSON.stringify(Array.from({ length: batchSize }, (_, i) => ({ eventId: randomUUID(), type: 'CompanyDetailsSaved', data: data(i) }))),
          metaJson,
        ],
      });
    const tag = randomUUID().slice(0, 8);
    await insert(`raw-batch-warm-${tag}`);
    const run = await timedWriters(writers, perWriter, (w, i) => insert(`raw-batch-${tag}-${w}-${i}`).then(() => undefined));
    const name = `raw pg INSERT … SELECT of ${batchSize} rows from one JSON parameter, ${writers} writer(s) (baseline)`;
    return { ...figure(name, writers * perWriter * batchSize, run), n: writers * perWriter };
  } finally {
    await pool.query(`drop table if exists ${table}`);
  }
}

/** Loading a 100-event stream (what handleCommand does before every decision), sequentially. */
export async function benchStreamLoad(
  pool: pg.Pool,
  options: { reads?: number; streamLength?: number } = {},
): Promise<BenchFigure> {
  const reads = options.reads ?? 1000;
  const length = options.streamLength ?? 100;
  const store = createPostgresEventStore(pool);
  const stream = `bench-load-${randomUUID().slice(0, 8)}`;
  await store.appendToStream(
    stream,
    Array.from({ length }, (_, i) => newEvent(i)),
    { expectedVersion: 'no_stream' },
  );
  const load = async () => {
    const events = await store.readStream(stream);
    if (events.length !== length) throw new Error(`expected ${length} events, read ${events.length}`);
  };
  // Steady state: the first few hundred reads still compile the driver's row and JSON parsing (measured: p99
  // 4.0 ms over the first thousand reads of a fresh process, 2.0 ms over the next thousand).
  await timedWriters(1, 500, load);
  const run = await timedWriters(1, reads, load);
  return {
    name: `load a ${length}-event stream (readStream)`,
    p50Ms: round(percentile(run.latencies, 50), 3),
    p99Ms: round(percentile(run.latencies, 99), 3),
    n: reads,
  };
}

/**
 * What anchoring costs (issue 6): each `createAnchor` (head read, signature, append to the anchor file, fsync)
 * timed on its own, and batch appends measured while an anchoring loop runs far more often than the
 * default 30 s, so its interference with appends shows in the same run's batch figure.
 */
export async function benchAnchoring(
  pool: pg.Pool,
  options: { dir: string; anchors?: number; batches?: number; intervalMs?: number },
): Promise<{ anchor: BenchFigure; appendsWhileAnchoring: BenchFigure }> {
  const { createAnchor, fileAnchorSink, loadOrCreateAnchorKeys } = await import('../platform/src/event-store/anchors');
  const keys = loadOrCreateAnchorKeys(options.dir);
  const sink = fileAnchorSink(`${options.dir}/anchors.jsonl`);
  const store = createPostgresEventStore(pool);
  const tag = randomUUID().slice(0, 8);
  // Each anchor needs the head to have moved, or it is skipped as unchanged: one small append before each.
  const latencies: number[] = [];
  for (let i = 0; i < (options.anchors ?? 200); i++) {
    await store.appendToStream(`bench-anchor-${tag}`, [newEvent(i)], { expectedVersion: i === 0 ? 'no_stream' : i - 1 });
    const t0 = performance.now();
    const result = await createAnchor(pool, { keys, sink });
    latencies.push(performance.now() - t0);
    if (!result.written) throw new Error(`anchor not written: ${JSON.stringify(result)}`);
  }
  latencies.sort((a, b) => a - b);
  const anchor: BenchFigure = {
    name: 'createAnchor',
    p50Ms: round(percentile(latencies, 50), 3),
    p99Ms: round(percentile(latencies, 99), 3),
    n: latencies.length,
  };

  let stop = false;
  const loop = (async () => {
    while (!stop) {
      await createAnchor(pool, { keys, sink });
      await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
    }
  })();
  try {
    const appendsWhileAnchoring = await benchBatchAppends(pool, { batches: options.batches });
    return { anchor, appendsWhileAnchoring };
  } finally {
    stop = true;
    await loop;
  }
}
