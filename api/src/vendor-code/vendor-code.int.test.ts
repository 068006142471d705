import { NativeConnection, Worker } from '@temporalio/worker';
import request from 'supertest';
import type { Role } from '../../../domain/src/identity/roles';
import { vendorCodeMessages as m } from '../../../domain/src/vendor-code/decide';
import type { VendorCodeRow } from '../../../projections/src/vendor-codes/vendor-codes.queries';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { temporalAddress, workflowBundle } from '../../../tests/support/temporal';
import { seedVerifiedBa } from '../../../workflows/src/vendor-code/testing';
import { createActivities } from '../../../workflows/src/worker';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';

/**
 * The vendor-code routes end to end against the sandbox ERP: who may do what, company-code scoping, the 422
 * texts, the BA's own view, the dashboard list, counts and history. The harness's worker has no ERP: it is
 * replaced by one whose activities reach the sandbox (same task queue and namespace).
 */
jest.setTimeout(240_000);

type Auth = { Authorization: string };
let h: ApiHarness;
let sandbox: StartedErpSandbox;
let connection: NativeConnection;
let worker: Worker;
let running: Promise<void>;
const as: Record<string, Auth> = {};

beforeAll(async () => {
  h = await startApiHarness('vendor-code-api');
  sandbox = await startErpSandbox({ databaseUrl: h.db.url, processingMs: 100 });
  await h.pauseWorker();
  connection = await NativeConnection.connect({ address: temporalAddress() });
  worker = await Worker.create({
    connection,
    namespace: h.temporal.options.namespace,
    taskQueue: h.taskQueue,
    workflowBundle: workflowBundle(),
    activities: createActivities({ store: h.store, pool: h.db.appPool, temporal: h.temporal, erp: sandbox.erp }),
  });
  running = worker.run();
  const staff: [string, Role, string[]][] = [
    ['accounts', 'MLL Accounts', ['1000']],
    ['head', 'MLL Accounts_HEAD', ['1000']],
    ['admin', 'MLL-ADMIN', ['1000', '2000']],
    ['procurement', 'MLL Procurement', ['1000']],
    ['auditor', 'Auditor', ['1000']],
    ['accounts2000', 'MLL Accounts', ['2000']],
  ];
  for (const [key, role, companyCodes] of staff)
    as[key] = (await sessionOf(h, await addUser(h, { email: `${key}@vc.test`, roles: [role], companyCodes }))).auth;
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await connection?.close();
  await sandbox?.stop();
  await h?.stop();
});

const post = (baId: string, verb: string, auth: Auth, body: object = {}) =>
  request(h.app).post(`/api/business-associates/${baId}/vendor-codes/${verb}`).set(auth).send(body);

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
const rowOf = async (baId: string, auth = as.accounts!) =>
  (await request(h.app).get(`/api/vendor-codes/${baId}:1000`).set(auth)).body as VendorCodeRow;
const withParent = (baId: string) =>
  until('the parent code', async () => {
    const r = await rowOf(baId);
    return r.parentCode ? r : null;
  });

test('request-parent: SAP requesters only, the spec’s message, then the code from the ERP; twice is refused', async () => {
  const { baId } = await seedVerifiedBa(h.store, { pan: 'AAACA1111F', gstStateIds: [27, 29] });
  for (const key of ['procurement', 'auditor']) expect((await post(baId, 'request-parent', as[key]!)).status).toBe(403);
  sandbox.setFaults({ downFor: 2_000 });
  const ok = await post(baId, 'request-parent', as.accounts!);
  expect(ok.status).toBe(200);
  expect(ok.body.message).toBe('SAP Code requested successfully.');
  expect(ok.body.vendorCode).toMatchObject({ id: `${baId}:1000`, baId, companyCode: '1000', status: 'requested', panNumber: 'AAACA1111F' });
  const again = await post(baId, 'request-parent', as.head!);
  expect(again.status).toBe(422);
  expect(again.body.message).toBe(m.parentRequested);
  sandbox.resetFaults();
  const row = await withParent(baId);
  expect(row.status).toBe('verification-pending');
  expect(row.childCodes.map((c) => [c.stateId, c.status])).toEqual([
    [27, 'not-requested'],
    [29, 'not-requested'],
  ]);
  const exists = await post(baId, 'request-parent', as.accounts!);
  expect([exists.status, exists.body.message]).toEqual([422, m.parentExists]);
});

test('422 texts: not verified, child before parent; 400 for a bad body; 404 for another company code', async () => {
  const unverified = await seedVerifiedBa(h.store, { pan: 'AAACB2222F', verified: false });
  const refused = await post(unverified.baId, 'request-parent', as.accounts!);
  expect([refused.status, refused.body.message]).toEqual([422, 'The BA is not verified for company code 1000']);

  const { baId } = await seedVerifiedBa(h.store, { pan: 'AAACC3333F' });
  const child = await post(baId, 'request-child', as.accounts!, { stateId: 27, paymentTermsId: 4 });
  expect([child.status, child.body.message]).toEqual([422, m.parentFirst]);
  const bad = await post(baId, 'request-child', as.accounts!, { stateId: 27 });
  expect(bad.status).toBe(400);
  expect(bad.body.errors).toHaveProperty('paymentTermsId');
  expect((await post(baId, 'request-parent', as.accounts2000!)).status).toBe(404);
  expect((await post(baId, 'request-parent', as.accounts!, { companyCode: '2000' })).status).toBe(404);
  expect((await request(h.app).get(`/api/vendor-codes/${baId}:1000`).set(as.accounts2000!)).status).toBe(404);
});

test('child codes per GST row, category approved by someone other than the setter: processed; list, counts, history', async () => {
  const { baId } = await seedVerifiedBa(h.store, { pan: 'AAACD4444F', name: 'Deccan Carriers', gstStateIds: [27, 29] });
  await post(baId, 'request-parent', as.accounts!);
  await withParent(baId);
  const noRow = await post(baId, 'request-child', as.accounts!, { stateId: 9, paymentTermsId: 4 });
  expect([noRow.status, noRow.body.message]).toEqual([422, m.noGstRow]);
  for (const stateId of [27, 29]) expect((await post(baId, 'request-child', as.accounts!, { stateId, paymentTermsId: 4 })).status).toBe(200);
  const twice = await post(baId, 'request-child', as.accounts!, { stateId: 27, paymentTermsId: 4 });
  expect(twice.status).toBe(422);

  expect((await post(baId, 'vendor-category', as.head!, { action: 'set', vendorCategoryId: 1 })).status).toBe(200);
  const self = await post(baId, 'vendor-category', as.head!, { action: 'approve' });
  expect([self.status, self.body.message]).toEqual([422, 'The vendor category must be approved by someone other than the person who set it']);
  expect((await post(baId, 'vendor-category', as.accounts!, { action: 'approve' })).status).toBe(403);
  const approved = await post(baId, 'vendor-category', as.admin!, { action: 'approve' });
  expect(approved.status).toBe(200);
  expect(approved.body.vendorCode.vendorCategoryStatus).toBe('approved');
  expect((await post(baId, 'recon-account', as.accounts!, { reconAccountId: 1 })).status).toBe(200);

  const done = await until('processed', async () => {
    const r = await rowOf(baId);
    return r.status === 'processed' && !r.waitingForErp ? r : null;
  });
  expect(done.childCodes.every((c) => c.status === 'created' && c.childCode)).toBe(true);
  expect(done.childCodes.map((c) => c.stateName)).toEqual(['Maharashtra', 'Karnataka']);
  expect(done.reconAccount).not.toBeNull();

  const list = await request(h.app)
    .get('/api/vendor-codes')
    .query({ filter: JSON.stringify({ tab: 'processed', q: 'deccan' }) })
    .set(as.auditor!);
  expect(list.status).toBe(200);
  expect((list.body as VendorCodeRow[]).map((r) => r.baId)).toEqual([baId]);
  expect(list.headers['content-range']).toMatch(/^vendor-codes 0-0\/1$/);
  const byPan = await request(h.app).get('/api/vendor-codes').query({ filter: JSON.stringify({ q: 'aaacd4444f' }) }).set(as.accounts!);
  expect((byPan.body as VendorCodeRow[]).map((r) => r.baId)).toEqual([baId]);
  expect((await request(h.app).get('/api/vendor-codes').query({ filter: JSON.stringify({ q: 'deccan' }) }).set(as.accounts2000!)).body).toEqual([]);

  const counts = (await request(h.app).get('/api/vendor-codes/counts').set(as.accounts!)).body;
  expect(counts.processed).toBeGreaterThanOrEqual(1);
  expect(Object.keys(counts).sort()).toEqual(['all', 'nucleusVendor', 'processed', 'requested', 'verificationPending', 'verified']);
  const counts2000 = (await request(h.app).get('/api/vendor-codes/counts').set(as.accounts2000!)).body;
  expect(counts2000.all).toBe(0);

  const history = await request(h.app).get(`/api/vendor-codes/${baId}:1000/history`).set(as.auditor!);
  expect(history.status).toBe(200);
  const whats = (history.body as { what: string; time: string }[]).map((e) => e.what);
  expect(whats.at(-1)).toBe('SAP code requested (company code 1000)');
  expect(whats).toContain('Vendor category approved');
  const times = (history.body as { time: string }[]).map((e) => e.time);
  expect([...times].sort().reverse()).toEqual(times);
});

test('reject with sendToBa: the BA sees the reason on its own rows only; without sendToBa it does not; re-request reopens', async () => {
  const pan = 'AAACE5555F';
  const mine = await seedVerifiedBa(h.store, { pan });
  const other = await seedVerifiedBa(h.store, { pan: 'AAACF6666F' });
  const ba = (await sessionOf(h, await addUser(h, { email: 'admin@ba-e.test', roles: ['BA Admin'], baId: mine.baId, companyCodes: ['1000'] }))).auth;
  // The ERP is down: the request stays open, "waiting for ERP" with the outage as the last error.
  sandbox.setFaults({ downFor: 8_000 });
  const first = await post(mine.baId, 'request-parent', as.accounts!);
  expect([first.status, first.body.message]).toEqual([200, 'SAP Code requested successfully.']);
  const waiting = await until('the outage on the row', async () => {
    const r = await rowOf(mine.baId);
    return r.waitingForErp && r.lastErpError ? r : null;
  });
  expect(waiting.status).toBe('requested');
  const nothing = await post(other.baId, 'reject', as.accounts!, { reasonId: 1, sendToBa: true });
  expect([nothing.status, nothing.body.message]).toEqual([422, m.nothingToReject]);
  expect((await post(mine.baId, 'reject', as.procurement!, { reasonId: 1, sendToBa: true })).status).toBe(403);
  const rejected = await post(mine.baId, 'reject', as.accounts!, { reasonId: 2, remarks: 'Cheque unreadable', sendToBa: true });
  expect(rejected.status).toBe(200);
  expect(rejected.body.vendorCode.status).toBe('rejected');

  const own = await until('the BA’s rejected row', async () => {
    const rows = (await request(h.app).get(`/api/business-associates/${mine.baId}/vendor-codes`).set(ba)).body as VendorCodeRow[];
    return rows[0]?.status === 'rejected' ? rows : null;
  });
  expect(own[0]?.rejection).toMatchObject({ reason: 'Bank account details are incorrect', remarks: 'Cheque unreadable', sendToBa: true });
  expect((await request(h.app).get(`/api/business-associates/${other.baId}/vendor-codes`).set(ba)).status).toBe(404);
  expect((await request(h.app).get('/api/vendor-codes').set(ba)).status).toBe(403);

  // A rejection kept internal (sendToBa false) is not shown to the BA.
  const third = await seedVerifiedBa(h.store, { pan: 'AAACG7777F' });
  const baG = (await sessionOf(h, await addUser(h, { email: 'admin@ba-g.test', roles: ['BA Admin'], baId: third.baId, companyCodes: ['1000'] }))).auth;
  expect((await post(third.baId, 'request-parent', as.accounts!)).status).toBe(200);
  expect((await post(third.baId, 'reject', as.accounts!, { reasonId: 1, sendToBa: false })).status).toBe(200);
  const hidden = await until('the rejected row', async () => {
    const rows = (await request(h.app).get(`/api/business-associates/${third.baId}/vendor-codes`).set(baG)).body as VendorCodeRow[];
    return rows[0]?.status === 'rejected' ? rows : null;
  });
  expect(hidden[0]?.rejection).toBeNull();

  // Re-requested once the ERP is back: the same ERP key, one parent vendor.
  sandbox.resetFaults();
  const again = await post(mine.baId, 'request-parent', as.accounts!);
  expect([again.status, again.body.vendorCode.status]).toEqual([200, 'requested']);
  await withParent(mine.baId);
  expect((await sandbox.vendors()).filter((v) => v.pan === pan && v.kind === 'parent')).toHaveLength(1);
});
