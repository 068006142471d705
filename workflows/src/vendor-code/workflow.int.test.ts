import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { vendorCodeStreamId } from '../../../domain/src/vendor-code/events';
import type { VendorCodeState } from '../../../domain/src/vendor-code/state';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createProjector, type Projector } from '../../../projections/src/runner';
import { allProjections } from '../../../projections/src/registry';
import { getVendorCode } from '../../../projections/src/vendor-codes/vendor-codes.queries';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, uniqueTaskQueue, workflowBundle } from '../../../tests/support/temporal';
import { masterLookup } from '../shared/master-references';
import { createActivities } from '../worker';
import { getVendorCodeState, sendVendorCodeCommand } from './client';
import { fastErp, vendorCodeActors } from './scenarios';
import { seedVerifiedBa } from './testing';

/**
 * The vendor-code lifecycle against the sandbox ERP with faults: downtime, 5xx and timeouts in the middle. The
 * parent code and each child code are created exactly once (one vendor in the ERP, one *Assigned event), the
 * read model says "waiting for ERP" with the last error meanwhile, and a worker replaced while a request is
 * outstanding resumes it from history.
 */
jest.setTimeout(240_000);

const taskQueue = uniqueTaskQueue('vendor-code');
const fast = fastErp;
const { accounts, head } = vendorCodeActors;

let db: TestDatabase;
let sandbox: StartedErpSandbox;
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let worker: Worker | null = null;
let running: Promise<void> | null = null;
let projector: Projector;
const store = () => createPostgresEventStore(db.appPool);

/** Set by a test: the ERP's parent code, once appended, is held before the workflow hears of it. */
let holdParentAssigned: { appended: () => void; released: Promise<void> } | null = null;

function holdingParentAssigned(activities: ReturnType<typeof createActivities>): ReturnType<typeof createActivities> {
  return {
    ...activities,
    async handleVendorCodeCommand(args) {
      const result = await activities.handleVendorCodeCommand(args);
      const hold = holdParentAssigned;
      if (hold && result.events.some((e) => e.type === 'ParentCodeAssigned')) {
        hold.appended();
        await hold.released;
      }
      return result;
    },
  };
}

async function startWorker(): Promise<void> {
  worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    workflowBundle: workflowBundle(),
    activities: holdingParentAssigned(
      createActivities({ store: store(), pool: db.appPool, masters: masterLookup(db.appPool), erp: sandbox.erp }),
    ),
  });
  running = worker.run();
}
async function stopWorker(): Promise<void> {
  worker?.shutdown();
  await running;
  worker = null;
  running = null;
}

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 100, timeoutMs: 500 });
  nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  await startWorker();
  connection = await Connection.connect({ address: temporalAddress() });
  client = new Client({ connection });
  projector = createProjector({ pool: db.appPool, store: store(), projections: allProjections(), pollMs: 100, log: () => undefined });
  await projector.start();
});

afterAll(async () => {
  await stopWorker();
  await projector?.stop();
  await connection?.close();
  await nativeConnection?.close();
  await sandbox?.stop();
  db?.pool.on('error', () => undefined);
  await db?.drop();
});

let n = 0;
const send = (target: { baId: string; companyCode: string }, command: Parameters<typeof sendVendorCodeCommand>[3], actor = accounts) =>
  sendVendorCodeCommand(client, taskQueue, target, command, { actor, requestId: `req-${++n}`, erp: fast });

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const stateOf = async (t: { baId: string; companyCode: string }): Promise<VendorCodeState> =>
  (await getVendorCodeState(client, t.baId, t.companyCode))!;
const typesOf = async (t: { baId: string; companyCode: string }) =>
  (await store().readStream(vendorCodeStreamId(t.baId, t.companyCode))).map((e) => e.type);

test('downtime, then 5xx and timeouts: one parent and one child per GST state, waiting-for-ERP shown meanwhile', async () => {
  const pan = 'AAACV1234F';
  const target = await seedVerifiedBa(store(), { pan, gstStateIds: [27, 29] });
  const rowId = `${target.baId}:${target.companyCode}`;
  // The ERP is down when the request is made.
  sandbox.setFaults({ downFor: 2_500 });
  const requested = await send(target, { type: 'RequestParentCode' });
  expect(requested.state.parent.status).toBe('requested');

  // Meanwhile the read model says: waiting for the ERP, with the last error.
  const waiting = await until('waiting for ERP with an error', async () => {
    const row = await getVendorCode(db.appPool, rowId);
    return row?.waitingForErp && row.lastErpError ? row : null;
  });
  expect(waiting.status).toBe('requested');
  expect(waiting.lastErpError).toMatch(/ERP/);

  // Then 5xx and timeouts for a while: still exactly one parent.
  sandbox.setFaults({ errorRate: 0.4, timeoutRate: 0.2 });
  const withParent = await until('the parent code', async () => {
    const st = await stateOf(target);
    return st.parent.parentCode ? st : null;
  });
  sandbox.resetFaults();
  const parents = (await sandbox.vendors()).filter((v) => v.pan === pan && v.kind === 'parent');
  expect(parents.map((v) => v.vendorCode)).toEqual([withParent.parent.parentCode]);
  const types = await typesOf(target);
  expect(types.filter((t) => t === 'ParentCodeAssigned')).toHaveLength(1);
  expect(types).toContain('ErpCallFailed');
  const row = await until('the row with the code', async () => {
    const r = await getVendorCode(db.appPool, rowId);
    return r?.parentCode && !r.waitingForErp ? r : null;
  });
  expect(row).toMatchObject({ status: 'verification-pending', parentCode: withParent.parent.parentCode, lastErpError: null });

  // Children under faults, and the category approved by someone else: processed.
  sandbox.setFaults({ errorRate: 0.3, timeoutRate: 0.1 });
  await send(target, { type: 'RequestChildCode', stateId: 27, paymentTermsId: 4 });
  await send(target, { type: 'RequestChildCode', stateId: 29, paymentTermsId: 4 });
  await send(target, { type: 'SetVendorCategory', vendorCategoryId: 1 });
  await send(target, { type: 'ApproveVendorCategory' }, head);
  await until('both child codes', async () => {
    const s = await stateOf(target);
    return s.children['27']?.childCode && s.children['29']?.childCode && Object.keys(s.jobs).length === 0;
  });
  sandbox.resetFaults();
  const children = (await sandbox.vendors()).filter((v) => v.pan === pan && v.kind === 'child');
  expect(children.map((v) => v.stateCode).sort()).toEqual(['27', '29']);
  expect((await typesOf(target)).filter((t) => t === 'ChildCodeAssigned')).toHaveLength(2);
  const processed = await until('processed', async () => {
    const r = await getVendorCode(db.appPool, rowId);
    return r?.status === 'processed' ? r : null;
  });
  expect(processed.childCodes.map((c) => c.status)).toEqual(['created', 'created']);
  expect(processed.vendorCategoryStatus).toBe('approved');
});

test('a request refused by the ERP is shown, and a re-request after a rejection sent to the BA gets the code once', async () => {
  const pan = 'AAACR1234F';
  const target = await seedVerifiedBa(store(), { pan });
  sandbox.setFaults({ rejectPans: [pan] });
  await send(target, { type: 'RequestParentCode' });
  await until('the ERP refusal', async () => (await typesOf(target)).includes('ErpRequestRefused'));
  await send(target, { type: 'RejectVendorCodeRequest', reasonId: 1, remarks: 'PAN mismatch', sendToBa: true });
  const rejected = await until('the rejected row', async () => {
    const r = await getVendorCode(db.appPool, `${target.baId}:${target.companyCode}`);
    return r?.status === 'rejected' ? r : null;
  });
  expect(rejected.rejection).toMatchObject({ sendToBa: true, remarks: 'PAN mismatch' });
  sandbox.resetFaults();
  await send(target, { type: 'RequestParentCode' });
  const s = await until('the parent code', async () => {
    const st = await stateOf(target);
    return st.parent.parentCode ? st : null;
  });
  expect((await sandbox.vendors()).filter((v) => v.pan === pan && v.kind === 'parent').map((v) => v.vendorCode)).toEqual([s.parent.parentCode]);
});

test('a command sent as soon as the ERP answer is in the stream waits for it to be recorded, not refused on the state before', async () => {
  const target = await seedVerifiedBa(store(), { pan: 'AAACS1234F' });
  let appended!: () => void;
  let release!: () => void;
  const inStream = new Promise<void>((resolve) => (appended = resolve));
  holdParentAssigned = { appended, released: new Promise<void>((resolve) => (release = resolve)) };
  try {
    await send(target, { type: 'RequestParentCode' });
    await inStream;
    // The code is in the stream (a list shows it), and the workflow has not applied it yet.
    expect(await typesOf(target)).toContain('ParentCodeAssigned');
    expect((await stateOf(target)).parent.parentCode).toBeFalsy();
    const setting = send(target, { type: 'SetVendorCategory', vendorCategoryId: 1 });
    setting.catch(() => undefined);
    // Long enough for the update to be validated while the answer is still being recorded.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    release();
    const result = await setting;
    expect(result.state.parent.parentCode).toBeTruthy();
    expect(result.state.vendorCategory.status).toBe('pending');
  } finally {
    holdParentAssigned = null;
    release();
  }
});

test('a worker replaced while the ERP request is outstanding resumes it: the code is created once', async () => {
  const pan = 'AAACW1234F';
  const target = await seedVerifiedBa(store(), { pan });
  sandbox.setFaults({ downFor: 60_000 });
  await send(target, { type: 'RequestParentCode' });
  await until('an outage recorded', async () => (await typesOf(target)).includes('ErpCallFailed'));
  await stopWorker();
  sandbox.resetFaults();
  await new Promise((r) => setTimeout(r, 500));
  await startWorker();
  const s = await until('the parent code', async () => {
    const st = await stateOf(target);
    return st.parent.parentCode ? st : null;
  });
  expect((await sandbox.vendors()).filter((v) => v.pan === pan && v.kind === 'parent').map((v) => v.vendorCode)).toEqual([s.parent.parentCode]);
  expect((await typesOf(target)).filter((t) => t === 'ParentCodeAssigned')).toHaveLength(1);
});
