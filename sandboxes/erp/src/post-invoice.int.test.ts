import type { ErpOperation, ErpPort, ErpRequestStatus } from '../../../domain/src/erp/port';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { startErpSandbox, type StartedErpSandbox } from './testing';

/** Issue 11: the sandbox ERP books invoices (post-invoice) with an accounting document number. */
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
  sandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 50 });
});
afterAll(async () => {
  await sandbox?.stop();
  await db?.drop();
});

const posting = (invoiceNumber: string): ErpOperation => ({
  op: 'post-invoice',
  vendorCode: '2000000027',
  companyCode: '1000',
  invoiceNumber,
  invoiceDate: '2026-11-20',
  financialYear: '2026-27',
  amount: '10400.00',
});

test('a posting is done with a document number; the same key answers the same request', async () => {
  const first = await sandbox.erp.submit('invoice-a-book', posting('INV-1'));
  const again = await sandbox.erp.submit('invoice-a-book', posting('INV-1'));
  expect(again.requestId).toBe(first.requestId);
  const status = await settle(sandbox.erp, first.requestId);
  expect(status).toMatchObject({ state: 'done', vendorCode: '2000000027' });
  expect(status.state === 'done' && status.documentNumber).toMatch(/^51\d{8}$/);
});

test('the same invoice number of the vendor and year posted under another key is refused', async () => {
  await settle(sandbox.erp, (await sandbox.erp.submit('invoice-b-book', posting('INV-2'))).requestId);
  const second = await settle(sandbox.erp, (await sandbox.erp.submit('invoice-c-book', posting('inv-2'))).requestId);
  expect(second).toMatchObject({ state: 'rejected', message: expect.stringMatching(/^Invoice inv-2 is already posted as document 51\d{8}$/) });
});

test('a bad amount is refused at the door (400)', async () => {
  await expect(sandbox.erp.submit('invoice-d-book', { ...posting('INV-3'), amount: '12.345' } as ErpOperation)).rejects.toThrow();
});
