import crypto from 'node:crypto';
import request from 'supertest';
import type { Role } from '../../../domain/src/identity/roles';
import { uniquePan } from '../../../workflows/src/block/testing';
import { indiaDaysAgo } from '../../../workflows/src/invoices/testing';
import { seedVerifiedBa } from '../../../workflows/src/vendor-code/testing';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';

/**
 * The invoice commands over HTTP with the real stores, the invoice workflow, the read model and the sandbox ERP:
 * a BA with a child vendor code created through the vendor-code routes, drafts, attachments, submission, the
 * duplicate rules, the staff transitions with their roles, the payment hold, and another BA's 404.
 */
jest.setTimeout(240_000);

type Auth = { Authorization: string };
let h: ApiHarness;
const as: Record<string, Auth> = {};
let baId: string;
let childCode: string;
let otherBaId: string;

/** A small but complete PDF (header, one empty page, cross-reference table, trailer). */
function realPdf(): Buffer {
  const objects = [
    '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n',
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const o of objects) {
    offsets.push(Buffer.byteLength(body));
    body += o;
  }
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
const PDF = realPdf();

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

beforeAll(async () => {
  h = await startApiHarness('invoice-commands');
  const staff: [string, Role, string[]][] = [
    ['accounts', 'MLL Accounts', ['1000']],
    ['commercial', 'MLL Commercial', ['1000']],
    ['procurement', 'MLL Procurement', ['1000']],
    ['commercial2000', 'MLL Commercial', ['2000']],
  ];
  for (const [key, role, companyCodes] of staff)
    as[key] = (await sessionOf(h, await addUser(h, { email: `${key}@inv.test`, name: `${key} user`, roles: [role], companyCodes }))).auth;

  // A verified BA with a child vendor code for Maharashtra (27), created in the sandbox ERP.
  ({ baId } = await seedVerifiedBa(h.store, { pan: uniquePan(), gstStateIds: [27] }));
  const post = (verb: string, body: object = {}) => request(h.app).post(`/api/business-associates/${baId}/vendor-codes/${verb}`).set(as.accounts!).send(body);
  const row = async () => (await request(h.app).get(`/api/vendor-codes/${baId}:1000`).set(as.accounts!)).body;
  expect((await post('request-parent')).status).toBe(200);
  await until('the parent code', async () => (await row()).parentCode);
  expect((await post('request-child', { stateId: 27, paymentTermsId: 4 })).status).toBe(200);
  childCode = await until('the child code', async () => (await row()).childCodes?.[0]?.childCode);

  const billHub = [{ appId: 'BillHub' as const, roleName: 'BA Admin' as const }];
  as.ba = (await sessionOf(h, await addUser(h, { email: `admin@${baId}.test`, applications: billHub, companyCodes: ['1000'], baId }))).auth;
  const other = await seedVerifiedBa(h.store, { pan: uniquePan(), gstStateIds: [27] });
  otherBaId = other.baId;
  as.otherBa = (await sessionOf(h, await addUser(h, { email: `admin@${other.baId}.test`, applications: billHub, companyCodes: ['1000'], baId: other.baId }))).auth;
});

afterAll(async () => {
  await h?.stop();
});

let commercialId: string;
const body = (over: Record<string, string> = {}) => ({
  invoiceNumber: 'INV-API-1',
  invoiceDate: indiaDaysAgo(5),
  taxableAmount: '10000',
  cgst: '250',
  sgst: '250',
  igst: '',
  td: '100',
  hsnCode: '996511',
  comments: 'October trips',
  submitToUserId: commercialId,
  billingFromCode: childCode,
  billingToCode: 'CHK',
  ...over,
});
const create = (over: Record<string, string> = {}, auth = as.ba!) => request(h.app).post('/api/invoices').set(auth).send(body(over));
const act = (id: string, verb: string, auth: Auth, payload: object = {}) => request(h.app).post(`/api/invoices/${id}/${verb}`).set(auth).send(payload);
const attach = (id: string, buffer: Buffer, name: string) => request(h.app).post(`/api/invoices/${id}/attachments`).set(as.ba!).attach('file', buffer, name);

describe('invoice commands', () => {
  test('a BA whose vendor code is blocked cannot create invoices (403) and nothing is recorded', async () => {
    // Arranged in the read model the rule reads (projections/src/blocks: vendor_blocks).
    await h.db.pool.query(
      `INSERT INTO vendor_blocks (vendor_code, ba_id, pan, company_code, level, blocked, updated_at, stream_version)
       VALUES ($1, $2, 'AAAAA0000A', '1000', 'parent', true, now(), 0)`,
      [`blk-${otherBaId}`, otherBaId],
    );
    const before = await h.store.headPosition();
    const res = await create({ invoiceNumber: 'INV-BLOCKED' }, as.otherBa!);
    expect([res.status, res.body.message]).toEqual([403, 'Your vendor code is blocked. You cannot submit invoices']);
    expect((await h.store.readAll(before, 1000)).filter((e) => e.streamId.startsWith('invoice-'))).toEqual([]);
  });

  test('form options list the child code, the locations and the commercial users', async () => {
    const res = await request(h.app).get('/api/invoices/form-options').set(as.ba!);
    expect(res.status).toBe(200);
    expect(res.body.billingFrom).toEqual([expect.objectContaining({ code: childCode, companyCode: '1000', stateId: 27 })]);
    expect(res.body.billingTo).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'CHK', stateId: 27, stateName: 'Maharashtra' })]));
    const commercial = (res.body.commercialUsers as { userId: string; name: string }[]).find((u) => u.name === 'commercial user');
    expect(commercial).toBeDefined();
    commercialId = commercial!.userId;
    expect((res.body.commercialUsers as { name: string }[]).map((u) => u.name)).not.toContain('commercial2000 user');
  });

  test('bad drafts are refused with the spec’s messages and record nothing', async () => {
    const before = await h.store.headPosition();
    const cases: [Record<string, string>, string][] = [
      [{ taxableAmount: '12.345' }, 'Please enter a valid amount'],
      [{ taxableAmount: '0' }, 'Taxable amount must be greater than zero'],
      [{ hsnCode: '1234' }, 'Please enter a valid HSN code'],
      [{ invoiceDate: indiaDaysAgo(62) }, 'Invoice date must be within the last 61 days'],
      [{ invoiceNumber: '=HYPERLINK()' }, "Text must not start with - = @ # & ^ + | % < ' \" or a tab or line break"],
      [{ billingFromCode: '999' }, 'Please select one of your vendor codes'],
    ];
    for (const [over, message] of cases) {
      const res = await create(over);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
    const streams = (await h.store.readAll(before, 1000)).map((e) => e.streamId);
    expect(streams.filter((s) => s.startsWith('invoice-'))).toEqual([]);
  });

  test('draft → attachments → submit → duplicates → staff transitions → release held while payments are on hold', async () => {
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'draft', message: 'Invoice Saved successfully' });
    const id = created.body.id as string;
    expect(created.body.invoice).toMatchObject({ id, status: 'draft', invoiceNumber: 'INV-API-1', totalAmount: '10500.00', netPayable: '10400.00' });

    // Attachments: a real PDF, an .exe refused (415), at most five.
    const pdf = await attach(id, PDF, 'invoice.pdf');
    expect([pdf.status, pdf.body.message]).toEqual([201, 'File uploaded successfully']);
    const exe = await attach(id, Buffer.from('MZ\x90\x00binary'), 'tool.exe');
    expect([exe.status, exe.body.message]).toEqual([415, 'Invalid file type selected.']);
    for (let i = 2; i <= 5; i++) expect((await attach(id, PDF, `page-${i}.pdf`)).status).toBe(201);
    const sixth = await attach(id, PDF, 'page-6.pdf');
    expect([sixth.status, sixth.body.message]).toEqual([400, 'You can attach up to 5 files']);
    const removed = await request(h.app).delete(`/api/invoices/${id}/attachments/${pdf.body.attachment.attachmentId}`).set(as.ba!);
    expect([removed.status, removed.body.message]).toEqual([200, 'File deleted successfully']);

    // Another BA sees nothing of it; staff never see a draft.
    expect((await act(id, 'submit', as.otherBa!)).status).toBe(404);
    expect((await request(h.app).put(`/api/invoices/${id}`).set(as.otherBa!).send(body())).status).toBe(404);
    expect((await act(id, 'acknowledge', as.commercial!)).status).toBe(404);

    const submitted = await act(id, 'submit', as.ba!);
    expect([submitted.status, submitted.body.message]).toEqual([200, 'Invoice submitted successfully']);
    expect(submitted.body.invoice).toMatchObject({ status: 'S', attachments: expect.any(Array) });
    expect(submitted.body.invoice.attachments).toHaveLength(4);

    // Same number again: "Invoice already exists" on save; "Duplicate Invoice" on submit.
    const again = await create({ invoiceNumber: ' inv-api-1 ' });
    expect([again.status, again.body.message]).toEqual([409, 'Invoice already exists']);
    const other = await create({ invoiceNumber: 'INV-API-2' });
    expect(other.status).toBe(201);
    const dup = await act(other.body.id, 'submit', as.ba!, body({ invoiceNumber: 'INV-API-1' }));
    expect([dup.status, dup.body.message]).toEqual([409, 'Duplicate Invoice']);

    // Staff transitions and their roles.
    expect((await act(id, 'acknowledge', as.procurement!)).status).toBe(403);
    expect((await act(id, 'acknowledge', as.ba!)).status).toBe(403);
    expect((await act(id, 'acknowledge', as.commercial2000!)).status).toBe(404);
    expect((await act(id, 'verify', as.commercial!)).body.message).toBe('This action is not allowed when the invoice is Submitted');
    const ack = await act(id, 'acknowledge', as.commercial!);
    expect([ack.status, ack.body.message, ack.body.invoice.status]).toEqual([200, 'Invoice acknowledged', 'A']);
    expect((await act(id, 'verify', as.accounts!)).status).toBe(403);
    expect((await act(id, 'verify', as.commercial!)).body.invoice.status).toBe('V');
    const booked = await act(id, 'book', as.accounts!);
    expect([200, 202]).toContain(booked.status);
    await until('booked', async () => (await h.db.pool.query(`SELECT status FROM invoices WHERE id = $1`, [id])).rows[0]?.status === 'B');

    await h.db.pool.query('UPDATE business_associates SET payments_on_hold = true WHERE id = $1', [baId]);
    const held = await act(id, 'release', as.accounts!);
    expect([held.status, held.body.message]).toEqual([422, 'Payments to this BA are on hold']);
    await h.db.pool.query('UPDATE business_associates SET payments_on_hold = false WHERE id = $1', [baId]);
    const released = await act(id, 'release', as.accounts!);
    expect([released.status, released.body.message, released.body.invoice.status]).toEqual([200, 'Invoice released', 'P']);
    // Released is terminal: its workflow has ended, and the answer still names the status.
    const after = await act(id, 'revoke', as.accounts!);
    expect([after.status, after.body.message]).toEqual([422, 'This action is not allowed when the invoice is Released']);
  });

  test('reject needs remarks; the BA edits a rejected invoice but not its number, resubmits; discard of a draft', async () => {
    const created = await create({ invoiceNumber: 'INV-API-3' });
    const id = created.body.id as string;
    await act(id, 'submit', as.ba!);
    const noRemarks = await act(id, 'reject', as.commercial!, { remarks: ' ' });
    expect([noRemarks.status, noRemarks.body.message]).toEqual([400, 'Please enter remarks']);
    const rejected = await act(id, 'reject', as.commercial!, { remarks: 'Wrong rate' });
    expect([rejected.status, rejected.body.invoice.status]).toEqual([200, 'C']);
    const renamed = await request(h.app).put(`/api/invoices/${id}`).set(as.ba!).send(body({ invoiceNumber: 'INV-API-9' }));
    expect([renamed.status, renamed.body.message]).toEqual([422, 'The invoice number cannot be changed']);
    const edited = await request(h.app).put(`/api/invoices/${id}`).set(as.ba!).send(body({ invoiceNumber: 'INV-API-3', taxableAmount: '9000' }));
    expect([edited.status, edited.body.message]).toEqual([200, 'Invoice Saved successfully']);
    expect((await act(id, 'submit', as.ba!)).body.invoice.status).toBe('S');
    const revoked = await act(id, 'revoke', as.ba!);
    expect([revoked.status, revoked.body.message]).toEqual([200, 'Invoice revoked']);

    // An Idempotency-Key makes a retried create the same draft.
    const key = crypto.randomUUID();
    const once = await request(h.app).post('/api/invoices').set(as.ba!).set('Idempotency-Key', key).send(body({ invoiceNumber: 'INV-API-5' }));
    const twice = await request(h.app).post('/api/invoices').set(as.ba!).set('Idempotency-Key', key).send(body({ invoiceNumber: 'INV-API-5' }));
    expect([once.status, twice.status, twice.body.id]).toEqual([201, 201, once.body.id]);

    const draft = await create({ invoiceNumber: 'INV-API-4' });
    const discarded = await act(draft.body.id, 'discard', as.ba!);
    expect([discarded.status, discarded.body.message]).toEqual([200, 'Invoice Discarded successfully']);
  });
});
