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
import { loadReferenceDataWithReadModels } from './reference-data';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { findTemporalCli, freePort, startTemporalDevServer } from '../platform/src/temporal/cli';
import { bundleWorkflows } from '../workflows/src/bundle';
import { onboardingWorkflowId } from '../workflows/src/onboarding/messages';
import { happyPath, onboardingInput, rejectResubmit } from '../workflows/src/onboarding/scenarios';
import { registrationWorkflowId } from '../workflows/src/registration/messages';
import { completedJourney, expiredJourney, registrationInput } from '../workflows/src/registration/scenarios';
import { contactChangeWorkflowId } from '../workflows/src/contact-change/messages';
import * as contactChange from '../workflows/src/contact-change/scenarios';
import { createActivities } from '../workflows/src/worker';

/**
 * `npm run histories:record`: runs the happy-path and reject-resubmit onboarding journeys and the completed
 * and expired registrations against a real Temporal and PostgreSQL and writes their histories to
 * workflows/src/<lifecycle>/histories/, where the replay tests
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

const REGISTRATION_HISTORIES_DIR = path.resolve(__dirname, '../workflows/src/registration/histories');

/** Registration journeys: one completed (user, completion, BA lifecycle), one left to expire (1.5 s lifetime). */
const registrationScenarios = [
  { file: 'completed.json', registrationId: 'golden-completed', ttlMs: 60_000, run: completedJourney },
  { file: 'expired.json', registrationId: 'golden-expired', ttlMs: 1_500, run: expiredJourney },
] as const;

/**
 * `npm run histories:record -- registration` records only the named lifecycles' histories (onboarding,
 * registration, contact-change), so adding a lifecycle does not re-record the others; without names, all of them.
 */
const CONTACT_CHANGE_HISTORIES_DIR = path.resolve(__dirname, '../workflows/src/contact-change/histories');

/** Contact changes: one completed (the user's new contact and password), one left to expire (1.5 s link). */
const contactChangeScenarios = [
  { file: 'completed.json', changeId: '5d1f7a8e-0c2b-4b7e-9a61-3f0d6c2e9b01', ttlMs: 60_000, run: contactChange.completedJourney },
  { file: 'expired.json', changeId: '5d1f7a8e-0c2b-4b7e-9a61-3f0d6c2e9b02', ttlMs: 1_500, run: contactChange.expiredJourney },
] as const;

const only = process.argv.slice(2);
const wanted = (lifecycle: string) => only.length === 0 || only.includes(lifecycle);

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
    // Decisions resolve company codes and cities from the masters, as on every installation.
    await loadReferenceDataWithReadModels(pool);

    const taskQueue = `record-histories-${process.pid}`;
    const nativeConnection = await NativeConnection.connect({ address });
    cleanups.unshift(() => nativeConnection.close());
    const worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: await bundleWorkflows(),
      activities: createActivities({ store: createPostgresEventStore(pool), pool }),
    });
    const connection = await Connection.connect({ address });
    cleanups.unshift(() => connection.close());
    const client = new Client({ connection });

    await worker.runUntil(async () => {
      for (const scenario of wanted('onboarding') ? scenarios : []) {
        const input = onboardingInput({ baId: scenario.baId });
        await scenario.run(client, taskQueue, input);
        const handle = client.workflow.getHandle(onboardingWorkflowId(input.baId));
        // Since issue 8 a lifecycle keeps running after verification (additional documents, change requests):
        // the history up to the scenario's last update is what gets recorded and replayed.
        const history = await handle.fetchHistory();
        writeFileSync(path.join(HISTORIES_DIR, scenario.file), `${historyToJSON(history)}\n`);
        log(`${scenario.file}: ${history.events?.length ?? 0} events`);
      }
      for (const scenario of wanted('registration') ? registrationScenarios : []) {
        const { registrationId, ttlMs } = scenario;
        const input = registrationInput({ registrationId, ttlMs, email: `${registrationId}@acme.test` });
        await scenario.run(client, taskQueue, input);
        const history = await client.workflow.getHandle(registrationWorkflowId(registrationId)).fetchHistory();
        writeFileSync(path.join(REGISTRATION_HISTORIES_DIR, scenario.file), `${historyToJSON(history)}\n`);
        log(`registration/${scenario.file}: ${history.events?.length ?? 0} events`);
      }
      for (const scenario of wanted('contact-change') ? contactChangeScenarios : []) {
        const { changeId, ttlMs } = scenario;
        const user = await contactChange.registerBaUser(createPostgresEventStore(pool), `golden-contact-change-${scenario.file.replace(/\.json$/, '')}@acme.test`);
        await scenario.run(client, taskQueue, contactChange.contactChangeInput(user.userId, { changeId, ttlMs }), user);
        const history = await client.workflow.getHandle(contactChangeWorkflowId(changeId)).fetchHistory();
        writeFileSync(path.join(CONTACT_CHANGE_HISTORIES_DIR, scenario.file), `${historyToJSON(history)}\n`);
        log(`contact-change/${scenario.file}: ${history.events?.length ?? 0} events`);
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
