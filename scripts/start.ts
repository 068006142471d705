import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { buildFrontEnd, builtFrontEnd, FRONT_ENDS } from '../platform/src/build/front-ends';
import { loadConfig, ConfigError, temporalAddress, type Config } from '../platform/src/config';
import { migrateDatabase, openDatabase, type Database } from '../platform/src/db/connect';
import { openEventStore } from '../platform/src/event-store/open';
import { openBlobStore } from '../platform/src/files';
import type { EventStore } from '../domain/src/event-store/port';
import { loadReferenceData } from './reference-data';
import { claimDemoSeed, DEMO_LOGINS, DEMO_PASSWORD, seedDemo, type SeedResult } from './seed';
import { findTemporalCli, startTemporalDevServer, waitForPort, type TemporalDevServer } from '../platform/src/temporal/cli';
import { connectTemporal } from '../platform/src/temporal/connect';
import { ensureErpSandboxSchema } from '../sandboxes/erp/src/store';
import { ensureCrmSandboxSchema } from '../sandboxes/crm/src/store';

/**
 * `npm start`: one supervisor that brings up every part on embedded defaults (design.md §1): PostgreSQL
 * (DATABASE_URL or embedded), Temporal (TEMPORAL_ADDRESS or the CLI dev server), then the api, worker and
 * projector as child processes, seeds the demo data, and prints the URLs and demo logins.
 */
const root = path.resolve(__dirname, '..');
const log = (line: string) => console.log(`[start] ${line}`);

type Child = { name: string; file: string; process: ChildProcess | null; restarts: number };

async function main(): Promise<void> {
  const started = Date.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  ensureFrontEndsBuilt();

  let temporal: TemporalDevServer | null = null;
  const temporalStarting = (async () => {
    if (config.temporal.address) return;
    const cliPath = findTemporalCli({ configuredPath: config.temporal.dev.cliPath, log });
    log(`starting the Temporal dev server on 127.0.0.1:${config.temporal.dev.port} (state in ${config.temporal.dev.dbFile})`);
    temporal = await startTemporalDevServer({
      cliPath,
      port: config.temporal.dev.port,
      uiPort: config.temporal.dev.uiPort,
      dbFile: config.temporal.dev.dbFile,
    });
  })();
  // As the owner only to apply the schema and grants, where this process has owner rights (the embedded
  // server, or DATABASE_OWNER_URL; with DATABASE_URL alone `npm run db:migrate` has done it). From then on
  // the supervisor (the seed) and its children connect as the least-privileged application role.
  const migrated = config.database.url && !config.database.ownerUrl ? null : await migrateDatabase(config, { log });
  // The sandbox ERP (unless ERP_URL names another) keeps its vendor master in the schema erp_sandbox: created
  // here as the owner and granted to the application role it connects as.
  if (migrated && !config.erp.external) await prepareErpSandbox(config);
  // Likewise the sandbox CRM (unless CRM_URL names another): its seeded opportunities in the schema crm_sandbox.
  if (migrated && !config.crm.external) await prepareCrmSandbox(config);
  const db: Database = await openDatabase(config, { mode: 'app', log, url: migrated?.appUrl });
  // The reference data (states, cities, services, tax codes…) before any child starts, in production too: it
  // is not demo data, every form needs it. Only items missing from the store are created; an administrator's
  // edits stand.
  const store = await openEventStore(config, db.pool);
  await loadReferenceData(store, { pool: config.eventStore.kind === 'postgres' ? db.pool : undefined, log });
  await temporalStarting;
  // Before any child can write: demo data goes only into a store that is empty now (or finishes a run a
  // stopped start began), and the api's /health stays not ready from its first answer until the seed is done.
  const seedStore = config.seedDemo ? store : null;
  if (seedStore) await claimDemoSeed({ pool: db.pool, store: seedStore });

  // The children never see the owner's credentials (their DATABASE_URL carries what they need).
  const inherited = { ...process.env };
  delete inherited.DATABASE_OWNER_URL;
  delete inherited.DATABASE_APP_PASSWORD;
  const env = {
    ...inherited,
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: temporalAddress(config),
    // Explicit: the children see DATABASE_URL set, where SEED_DEMO would otherwise default to false, and the
    // api's readiness waits for the seed only when it is on.
    SEED_DEMO: config.seedDemo ? 'true' : 'false',
    // The dev outbox shows every e-mail and SMS (sign-in codes, links) at /dev/outbox; never in production.
    DEV_OUTBOX: process.env.DEV_OUTBOX ?? (config.env === 'production' ? 'false' : 'true'),
  };
  const children: Child[] = [
    // Before the worker, whose ERP activities call it (ERP_URL unset: config.erp.url is this sandbox).
    ...(config.erp.external ? [] : [{ name: 'erp-sandbox', file: 'sandboxes/erp/src/server.ts', process: null, restarts: 0 }]),
    // The api's opportunity lookups (RFP wizard step 1) call it (CRM_URL unset: config.crm.url is this sandbox).
    ...(config.crm.external ? [] : [{ name: 'crm-sandbox', file: 'sandboxes/crm/src/server.ts', process: null, restarts: 0 }]),
    { name: 'projector', file: 'projections/src/main.ts', process: null, restarts: 0 },
    { name: 'worker', file: 'workflows/src/worker.ts', process: null, restarts: 0 },
    { name: 'api', file: 'api/src/server.ts', process: null, restarts: 0 },
  ];
  let stopping = false;
  const launch = (child: Child) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child.file], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const prefix = (chunk: Buffer) =>
      chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => (l.startsWith(`[${child.name}]`) ? l : `[${child.name}] ${l}`))
        .join('\n');
    proc.stdout?.on('data', (c: Buffer) => console.log(prefix(c)));
    proc.stderr?.on('data', (c: Buffer) => console.error(prefix(c)));
    proc.once('exit', (code, signal) => {
      if (stopping) return;
      child.restarts += 1;
      const delay = Math.min(30_000, 500 * 2 ** Math.min(child.restarts, 6));
      log(`${child.name} exited (code ${code}, signal ${signal}); restarting in ${delay} ms`);
      setTimeout(() => !stopping && launch(child), delay);
    });
    child.process = proc;
  };
  // The worker once the sandbox ERP listens (its ERP calls would only be retried until then).
  children.filter((c) => c.name !== 'worker').forEach(launch);
  const launchWorker = async () => {
    if (!config.erp.external && !(await waitForPort(config.erp.sandbox.port, 30_000, config.erp.sandbox.host))) {
      log('the sandbox ERP is not listening yet; starting the worker anyway (ERP calls are retried)');
    }
    const worker = children.find((c) => c.name === 'worker');
    if (worker && !stopping) launch(worker);
  };

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            const p = c.process;
            if (!p || p.exitCode !== null || p.signalCode !== null) return resolve();
            const timer = setTimeout(() => p.kill('SIGKILL'), 8000);
            p.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            p.kill('SIGTERM');
          }),
      ),
    );
    await (temporal as TemporalDevServer | null)?.stop();
    await db.close();
    await migrated?.embedded?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await launchWorker();

  if (!(await waitForPort(config.http.port, 60_000, config.http.host))) throw new Error('the api did not start listening');
  // The api asks the CRM only when staff look an opportunity up: its absence is reported, not fatal.
  if (!config.crm.external && !(await waitForPort(config.crm.sandbox.port, 30_000, config.crm.sandbox.host))) {
    log('the sandbox CRM is not listening yet; opportunity lookups answer 503 until it does');
  }
  const seeded = seedStore ? await runSeed(config, db, seedStore) : null;
  printBanner(config, Date.now() - started, (temporal as TemporalDevServer | null)?.uiUrl ?? null, env.DEV_OUTBOX === 'true', seeded);
}

/**
 * Seeds (or finds seeded, or skipped) the demo data. A failure is reported and the system keeps running: the
 * seed row stays 'running', so /health keeps saying not ready and the next start finishes the seed.
 */
async function runSeed(config: Config, db: Database, store: EventStore): Promise<SeedResult | Error> {
  const connection = await connectTemporal(config);
  // The demo documents' bytes go where the api reads them (FILE_STORE).
  const blobStore = await openBlobStore(config.files);
  try {
    return await seedDemo({
      pool: db.pool,
      store,
      temporal: new Client({ connection, namespace: config.temporal.namespace }),
      taskQueue: config.temporal.taskQueue,
      reviewSlaMs: config.review.slaMs,
      blobStore,
      log,
    });
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    log(`the demo seed failed (the next start finishes it; /health stays not ready): ${error.message}`);
    return error;
  } finally {
    await blobStore.close();
    await connection.close();
  }
}

function ensureFrontEndsBuilt(): void {
  const missing = FRONT_ENDS.filter((app) => builtFrontEnd(app) === undefined);
  if (missing.length > 0) log(`building the front ends (${missing.join(', ')}) once; later starts reuse dist/`);
  for (const app of missing) buildFrontEnd(app, { quiet: true });
}

/** The demo logins only where the demo accounts exist; otherwise why there are none. */
function demoLines(seeded: SeedResult | Error | null): string[] {
  if (seeded === null) return ['  Demo data           off (SEED_DEMO=false, or DATABASE_URL is set)'];
  if (seeded instanceof Error) return [`  Demo data           not ready: ${seeded.message}`];
  if (seeded.outcome === 'skipped') return [`  Demo data           none: ${seeded.detail ?? 'the store held other data first'}`];
  return [
    `  Demo logins (password ${DEMO_PASSWORD}):`,
    ...DEMO_LOGINS.map((l) => `    ${l.username.padEnd(28)}${l.role}`),
    ...(seeded.leftAlone.length > 0 ? [`  Demo BAs a person had acted on, left as they were: ${seeded.leftAlone.join(', ')}`] : []),
  ];
}

function printBanner(config: Config, ms: number, temporalUi: string | null, devOutbox: boolean, seeded: SeedResult | Error | null): void {
  const base = config.http.publicUrl.replace(/\/$/, '');
  const lines = [
    '',
    `BA portal is up (${(ms / 1000).toFixed(1)} s)`,
    `  Portal (BAs)        ${base}/`,
    `  Console (staff)     ${base}/console`,
    `  API                 ${base}/api   (health: ${base}/health)`,
    `  Temporal UI         ${temporalUi ?? `(external Temporal at ${temporalAddress(config)})`}`,
    config.erp.external
      ? `  ERP                 ${shownErpUrl(config.erp.url)}   (ERP_URL)`
      : `  ERP (sandbox)       ${config.erp.url}   (faults: PUT ${config.erp.url}/_sandbox/faults)`,
    config.crm.external
      ? `  CRM                 ${shownErpUrl(config.crm.url)}   (CRM_URL)`
      : `  CRM (sandbox)       ${config.crm.url}   (seeded opportunities OPP-2026-0001…; faults: PUT ${config.crm.url}/_sandbox/faults)`,
    ...(devOutbox ? [`  Dev outbox          ${base}/dev/outbox   (sign-in codes and e-mailed links)`] : []),
    '',
    ...demoLines(seeded),
    '',
    'Press Ctrl+C to stop.',
  ];
  console.log(lines.join('\n'));
}

/** The sandbox ERP's schema, as the owner (the sandbox itself connects as the application role). */
async function prepareErpSandbox(config: Config): Promise<void> {
  const owner = await openDatabase(config, { mode: 'owner', applySchema: false, poolSize: 1, log });
  try {
    await ensureErpSandboxSchema(owner.pool, { appRole: config.database.appRole });
  } finally {
    await owner.pool.end();
  }
}

/** The sandbox CRM's schema and seeded opportunities, as the owner (the sandbox connects as the application role). */
async function prepareCrmSandbox(config: Config): Promise<void> {
  const owner = await openDatabase(config, { mode: 'owner', applySchema: false, poolSize: 1, log });
  try {
    await ensureCrmSandboxSchema(owner.pool, { appRole: config.database.appRole });
  } finally {
    await owner.pool.end();
  }
}

/** An external ERP's (or CRM's) URL without user info, path or query (they may hold credentials). */
function shownErpUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
