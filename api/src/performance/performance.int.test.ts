import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { actors } from '../../../projections/src/test-support';
import { indianMonthOf } from '../../../projections/src/performance/periods';
import { waitForProjections } from '../../../projections/src/runner';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../users/testing';

/**
 * GET /api/performance/:baId and GET /api/home over HTTP with the real stores and projector: who may read
 * whose figures (a BA only its own, staff only BAs of their company codes), the 400 for a bad period, and the
 * shapes the portal reads.
 */
jest.setTimeout(120_000);

let h: ApiHarness;
let ba: TestBa;
let other: TestBa;
let baAuth: Record<string, string>;
let staff1000: Record<string, string>;
let staff2000: Record<string, string>;
let auditor: Record<string, string>;
let rejectedId: string;

async function append(streamId: string, type: string, data: Record<string, unknown>, at: string): Promise<number> {
  const r = await h.store.appendToStream(
    streamId,
    [
      {
        eventId: randomUUID(),
        type,
        data,
        metadata: { actor: actors.system, companyCode: '1000', correlationId: randomUUID(), causationId: null, workflowId: null, requestId: null, at },
      },
    ],
    { expectedVersion: 'any' },
  );
  return r.lastGlobalPosition;
}

const fields = (invoiceNumber: string) => ({
  invoiceNumber,
  invoiceDate: new Date().toISOString().slice(0, 10),
  taxableAmount: '1000.00',
  cgst: '90.00',
  sgst: '90.00',
  igst: '0',
  td: '0',
  hsnCode: '996511',
  comments: 'Freight',
  submitToUserId: 'u-commercial',
  billingFromCode: 'C1',
  billingToCode: 'CHK',
  submitToName: 'Chitra',
  companyCode: '1000',
  fromStateId: 27,
  billingToName: 'Chakan',
  toStateId: 27,
  financialYear: '2026-27',
});

beforeAll(async () => {
  h = await startApiHarness('performance');
  ba = await addBa(h, 'perf', { verified: true });
  other = await addBa(h, 'perf2', { companyCode: '2000' });
  baAuth = (await sessionOf(h, ba.admin)).auth;
  const user = async (email: string, roles: Parameters<typeof addUser>[1]['roles'], codes: string[]) =>
    (await sessionOf(h, await addUser(h, { email, roles, companyCodes: codes }))).auth;
  staff1000 = await user('commercial@perf.test', ['MLL Commercial'], ['1000']);
  staff2000 = await user('commercial2000@perf.test', ['MLL Commercial'], ['2000']);
  auditor = await user('auditor@perf.test', ['Auditor'], ['1000']);

  const now = new Date().toISOString();
  const by = actors.commercial;
  const id = randomUUID();
  await append(`rfp-PERF-${ba.baId}`, 'RfpFloated', { rfpCode: `PERF-${ba.baId}`, round: 1, baIds: [ba.baId], floatToAll: false }, now);
  await append(`invoice-${id}`, 'InvoiceDrafted', { invoiceId: id, baId: ba.baId, companyCode: '1000', fields: fields('INV-1'), createdBy: by }, now);
  await append(`invoice-${id}`, 'InvoiceSubmitted', {
    invoiceId: id,
    baId: ba.baId,
    companyCode: '1000',
    invoiceNumber: 'INV-1',
    financialYear: '2026-27',
    fields: fields('INV-1'),
    resubmission: false,
    by,
  }, now);
  const rejected = randomUUID();
  await append(`invoice-${rejected}`, 'InvoiceDrafted', { invoiceId: rejected, baId: ba.baId, companyCode: '1000', fields: fields('INV-3'), createdBy: by }, now);
  await append(`invoice-${rejected}`, 'InvoiceSubmitted', {
    invoiceId: rejected,
    baId: ba.baId,
    companyCode: '1000',
    invoiceNumber: 'INV-3',
    financialYear: '2026-27',
    fields: fields('INV-3'),
    resubmission: false,
    by,
  }, now);
  await append(`invoice-${rejected}`, 'InvoiceRejected', { invoiceId: rejected, baId: ba.baId, by, remarks: 'Wrong HSN', fromStatus: 'S' }, now);
  rejectedId = rejected;
  const draft = randomUUID();
  const last = await append(`invoice-${draft}`, 'InvoiceDrafted', { invoiceId: draft, baId: ba.baId, companyCode: '1000', fields: fields('INV-2'), createdBy: by }, now);
  await waitForProjections(h.db.pool, last, { timeoutMs: 15_000 });
});

afterAll(async () => {
  await h?.stop();
});

const thisMonth = () => indianMonthOf(new Date().toISOString());

describe('GET /api/performance/:baId', () => {
  it('answers the BA its own figures by month (12 buckets, oldest first) with totals and documents', async () => {
    const res = await request(h.app).get(`/api/performance/${ba.baId}`).set(baAuth);
    expect(res.status).toBe(200);
    expect(res.body.baId).toBe(ba.baId);
    expect(res.body.period).toBe('month');
    expect(res.body.buckets).toHaveLength(12);
    const current = res.body.buckets[11];
    expect(current.key).toBe(thisMonth());
    expect(current).toMatchObject({ rfpsInvited: 1, rfpsQuoted: 0, winRate: 0, invoicesSubmitted: 2, invoicesReleased: 0, avgDaysToRelease: null, rejectedShare: 50, blocks: 0 });
    expect(res.body.totals).toMatchObject({ rfpsInvited: 1, invoicesSubmitted: 2 });
    expect(Object.keys(res.body.documents).sort()).toEqual(['expired', 'expiring', 'valid']);
    // The verified BA's onboarding documents are current and valid.
    expect(res.body.documents.valid).toBeGreaterThan(0);
  });

  it('groups by quarter (8) and financial year (5), and refuses any other period with 400', async () => {
    const quarters = await request(h.app).get(`/api/performance/${ba.baId}`).query({ period: 'quarter' }).set(baAuth);
    expect(quarters.status).toBe(200);
    expect(quarters.body.buckets).toHaveLength(8);
    expect(quarters.body.buckets[7].key).toMatch(/^\d{4}-Q[1-4]$/);
    const years = await request(h.app).get(`/api/performance/${ba.baId}`).query({ period: 'year' }).set(baAuth);
    expect(years.body.buckets).toHaveLength(5);
    expect(years.body.buckets[4]).toMatchObject({ rfpsInvited: 1, invoicesSubmitted: 2, rejectedShare: 50 });
    const bad = await request(h.app).get(`/api/performance/${ba.baId}`).query({ period: 'week' }).set(baAuth);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('period must be month, quarter or year');
  });

  it('answers 404 to a BA asking for another BA, and to staff outside the BA company code', async () => {
    expect((await request(h.app).get(`/api/performance/${other.baId}`).set(baAuth)).status).toBe(404);
    expect((await request(h.app).get(`/api/performance/${ba.baId}`).set(staff2000)).status).toBe(404);
    expect((await request(h.app).get('/api/performance/no-such-ba').set(staff1000)).status).toBe(404);
    expect((await request(h.app).get(`/api/performance/${ba.baId}`)).status).toBe(401);
  });

  it('answers staff and the auditor of the BA company code', async () => {
    const staff = await request(h.app).get(`/api/performance/${ba.baId}`).query({ period: 'year' }).set(staff1000);
    expect(staff.status).toBe(200);
    expect(staff.body.totals.invoicesSubmitted).toBe(2);
    expect((await request(h.app).get(`/api/performance/${ba.baId}`).set(auditor)).status).toBe(200);
    expect((await request(h.app).get(`/api/performance/${other.baId}`).set(staff2000)).status).toBe(200);
  });
});

describe('GET /api/home', () => {
  it('answers the BA its company codes, open RFPs, invoices by status, documents, pending actions and notifications', async () => {
    const res = await request(h.app).get('/api/home').set(baAuth);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['companyCodes', 'expiringDocuments', 'invoicesByStatus', 'notifications', 'openRfps', 'pendingActions']);
    expect(res.body.invoicesByStatus).toEqual({ S: 1, C: 1, draft: 1 });
    expect(res.body.pendingActions).toContainEqual({ label: 'Invoice INV-3 was rejected: correct and submit it again', to: `/bill-hub/invoice/${rejectedId}` });
    expect(res.body.pendingActions).toContainEqual({ label: '1 draft invoice not yet submitted', to: '/bill-hub' });
    expect(Array.isArray(res.body.companyCodes)).toBe(true);
    for (const c of res.body.companyCodes) expect(Object.keys(c).sort()).toEqual(['blocked', 'companyCode', 'parentCode', 'status']);
    expect(Array.isArray(res.body.openRfps)).toBe(true);
    expect(res.body.notifications.length).toBeLessThanOrEqual(5);
  });

  it('is for BA users only', async () => {
    expect((await request(h.app).get('/api/home').set(staff1000)).status).toBe(403);
    expect((await request(h.app).get('/api/home')).status).toBe(401);
  });
});
