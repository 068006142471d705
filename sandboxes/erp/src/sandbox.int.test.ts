import type { ErpOperation, ErpPort, ErpRequestStatus, ErpVendorData } from '../../../domain/src/erp/port';
import { createTestDatabase, TEST_APP_ROLE, type TestDatabase } from '../../../tests/support/postgres';
import { ensureErpSandboxSchema } from './store';
import { startErpSandbox, type StartedErpSandbox } from './testing';

const vendorData = (pan: string, companyCode = '1000'): ErpVendorData => ({
  name: `Vendor ${pan}`,
  pan,
  companyCode,
  street: '1 Main Road',
  postalCode: '400001',
  city: 'Mumbai',
  region: '27',
  country: 'IN',
  mobileNo: '9876543210',
  email: 'accounts@example.com',
  bankAccount: null,
  bankKey: null,
  bankName: null,
  gstin: null,
  paymentTermsCode: null,
  reconAccount: null,
});

async function settle(erp: ErpPort, requestId: string): Promise<ErpRequestStatus> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const status = await erp.status(requestId);
    if (status.state !== 'pending' || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 25));
  }
}

let db: TestDatabase;
let sandbox: StartedErpSandbox;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  sandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 100 });
});

afterAll(async () => {
  await sandbox?.stop();
  await db?.drop();
});

test('create-parent is accepted pending, then done with a 10-digit code the vendor master holds', async () => {
  const op: ErpOperation = { op: 'create-parent', vendor: vendorData('AAAPA1234A') };
  // Long enough that a loaded machine still reads `pending` before it is decided.
  sandbox.setProcessingMs(2000);
  const { requestId } = await sandbox.erp.submit('it-parent-1', op).finally(() => sandbox.setProcessingMs(100));
  expect(await sandbox.erp.status(requestId)).toEqual({ requestId, state: 'pending' });
  const done = await settle(sandbox.erp, requestId);
  expect(done).toMatchObject({ requestId, state: 'done', vendorCode: expect.stringMatching(/^\d{10}$/) });
  const code = (done as { vendorCode: string }).vendorCode;
  const vendors = await sandbox.erp.vendorsByPan('AAAPA1234A');
  expect(vendors).toEqual([
    expect.objectContaining({ vendorCode: code, kind: 'parent', parentCode: null, companyCode: '1000', pan: 'AAAPA1234A', blocked: false, source: 'portal' }),
  ]);
});

test('the same idempotency key twice is one request and one vendor', async () => {
  const op: ErpOperation = { op: 'create-parent', vendor: vendorData('BBBPB1234B') };
  const first = await sandbox.erp.submit('it-parent-2', op);
  const second = await sandbox.erp.submit('it-parent-2', op);
  expect(second.requestId).toBe(first.requestId);
  await settle(sandbox.erp, first.requestId);
  const third = await sandbox.erp.submit('it-parent-2', op);
  expect(third.requestId).toBe(first.requestId);
  expect(await sandbox.erp.vendorsByPan('BBBPB1234B')).toHaveLength(1);
  expect((await sandbox.vendors()).filter((v) => v.pan === 'BBBPB1234B')).toHaveLength(1);
});

test('least privilege: the application role cannot create the schema, but runs the sandbox once the owner made it', async () => {
  const fresh = await createTestDatabase({ empty: true });
  try {
    await expect(startErpSandbox({ databaseUrl: fresh.appUrl })).rejects.toThrow(/may not create it.*not `appUrl`/s);
    // What `npm start` and compose's migrate do as the owner before the sandbox process starts.
    await ensureErpSandboxSchema(fresh.pool, { appRole: process.env.TEST_DATABASE_APP_ROLE ?? TEST_APP_ROLE });
    const asApp = await startErpSandbox({ databaseUrl: fresh.appUrl, processingMs: 50 });
    try {
      const { requestId } = await asApp.erp.submit('app-role', { op: 'create-parent', vendor: vendorData('APPPA1234A') });
      expect(await settle(asApp.erp, requestId)).toMatchObject({ state: 'done', vendorCode: '1000000001' });
    } finally {
      await asApp.stop();
    }
  } finally {
    await fresh.drop();
  }
});
