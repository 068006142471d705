import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import pg from 'pg';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { startEmbeddedPostgres } from '../platform/src/db/embedded-postgres';
import { applySchema } from '../platform/src/db/schema';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { findTemporalCli, freePort, startTemporalDevServer } from '../platform/src/temporal/cli';
import { bundleWorkflows } from '../workflows/src/bundle';
import { onboardingWorkflowId } from '../workflows/src/onboarding/messages';
import { happyPath, onboardingInput, rejectResubmit } from '../workflows/src/onboarding/scenarios';
import { createActivities } from '../workflows/src/worker';

/**
 * `npm run histories:record`: runs the happy-path and reject-resubmit journeys against a real Temporal and
 * PostgreSQL and writes their histories to workflows/src/onboarding/histories/, where the replay test
 * proves every later change of the workflow code can still run them. Re-record only on purpose (a
 * deliberate, versioned change of the workflow), and commit the JSON.
 *
 * Self-contained: an in-memory Temporal dev server unless TEMPORAL_ADDRESS is set, and a throwaway database
 * (on DATABASE_URL's server if set, else a temporary embedded PostgreSQL), so no real store gets demo events.
 */
const HISTORIES_DIR = path.resolve(__dirname, '../workflows/src/onboarding/histories');

const scenarios = [
  { file: 'happy-path.json', baId: 'golden-happy-path', run: happyPath },
  { file: 'reject-resubmit.json', baId: 'golden-reject-resubmit', run: rejectResubmit },
] as const;

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const log = (line: string) => console.log(`[histories] ${line}`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'record-histories-'));
  // Run as root, the embedded PostgreSQL runs as `postgres`, which must be able to reach its data folder.
  chmodSync(work, 0o755);
  const cleanups: (() => Promise<unknown>)[] = [async () => rmSync(work, { recursive: true, force: true })];
  try {
    let address = process.env.TEMPORAL_ADDRESS;
    if (!address) {
      const cliPath = findTemporalCli({ configuredPath: process.env.TEMPORAL_CLI_PATH, log });
      const server = await startTemporalDevServer({ cliPath, port: await freePort() });
      cleanups.unshift(server.stop);
      address = server.address;
    }

    let adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const dataDir = path.join(work, 'postgres');
      const server = await startEmbeddedPostgres({ dataDir, port: await freePort() });
      cleanups.unshift(server.stop);
      adminUrl = server.url('postgres');
    }
    const database = `record_histories_${process.pid}`;
    await ensureDatabaseExists(adminUrl, database);
    cleanups.unshift(() => dropDatabase(adminUrl, database));
    const url = adminUrl.replace(/\/[^/?]*(\?|$)/, `/${database}$1`);
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    cleanups.unshift(() => pool.end());
    await applySchema(pool);

    const taskQueue = `record-histories-${process.pid}`;
    const nativeConnection = await NativeConnection.connect({ address });
    cleanups.unshift(() => nativeConnection.close());
    const worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: await bundleWorkflows(),
      activities: createActivities({ store: createPostgresEventStore(pool) }),
    });
    const connection = await Connection.connect({ address });
    cleanups.unshift(() => connection.close());
    const client = new Client({ connection });

    await worker.runUntil(async () => {
      for (const scenario of scenarios) {
        const input = onboardingInput({ baId: scenario.baId });
        await scenario.run(client, taskQueue, input);
        const handle = client.workflow.getHandle(onboardingWorkflowId(input.baId));
        await handle.result();
        const history = await handle.fetchHistory();
        writeFileSync(path.join(HISTORIES_DIR, scenario.file), `${historyToJSON(history)}\n`);
        log(`${scenario.file}: ${history.events?.length ?? 0} events`);
      }
    });
  } finally {
    for (const cleanup of cleanups) {
      await cleanup().catch((e: unknown) => log(`cleanup failed: ${String(e)}`));
    }
  }
}

async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${database}" with (force)`);
  } finally {
    await client.end();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
