import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { blockMessages } from '../../../domain/src/block/decide';
import { blockStreamId, vendorBlockStreamId } from '../../../domain/src/block/events';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, uniqueTaskQueue, workflowBundle } from '../../../tests/support/temporal';
import { masterLookup } from '../shared/master-references';
import { refusal } from '../testing/refusal';
import { createActivities } from '../worker';
import { decideBlockRequest, getBlockState, startBlockRequest } from './client';
import { blockActors, blockInput, createErpParent, uniquePan } from './testing';

jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('block-workflow');
let db: TestDatabase;
let store: EventStore;
let sandbox: StartedErpSandbox;
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 100 });
  store = createPostgresEventStore(db.appPool);
  nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  const activities = createActivities({ store, pool: db.appPool, masters: masterLookup(db.appPool), erp: sandbox.erp });
  worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowBundle: workflowBundle(), activities });
  running = worker.run();
  connection = await Connection.connect({ address: temporalAddress() });
  client = new Client({ connection });
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
  await sandbox?.stop();
  await db?.drop();
});

const typesOf = async (requestId: string) => (await store.readStream(blockStreamId(requestId))).map((e) => e.type);
const approve = (requestId: string, actor = blockActors.approver) =>
  decideBlockRequest(client, requestId, { kind: 'approve' }, { actor, requestId: `approve:${requestId}:${actor.userId}` });
const erpVendor = async (code: string) => (await sandbox.vendors()).find((v) => v.vendorCode === code);

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const settled = (requestId: string, status: string) =>
  until(() => getBlockState(client, requestId), (s) => s?.state.status === status);

describe('block workflow against the sandbox ERP', () => {
  test('a second person approves, the vendor is blocked in the ERP; then unblocked through a second request', async () => {
    const pan = uniquePan();
    const code = await createErpParent(sandbox.erp, pan, '1000');
    const input = blockInput({ pan });
    const started = await startBlockRequest(client, taskQueue, input);
    expect(started.state).toMatchObject({ status: 'pending', reason: 'Poor service performance', scope: { level: 'parent', companyCode: '1000', vendorCode: code } });

    // One open request per vendor code: a second is refused (409) and records nothing.
    const second = await refusal(startBlockRequest(client, taskQueue, blockInput({ pan, requestedBy: blockActors.adminRequester })));
    expect(second).toMatchObject({ code: 'conflict', message: blockMessages.alreadyPending(code) });
    // The requester may not approve, even holding an approver role.
    const self = await refusal(approve(input.requestId, { ...blockActors.requester, role: 'MLL-ADMIN' }));
    expect(self).toMatchObject({ code: 'rule', message: blockMessages.selfApproval });
    expect(await typesOf(input.requestId)).toEqual(['BlockRequested']);

    await approve(input.requestId);
    const done = await settled(input.requestId, 'applied');
    expect(done?.state.status).toBe('applied');
    expect(await erpVendor(code)).toMatchObject({ blocked: true });
    expect(await typesOf(input.requestId)).toEqual(['BlockRequested', 'BlockApproved', 'ErpRequestSubmitted', 'BlockApplied']);
    const applied = (await store.readStream(blockStreamId(input.requestId))).at(-1);
    expect(applied?.data).toMatchObject({ action: 'block', vendorCode: code, message: 'Successfully Blocked' });
    expect((await store.readStream(vendorBlockStreamId(code))).map((e) => [e.type, (e.data as { blocked?: boolean }).blocked])).toEqual([
      ['VendorBlockRequestOpened', undefined],
      ['VendorBlockRequestClosed', true],
    ]);

    // Blocked: a second block is refused (422); an unblock goes through the same approval.
    const again = await refusal(startBlockRequest(client, taskQueue, blockInput({ pan })));
    expect(again).toMatchObject({ code: 'rule', message: blockMessages.alreadyBlocked });
    const unblock = blockInput({ pan, action: 'unblock' });
    await startBlockRequest(client, taskQueue, unblock);
    await approve(unblock.requestId);
    await settled(unblock.requestId, 'applied');
    expect(await erpVendor(code)).toMatchObject({ blocked: false });
    const last = (await store.readStream(blockStreamId(unblock.requestId))).at(-1);
    expect(last?.data).toMatchObject({ action: 'unblock', message: 'Successfully Unblocked' });
  });

  test('refusals: unblock of a vendor that is not blocked (422), no vendor code (422), a reject frees the vendor code', async () => {
    const pan = uniquePan();
    await createErpParent(sandbox.erp, pan, '1000');
    const notBlocked = await refusal(startBlockRequest(client, taskQueue, blockInput({ pan, action: 'unblock' })));
    expect(notBlocked).toMatchObject({ code: 'rule', message: blockMessages.notBlocked });
    const noCode = await refusal(startBlockRequest(client, taskQueue, blockInput({ pan: uniquePan() })));
    expect(noCode).toMatchObject({ code: 'rule', message: blockMessages.noVendorCode });
    const otherCompany = await refusal(startBlockRequest(client, taskQueue, blockInput({ pan, companyCode: '2000' })));
    expect(otherCompany.message).toBe(blockMessages.noVendorCode);

    const input = blockInput({ pan });
    await startBlockRequest(client, taskQueue, input);
    await decideBlockRequest(client, input.requestId, { kind: 'reject', remarks: 'Not enough evidence' }, { actor: blockActors.approver, requestId: `reject:${input.requestId}` });
    expect(await typesOf(input.requestId)).toEqual(['BlockRequested', 'BlockRejected']);
    // The slot is free again.
    const next = blockInput({ pan });
    expect((await startBlockRequest(client, taskQueue, next)).state.status).toBe('pending');
  });

  test('the ERP down in the middle: outages recorded, applied exactly once after recovery', async () => {
    const pan = uniquePan();
    const code = await createErpParent(sandbox.erp, pan, '1000');
    const input = blockInput({ pan });
    await startBlockRequest(client, taskQueue, input);
    const requestsBefore = await sandbox.requestCount();
    sandbox.setFaults({ downFor: 2_000 });
    try {
      await approve(input.requestId);
      const done = await settled(input.requestId, 'applied');
      expect(done?.state.status).toBe('applied');
    } finally {
      sandbox.resetFaults();
    }
    const types = await typesOf(input.requestId);
    expect(types.filter((t) => t === 'ErpCallFailed').length).toBeGreaterThanOrEqual(1);
    expect(types.filter((t) => t === 'BlockApplied')).toHaveLength(1);
    expect(types.filter((t) => t === 'ErpRequestSubmitted')).toHaveLength(1);
    const failed = (await store.readStream(blockStreamId(input.requestId))).find((e) => e.type === 'ErpCallFailed');
    expect(failed?.data).toMatchObject({ requestKey: `block-${input.requestId}-block`, operation: 'block', attempt: 1 });
    // One ERP request for the block, whatever the retries.
    expect(await sandbox.requestCount()).toBe(requestsBefore + 1);
    expect(await erpVendor(code)).toMatchObject({ blocked: true });
  });

  test('an end date starts a timer that unblocks through the same trail, by the system', async () => {
    const pan = uniquePan();
    const code = await createErpParent(sandbox.erp, pan, '1000');
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const input = blockInput({ pan, endDate: tomorrow, endAfterMs: 1_500 });
    await startBlockRequest(client, taskQueue, input);
    await approve(input.requestId);
    await settled(input.requestId, 'applied');
    expect(await erpVendor(code)).toMatchObject({ blocked: true });
    const ended = await settled(input.requestId, 'ended');
    expect(ended?.state.status).toBe('ended');
    expect(await erpVendor(code)).toMatchObject({ blocked: false });
    const events = await store.readStream(blockStreamId(input.requestId));
    expect(events.map((e) => e.type)).toEqual([
      'BlockRequested',
      'BlockApproved',
      'ErpRequestSubmitted',
      'BlockApplied',
      'BlockEnded',
      'ErpRequestSubmitted',
      'BlockApplied',
    ]);
    expect(events[4]?.metadata.actor).toMatchObject({ userId: 'system', role: 'system' });
    expect(events[6]?.data).toMatchObject({ action: 'unblock', message: 'Successfully Unblocked' });
    expect((await store.readStream(vendorBlockStreamId(code))).at(-1)?.data).toMatchObject({ blocked: false, outcome: 'applied' });
  });
});
