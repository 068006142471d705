import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../platform/src/db/embedded-postgres';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { findTemporalCli, freePort, startTemporalDevServer, waitForPort } from '../platform/src/temporal/cli';
import { bundleWorkflows } from '../workflows/src/bundle';
import { benchAnchoring, benchBatchAppends, benchRawBatchInserts, benchRawInserts, benchSingleAppends, benchStreamLoad, type BenchFigure } from './event-store';
import { identityFigures } from './identity';
import { masterListFigures } from './masters';
import { baListFigures } from './ba-list';
import { uploadFigures } from './uploads';
import { massUploadFigures } from './mass-upload';
import { rfpWorkbookFigures } from './rfp-workbooks';
import { rfpComparisonFigures } from './rfp-comparison';
import { invoiceListFigures } from './invoice-list';
import { benchRebuild, seedBusinessAssociatesForBench } from './projections';
import { apiOverheadFigures } from './api-overhead';
import { benchWorkflowStart } from './temporal';
import { lagFigures } from './lag';
import { soakFigures } from './soak';
import { loadReferenceDataWithReadModels } from '../scripts/reference-data';

/**
 * `npm run bench`: every figure beside the baseline measured in the same run (design.md §9). Nothing here
 * asserts: the machines are shared and noisy, so figures are printed with their targets for a human to read.
 * Everything runs on loopback against servers this script starts and stops: a durable embedded PostgreSQL
 * (fsync on, as in production) and an in-memory Temporal dev server.
 */
const root = path.resolve(__dirname, '..');
const quick = process.argv.includes('--quick');
/** `--only=masters,uploads` runs just those groups (all by default): one figure without the whole half hour. */
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const runs = (group: string) => !only || only.includes(group);
const rows: string[][] = [];
const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const row = (figure: string, value: string, target: string, baseline = '', note = '') => {
  rows.push([figure, value, target, baseline, note]);
  console.log(`  ${figure}: ${value}   target ${target}${baseline ? `   baseline ${baseline}` : ''}${note ? `   ${note}` : ''}`);
};

const APP_ROLE = 'ba_portal_app';

/** A fresh database with the schema and the application role's grants, as `npm start` leaves it. */
async function freshDatabase(server: EmbeddedPostgres, name: string, poolSize = 12): Promise<pg.Pool> {
  await ensureDatabaseExists(server.url('postgres'), name);
  const pool = new pg.Pool({ connectionString: server.url(name), max: poolSize });
  await applySchema(pool);
  await ensureRoles(pool, { appRole: APP_ROLE });
  return pool;
}

/** The application role's connection to a database (what api, worker and projector use). */
const appUrl = (server: EmbeddedPostgres, name: string) => appRoleUrl(server.url(name), APP_ROLE, null);
const appPool = (server: EmbeddedPostgres, name: string, max = 12) =>
  new pg.Pool({ connectionString: appUrl(server, name), max });

/** Groups that run in this process alone: with only these chosen, PostgreSQL and Temporal are not started. */
const SERVERLESS_GROUPS = ['rfp-workbooks'];

function printTable(): void {
  console.log('\n| figure | value | target | same-run baseline | note |\n|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

async function main(): Promise<void> {
  // [issue 12: soak]
  // `--soak` runs the soak alone (bench/soak.ts: its own PostgreSQL, Temporal and data; SOAK_MS, SOAK_BA_N).
  if (process.argv.includes('--soak')) {
    await soakFigures({ quick, row });
    return printTable();
  }
  // Issue 10: the RFP lane template, bid template and bid parse beside plain exceljs (RFP_WORKBOOKS_BENCH_N lanes).
  if (runs('rfp-workbooks'))
    await rfpWorkbookFigures({ quick, row, n: process.env['RFP_WORKBOOKS_BENCH_N'] ? Number(process.env['RFP_WORKBOOKS_BENCH_N']) : undefined });
  if (only && only.every((g) => SERVERLESS_GROUPS.includes(g))) return printTable();
  const work = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-bench-'));
  chmodSync(work, 0o755);
  console.log('starting PostgreSQL (durable settings) and the Temporal dev server…');
  const server = await startEmbeddedPostgres({ dataDir: path.join(work, 'pg'), port: await freePort() });
  const temporal = await startTemporalDevServer({ cliPath: findTemporalCli({ log: console.log }), port: await freePort() });
  try {
    if (runs('event-store')) await eventStoreFigures(server, work);
    if (runs('projections')) await projectionFigures(server);
    if (runs('api')) await apiFigures(server, temporal.address, work);
    if (runs('masters'))
      await masterListFigures({ server, temporalAddress: temporal.address, keyDir: path.join(work, 'masters-keys'), quick, row });
    // Issue 8: the BA list with each filter over 100,000 BAs (`--only=ba-list`; BA_LIST_BENCH_N for a smaller smoke run).
    if (runs('ba-list'))
      await baListFigures({
        server,
        temporalAddress: temporal.address,
        keyDir: path.join(work, 'ba-list-keys'),
        quick,
        row,
        n: process.env['BA_LIST_BENCH_N'] ? Number(process.env['BA_LIST_BENCH_N']) : undefined,
      });
    if (runs('uploads'))
      await uploadFigures({ server, temporalAddress: temporal.address, keyDir: path.join(work, 'upload-keys'), work, quick, row });
    // Issue 9: a nucleus mass upload (validate + append) beside a plain exceljs read (MASS_UPLOAD_BENCH_N rows).
    if (runs('mass-upload'))
      await massUploadFigures({
        server,
        temporalAddress: temporal.address,
        keyDir: path.join(work, 'mass-upload-keys'),
        work,
        quick,
        row,
        n: process.env['MASS_UPLOAD_BENCH_N'] ? Number(process.env['MASS_UPLOAD_BENCH_N']) : undefined,
      });
    // Issue 10: the quote comparison over 50 BAs × 5,000 lanes (RFP_COMPARISON_BENCH_LANES / _BAS for other sizes).
    if (runs('rfp-comparison'))
      await rfpComparisonFigures({
        server,
        temporalAddress: temporal.address,
        keyDir: path.join(work, 'rfp-comparison-keys'),
        work,
        quick,
        row,
        lanes: process.env['RFP_COMPARISON_BENCH_LANES'] ? Number(process.env['RFP_COMPARISON_BENCH_LANES']) : undefined,
        bas: process.env['RFP_COMPARISON_BENCH_BAS'] ? Number(process.env['RFP_COMPARISON_BENCH_BAS']) : undefined,
      });
    // Issue 11: GET /api/invoices over 100,000 invoices with the console's filters (INVOICE_LIST_BENCH_N for another size).
    if (runs('invoice-list'))
      await invoiceListFigures({
        server,
        temporalAddress: temporal.address,
        keyDir: path.join(work, 'invoice-list-keys'),
        work,
        quick,
        row,
        n: process.env['INVOICE_LIST_BENCH_N'] ? Number(process.env['INVOICE_LIST_BENCH_N']) : undefined,
      });
    // [issue 12: lag group]
    // Issue 12: projection lag under 200 commands/s through the api (bench/lag.ts).
    if (runs('lag'))
      await lagFigures({ server, temporalAddress: temporal.address, keyDir: path.join(work, 'lag-keys'), work, quick, row });
    if (runs('identity'))
      await identityFigures({ server, temporalAddress: temporal.address, keyDir: path.join(work, 'identity-keys'), quick, row });
    if (runs('temporal')) await temporalFigures(server, temporal.address);
    if (runs('cold-start')) await coldStart(work);
  } finally {
    await temporal.stop();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
  printTable();
}

async function eventStoreFigures(server: EmbeddedPostgres, work: string): Promise<void> {
  console.log('\nevent store');
  // The owner's pool for the raw baseline (it creates its own table) and the superuser path; the
  // application role's pool for the figures the system really gets (appends through SECURITY DEFINER).
  const pool = await freshDatabase(server, 'bench_store');
  const app = appPool(server, 'bench_store');
  const perWriter = quick ? 200 : 1000;
  const raw = await benchRawInserts(pool, { perWriter });
  const single = await benchSingleAppends(app, { perWriter });
  const ratio = (single.eventsPerSecond ?? 0) / (raw.eventsPerSecond ?? 1);
  row(
    'single-event appends, 8 writers (application role)',
    `${fmt(single.eventsPerSecond, 0)} events/s, p99 ${fmt(single.p99Ms, 2)} ms`,
    '≥ 2,000 events/s, p99 ≤ 15 ms',
    `raw pg single-row inserts: ${fmt(raw.eventsPerSecond, 0)} rows/s, p99 ${fmt(raw.p99Ms, 2)} ms`,
    `ratio to raw ${fmt(ratio, 2)}`,
  );
  // The owner's and the application role's appends alternate, three rounds each, and the medians are
  // compared: one run of each in a fixed order mostly measures which came first (cache, autovacuum).
  const batches = quick ? 4 : 10;
  const ownerRuns: BenchFigure[] = [];
  const appRuns: BenchFigure[] = [];
  // Issue 12: plain PostgreSQL with the same rows, sent and inserted the same way, interleaved too: the
  // ceiling the store's own work (lock, versions, hash chain) is measured against on a shared machine.
  const rawBatchRuns: BenchFigure[] = [];
  for (let round = 0; round < 3; round++) {
    rawBatchRuns.push(await benchRawBatchInserts(pool, { batches }));
    ownerRuns.push(await benchBatchAppends(pool, { batches }));
    appRuns.push(await benchBatchAppends(app, { batches }));
  }
  const median = (runs: BenchFigure[]): BenchFigure =>
    [...runs].sort((a, b) => (a.eventsPerSecond ?? 0) - (b.eventsPerSecond ?? 0))[1] ?? runs[0]!;
  const asOwner = median(ownerRuns);
  const batch = median(appRuns);
  row(
    'batch appends (1,000 per transaction), application role, median of 3',
    `${fmt(batch.eventsPerSecond, 0)} events/s`,
    '≥ 40,000 events/s; ≤ 5 % below the owner path',
    `same appends as the owner (no SECURITY DEFINER), median of 3 interleaved: ${fmt(asOwner.eventsPerSecond, 0)} events/s`,
    `ratio ${fmt((batch.eventsPerSecond ?? 0) / (asOwner.eventsPerSecond ?? 1), 3)}`,
  );
  const rawBatch = median(rawBatchRuns);
  row(
    'batch appends (1,000 per transaction) next to plain PostgreSQL, application role',
    `${fmt(batch.eventsPerSecond, 0)} events/s`,
    '≥ 40,000 events/s',
    `raw pg INSERT … SELECT of 1,000 rows from one JSON parameter, 2 writers, median of 3 interleaved: ${fmt(rawBatch.eventsPerSecond, 0)} rows/s`,
    `ratio to raw ${fmt((batch.eventsPerSecond ?? 0) / (rawBatch.eventsPerSecond ?? 1), 2)}`,
  );
  const anchoring = await benchAnchoring(app, { dir: path.join(work, 'anchors'), batches, anchors: quick ? 50 : 200 });
  row(
    'one chain anchor (head read, Ed25519 signature, append + fsync of the anchor file)',
    `p50 ${fmt(anchoring.anchor.p50Ms, 2)} ms, p99 ${fmt(anchoring.anchor.p99Ms, 2)} ms`,
    'cheap next to a 30 s interval',
  );
  row(
    'batch appends while anchoring every 100 ms (300× the default rate)',
    `${fmt(anchoring.appendsWhileAnchoring.eventsPerSecond, 0)} events/s`,
    '≤ 5 % below appends without anchoring',
    `without anchoring (same role, same run): ${fmt(batch.eventsPerSecond, 0)} events/s`,
    `ratio ${fmt((anchoring.appendsWhileAnchoring.eventsPerSecond ?? 0) / (batch.eventsPerSecond ?? 1), 3)}`,
  );
  const load = await benchStreamLoad(app, { reads: quick ? 200 : 1000 });
  row('load a 100-event stream', `p50 ${fmt(load.p50Ms, 3)} ms, p99 ${fmt(load.p99Ms, 3)} ms`, 'p99 ≤ 2 ms');
  await app.end();
  await pool.end();
}

async function projectionFigures(server: EmbeddedPostgres): Promise<void> {
  console.log('\nprojections');
  const pool = await freshDatabase(server, 'bench_rebuild');
  const figure = await benchRebuild(pool, quick ? 20_000 : 100_000);
  const mb = (bytes: number) => `${fmt(bytes / 2 ** 20, 0)} MB`;
  row(
    `projection rebuild, one event per stream (${figure.n} events, own process)`,
    `${fmt(figure.eventsPerSecond, 0)} events/s (${fmt(figure.ms / 1000, 2)} s)`,
    '≥ 50,000 events/s',
    `reading the events alone (store.readAll, same pages): ${fmt(figure.readEventsPerSecond, 0)} events/s`,
    `peak RSS ${mb(figure.peakRss)} (${mb(figure.rssBefore)} before), peak V8 heap used ${mb(figure.peakHeapUsed)}`,
  );
  await pool.end();
}

async function apiFigures(server: EmbeddedPostgres, temporalAddress: string, work: string): Promise<void> {
  console.log('\napi');
  const n = process.env['API_BENCH_N'] ? Number(process.env['API_BENCH_N']) : quick ? 20_000 : 100_000;
  const pool = await freshDatabase(server, 'bench_api');
  await seedBusinessAssociatesForBench(pool, n);
  await pool.end();
  // Issue 12: bare Express, a trivial signed-in route and the BA list with 1 and 2 api processes (bench/api-overhead.ts).
  await apiOverheadFigures({ databaseUrl: appUrl(server, 'bench_api'), temporalAddress, work, n, quick, row });
}

async function temporalFigures(server: EmbeddedPostgres, address: string): Promise<void> {
  console.log('\ntemporal');
  const pool = await freshDatabase(server, 'bench_temporal');
  // The first activity creates a BA, whose company code is checked against the Companies master.
  await loadReferenceDataWithReadModels(pool);
  const connection = await NativeConnection.connect({ address });
  const clientConnection = await Connection.connect({ address });
  const client = new Client({ connection: clientConnection });
  const { code } = await bundleWorkflows();
  const figure = await benchWorkflowStart({
    client,
    connection,
    store: createPostgresEventStore(pool),
    pool,
    taskQueue: `bench-${Date.now()}`,
    n: quick ? 30 : 100,
    workflowBundle: { code },
  });
  row('workflow start → first activity', `p50 ${fmt(figure.p50Ms, 1)} ms, p99 ${fmt(figure.p99Ms, 1)} ms`, 'p99 ≤ 150 ms');
  await clientConnection.close();
  await connection.close();
  await pool.end();
}

/** `npm start` on a fresh data folder (new PostgreSQL cluster, new Temporal state) until /health answers 200. */
async function coldStart(work: string): Promise<void> {
  console.log('\ncold start');
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: path.join(work, 'cold'),
      PORT: String(port),
      EMBEDDED_PG_PORT: String(await freePort()),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      SEED_DEMO: 'true',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let bannerAt = 0;
  child.stdout?.on('data', (c: Buffer) => {
    if (!bannerAt && c.toString().includes('BA portal is up')) bannerAt = Date.now();
  });
  let healthyAt = 0;
  const deadline = Date.now() + 120_000;
  while (!healthyAt && Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) healthyAt = Date.now();
    else await new Promise((r) => setTimeout(r, 100));
  }
  while (!bannerAt && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  row(
    'cold start of the whole system (fresh data folder, front ends prebuilt)',
    healthyAt ? `${fmt((healthyAt - started) / 1000, 1)} s to /health 200` : 'did not become healthy',
    '≤ 20 s',
    '',
    bannerAt ? `${fmt((bannerAt - started) / 1000, 1)} s until demo data seeded and URLs printed` : '',
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
