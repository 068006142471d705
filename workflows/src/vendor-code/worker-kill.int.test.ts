import { vendorCodeStreamId } from '../../../domain/src/vendor-code/events';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { waitFor } from '../../../tests/support/wait';
import { workerKillSuite } from '../testing/worker-kill-suite';
import { getVendorCodeState, sendVendorCodeCommand } from './client';
import { vendorCodeWorkflowId } from './messages';
import { fastErp, vendorCodeActors } from './scenarios';
import { seedVerifiedBa } from './testing';

/**
 * A worker SIGKILLed right after the ERP took the parent-code request (the submission recorded, the activity's
 * answer never sent) and replaced by a new worker process: the request is resumed under the same idempotency
 * key, so the ERP makes one vendor and the stream holds one submission and one assigned code.
 */
jest.setTimeout(180_000);
let sandbox: StartedErpSandbox;
const suite = workerKillSuite('vendor-code-worker-kill', {
  // The ERP answers a few seconds after taking a request: the kill lands while it is outstanding.
  setUp: async (db) => {
    sandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 3_000 });
  },
  tearDown: async () => {
    await sandbox?.stop();
  },
});

test('a worker killed while the ERP request is outstanding, and replaced: the ERP makes the vendor once', async () => {
  const { db, client, workers, taskQueue } = suite;
  const pan = 'AAACK1234F';
  const store = createPostgresEventStore(db.pool);
  const target = await seedVerifiedBa(store, { pan });
  const erp = { ERP_URL: sandbox.url, ERP_API_KEY: sandbox.apiKey };
  const first = await workers.start({ hangAfterAppend: 'ErpRequestSubmitted', env: erp });

  await sendVendorCodeCommand(client, taskQueue, target, { type: 'RequestParentCode' }, {
    actor: vendorCodeActors.accounts,
    requestId: 'kill-request-parent',
    erp: fastErp,
  });
  await first.waitFor('appended ErpRequestSubmitted');
  first.process.kill('SIGKILL');
  await first.exited;

  await workers.start({ env: erp });
  const state = await waitFor(async () => {
    const s = await getVendorCodeState(client, target.baId, target.companyCode);
    return s?.parent.parentCode && Object.keys(s.jobs).length === 0 ? s : undefined;
  }, 120_000);

  expect((await sandbox.vendors()).filter((v) => v.pan === pan && v.kind === 'parent').map((v) => v.vendorCode)).toEqual([state.parent.parentCode]);
  const types = (await store.readStream(vendorCodeStreamId(target.baId, target.companyCode))).map((e) => e.type);
  expect(types.filter((t) => t === 'ErpRequestSubmitted')).toHaveLength(1);
  expect(types.filter((t) => t === 'ParentCodeAssigned')).toHaveLength(1);
  // Proof the kill landed mid-activity: the recording of the submission ran again (attempt 2 or later).
  const history = await client.workflow.getHandle(vendorCodeWorkflowId(target.baId, target.companyCode)).fetchHistory();
  const attempts = history.events?.flatMap((e) => e.activityTaskStartedEventAttributes?.attempt ?? []) ?? [];
  expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
});
