import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import request from 'supertest';
import { createInvoiceEvents, testActors } from '../../../projections/src/invoices/test-events';
import { waitForProjections } from '../../../projections/src/runner';
import { TEST_PDF } from '../testing/onboarding';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../users/testing';

/**
 * The Bill-Hub reads over HTTP (real stores and projector): invoice events appended as the contract names them,
 * then the list, one invoice with its history and allowed actions, an attachment, and the memo reads — each
 * scoped to the caller (a BA its own, staff their company codes, never drafts).
 */
jest.setTimeout(120_000);

let h: ApiHarness;
let ba: TestBa;
let otherBa: TestBa;
let baAuth: Record<string, string>;
let otherBaAuth: Record<string, string>;
let commercial: Record<string, string>;
let accounts: Record<string, string>;
let auditor: Record<string, string>;
let staff2000: Record<string, string>;
const id = { draft: randomUUID(), submitted: randomUUID(), verified: randomUUID(), other: randomUUID(), inMemo: randomUUID() };
const memoId = randomUUID();
let sha256 = '';

beforeAll(async () => {
  h = await startApiHarness('invoice-reads');
  ba = await addBa(h, 'inv');
  otherBa = await addBa(h, 'inv2', { companyCode: '2000' });
  baAuth = (await sessionOf(h, ba.admin)).auth;
  otherBaAuth = (await sessionOf(h, otherBa.admin)).auth;
  const staff = async (email: string, roles: Parameters<typeof addUser>[1]['roles'], codes = ['1000']) =>
    (await sessionOf(h, await addUser(h, { email, roles, companyCodes: codes }))).auth;
  commercial = await staff('commercial@invoices.test', ['MLL Commercial']);
  accounts = await staff('accounts@invoices.test', ['MLL Accounts']);
  auditor = await staff('auditor@invoices.test', ['Auditor']);
  staff2000 = await staff('admin2000@invoices.test', ['MLL-ADMIN'], ['2000']);

  sha256 = (await h.blobStore.put(Readable.from([TEST_PDF]), { maxBytes: 1_000_000 })).sha256;
  const inv = createInvoiceEvents(h.store);
  await inv.draft(id.draft, ba.baId, { invoiceNumber: 'DRAFT-1' });
  await inv.on(id.draft, 'InvoiceAttachmentAdded', { attachment: { attachmentId: 'att-1', name: 'bill.pdf', size: TEST_PDF.length, type: 'application/pdf', sha256 } });
  await inv.submitted(id.submitted, ba.baId, { invoiceNumber: 'INV-100', invoiceDate: '2026-11-10' });
  await inv.submitted(id.verified, ba.baId, { invoiceNumber: 'INV-101', invoiceDate: '2026-11-11' });
  await inv.on(id.verified, 'InvoiceRejected', { by: testActors.commercial, remarks: 'Attach the LR copy', fromStatus: 'S' }, testActors.commercial);
  await inv.submit(id.verified, { invoiceNumber: 'INV-101', invoiceDate: '2026-11-11' }, true);
  await inv.on(id.verified, 'InvoiceAcknowledged', { by: testActors.commercial }, testActors.commercial);
  await inv.on(id.verified, 'InvoiceVerified', { by: testActors.commercial }, testActors.commercial);
  await inv.submitted(id.other, otherBa.baId, { invoiceNumber: 'OTHER-1', companyCode: '2000' });
  await inv.submitted(id.inMemo, ba.baId, { invoiceNumber: 'INV-102', invoiceDate: '2026-11-12' });
  await inv.memo(memoId, {
    memoNumber: 'MEMO/1000/2026-27/000001',
    baId: ba.baId,
    companyCode: '1000',
    fromStateId: 27,
    toStateId: 27,
    invoiceIds: [id.inMemo],
    totals: { taxableAmount: '10000.00', cgst: '900.00', sgst: '900.00', igst: '0.00', td: '200.00', totalAmount: '11800.00', netPayable: '11600.00' },
  });
  await inv.advance(memoId, ba.baId, '1000', 'adv-1', '1600.00');
  expect(await waitForProjections(h.db.pool, await h.store.headPosition(), { timeoutMs: 10_000 })).toBe(true);
});

afterAll(async () => {
  await h?.stop();
});

const list = (auth: Record<string, string>, query: Record<string, string> = {}) => request(h.app).get('/api/invoices').query(query).set(auth);
const idsOf = (body: { id: string }[]) => body.map((r) => r.id).sort();

describe('GET /api/invoices', () => {
  it('gives a BA its own invoices, drafts included, with Content-Range', async () => {
    const res = await list(baAuth);
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([id.draft, id.submitted, id.verified, id.inMemo].sort());
    expect(res.headers['content-range']).toBe('invoices 0-3/4');
    expect(idsOf((await list(otherBaAuth)).body)).toEqual([id.other]);
  });

  it('gives staff and the auditor their company codes, never drafts', async () => {
    for (const auth of [commercial, accounts, auditor]) {
      expect(idsOf((await list(auth)).body)).toEqual([id.submitted, id.verified, id.inMemo].sort());
    }
    expect(idsOf((await list(staff2000)).body)).toEqual([id.other]);
  });

  it('applies filters, sort and range, and refuses unknown filters and sort fields', async () => {
    const verified = await list(commercial, { filter: JSON.stringify({ status: ['V'] }) });
    expect(idsOf(verified.body)).toEqual([id.verified]);
    const searched = await list(commercial, { filter: JSON.stringify({ q: 'inv-10', memoCandidates: true }), sort: JSON.stringify(['invoiceNumber', 'ASC']) });
    expect(searched.body.map((r: { invoiceNumber: string }) => r.invoiceNumber)).toEqual(['INV-100', 'INV-101']);
    const page = await list(commercial, { range: JSON.stringify([1, 1]), sort: JSON.stringify(['invoiceDate', 'DESC']) });
    expect(page.body.map((r: { id: string }) => r.id)).toEqual([id.verified]);
    expect(page.headers['content-range']).toBe('invoices 1-1/3');
    expect((await list(commercial, { filter: JSON.stringify({ colour: 'red' }) })).status).toBe(400);
    expect((await list(commercial, { sort: JSON.stringify(['password', 'ASC']) })).status).toBe(400);
    expect((await list(commercial, { filter: JSON.stringify({ status: 'X' }) })).status).toBe(400);
  });

  it('refuses anonymous callers', async () => {
    expect((await request(h.app).get('/api/invoices')).status).toBe(401);
  });
});

describe('GET /api/invoices/:id', () => {
  it('shows the invoice with its history and the caller’s actions', async () => {
    const res = await request(h.app).get(`/api/invoices/${id.verified}`).set(accounts);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: id.verified, status: 'V', statusLabel: 'Verified', remarks: 'Attach the LR copy', allowedActions: ['book', 'reject', 'revoke'] });
    expect(res.body.files).toBeUndefined();
    expect(res.body.history.map((e: { status: string; by: { role: string }; remarks: string | null }) => [e.status, e.by.role, e.remarks])).toEqual([
      ['draft', 'BA Admin', null],
      ['S', 'BA Admin', null],
      ['C', 'MLL Commercial', 'Attach the LR copy'],
      ['S', 'BA Admin', 'Submitted again after correction'],
      ['A', 'MLL Commercial', null],
      ['V', 'MLL Commercial', null],
    ]);
    expect((await request(h.app).get(`/api/invoices/${id.verified}`).set(commercial)).body.allowedActions).toEqual(['reject']);
    expect((await request(h.app).get(`/api/invoices/${id.submitted}`).set(commercial)).body.allowedActions).toEqual(['acknowledge', 'reject']);
    expect((await request(h.app).get(`/api/invoices/${id.submitted}`).set(baAuth)).body.allowedActions).toEqual(['revoke']);
    expect((await request(h.app).get(`/api/invoices/${id.draft}`).set(baAuth)).body.allowedActions).toEqual(['edit', 'attach', 'submit', 'discard']);
    expect((await request(h.app).get(`/api/invoices/${id.submitted}`).set(auditor)).body.allowedActions).toEqual([]);
  });

  it('answers 404 for a malformed or unknown id, another BA’s invoice, another company code, and a draft to staff', async () => {
    expect((await request(h.app).get('/api/invoices/not-a-uuid').set(baAuth)).status).toBe(404);
    expect((await request(h.app).get(`/api/invoices/${randomUUID()}`).set(baAuth)).status).toBe(404);
    expect((await request(h.app).get(`/api/invoices/${id.submitted}`).set(otherBaAuth)).status).toBe(404);
    expect((await request(h.app).get(`/api/invoices/${id.submitted}`).set(staff2000)).status).toBe(404);
    expect((await request(h.app).get(`/api/invoices/${id.draft}`).set(commercial)).status).toBe(404);
  });

  it('serves an attachment byte for byte, inline on request; 404 for an unknown attachment or a stranger', async () => {
    const res = await request(h.app).get(`/api/invoices/${id.draft}/attachments/att-1?inline=1`).set(baAuth).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="bill.pdf"/);
    expect(Buffer.compare(res.body as Buffer, TEST_PDF)).toBe(0);
    expect((await request(h.app).get(`/api/invoices/${id.draft}/attachments/att-2`).set(baAuth)).status).toBe(404);
    expect((await request(h.app).get(`/api/invoices/${id.draft}/attachments/att-1`).set(otherBaAuth)).status).toBe(404);
  });
});

describe('GET /api/memos', () => {
  it('lists memos per scope and shows one with its invoices, advances and balance', async () => {
    const mine = await request(h.app).get('/api/memos').set(baAuth);
    expect(mine.status).toBe(200);
    expect(mine.body.map((m: { id: string }) => m.id)).toEqual([memoId]);
    expect(mine.headers['content-range']).toBe('memos 0-0/1');
    expect((await request(h.app).get('/api/memos').set(otherBaAuth)).body).toEqual([]);
    expect((await request(h.app).get('/api/memos').set(staff2000)).body).toEqual([]);
    const byNumber = await request(h.app).get('/api/memos').query({ filter: JSON.stringify({ q: '000001' }) }).set(accounts);
    expect(byNumber.body).toHaveLength(1);

    const memo = await request(h.app).get(`/api/memos/${memoId}`).set(accounts);
    expect(memo.status).toBe(200);
    expect(memo.body).toMatchObject({ memoNumber: 'MEMO/1000/2026-27/000001', netPayable: '11600.00', advanceAmount: '1600.00', balance: '10000.00', invoiceCount: 1 });
    expect(memo.body.invoices.map((i: { id: string; memoId: string }) => [i.id, i.memoId])).toEqual([[id.inMemo, memoId]]);
    expect(memo.body.advances.map((a: { advanceId: string; amount: string }) => [a.advanceId, a.amount])).toEqual([['adv-1', '1600.00']]);
    expect((await request(h.app).get(`/api/memos/${memoId}`).set(baAuth)).status).toBe(200);
  });

  it('answers 404 for a memo of another BA or company code, and for a malformed id', async () => {
    expect((await request(h.app).get(`/api/memos/${memoId}`).set(otherBaAuth)).status).toBe(404);
    expect((await request(h.app).get(`/api/memos/${memoId}`).set(staff2000)).status).toBe(404);
    expect((await request(h.app).get('/api/memos/nope').set(accounts)).status).toBe(404);
  });
});
