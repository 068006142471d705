import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { businessAssociatesProjection } from '../business-associates/business-associates.projection';
import { memosProjection } from '../memos/memos.projection';
import { rebuildProjections } from '../rebuild';
import { applyDirectly, createOnboardingDriver, dumpTables } from '../test-support';
import { invoicesProjection } from './invoices.projection';
import { getInvoice, invoiceCountsByStatus, listInvoices, type InvoiceListFilter, type InvoiceScope } from './invoices.queries';
import { createInvoiceEvents, testActors } from './test-events';

let db: TestDatabase;
let store: EventStore;
let inv: ReturnType<typeof createInvoiceEvents>;
let applied = 0;

/** Applies every event not applied yet, one event per page, as the application role (like the runner). */
async function project(): Promise<void> {
  for (;;) {
    const page = await store.readAll(applied, 1);
    const last = page[page.length - 1];
    if (!last) return;
    for (const p of [businessAssociatesProjection, invoicesProjection, memosProjection]) await applyDirectly(db.appPool, p, page);
    applied = last.globalPosition;
  }
}

const ids = async (scope: InvoiceScope, filter: InvoiceListFilter = {}, sort?: { field: string; order: string }) =>
  (await listInvoices(db.appPool, { scope, filter, sort, range: { offset: 0, limit: 100 } })).rows.map((r) => r.id);
const ba1: InvoiceScope = { baId: 'ba-1' };
const staff1000: InvoiceScope = { companyCodes: ['1000'] };

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.appPool);
  inv = createInvoiceEvents(store);
  const ba = createOnboardingDriver(store);
  await ba.create('ba-1', '1000');
  await ba.save('ba-1', { companyName: 'Acme Logistics' });
  await ba.create('ba-2', '2000');
  await ba.save('ba-2', { companyName: 'Bharat Carriers' });

  // i1: a draft of ba-1 with an attachment added, another added and removed.
  await inv.draft('i1', 'ba-1', { invoiceNumber: 'INV-D1', taxableAmount: '', invoiceDate: '' });
  await inv.on('i1', 'InvoiceAttachmentAdded', { attachment: { attachmentId: 'f1', name: 'bill.pdf', size: 10, type: 'application/pdf', sha256: 'a'.repeat(64) } });
  await inv.on('i1', 'InvoiceAttachmentAdded', { attachment: { attachmentId: 'f2', name: 'lr.png', size: 20, type: 'image/png', sha256: 'b'.repeat(64) } });
  await inv.on('i1', 'InvoiceAttachmentRemoved', { attachmentId: 'f1' });
  // i2: the whole way to released, through an ERP outage.
  await inv.submitted('i2', 'ba-1', { invoiceNumber: 'INV-001', invoiceDate: '2026-11-10' });
  await inv.on('i2', 'InvoiceAcknowledged', { by: testActors.commercial }, testActors.commercial);
  await inv.on('i2', 'InvoiceVerified', { by: testActors.commercial }, testActors.commercial);
  await inv.on('i2', 'InvoiceBookingRequested', { by: testActors.accounts }, testActors.accounts);
  await inv.on('i2', 'InvoiceErpCallFailed', { requestKey: 'k', error: 'ERP unavailable', attempt: 1, retryAt: inv.now() });
  await inv.on('i2', 'InvoiceBooked', { erpDocumentNumber: '5100000001' });
  await inv.on('i2', 'InvoiceReleased', { by: testActors.accounts }, testActors.accounts);
  // i3: rejected, corrected and submitted again.
  await inv.submitted('i3', 'ba-1', { invoiceNumber: 'INV-002', invoiceDate: '2026-11-01', taxableAmount: '500.50', cgst: '', sgst: '', igst: '90.09', td: '' });
  await inv.on('i3', 'InvoiceRejected', { by: testActors.commercial, remarks: 'Wrong HSN code', fromStatus: 'S' }, testActors.commercial);
  await inv.save('i3', { invoiceNumber: 'INV-002', invoiceDate: '2026-11-01', taxableAmount: '500.50', cgst: '', sgst: '', igst: '90.09', td: '', hsnCode: '9965' });
  await inv.submit('i3', { invoiceNumber: 'INV-002', invoiceDate: '2026-11-01', taxableAmount: '500.50', cgst: '', sgst: '', igst: '90.09', td: '', hsnCode: '9965' }, true);
  // i4: ba-2 in company code 2000, Karnataka to Karnataka.
  await inv.submitted('i4', 'ba-2', { invoiceNumber: 'KA-9', companyCode: '2000', fromStateId: 29, toStateId: 29, billingFromCode: '2000000201' });
  // i5: a discarded draft.
  await inv.draft('i5', 'ba-1', { invoiceNumber: 'INV-GONE' });
  await inv.on('i5', 'InvoiceDiscarded');
  // i6: overdue while submitted. i7: overdue, then acknowledged (the flag belongs to the old status).
  await inv.submitted('i6', 'ba-1', { invoiceNumber: 'inv-003', invoiceDate: '2026-10-15', taxableAmount: '20000' });
  await inv.on('i6', 'InvoiceSlaBreached', { status: 'S', since: inv.now(), dueAt: inv.now() });
  await inv.submitted('i7', 'ba-1', { invoiceNumber: 'INV-004', invoiceDate: '2026-10-20', toStateId: 29 });
  await inv.on('i7', 'InvoiceSlaBreached', { status: 'S', since: inv.now(), dueAt: inv.now() });
  await inv.on('i7', 'InvoiceAcknowledged', { by: testActors.commercial }, testActors.commercial);
  // i8: verified, booking refused by the ERP. i9: revoked by accounts.
  await inv.submitted('i8', 'ba-1', { invoiceNumber: 'INV-005', invoiceDate: '2026-11-05' });
  await inv.on('i8', 'InvoiceAcknowledged', { by: testActors.commercial }, testActors.commercial);
  await inv.on('i8', 'InvoiceVerified', { by: testActors.commercial }, testActors.commercial);
  await inv.on('i8', 'InvoiceBookingRequested', { by: testActors.accounts }, testActors.accounts);
  await inv.on('i8', 'InvoiceErpRefused', { message: 'Posting period closed' });
  await inv.submitted('i9', 'ba-1', { invoiceNumber: 'INV-006', invoiceDate: '2026-11-06' });
  await inv.on('i9', 'InvoiceRevoked', { by: testActors.accounts, remarks: null }, testActors.accounts);
  // A reservation stream shares the invoice prefix: it must not become a row.
  await inv.append('invoice-number-ba-1-2026-27-abc', 'InvoiceNumberReserved', { baId: 'ba-1', financialYear: '2026-27', invoiceNumber: 'INV-001', invoiceId: 'i2' }, testActors.system, '1000');
  // A memo takes i3 and i6.
  await inv.memo('m1', {
    memoNumber: 'MEMO/1000/2026-27/000001',
    baId: 'ba-1',
    companyCode: '1000',
    fromStateId: 27,
    toStateId: 27,
    invoiceIds: ['i3', 'i6'],
    totals: { taxableAmount: '20500.50', cgst: '900.00', sgst: '900.00', igst: '90.09', td: '200.00', totalAmount: '22390.59', netPayable: '22190.59' },
  });
  await project();
});

afterAll(async () => {
  await db?.drop();
});

describe('the invoices read model', () => {
  it('follows an invoice to release: status, label, totals in exact decimals, ERP document, names joined at read time', async () => {
    const row = await getInvoice(db.appPool, 'i2');
    expect(row).toMatchObject({
      id: 'i2',
      baId: 'ba-1',
      baName: 'Acme Logistics',
      baCode: null,
      companyCode: '1000',
      status: 'P',
      statusLabel: 'Released',
      invoiceNumber: 'INV-001',
      invoiceDate: '2026-11-10',
      financialYear: '2026-27',
      taxableAmount: '10000.00',
      cgst: '900.00',
      sgst: '900.00',
      igst: '0.00',
      td: '200.00',
      totalAmount: '11800.00',
      netPayable: '11600.00',
      fromStateId: 27,
      fromStateName: 'Maharashtra',
      toStateName: 'Maharashtra',
      billingToName: 'Chakan plant',
      submitToName: 'Chitra Commercial',
      erpDocumentNumber: '5100000001',
      booking: false,
      lastErpError: null,
      memoId: null,
    });
    expect(row?.releasedAt).not.toBeNull();
    expect(row?.submittedAt).not.toBeNull();
  });

  it('keeps a draft with gaps, and its attachments in order with the removed one gone', async () => {
    const row = await getInvoice(db.appPool, 'i1');
    expect(row).toMatchObject({ status: 'draft', statusLabel: 'Draft', taxableAmount: '', invoiceDate: null, totalAmount: '1800.00' });
    expect(row?.attachments).toEqual([{ attachmentId: 'f2', name: 'lr.png', size: 20, type: 'image/png' }]);
    expect(row?.files[0]?.sha256).toBe('b'.repeat(64));
  });

  it('records rejection remarks, a resubmission back to S, a revocation and an ERP refusal', async () => {
    expect(await getInvoice(db.appPool, 'i3')).toMatchObject({ status: 'S', remarks: 'Wrong HSN code', hsnCode: '9965', totalAmount: '590.59', netPayable: '590.59' });
    expect(await getInvoice(db.appPool, 'i9')).toMatchObject({ status: 'R', statusLabel: 'Revoked', remarks: null });
    expect(await getInvoice(db.appPool, 'i8')).toMatchObject({ status: 'V', booking: false, lastErpError: 'Posting period closed' });
  });

  it('flags an SLA breach only while the invoice stays in the status that breached', async () => {
    expect((await getInvoice(db.appPool, 'i6'))?.slaBreached).toBe(true);
    expect(await getInvoice(db.appPool, 'i7')).toMatchObject({ status: 'A', slaBreached: false });
    expect(await ids(staff1000, { slaBreached: true })).toEqual(['i6']);
  });

  it('notes the memo that took an invoice; memo candidates are S/A/V invoices in no memo', async () => {
    expect(await getInvoice(db.appPool, 'i3')).toMatchObject({ memoId: 'm1', memoNumber: 'MEMO/1000/2026-27/000001' });
    expect((await ids(ba1, { memoId: 'm1' })).sort()).toEqual(['i3', 'i6']);
    expect((await ids(ba1, { memoCandidates: true })).sort()).toEqual(['i7', 'i8']);
  });

  it('ignores the reservation streams', async () => {
    const { rows } = await db.pool.query('SELECT id FROM invoices ORDER BY id');
    expect(rows.map((r: { id: string }) => r.id)).toEqual(['i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7', 'i8', 'i9']);
  });
});

describe('listing invoices', () => {
  it('shows a BA its own invoices, drafts included, the discarded one only on its own tab', async () => {
    expect((await ids(ba1)).sort()).toEqual(['i1', 'i2', 'i3', 'i6', 'i7', 'i8', 'i9']);
    expect(await ids({ baId: 'ba-2' })).toEqual(['i4']);
    expect(await ids(ba1, { status: 'discarded' })).toEqual(['i5']);
    expect(await ids(ba1, { status: 'draft' })).toEqual(['i1']);
  });

  it('shows staff their company codes only and never drafts or discarded invoices', async () => {
    expect((await ids(staff1000)).sort()).toEqual(['i2', 'i3', 'i6', 'i7', 'i8', 'i9']);
    expect(await ids({ companyCodes: ['2000'] })).toEqual(['i4']);
    expect((await ids({ companyCodes: ['1000', '2000'] })).length).toBe(7);
    expect(await ids(staff1000, { status: 'draft' })).toEqual([]);
    expect(await ids({ companyCodes: [] })).toEqual([]);
  });

  it('filters by status (one or several), number, BA, company code, states and invoice dates', async () => {
    expect(await ids(staff1000, { status: 'P' })).toEqual(['i2']);
    expect((await ids(staff1000, { status: ['S', 'A'] })).sort()).toEqual(['i3', 'i6', 'i7']);
    // Contains, case-insensitive; LIKE wildcards in the text match literally.
    expect((await ids(staff1000, { q: 'inv-00' })).sort()).toEqual(['i2', 'i3', 'i6', 'i7', 'i8', 'i9']);
    expect(await ids(staff1000, { q: 'V-003' })).toEqual(['i6']);
    expect(await ids(staff1000, { q: '%' })).toEqual([]);
    expect(await ids({ companyCodes: ['1000', '2000'] }, { baId: 'ba-2' })).toEqual(['i4']);
    expect(await ids({ companyCodes: ['1000', '2000'] }, { companyCode: '2000' })).toEqual(['i4']);
    expect(await ids({ companyCodes: ['1000', '2000'] }, { fromStateId: 29 })).toEqual(['i4']);
    expect(await ids(staff1000, { toStateId: 29 })).toEqual(['i7']);
    expect(await ids(staff1000, { dateFrom: '2026-10-01', dateTo: '2026-10-31' })).toEqual(['i7', 'i6']);
  });

  it('sorts (newest invoice date first by default) and pages with the total', async () => {
    expect(await ids(staff1000)).toEqual(['i2', 'i9', 'i8', 'i3', 'i7', 'i6']);
    expect(await ids(staff1000, {}, { field: 'invoiceNumber', order: 'ASC' })).toEqual(['i2', 'i3', 'i6', 'i7', 'i8', 'i9']);
    const byTotal = await listInvoices(db.appPool, { scope: staff1000, sort: { field: 'totalAmount', order: 'DESC' }, range: { offset: 0, limit: 2 } });
    expect(byTotal.rows.map((r) => r.id)).toEqual(['i6', 'i9']);
    expect(byTotal.total).toBe(6);
    const page = await listInvoices(db.appPool, { scope: staff1000, range: { offset: 4, limit: 10 } });
    expect(page.rows.map((r) => r.id)).toEqual(['i7', 'i6']);
    expect(page.total).toBe(6);
    const beyond = await listInvoices(db.appPool, { scope: staff1000, range: { offset: 50, limit: 10 } });
    expect(beyond).toEqual({ rows: [], total: 6 });
    // A number search counts in the page's own statement; past its end the count still comes.
    const searched = await listInvoices(db.appPool, { scope: staff1000, filter: { q: 'INV-00' }, range: { offset: 0, limit: 2 } });
    expect(searched.rows.map((r) => r.id)).toEqual(['i2', 'i9']);
    expect(searched.total).toBe(6);
    expect(await listInvoices(db.appPool, { scope: staff1000, filter: { q: 'inv-00' }, range: { offset: 10, limit: 2 } })).toEqual({ rows: [], total: 6 });
  });

  it('counts a BA’s invoices by status for its home page', async () => {
    expect(await invoiceCountsByStatus(db.appPool, 'ba-1')).toEqual({ draft: 1, P: 1, S: 2, A: 1, V: 1, R: 1 });
  });
});

describe('replays', () => {
  it('changes nothing when pages are applied again, and a rebuild equals the live tables', async () => {
    const tables = ['invoices', 'invoice_status_counts', 'memos', 'memo_advances'];
    const live = await dumpTables(db.pool, tables);
    // Issue 12: the counts the list's totals sum are the rows' own.
    const { rows: recounted } = await db.pool.query(
      `SELECT coalesce(company_code, '') AS company_code, status, count(*)::int AS n FROM invoices GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const { rows: kept } = await db.pool.query(`SELECT company_code, status, count::int AS n FROM invoice_status_counts ORDER BY 1, 2`);
    expect(recounted.length).toBeGreaterThan(1);
    expect(kept).toEqual(recounted);
    const all = await store.readAll(0, 10_000);
    for (const p of [invoicesProjection, memosProjection]) await applyDirectly(db.appPool, p, all);
    expect(await dumpTables(db.pool, tables)).toEqual(live);
    await rebuildProjections({ pool: db.pool, store, projections: [invoicesProjection, memosProjection], pageSize: 4 });
    expect(await dumpTables(db.pool, tables)).toEqual(live);
  });
});
