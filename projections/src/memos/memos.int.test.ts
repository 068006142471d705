import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { businessAssociatesProjection } from '../business-associates/business-associates.projection';
import { invoicesProjection } from '../invoices/invoices.projection';
import { createInvoiceEvents } from '../invoices/test-events';
import { applyDirectly, createOnboardingDriver, dumpTables } from '../test-support';
import { memosProjection } from './memos.projection';
import { getMemo, listMemos, type MemoListFilter, type MemoScope } from './memos.queries';

let db: TestDatabase;
let store: EventStore;
let applied = 0;

async function project(): Promise<void> {
  for (;;) {
    const page = await store.readAll(applied, 1);
    const last = page[page.length - 1];
    if (!last) return;
    for (const p of [businessAssociatesProjection, invoicesProjection, memosProjection]) await applyDirectly(db.appPool, p, page);
    applied = last.globalPosition;
  }
}

const numbers = async (scope: MemoScope, filter: MemoListFilter = {}) =>
  (await listMemos(db.appPool, { scope, filter, range: { offset: 0, limit: 100 } })).rows.map((r) => r.memoNumber);
const totals = (net: string) => ({ taxableAmount: net, cgst: '0', sgst: '0', igst: '0', td: '0', totalAmount: net, netPayable: net });

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.appPool);
  const inv = createInvoiceEvents(store);
  const ba = createOnboardingDriver(store);
  await ba.create('ba-1', '1000');
  await ba.save('ba-1', { companyName: 'Acme Logistics' });
  await inv.submitted('i1', 'ba-1', { invoiceNumber: 'A-1' });
  await inv.submitted('i2', 'ba-1', { invoiceNumber: 'A-2' });
  await inv.submitted('i3', 'ba-1', { invoiceNumber: 'A-3', toStateId: 29 });
  await inv.submitted('i4', 'ba-2', { invoiceNumber: 'B-1', companyCode: '2000' });
  await inv.memo('m1', {
    memoNumber: 'MEMO/1000/2026-27/000001',
    baId: 'ba-1',
    companyCode: '1000',
    fromStateId: 27,
    toStateId: 27,
    invoiceIds: ['i1', 'i2'],
    totals: { taxableAmount: '20000.00', cgst: '1800.00', sgst: '1800.00', igst: '0.00', td: '400.00', totalAmount: '23600.00', netPayable: '23200.00' },
  });
  await inv.memo('m2', { memoNumber: 'MEMO/1000/2026-27/000002', baId: 'ba-1', companyCode: '1000', fromStateId: 27, toStateId: 29, invoiceIds: ['i3'], totals: totals('11600.00') });
  await inv.memo('m3', { memoNumber: 'MEMO/2000/2026-27/000001', baId: 'ba-2', companyCode: '2000', fromStateId: 27, toStateId: 27, invoiceIds: ['i4'], totals: totals('500.00') });
  await inv.advance('m1', 'ba-1', '1000', 'a1', '5000.00');
  await inv.advance('m1', 'ba-1', '1000', 'a2', '1200.50');
  await project();
});

afterAll(async () => {
  await db?.drop();
});

describe('the memos read model', () => {
  it('shows a memo with its totals, advances, balance, states and invoices', async () => {
    const memo = await getMemo(db.appPool, 'm1');
    expect(memo).toMatchObject({
      id: 'm1',
      memoNumber: 'MEMO/1000/2026-27/000001',
      baId: 'ba-1',
      baName: 'Acme Logistics',
      companyCode: '1000',
      financialYear: '2026-27',
      fromStateName: 'Maharashtra',
      toStateName: 'Maharashtra',
      invoiceIds: ['i1', 'i2'],
      invoiceCount: 2,
      totalAmount: '23600.00',
      netPayable: '23200.00',
      advanceAmount: '6200.50',
      balance: '16999.50',
      comments: 'Memo of November',
      submittedBy: { userId: 'ba-user-ba-1', name: 'Admin of ba-1' },
    });
    expect(memo?.invoices.map((i) => [i.id, i.memoNumber])).toEqual([
      ['i1', 'MEMO/1000/2026-27/000001'],
      ['i2', 'MEMO/1000/2026-27/000001'],
    ]);
    expect(memo?.advances.map((a) => [a.advanceId, a.amount, a.reference, a.paidOn, a.by.role])).toEqual([
      ['a1', '5000.00', 'UTR-a1', '2026-11-20', 'MLL Accounts'],
      ['a2', '1200.50', 'UTR-a2', '2026-11-20', 'MLL Accounts'],
    ]);
    expect(await getMemo(db.appPool, 'nope')).toBeNull();
  });

  it('lists a BA’s own memos or the staff’s company codes, filtered by number and states', async () => {
    expect(await numbers({ baId: 'ba-1' })).toEqual(['MEMO/1000/2026-27/000002', 'MEMO/1000/2026-27/000001']);
    expect(await numbers({ baId: 'ba-2' })).toEqual(['MEMO/2000/2026-27/000001']);
    expect(await numbers({ companyCodes: ['2000'] })).toEqual(['MEMO/2000/2026-27/000001']);
    expect(await numbers({ companyCodes: ['1000', '2000'] }, { q: '2000/' })).toEqual(['MEMO/2000/2026-27/000001']);
    expect(await numbers({ companyCodes: ['1000'] }, { toStateId: 29 })).toEqual(['MEMO/1000/2026-27/000002']);
    expect(await numbers({ companyCodes: ['1000', '2000'] }, { baId: 'ba-1', fromStateId: 27 })).toHaveLength(2);
    const page = await listMemos(db.appPool, { scope: { companyCodes: ['1000', '2000'] }, range: { offset: 0, limit: 1 } });
    expect(page.total).toBe(3);
    expect(page.rows).toHaveLength(1);
  });

  it('adds an advance once even when its page is applied again', async () => {
    const live = await dumpTables(db.pool, ['memos', 'memo_advances']);
    await applyDirectly(db.appPool, memosProjection, await store.readAll(0, 1000));
    expect(await dumpTables(db.pool, ['memos', 'memo_advances'])).toEqual(live);
    expect((await getMemo(db.appPool, 'm1'))?.advanceAmount).toBe('6200.50');
  });
});
