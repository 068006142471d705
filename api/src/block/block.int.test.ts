import request from 'supertest';
import { blockMessages } from '../../../domain/src/block/decide';
import { blockStreamId } from '../../../domain/src/block/events';
import { createErpParent, uniquePan } from '../../../workflows/src/block/testing';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../users/testing';

/**
 * Block and unblock over HTTP with the real stores, workflow and the sandbox ERP: a request with a PDF
 * attachment, the second person's approval, "Successfully Blocked" once the ERP has it, the BA list's
 * Blocked Users, then the unblock.
 */
jest.setTimeout(120_000);

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

let h: ApiHarness;
let requester: Record<string, string>;
let approver: Record<string, string>;
let operations: Record<string, string>;
let auditor: Record<string, string>;
let otherCompany: Record<string, string>;
let ba: TestBa;
let vendorCode: string;

beforeAll(async () => {
  h = await startApiHarness('blocks');
  const user = async (email: string, role: Parameters<typeof addUser>[1]['roles'], codes = ['1000']) =>
    (await sessionOf(h, await addUser(h, { email, roles: role, companyCodes: codes }))).auth;
  requester = await user('accounts@blocks.test', ['MLL Accounts']);
  approver = await user('legal@blocks.test', ['MLL Legal']);
  operations = await user('ops@blocks.test', ['MLL Operations']);
  auditor = await user('auditor@blocks.test', ['Auditor']);
  otherCompany = await user('admin2000@blocks.test', ['MLL-ADMIN'], ['2000']);
  ba = await addBa(h, 'blk', { verified: true });
  const row = await request(h.app).get(`/api/business-associates/${ba.baId}`).set(approver);
  expect(row.status).toBe(200);
  vendorCode = await createErpParent(h.erpSandbox.erp, row.body.panNumber, '1000');
});

afterAll(async () => {
  await h?.stop();
});

const ask = (headers: Record<string, string>, fields: Record<string, string>, file: { buffer: Buffer; name: string } | null = { buffer: PDF, name: 'notice.pdf' }) => {
  let r = request(h.app).post('/api/blocks').set(headers);
  for (const [k, v] of Object.entries(fields)) r = r.field(k, v);
  return file ? r.attach('file', file.buffer, file.name) : r;
};
const blockFields = (over: Record<string, string> = {}) => ({
  baId: ba.baId,
  action: 'block',
  scope: 'parent',
  reasonId: '2',
  comments: 'Documents found to be forged',
  ...over,
});
const erpVendor = async () => (await h.erpSandbox.vendors()).find((v) => v.vendorCode === vendorCode);
const blockedList = async (headers = approver) => {
  const res = await request(h.app).get('/api/business-associates').query({ filter: JSON.stringify({ status: 'blocked' }) }).set(headers);
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((r) => r.id);
};
const blockedUsers = async () => (await request(h.app).get('/api/ba-counts').set(approver)).body.blockedUsers as number;

describe('block and unblock requests', () => {
  test('bad requests record nothing: no file, wrong file type, bad fields, a past end date, no vendor code', async () => {
    const before = await h.store.headPosition();
    expect((await ask(requester, blockFields(), null)).status).toBe(400);
    expect((await ask(requester, blockFields(), { buffer: Buffer.from('plain text'), name: 'notice.txt' })).status).toBe(415);
    const badAction = await ask(requester, blockFields({ action: 'freeze' }));
    expect(badAction.status).toBe(400);
    const noComments = await ask(requester, blockFields({ comments: '' }));
    expect(noComments.status).toBe(400);
    expect(noComments.body.message).toBe(blockMessages.comments);
    const past = await ask(requester, blockFields({ endDate: '2020-01-01' }));
    expect(past.status).toBe(400);
    expect(past.body.errors).toMatchObject({ endDate: blockMessages.endDateFuture });
    const noCode = await ask(requester, { pan: uniquePan(), companyCode: '1000', action: 'block', scope: 'parent', reasonId: '1', comments: 'Nucleus vendor' });
    expect(noCode.status).toBe(422);
    expect(noCode.body.message).toBe(blockMessages.noVendorCode);
    const notBlocked = await ask(requester, blockFields({ action: 'unblock' }));
    expect(notBlocked.status).toBe(422);
    expect(notBlocked.body.message).toBe(blockMessages.notBlocked);
    // Roles: who may ask.
    expect((await ask(operations, blockFields())).status).toBe(403);
    expect((await ask(auditor, blockFields())).status).toBe(403);
    // Another company code's staff do not see the BA.
    expect((await ask(otherCompany, blockFields())).status).toBe(404);
    const streams = (await h.store.readAll(before, 1000)).map((e) => e.streamId);
    expect(streams.filter((s) => s.startsWith('block-') || s.startsWith('vendor-block-'))).toEqual([]);
  });

  test('block with a PDF → a second person approves → "Successfully Blocked", blocked in the ERP and on the BA list → unblock', async () => {
    const countBefore = await blockedUsers();
    const asked = await ask(requester, blockFields());
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: 'pending', message: 'Block request sent successfully' });
    const id = asked.body.id as string;
    expect(asked.body.block).toMatchObject({ id, action: 'block', baId: ba.baId, vendorCode, scope: 'parent', companyCode: '1000', status: 'pending', fileName: 'notice.pdf', reason: 'Documents found to be forged' });

    // The attachment is stored and served back as it was sent.
    const file = await request(h.app).get(`/api/blocks/${id}/file`).set(auditor).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(file.body as Buffer, PDF)).toBe(0);

    // A second request for the same vendor code while this one is open: 409.
    const twice = await ask(approver, blockFields());
    expect(twice.status).toBe(409);
    // The requester cannot approve; a role outside the approvers neither; another company code does not see it.
    const self = await request(h.app).post(`/api/blocks/${id}/approve`).set(requester).send({});
    expect(self.status).toBe(403);
    expect((await request(h.app).post(`/api/blocks/${id}/approve`).set(operations).send({})).status).toBe(403);
    expect((await request(h.app).post(`/api/blocks/${id}/approve`).set(otherCompany).send({})).status).toBe(404);

    const listed = await request(h.app).get('/api/blocks').query({ filter: JSON.stringify({ status: 'pending' }) }).set(auditor);
    expect(listed.status).toBe(200);
    expect((listed.body as { id: string }[]).map((r) => r.id)).toContain(id);
    expect(listed.headers['content-range']).toMatch(/^blocks 0-\d+\/\d+$/);

    const approved = await request(h.app).post(`/api/blocks/${id}/approve`).set(approver).send({});
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe('Successfully Blocked');
    expect(approved.body.block).toMatchObject({ id, status: 'applied', decidedBy: { userId: expect.any(String), role: 'MLL Legal' } });
    expect(await erpVendor()).toMatchObject({ blocked: true });
    expect((await h.store.readStream(blockStreamId(id))).map((e) => e.type)).toEqual(['BlockRequested', 'BlockApproved', 'ErpRequestSubmitted', 'BlockApplied']);
    // Once decided, not again.
    expect((await request(h.app).post(`/api/blocks/${id}/approve`).set(approver).send({})).status).toBe(422);

    expect(await blockedList()).toContain(ba.baId);
    expect(await blockedList(otherCompany)).toEqual([]);
    expect(await blockedUsers()).toBe(countBefore + 1);
    const single = await request(h.app).get(`/api/business-associates/${ba.baId}`).set(approver);
    expect(single.body.blocked).toBe(true);

    // Unblock through the same approval: "Successfully Unblocked".
    const unblock = await ask(requester, blockFields({ action: 'unblock', reasonId: '9', comments: 'Resolved' }));
    expect(unblock.status).toBe(201);
    const reject = await request(h.app).post(`/api/blocks/${unblock.body.id}/reject`).set(approver).send({ remarks: '' });
    expect(reject.status).toBe(400);
    const done = await request(h.app).post(`/api/blocks/${unblock.body.id}/approve`).set(approver).send({});
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('Successfully Unblocked');
    expect(await erpVendor()).toMatchObject({ blocked: false });
    expect(await blockedList()).not.toContain(ba.baId);
    expect(await blockedUsers()).toBe(countBefore);

    // The BA's activity log carries the trail; the approver was told of the request, the BA's admin of the block.
    const log = await request(h.app)
      .get(`/api/business-associates/${ba.baId}/activity-log`)
      .query({ sort: JSON.stringify(['id', 'ASC']), range: JSON.stringify([0, 99]) })
      .set(auditor);
    expect(log.status).toBe(200);
    const blockLines = (log.body as { eventType?: string; status?: string }[]).filter((r) => String(r.eventType ?? '').startsWith('Block'));
    expect(blockLines.map((r) => [r.eventType, r.status])).toEqual([
      ['BlockRequested', 'submitted'],
      ['BlockApproved', 'approved'],
      ['BlockApplied', 'blocked'],
      ['BlockRequested', 'submitted'],
      ['BlockApproved', 'approved'],
      ['BlockApplied', 'unblocked'],
    ]);
    const told = await request(h.app).get('/api/notifications').set(approver);
    expect((told.body as { kind?: string }[]).map((n) => n.kind)).toContain('block.requested');
    const baAdmin = (await sessionOf(h, ba.admin)).auth;
    const baTold = await request(h.app).get('/api/notifications').set(baAdmin);
    expect((baTold.body as { kind?: string; title?: string }[]).map((n) => n.title)).toEqual(expect.arrayContaining(['Vendor account blocked', 'Vendor account unblocked']));
  });

  test('the requester may not decide even holding an approver role; a rejected request frees the vendor code and says why', async () => {
    const head = (await sessionOf(h, await addUser(h, { email: 'head@blocks.test', roles: ['MLL Accounts_HEAD'], companyCodes: ['1000'] }))).auth;
    const asked = await ask(head, blockFields({ endDate: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10) }));
    expect(asked.status).toBe(201);
    const self = await request(h.app).post(`/api/blocks/${asked.body.id}/approve`).set(head).send({});
    expect(self.status).toBe(422);
    expect(self.body.message).toBe(blockMessages.selfApproval);
    const rejected = await request(h.app).post(`/api/blocks/${asked.body.id}/reject`).set(approver).send({ remarks: 'Not enough evidence' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.block).toMatchObject({ status: 'rejected', remarks: 'Not enough evidence' });
    const single = await request(h.app).get(`/api/blocks/${asked.body.id}`).set(auditor);
    expect(single.body).toMatchObject({ status: 'rejected', endDate: asked.body.block.endDate });
    expect((await ask(requester, blockFields())).status).toBe(201);
  });
});
