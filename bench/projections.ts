import { spawn } from 'node:child_process';
import path from 'node:path';
import { v5 as uuidv5 } from 'uuid';
import pg from 'pg';
import { CITIES } from '../domain/src/masters/reference-data/cities';
import { SERVICES } from '../domain/src/masters/reference-data/services';
import { WELCOME_MESSAGE } from '../domain/src/onboarding/decide';
import type { CompanyDetails } from '../domain/src/onboarding/details';
import type { OnboardingEvent } from '../domain/src/onboarding/events';
import { baStreamId } from '../domain/src/onboarding/events';
import type { EventMetadata, NewEvent } from '../domain/src/shared/events';
import { appendToStream, createPostgresEventStore } from '../platform/src/event-store/postgres';
import { rebuildProjections } from '../projections/src/rebuild';
import { allProjections } from '../projections/src/registry';
import { loadReferenceData } from '../scripts/reference-data';
import type { BenchFigure } from './event-store';

/**
 * Projection figures for `npm run bench`: the rebuild rate (target ≥ 50,000 events/s with one event per
 * stream) and the seeding of 100,000 BAs the API list bench reads. Events go through the PostgreSQL event
 * store's own append (hash chain and all), many appends per transaction so seeding is quick; read models are
 * built only by the projections. Each function expects a fresh database with the schema applied.
 */
const NAMESPACE = '3b0f0e7c-5d8e-4c35-9d0a-6f0c1d2b7a44';
const APPENDS_PER_TRANSACTION = 1000;

const meta = (at: string, companyCode: string, role = 'system', userId = 'system'): EventMetadata => ({
  actor: { userId, role },
  companyCode,
  correlationId: NAMESPACE,
  causationId: null,
  workflowId: null,
  requestId: null,
  at,
});

const toNew = (baId: string, events: readonly OnboardingEvent[], metas: readonly EventMetadata[]): NewEvent[] =>
  events.map((e, i) => ({
    eventId: uuidv5(`${baId}:${i}`, NAMESPACE),
    type: e.type,
    data: e.data,
    metadata: metas[i] ?? metas[metas.length - 1]!,
  }));

/**
 * Appends the `n` streams `streamOf` makes (each new, its events as one append), `APPENDS_PER_TRANSACTION`
 * appends per transaction; returns the events appended.
 */
export async function appendStreams(
  pool: pg.Pool,
  n: number,
  streamOf: (i: number) => { streamId: string; events: NewEvent[] },
): Promise<number> {
  const client = await pool.connect();
  let total = 0;
  try {
    for (let start = 0; start < n; start += APPENDS_PER_TRANSACTION) {
      await client.query('BEGIN');
      for (let i = start; i < Math.min(n, start + APPENDS_PER_TRANSACTION); i += 1) {
        const { streamId, events } = streamOf(i);
        await appendToStream(client, streamId, events, { expectedVersion: 'no_stream' });
        total += events.length;
      }
      await client.query('COMMIT');
    }
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
  return total;
}

const timeOf = (i: number, step = 0): string =>
  new Date(Date.UTC(2025, 0, 1) + i * 60_000 + step * 1000).toISOString();

/** The rebuild figure with the memory of the process that did it. */
export type RebuildFigure = BenchFigure & {
  ms: number;
  /** Resident set before the rebuild started (modules loaded, pool open) and its high-water mark, bytes. */
  rssBefore: number;
  peakRss: number;
  /** Largest V8 heap in use seen while rebuilding (sampled every 10 ms), bytes. */
  peakHeapUsed: number;
  /** The same-run baseline: reading every event through `store.readAll` alone, in pages of the same size. */
  readEventsPerSecond: number;
};

/**
 * Appends `n` BusinessAssociateCreated events (one per stream), then times a full rebuild of every projection
 * in a process of its own (this file run as a script), as `npm run projections:rebuild` runs: its memory is
 * then the rebuild's alone, not the bench's (Temporal client, earlier groups' garbage).
 */
export async function benchRebuild(pool: pg.Pool, n: number): Promise<RebuildFigure> {
  await appendStreams(pool, n, (i) => {
    const baId = `bench-${i}`;
    const companyCode = i % 2 === 0 ? '1000' : '2000';
    const created: OnboardingEvent = {
      type: 'BusinessAssociateCreated',
      data: { baId, companyCode, adminUserId: null, mobileNo: null, email: null },
    };
    return { streamId: baStreamId(baId), events: toNew(baId, [created], [meta(timeOf(i), companyCode)]) };
  });
  const databaseUrl = pool.options.connectionString;
  if (!databaseUrl) throw new Error('benchRebuild needs a pool opened with a connection string');
  const out = await runRebuildProcess(databaseUrl);
  return { name: 'projection rebuild (one event per stream)', ...out };
}

type RebuildReport = Omit<RebuildFigure, 'name'>;
const REPORT_PREFIX = 'rebuild-report ';

async function runRebuildProcess(databaseUrl: string): Promise<RebuildReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename], {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, BENCH_REBUILD_DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const line = stdout.split('\n').find((l) => l.startsWith(REPORT_PREFIX));
  if (code !== 0 || !line) throw new Error(`rebuild process exited with ${code}: ${stdout.slice(-2000)}`);
  return JSON.parse(line.slice(REPORT_PREFIX.length)) as RebuildReport;
}

/** The rebuild's default page size, passed explicitly so the read baseline reads the same pages. */
const READ_PAGE = 5_000;

/** The child's side: rebuild every projection of the database given, print the report line. */
async function rebuildProcessMain(databaseUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  try {
    const store = createPostgresEventStore(pool);
    await pool.query('SELECT 1');
    const rssBefore = process.memoryUsage().rss;
    let peakHeapUsed = process.memoryUsage().heapUsed;
    // The kernel's high-water mark is exact for RSS; the V8 heap has none, so sample it.
    const sampler = setInterval(() => {
      peakHeapUsed = Math.max(peakHeapUsed, process.memoryUsage().heapUsed);
    }, 10);
    const result = await rebuildProjections({ pool, store, projections: allProjections(), pageSize: READ_PAGE });
    clearInterval(sampler);
    const peakRss = process.resourceUsage().maxRSS * 1024;
    const reading = performance.now();
    let read = 0;
    for (let after = 0; ; ) {
      const page = await store.readAll(after, READ_PAGE);
      if (page.length === 0) break;
      read += page.length;
      after = page[page.length - 1]!.globalPosition;
    }
    const readEventsPerSecond = Math.round((read * 1000) / (performance.now() - reading));
    const report: RebuildReport = {
      eventsPerSecond: result.eventsPerSecond,
      n: result.events,
      ms: result.ms,
      rssBefore,
      peakRss,
      peakHeapUsed,
      readEventsPerSecond,
    };
    process.stdout.write(`${REPORT_PREFIX}${JSON.stringify(report)}\n`);
  } finally {
    await pool.end();
  }
}

if (require.main === module) {
  const url = process.env['BENCH_REBUILD_DATABASE_URL'];
  rebuildProcessMain(url ?? '').then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}

const PAN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letters = (i: number, count: number): string =>
  Array.from({ length: count }, (_, k) => PAN_LETTERS[Math.floor(i / 26 ** k) % 26]).join('');

function detailsFor(i: number): CompanyDetails {
  const city = CITIES[i % CITIES.length]!;
  return {
    companyName: `${['Acme', 'Sigma', 'Vega', 'Swift', 'Rapid', 'Nova', 'Orion', 'Zen'][i % 8]} Logistics ${i}`,
    panNumber: `${letters(i, 5)}${String(i % 10_000).padStart(4, '0')}${PAN_LETTERS[i % 26]}`,
    contactPersonName: 'Ravi Kumar',
    cinNumber: null,
    serviceId: Number(SERVICES[i % SERVICES.length]!.id),
    stateId: city.stateId,
    cityId: Number(city.id),
    addressLine1: `${i} Industrial Estate`,
    addressLine2: null,
    pinCode: '400001',
    companyLandline: null,
    contactPersonMobileNumber: '9876543210',
    ownFleet: i % 50,
    attachedFleet: null,
  };
}

/**
 * `n` BAs spread over the statuses (a fifth each: registered, stage 1, stage 2, verified, rejected) and two
 * company codes (three quarters in '1000'), through events and the projections, after the reference data
 * every installation holds (the list names each BA's city, state and service from the masters). Returns the
 * BA events appended.
 */
export async function seedBusinessAssociatesForBench(
  pool: pg.Pool,
  n: number,
): Promise<{ n: number; events: number }> {
  await loadReferenceData(createPostgresEventStore(pool), { pool });
  const events = await appendStreams(pool, n, (i) => {
    const baId = `seed-${i}`;
    const companyCode = i % 4 === 3 ? '2000' : '1000';
    const details = detailsFor(i);
    const list: OnboardingEvent[] = [
      {
        type: 'BusinessAssociateCreated',
        data: { baId, companyCode, adminUserId: null, mobileNo: null, email: null },
      },
      {
        type: 'CompanyDetailsSaved',
        data: { baId, details, changes: { companyName: { before: null, after: details.companyName } } },
      },
    ];
    const kind = i % 5;
    if (kind >= 1) list.push({ type: 'OnboardingSubmitted', data: { baId, submission: 1, resubmission: false } });
    if (kind >= 2 && kind <= 3)
      list.push({
        type: 'ReviewStageApproved',
        data: {
          baId,
          submission: 1,
          stage: 1,
          remarks: null,
          approvedBy: 'bench-procurement',
          role: 'MLL Procurement',
        },
      });
    if (kind === 3)
      list.push(
        {
          type: 'ReviewStageApproved',
          data: {
            baId,
            submission: 1,
            stage: 2,
            remarks: null,
            approvedBy: 'bench-commercial',
            role: 'MLL Commercial',
          },
        },
        { type: 'BusinessAssociateVerified', data: { baId, submission: 1, welcomeMessage: WELCOME_MESSAGE } },
      );
    if (kind === 4)
      list.push({
        type: 'OnboardingRejected',
        data: {
          baId,
          submission: 1,
          stage: 1,
          remarks: 'PAN does not match',
          rejectedBy: 'bench-procurement',
          role: 'MLL Procurement',
        },
      });
    const metas = list.map((_, step) => meta(timeOf(i, step), companyCode));
    return { streamId: baStreamId(baId), events: toNew(baId, list, metas) };
  });
  await rebuildProjections({ pool, store: createPostgresEventStore(pool), projections: allProjections() });
  return { n, events };
}
