import { randomUUID } from 'node:crypto';
import type { ErpPort, ErpVendorData } from '../../../domain/src/erp/port';
import type { Actor } from '../../../domain/src/shared/events';
import type { BlockInput } from './messages';

/** Test helpers for the block lifecycle (integration tests only). */
export const blockActors = {
  requester: { userId: 'u-accounts', role: 'MLL Accounts', name: 'Asha Accounts' } satisfies Actor,
  approver: { userId: 'u-legal', role: 'MLL Legal', name: 'Lata Legal' } satisfies Actor,
  adminRequester: { userId: 'u-admin', role: 'MLL-ADMIN', name: 'Arun Admin' } satisfies Actor,
};

export const testFile = { name: 'notice.pdf', size: 321, type: 'application/pdf', sha256: 'b'.repeat(64) };

export const vendorData = (pan: string, companyCode: string, name = `Vendor ${pan}`): ErpVendorData => ({
  name,
  pan,
  companyCode,
  street: 'MG Road 1',
  postalCode: '400001',
  city: 'Mumbai',
  region: '27',
  country: 'IN',
  mobileNo: '9876543210',
  email: 'vendor@example.test',
  bankAccount: null,
  bankKey: null,
  bankName: null,
  gstin: null,
  paymentTermsCode: null,
  reconAccount: null,
});

/** A parent vendor created in the ERP (submitted and polled until done): its vendor code. */
export async function createErpParent(erp: ErpPort, pan: string, companyCode: string): Promise<string> {
  const { requestId } = await erp.submit(`test-parent-${pan}-${companyCode}`, { op: 'create-parent', vendor: vendorData(pan, companyCode) });
  for (let i = 0; i < 200; i++) {
    const status = await erp.status(requestId);
    if (status.state === 'done') return status.vendorCode;
    if (status.state === 'rejected') throw new Error(`create-parent ${pan}: ${status.message}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`create-parent ${pan}: still pending`);
}

let panCounter = 0;
/** A PAN no other test of the run uses (5 letters, 4 digits, 1 letter). */
export function uniquePan(): string {
  panCounter += 1;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const n = (process.pid * 31 + Date.now() + panCounter * 7919) % 26 ** 4;
  const a = [0, 1, 2, 3].map((i) => letters[Math.floor(n / 26 ** i) % 26]).join('');
  const digits = String((panCounter * 37 + process.pid) % 10000).padStart(4, '0');
  return `${a}P${digits}${letters[panCounter % 26]}`;
}

export const blockInput = (over: Partial<BlockInput> = {}): BlockInput => ({
  requestId: randomUUID(),
  action: 'block',
  baId: null,
  pan: null,
  level: 'parent',
  companyCode: '1000',
  childCode: null,
  reasonId: '1',
  comments: 'Repeated delays',
  file: testFile,
  endDate: null,
  requestedBy: blockActors.requester,
  correlationId: randomUUID(),
  timing: { retryInitialMs: 200, retryMaxMs: 800, pollInitialMs: 100, pollMaxMs: 300 },
  ...over,
});
