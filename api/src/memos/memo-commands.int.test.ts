import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { memoFinancialYear } from '../../../domain/src/memos/amounts';
import { memoMessages } from '../../../domain/src/memos/decide';
import { memoClaimsStreamId } from '../../../domain/src/memos/events';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { seedInvoice } from '../../../workflows/src/memos/testing';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../users/testing';

/**
 * Memo commands over HTTP with the real stores, workflow and read models: a BA submits a memo of its
 * submitted invoices, refusals record nothing, the PDF carries the memo, accounts record advances.
 */
jest.setTimeout(120_000);

let h: ApiHarness;
let ba: TestBa;
let other: TestBa;
let baAuth: Record<string, string>;
let otherAuth: Record<string, string>;
let accounts: Record<string, string>;
let commercial: Record<string, string>;
let staff2000: Record<string, string>;

beforeAll(async () => {
  h = await startApiHarness('memo-commands');
  ba = await addBa(h, 'memo');
  other = await addBa(h, 'memo2');
  baAuth = (await sessionOf(h, ba.admin)).auth;
  otherAuth = (await sessionOf(h, other.admin)).auth;
  const user = async (email: string, roles: Parameters<typeof addUser>[1]['roles'], codes = ['1000']) =>
    (await sessionOf(h, await addUser(h, { email, roles, companyCodes: codes }))).auth;
  accounts = await user('accounts@memos.test', ['MLL Accounts']);
  commercial = await user('commercial@memos.test', ['MLL Commercial']);
  staff2000 = await user('accounts2000@memos.test', ['MLL Accounts'], ['2000']);
});

afterAll(async () => {
  await h?.stop();
});

const fy = () => memoFinancialYear(indiaDateAt(Date.now()));
const claimsOf = async (baId: string) => (await h.store.readStream(memoClaimsStreamId(baId))).map((e) => e.type);
const submit = (auth: Record<string, string>, body: unknown) => request(h.app).post('/api/memos').set(auth).send(body as object);

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'memo-pdf-'));
  const file = join(dir, 'memo.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}
const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('POST /api/memos', () => {
  let memoId: string;
  let memoNumber: string;
  let first: string;

  test('201 "Memo submitted successfully." with its number, totals and invoices', async () => {
    first = await seedInvoice(h.store, { baId: ba.baId, invoiceNumber: 'MEMO-INV-1' });
    const second = await seedInvoice(h.store, { baId: ba.baId, invoiceNumber: 'MEMO-INV-2', status: 'A', taxableAmount: '2000.00', cgst: '180.00', sgst: '180.00', td: '20.00' });
    const res = await submit(baAuth, { invoiceIds: [first, second], comments: 'November' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ message: 'Memo submitted successfully.', memoNumber: expect.stringMatching(new RegExp(`^MEMO/1000/${fy()}/\\d{6}$`)) });
    memoId = res.body.id;
    memoNumber = res.body.memoNumber;
    expect(res.body.memo).toMatchObject({
      id: memoId,
      memoNumber,
      baId: ba.baId,
      companyCode: '1000',
      invoiceCount: 2,
      totalAmount: '3540.00',
      netPayable: '3510.00',
      balance: '3510.00',
      comments: 'November',
    });
    expect(res.body.memo.invoices.map((i: { id: string }) => i.id).sort()).toEqual([first, second].sort());
  });

  test('an invoice already in a memo → 409 naming the memo; nothing more is claimed', async () => {
    const fresh = await seedInvoice(h.store, { baId: ba.baId });
    const res = await submit(baAuth, { invoiceIds: [fresh, first] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`Invoice MEMO-INV-1 is already in memo ${memoNumber}`);
    expect(await claimsOf(ba.baId)).toEqual(['MemoInvoicesClaimed']);
  });

  test('refusals record nothing: none picked 400, draft 422, another BA\'s invoice 404, staff 403', async () => {
    const draft = await seedInvoice(h.store, { baId: other.baId, status: 'draft', invoiceNumber: 'DRAFT-9' });
    expect((await submit(otherAuth, { invoiceIds: [] })).status).toBe(400);
    const drafted = await submit(otherAuth, { invoiceIds: [draft] });
    expect(drafted.status).toBe(422);
    expect(drafted.body.message).toBe(memoMessages.notSubmitted('DRAFT-9', 'Draft'));
    const foreign = await seedInvoice(h.store, { baId: ba.baId });
    expect((await submit(otherAuth, { invoiceIds: [foreign] })).status).toBe(404);
    expect((await submit(accounts, { invoiceIds: [foreign] })).status).toBe(403);
    expect(await claimsOf(other.baId)).toEqual([]);
  });

  test('a BA whose vendor code is blocked → 403 and nothing is claimed', async () => {
    const blocked = await addBa(h, 'memoblk');
    const auth = (await sessionOf(h, blocked.admin)).auth;
    const invoice = await seedInvoice(h.store, { baId: blocked.baId });
    // The block read model's row as the block projection leaves it once a block is applied in the ERP.
    await h.db.pool.query(
      `INSERT INTO vendor_blocks (vendor_code, ba_id, pan, company_code, level, blocked, since, updated_at, stream_version)
       VALUES ($1, $2, 'ABCDE1234F', '1000', 'parent', true, now(), now(), 1)`,
      [`V-${blocked.baId}`, blocked.baId],
    );
    const res = await submit(auth, { invoiceIds: [invoice] });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your vendor code is blocked. You cannot submit invoices');
    expect(await claimsOf(blocked.baId)).toEqual([]);
  });

  test('GET /api/memos/:id/pdf: an A4 PDF with the memo number, for the BA and staff of its company code only', async () => {
    const res = await request(h.app).get(`/api/memos/${memoId}/pdf`).set(baAuth).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Memo-${memoNumber.replace(/\//g, '-')}.pdf"`);
    const body = res.body as Buffer;
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(body);
    expect(text).toContain(memoNumber);
    expect(text).toContain('MEMO-INV-1');
    expect(text).toContain('Rs. 3,510.00');
    expect((await request(h.app).get(`/api/memos/${memoId}/pdf`).set(commercial)).status).toBe(200);
    expect((await request(h.app).get(`/api/memos/${memoId}/pdf`).set(otherAuth)).status).toBe(404);
    expect((await request(h.app).get(`/api/memos/${memoId}/pdf`).set(staff2000)).status).toBe(404);
    expect((await request(h.app).get('/api/memos/not-a-uuid/pdf').set(baAuth)).status).toBe(404);
  });

  test('POST /api/memos/:id/advances: accounts record an advance; over the balance 422; others refused', async () => {
    const today = indiaDateAt(Date.now());
    const paid = await request(h.app).post(`/api/memos/${memoId}/advances`).set(accounts).send({ amount: '1000.50', reference: 'UTR 42', paidOn: today });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ message: 'Advance payment recorded', memo: { advanceAmount: '1000.50', balance: '2509.50' } });
    expect(paid.body.memo.advances).toEqual([expect.objectContaining({ amount: '1000.50', reference: 'UTR 42', paidOn: today })]);
    const tooMuch = await request(h.app).post(`/api/memos/${memoId}/advances`).set(accounts).send({ amount: '2509.51', reference: 'UTR 43', paidOn: today });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toBe('The advance cannot exceed the memo balance');
    const bad = await request(h.app).post(`/api/memos/${memoId}/advances`).set(accounts).send({ amount: '0', reference: 'UTR 44', paidOn: today });
    expect(bad.status).toBe(400);
    expect((await request(h.app).post(`/api/memos/${memoId}/advances`).set(commercial).send({ amount: '1', reference: 'x', paidOn: today })).status).toBe(403);
    expect((await request(h.app).post(`/api/memos/${memoId}/advances`).set(staff2000).send({ amount: '1', reference: 'x', paidOn: today })).status).toBe(404);
    const memo = await request(h.app).get(`/api/memos/${memoId}`).set(baAuth);
    expect(memo.body).toMatchObject({ advanceAmount: '1000.50', balance: '2509.50' });
    expect(memo.body.advances).toHaveLength(1);
  });
});
