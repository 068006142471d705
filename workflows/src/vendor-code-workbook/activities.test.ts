import { MockActivityEnvironment } from '@temporalio/testing';
import type { ErpOperation } from '../../../domain/src/erp/port';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createInMemoryErp } from '../../../platform/src/erp/in-memory-erp';
import { createVendorCodeWorkbookActivities } from './activities';

/** The ERP-facing activities of the workbook run against the in-memory ERP: outages are answers, not throws. */
const noStore = null as unknown as EventStore;
const parent = (pan: string): ErpOperation => ({
  op: 'create-parent',
  vendor: {
    name: 'Water Board',
    pan,
    companyCode: '1000',
    street: 'Street 1',
    postalCode: '400001',
    city: 'Mumbai',
    region: '27',
    country: 'IN',
    mobileNo: '9876543210',
    email: 'a@b.example',
    bankAccount: null,
    bankKey: null,
    bankName: null,
    gstin: null,
    paymentTermsCode: 'Z030',
    reconAccount: null,
  },
});
const run = <A extends unknown[], R>(fn: (...args: A) => Promise<R>, ...args: A): Promise<R> => new MockActivityEnvironment().run(fn, ...args);
const poll = { pollInitialMs: 5, pollMaxMs: 20, windowMs: 200 };

describe('vendor-code workbook activities', () => {
  test('submit: the same key is the same request; an outage is "unavailable"', async () => {
    const erp = createInMemoryErp();
    const a = createVendorCodeWorkbookActivities({ store: noStore, erp });
    const first = await run(a.workbookErpSubmit, { key: 'k-1', operation: parent('AAGCW1111K') });
    expect(first.kind).toBe('submitted');
    expect(await run(a.workbookErpSubmit, { key: 'k-1', operation: parent('AAGCW1111K') })).toEqual(first);
    expect(erp.requests()).toHaveLength(1);
    erp.unavailable(1);
    expect(await run(a.workbookErpSubmit, { key: 'k-2', operation: parent('AAGCW2222K') })).toMatchObject({ kind: 'unavailable' });
    expect(erp.requests()).toHaveLength(1);
  });

  test('await: done with the code, rejected with the message, pending past the window (with the last outage)', async () => {
    const erp = createInMemoryErp();
    const a = createVendorCodeWorkbookActivities({ store: noStore, erp });
    const ok = await run(a.workbookErpSubmit, { key: 'k-ok', operation: parent('AAGCW3333K') });
    if (ok.kind !== 'submitted') throw new Error('not submitted');
    const done = await run(a.workbookErpAwait, { requestId: ok.requestId, ...poll });
    expect(done).toMatchObject({ kind: 'done' });
    expect(erp.vendors().map((v) => v.vendorCode)).toEqual([(done as { vendorCode: string }).vendorCode]);

    erp.rejectPans(['AAGCW4444K']);
    const bad = await run(a.workbookErpSubmit, { key: 'k-bad', operation: parent('AAGCW4444K') });
    if (bad.kind !== 'submitted') throw new Error('not submitted');
    expect(await run(a.workbookErpAwait, { requestId: bad.requestId, ...poll })).toMatchObject({ kind: 'rejected' });

    const slow = createInMemoryErp({ processingMs: 60_000 });
    const s = createVendorCodeWorkbookActivities({ store: noStore, erp: slow });
    const req = await run(s.workbookErpSubmit, { key: 'k-slow', operation: parent('AAGCW5555K') });
    if (req.kind !== 'submitted') throw new Error('not submitted');
    expect(await run(s.workbookErpAwait, { requestId: req.requestId, ...poll })).toEqual({ kind: 'pending', lastError: null });
    slow.unavailable(Infinity);
    const out = await run(s.workbookErpAwait, { requestId: req.requestId, ...poll });
    expect(out.kind).toBe('pending');
    expect((out as { lastError: string | null }).lastError).toMatch(/could not be reached/);
  });

  test('find parent: found in the company code, none, unavailable', async () => {
    const erp = createInMemoryErp();
    erp.seed({ pan: 'AAGCW6666K', name: 'Seeded', companyCode: '1000' });
    const a = createVendorCodeWorkbookActivities({ store: noStore, erp });
    expect(await run(a.workbookErpFindParent, { pan: 'AAGCW6666K', companyCode: '1000' })).toMatchObject({ kind: 'found' });
    expect(await run(a.workbookErpFindParent, { pan: 'AAGCW6666K', companyCode: '2000' })).toEqual({ kind: 'none' });
    erp.unavailable(1);
    expect(await run(a.workbookErpFindParent, { pan: 'AAGCW6666K', companyCode: '1000' })).toMatchObject({ kind: 'unavailable' });
  });

  test('a worker without an ERP adapter fails the activity (Temporal retries it)', async () => {
    const a = createVendorCodeWorkbookActivities({ store: noStore });
    await expect(run(a.workbookErpSubmit, { key: 'k', operation: parent('AAGCW7777K') })).rejects.toThrow('No ERP adapter');
  });
});
