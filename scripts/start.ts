import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { buildFrontEnd, builtFrontEnd, FRONT_ENDS } from '../platform/src/build/front-ends';
import { loadConfig, ConfigError, temporalAddress, type Config } from '../platform/src/config';
import { openDatabase, type Database } from '../platform/src/db/connect';
import { openEventStore } from '../platform/src/event-store/open';
import { DEMO_LOGINS, DEMO_PASSWORD, seedDemo } from './seed';
import { findTemporalCli, startTemporalDevServer, waitForPort, type TemporalDevServer } from '../platform/src/temporal/cli';

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
  const db: Database = await openDatabase(config, { log });
  await temporalStarting;

  const env = {
    ...process.env,
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: temporalAddress(config),
    // The dev outbox shows every e-mail and SMS (sign-in codes, links) at /dev/outbox; never in production.
    DEV_OUTBOX: process.env.DEV_OUTBOX ?? (config.env === 'production' ? 'false' : 'true'),
  };
  const children: Child[] = [
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
  children.forEach(launch);

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
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (!(await waitForPort(config.http.port, 60_000, config.http.host))) throw new Error('the api did not start listening');
  if (config.seedDemo) {
    const connection = await Connection.connect({ address: temporalAddress(config) });
    await seedDemo({
      pool: db.pool,
      store: await openEventStore(config, db.pool),
      temporal: new Client({ connection, namespace: config.temporal.namespace }),
      taskQueue: config.temporal.taskQueue,
      log,
    });
    await connection.close();
  }
  printBanner(config, Date.now() - started, (temporal as TemporalDevServer | null)?.uiUrl ?? null, env.DEV_OUTBOX === 'true');
}

function ensureFrontEndsBuilt(): void {
  const missing = FRONT_ENDS.filter((app) => builtFrontEnd(app) === undefined);
  if (missing.length > 0) log(`building the front ends (${missing.join(', ')}) once; later starts reuse dist/`);
  for (const app of missing) buildFrontEnd(app, { quiet: true });
}

function printBanner(config: Config, ms: number, temporalUi: string | null, devOutbox: boolean): void {
  const base = config.http.publicUrl.replace(/\/$/, '');
  const lines = [
    '',
    `BA portal is up (${(ms / 1000).toFixed(1)} s)`,
    `  Portal (BAs)        ${base}/`,
    `  Console (staff)     ${base}/console`,
    `  API                 ${base}/api   (health: ${base}/health)`,
    `  Temporal UI         ${temporalUi ?? `(external Temporal at ${temporalAddress(config)})`}`,
    ...(devOutbox ? [`  Dev outbox          ${base}/dev/outbox   (sign-in codes and e-mailed links)`] : []),
    '',
    `  Demo logins (password ${DEMO_PASSWORD}):`,
    ...DEMO_LOGINS.map((l) => `    ${l.username.padEnd(24)}${l.role}`),
    '',
    'Press Ctrl+C to stop.',
  ];
  console.log(lines.join('\n'));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
