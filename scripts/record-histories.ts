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
import { happyPath, onboardingInput, rejectResubmit, verifiedChanges } from '../workflows/src/onboarding/scenarios';
import { registrationWorkflowId } from '../workflows/src/registration/messages';
import { completedJourney, expiredJourney, registrationInput } from '../workflows/src/registration/scenarios';
import { contactChangeWorkflowId } from '../workflows/src/contact-change/messages';
import * as contactChange from '../workflows/src/contact-change/scenarios';
import { createActivities } from '../workflows/src/worker';
import { remindedThenExpired } from '../workflows/src/document-expiry/scenarios';
import { vendorCodeWorkflowId } from '../workflows/src/vendor-code/messages';
import { parentCategoryChild } from '../workflows/src/vendor-code/scenarios';
import { seedVerifiedBa } from '../workflows/src/vendor-code/testing';
import { blockWorkflowId } from '../workflows/src/block/messages';
import { blockedUntilEndDate } from '../workflows/src/block/scenarios';
import { startErpSandbox } from '../sandboxes/erp/src/testing';
import { createInvoiceActivities } from '../workflows/src/invoices/activities';
import { invoiceWorkflowId } from '../workflows/src/invoices/messages';
import { bookedAndReleased, rejectedResubmittedLate } from '../workflows/src/invoices/scenarios';
import { fixedLookups } from '../workflows/src/invoices/testing';

/**
 * `npm run histories:record`: runs recorded journeys against a real Temporal and PostgreSQL (and, for the
 * lifecycles that call the ERP, the in-process sandbox ERP) and writes their histories to
 * workflows/src/<lifecycle>/histories/, where the replay tests prove every later change of the workflow code
 * can still run them. Re-record only on purpose (a deliberate, versioned change of the workflow), and commit
 * the JSON. The lifecycles, each recorded only when named (`npm run histories:record -- block vendor-code`),
 * all of them without names:
 *
 *   onboarding           happy-path, reject-resubmit (onboarding/scenarios.ts)
 *   onboarding-verified  verified-changes: the happy path, then a bank change request approved by two people
 *                        and an approved additional document (onboarding/scenarios.ts `verifiedChanges`)
 *   registration         completed, expired
 *   contact-change       completed, expired
 *   document-expiry      reminded-and-expired: one timer run, a reminder then the expiry (500 ms days)
 *   vendor-code          parent-category-child-1000: parent code, vendor category approved, one child code
 *                        (sandbox ERP)
 *   block                ended: a block approved, applied in the ERP, ended by its end-date timer (sandbox ERP)
 *   invoice              booked-released: draft to release, the booking through an ERP outage (failed call,
 *                        backoff, same key) and a pending posting polled; rejected-resubmitted: rejected and
 *                        resubmitted, the submitted status' SLA timer firing each time (sandbox ERP, fixed
 *                        look-ups: invoices/scenarios.ts)
 *
 * A history is recorded under the workflow id its replay test gives it (`<workflowIdPrefix>-<file name>`,
 * workflows/src/testing/replay.ts) where the lifecycle's id scheme allows it.
 *
 * Self-contained: an in-memory Temporal dev server unless TEMPORAL_ADDRESS is set, and a throwaway database
 * (on DATABASE_URL's server if set, else a temporary embedded PostgreSQL; the sandbox ERP keeps its schema
 * there too), so no real store gets demo events.
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
 * `npm run histories:record -- registration` records only the named lifecycles' histories (see the list
 * above), so adding a lifecycle does not re-record the others; without names, all of them.
 */
const CONTACT_CHANGE_HISTORIES_DIR = path.resolve(__dirname, '../workflows/src/contact-change/histories');

/** Contact changes: one completed (the user's new contact and password), one left to expire (1.5 s link). */
const contactChangeScenarios = [
  { file: 'completed.json', changeId: '5d1f7a8e-0c2b-4b7e-9a61-3f0d6c2e9b01', ttlMs: 60_000, run: contactChange.completedJourney },
  { file: 'expired.json', changeId: '5d1f7a8e-0c2b-4b7e-9a61-3f0d6c2e9b02', ttlMs: 1_500, run: contactChange.expiredJourney },
] as const;

/** After verification (issue 8): recorded as `onboarding-verified`, so the older onboarding files stay as they are. */
const verifiedScenarios = [{ file: 'verified-changes.json', baId: 'golden-verified-changes', run: verifiedChanges }] as const;

const DOCUMENT_EXPIRY_HISTORIES_DIR = path.resolve(__dirname, '../workflows/src/document-expiry/histories');
const VENDOR_CODE_HISTORIES_DIR = path.resolve(__dirname, '../workflows/src/vendor-code/histories');
const BLOCK_HISTORIES_DIR = path.resolve(__dirname, '../workflows/src/block/histories');
const INVOICE_HISTORIES_DIR = path.resolve(__dirname, '../workflows/src/invoices/histories');
/** The sandbox ERP's processing time here (the invoice journey lengthens it for its polls, then restores it). */
const ERP_PROCESSING_MS = 100;

const LIFECYCLES = ['onboarding', 'onboarding-verified', 'registration', 'contact-change', 'document-expiry', 'vendor-code', 'block', 'invoice'];
const only = process.argv.slice(2);
const wanted = (lifecycle: string) => only.length === 0 || only.includes(lifecycle);

async function main(): Promise<void> {
  const unknown = only.filter((name) => !LIFECYCLES.includes(name));
  if (unknown.length > 0) throw new Error(`unknown lifecycle(s) ${unknown.join(', ')}; known: ${LIFECYCLES.join(', ')}`);
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
    const connection = await Connection.connect({ address });
    cleanups.unshift(() => connection.close());
    const client = new Client({ connection });
    // The vendor-code, block and invoice lifecycles call the ERP: the sandbox, in the throwaway database.
    const sandbox =
      wanted('vendor-code') || wanted('block') || wanted('invoice') ? await startErpSandbox({ databaseUrl: url, processingMs: ERP_PROCESSING_MS }) : null;
    if (sandbox) cleanups.unshift(() => sandbox.stop());
    const store = createPostgresEventStore(pool);
    const nativeConnection = await NativeConnection.connect({ address });
    cleanups.unshift(() => nativeConnection.close());
    const worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: await bundleWorkflows(),
      // `temporal`: the document-expiry timers ask the onboarding lifecycle to record their reminders.
      activities: {
        ...createActivities({ store, pool, temporal: client, ...(sandbox ? { erp: sandbox.erp } : {}) }),
        // The invoice decisions resolve their codes with fixed look-ups (a BA with child code 2000000027), so the
        // recording needs no vendor-code journey first; a history holds the activities' answers, not who gave them.
        ...(sandbox && wanted('invoice') ? createInvoiceActivities({ store, erp: sandbox.erp, lookups: fixedLookups() }) : {}),
      },
    });
    const write = (dir: string, file: string, history: Parameters<typeof historyToJSON>[0]) => {
      writeFileSync(path.join(dir, file), `${historyToJSON(history)}\n`);
      log(`${path.relative(path.resolve(__dirname, '../workflows/src'), path.join(dir, file))}: ${history.events?.length ?? 0} events`);
    };

    await worker.runUntil(async () => {
      for (const scenario of wanted('onboarding') ? scenarios : []) {
        const input = onboardingInput({ baId: scenario.baId });
        await scenario.run(client, taskQueue, input);
        // Since issue 8 a lifecycle keeps running after verification (additional documents, change requests):
        // the history up to the scenario's last update is what gets recorded and replayed.
        write(HISTORIES_DIR, scenario.file, await client.workflow.getHandle(onboardingWorkflowId(input.baId)).fetchHistory());
      }
      for (const scenario of wanted('registration') ? registrationScenarios : []) {
        const { registrationId, ttlMs } = scenario;
        const input = registrationInput({ registrationId, ttlMs, email: `${registrationId}@acme.test` });
        await scenario.run(client, taskQueue, input);
        write(REGISTRATION_HISTORIES_DIR, scenario.file, await client.workflow.getHandle(registrationWorkflowId(registrationId)).fetchHistory());
      }
      for (const scenario of wanted('contact-change') ? contactChangeScenarios : []) {
        const { changeId, ttlMs } = scenario;
        const user = await contactChange.registerBaUser(createPostgresEventStore(pool), `golden-contact-change-${scenario.file.replace(/\.json$/, '')}@acme.test`);
        await scenario.run(client, taskQueue, contactChange.contactChangeInput(user.userId, { changeId, ttlMs }), user);
        write(CONTACT_CHANGE_HISTORIES_DIR, scenario.file, await client.workflow.getHandle(contactChangeWorkflowId(changeId)).fetchHistory());
      }
      for (const scenario of wanted('onboarding-verified') ? verifiedScenarios : []) {
        const input = onboardingInput({ baId: scenario.baId });
        await scenario.run(client, taskQueue, input);
        // Still running (verified lifecycles take commands): recorded up to the last update's answer.
        write(HISTORIES_DIR, scenario.file, await client.workflow.getHandle(onboardingWorkflowId(input.baId)).fetchHistory());
      }
      if (wanted('document-expiry')) {
        // A timer started under the replay test's id (its BA's own expiry children sleep for years).
        const workflowId = 'document-expiry-golden-reminded-and-expired';
        await remindedThenExpired(client, taskQueue, workflowId, 'golden-document-expiry');
        write(DOCUMENT_EXPIRY_HISTORIES_DIR, 'reminded-and-expired.json', await client.workflow.getHandle(workflowId).fetchHistory());
      }
      if (sandbox && wanted('vendor-code')) {
        // vendor-code-<baId>-<companyCode>: with the replay prefix vendor-code-golden, the file is <rest>-1000.json.
        const target = await seedVerifiedBa(store, { baId: 'golden-parent-category-child', companyCode: '1000', pan: 'AAACG1234D' });
        await parentCategoryChild(client, taskQueue, target, { requestIdPrefix: 'golden-vendor-code' });
        const history = await client.workflow.getHandle(vendorCodeWorkflowId(target.baId, target.companyCode)).fetchHistory();
        write(VENDOR_CODE_HISTORIES_DIR, 'parent-category-child-1000.json', history);
      }
      if (sandbox && wanted('block')) {
        const requestId = 'golden-ended';
        await blockedUntilEndDate(client, taskQueue, sandbox.erp, { pan: 'AAACB5678K', requestId });
        write(BLOCK_HISTORIES_DIR, 'ended.json', await client.workflow.getHandle(blockWorkflowId(requestId)).fetchHistory());
      }
      if (sandbox && wanted('invoice')) {
        // invoice-<invoiceId>: with the replay prefix invoice-golden, the file is <rest of the id>.json.
        const booked = { invoiceId: 'golden-booked-released', baId: 'golden-invoice-ba' };
        await bookedAndReleased(client, taskQueue, sandbox, booked, { processingMs: ERP_PROCESSING_MS });
        write(INVOICE_HISTORIES_DIR, 'booked-released.json', await client.workflow.getHandle(invoiceWorkflowId(booked.invoiceId)).fetchHistory());
        // Still running (acknowledged, waiting for its verification): recorded up to the acknowledgement's answer.
        const rejected = { invoiceId: 'golden-rejected-resubmitted', baId: 'golden-invoice-ba' };
        await rejectedResubmittedLate(client, taskQueue, rejected);
        write(INVOICE_HISTORIES_DIR, 'rejected-resubmitted.json', await client.workflow.getHandle(invoiceWorkflowId(rejected.invoiceId)).fetchHistory());
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
