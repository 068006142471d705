import { Readable } from 'node:stream';
import request from 'supertest';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import { baStreamId } from '../../../domain/src/onboarding/events';
import type { StoredFile } from '../../../domain/src/shared/files';
import { bankAccount, baDocument, concession, gstRow, reviewBy } from '../../../projections/src/onboarding-items/test-events';
import { waitForProjections } from '../../../projections/src/runner';
import { actors } from '../../../projections/src/test-support';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../users/testing';

/**
 * The reads of the onboarding items over HTTP (api/src/onboarding/item-reads.ts), with the BA list's issue-8
 * filters and badges: item events are appended straight to the BAs' streams (the commands have their own
 * tests), the real projector turns them into rows.
 */
jest.setTimeout(180_000);

let h: ApiHarness;
let a: TestBa;
let b: TestBa;
let c: TestBa;
const auth: Record<string, Record<string, string>> = {};
let pdf: StoredFile;
const PDF_BYTES = Buffer.from('%PDF-1.4\n% item-reads test\n%%EOF\n');

let clock = Date.parse('2026-05-04T09:00:00.000Z');
async function append(baId: string, event: OnboardingEvent, actor = actors.ba(baId)): Promise<void> {
  clock += 60_000;
  const result = await h.store.appendToStream(
    baStreamId(baId),
    [
      {
        eventId: crypto.randomUUID(),
        type: event.type,
        data: event.data,
        metadata: {
          actor,
          companyCode: null,
          correlationId: 'item-reads-test',
          causationId: null,
          workflowId: null,
          requestId: null,
          at: new Date(clock).toISOString(),
        },
      },
    ],
    { expectedVersion: 'stream_exists' },
  );
  if (!(await waitForProjections(h.db.pool, result.lastGlobalPosition, { timeoutMs: 15_000 })))
    throw new Error('the read models did not catch up');
}

const get = (path: string, who: string, query: Record<string, string> = {}) =>
  request(h.app).get(path).query(query).set(auth[who] ?? {});

beforeAll(async () => {
  h = await startApiHarness('api-item-reads');
  a = await addBa(h, 'reads-a', { companyCode: '1000' });
  b = await addBa(h, 'reads-b', { companyCode: '1000' });
  c = await addBa(h, 'reads-c', { companyCode: '2000' });
  auth['a'] = (await sessionOf(h, a.admin)).auth;
  auth['b'] = (await sessionOf(h, b.admin)).auth;
  auth['staff1000'] = (await sessionOf(h, await addUser(h, { email: 'reviewer@reads.test', roles: ['MLL Procurement'], companyCodes: ['1000'] }))).auth;
  auth['staff2000'] = (await sessionOf(h, await addUser(h, { email: 'other@reads.test', roles: ['MLL Procurement'], companyCodes: ['2000'] }))).auth;

  const put = await h.blobStore.put(Readable.from([PDF_BYTES]), { maxBytes: 1_000_000 });
  pdf = { name: 'pan card.pdf', size: put.size, type: 'application/pdf', sha256: put.sha256 };

  for (const ba of [a, b]) {
    const baId = ba.baId;
    await append(baId, { type: 'BankAccountSaved', data: { baId, accountId: `${baId}-acc`, primary: true, account: bankAccount(), changes: {} } });
    await append(baId, { type: 'GstRegistrationSaved', data: { baId, gstId: `${baId}-gst`, registration: gstRow(), changes: {} } });
  }
  const baId = a.baId;
  await append(baId, {
    type: 'DocumentUploaded',
    data: { baId, docId: 'doc-pan', document: baDocument({ file: pdf }), replaces: null, uploadedBy: a.admin.id, role: 'BA Admin' },
  });
  await append(baId, {
    type: 'DocumentUploaded',
    data: {
      baId,
      docId: 'doc-extra',
      document: baDocument({ kind: 'additional', documentTypeId: 7, documentTypeName: 'Insurance', file: pdf }),
      replaces: null,
      uploadedBy: a.admin.id,
      role: 'BA Admin',
    },
  });
  await append(baId, { type: 'ConcessionSaved', data: { baId, concessionId: 'ldc-1', concession: concession({ file: pdf }), changes: {} } });
  await append(baId, {
    type: 'VerticalMappingSaved',
    data: { baId, mapping: { verticalIds: [2], subServiceIds: [], vehicleTypeIds: [], zoneIds: [], pickupZoneIds: [], deliveryZoneIds: [] }, changes: {} },
  });
  await append(
    baId,
    { type: 'DocumentReviewed', data: { baId, docId: 'doc-pan', decision: 'approved', approvedTill: '2027-01-31', ...reviewBy(actors.procurement, new Date(clock).toISOString()) } },
    actors.procurement,
  );
  await append(baId, { type: 'DocumentExpired', data: { baId, docId: 'doc-pan', documentTypeName: 'PAN Card', validTill: '2027-01-31' } }, actors.system);
  await append(baId, { type: 'CompanyCodeApplied', data: { baId, companyCode: '2000' } });
});

afterAll(async () => {
  await h?.stop();
});

describe('item reads', () => {
  it('gives a BA its own items and staff of its company code the same; others get 404', async () => {
    const path = `/api/business-associates/${a.baId}/bank-accounts`;
    const own = await get(path, 'a');
    expect(own.status).toBe(200);
    expect(own.headers['content-range']).toBe('bank-accounts 0-0/1');
    expect(own.body).toEqual([expect.objectContaining({ id: `${a.baId}-acc`, baId: a.baId, primary: true, reviewStatus: 'pending' })]);
    expect((await get(path, 'staff1000')).body).toEqual(own.body);
    expect((await get(path, 'b')).status).toBe(404);
    expect((await get(path, 'staff2000')).status).toBe(404);
    expect((await get(`/api/business-associates/${a.baId}/bank-accounts/${b.baId}-acc`, 'a')).status).toBe(404);
  });

  it('lists GST rows with state, city and GST type names', async () => {
    const res = await get(`/api/business-associates/${a.baId}/gst-registrations`, 'staff1000');
    expect(res.body).toEqual([
      expect.objectContaining({ stateName: 'Maharashtra', cityName: 'Mumbai', gstTypeLabel: 'GST Registered', gstNo: '27ABCDE1234F1Z5' }),
    ]);
  });

  it('lists documents by kind and downloads their files', async () => {
    const all = await get(`/api/business-associates/${a.baId}/documents`, 'a');
    expect(all.body.map((d: { id: string }) => d.id)).toEqual(['doc-pan', 'doc-extra']);
    const extra = await get(`/api/business-associates/${a.baId}/documents`, 'a', { filter: '{"kind":"additional"}' });
    expect(extra.body).toEqual([expect.objectContaining({ id: 'doc-extra', kind: 'additional', fileName: 'pan card.pdf' })]);
    expect((await get(`/api/business-associates/${a.baId}/documents`, 'a', { filter: '{"kind":"other"}' })).status).toBe(400);
    expect((await get(`/api/business-associates/${a.baId}/documents/doc-pan`, 'a')).body).toMatchObject({
      reviewStatus: 'approved',
      approvedTill: '2027-01-31',
      expired: true,
    });

    for (const who of ['a', 'staff1000']) {
      const file = await get(`/api/business-associates/${a.baId}/documents/doc-pan/file`, who).buffer(true);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(file.headers['content-disposition']).toMatch(/^inline;/);
      expect(Buffer.from(file.body as Buffer).equals(PDF_BYTES)).toBe(true);
    }
    expect((await get(`/api/business-associates/${a.baId}/documents/doc-pan/file`, 'a', { download: '1' })).headers['content-disposition']).toMatch(/^attachment;/);
    expect((await get(`/api/business-associates/${a.baId}/documents/doc-pan/file`, 'b')).status).toBe(404);
    expect((await get(`/api/business-associates/${a.baId}/documents/doc-pan/file`, 'staff2000')).status).toBe(404);
    expect((await get(`/api/business-associates/${a.baId}/documents/nope/file`, 'a')).status).toBe(404);
  });

  it('lists concessions, the vertical mapping and the company codes', async () => {
    expect((await get(`/api/business-associates/${a.baId}/concessions`, 'a')).body).toEqual([
      expect.objectContaining({ id: 'ldc-1', exemptionNumber: 'LDC-001', fileName: 'pan card.pdf', reviewStatus: 'pending' }),
    ]);
    expect((await get(`/api/business-associates/${a.baId}/concessions/ldc-1/file`, 'staff1000')).status).toBe(200);
    expect((await get(`/api/business-associates/${a.baId}/vertical-mapping`, 'a')).body).toMatchObject({ verticalIds: [2], reviewStatus: 'pending' });
    expect((await get(`/api/business-associates/${b.baId}/vertical-mapping`, 'b')).body).toMatchObject({ verticalIds: [], reviewStatus: null });
    const codes = await get(`/api/business-associates/${a.baId}/company-codes`, 'a');
    expect(codes.body.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([
      ['1000', 'pending'],
      ['2000', 'pending'],
    ]);
  });

  it('shows reviewers the other BAs sharing an identifier; BAs may not ask', async () => {
    const res = await get(`/api/business-associates/${a.baId}/duplicates`, 'staff1000');
    expect(res.status).toBe(200);
    const matches = res.body as { field: string; otherBaId: string; source: string }[];
    expect(matches.filter((m) => m.otherBaId === b.baId).map((m) => m.field).sort()).toEqual(['bankAccount', 'gstNo']);
    expect(matches.some((m) => m.otherBaId === a.baId)).toBe(false);
    expect((await get(`/api/business-associates/${a.baId}/duplicates`, 'a')).status).toBe(403);
    expect((await get(`/api/business-associates/${a.baId}/duplicates`, 'staff2000')).status).toBe(404);
  });

  it('queues additional documents for staff of the BA’s company code only', async () => {
    const mine = await get('/api/additional-documents', 'staff1000', { filter: '{"reviewStatus":"pending"}' });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([expect.objectContaining({ id: 'doc-extra', baId: a.baId, companyCode: '1000' })]);
    expect((await get('/api/additional-documents', 'staff2000')).body).toEqual([]);
    expect((await get('/api/additional-documents', 'a')).status).toBe(403);
  });
});

describe('the BA list and badges (issue 8)', () => {
  const list = (who: string, filter: object) =>
    get('/api/business-associates', who, { filter: JSON.stringify(filter), range: '[0,99]' });
  const ids = (res: request.Response) => (res.body as { id: string }[]).map((r) => r.id).sort();

  it('filters by expired documents, vertical, location and mobile number, with the new row fields', async () => {
    const expired = await list('staff1000', { status: 'documents_expired' });
    expect(ids(expired)).toEqual([a.baId]);
    expect(expired.body[0]).toMatchObject({ documentsExpired: true, paymentsOnHold: false });
    expect(ids(await list('staff1000', { verticalId: 2 }))).toEqual([a.baId]);
    expect(ids(await list('staff1000', { verticalId: 99 }))).toEqual([]);
    const row = (await get(`/api/business-associates/${b.baId}`, 'staff1000')).body as { mobileNo: string; email: string };
    expect(row.email).toContain('@');
    expect(ids(await list('staff1000', { mobileNo: row.mobileNo }))).toEqual([b.baId]);
    expect((await list('staff1000', { mobileNo: '98x' })).status).toBe(400);
    // Locations: a location in Maharashtra (27) finds the BAs with a GST row there.
    const { rows } = await h.db.pool.query<{ id: string }>(
      `SELECT id FROM master_items WHERE master = 'locations' AND values->>'stateId' = '27' LIMIT 1`,
    );
    if (rows[0]) expect(ids(await list('staff1000', { locationId: Number(rows[0].id) }))).toEqual(expect.arrayContaining([a.baId, b.baId]));
    expect(ids(await list('staff1000', { locationId: 999999 }))).toEqual([]);
  });

  it('counts expired documents and pending additional documents in the badges', async () => {
    const res = await get('/api/ba-counts', 'staff1000');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ documentsExpired: 1, additionalDocumentsPending: 1 });
    expect(res.body.pending).toBe(res.body.pendingOnboarding);
    expect((await get('/api/ba-counts', 'staff2000')).body).toMatchObject({ documentsExpired: 0, additionalDocumentsPending: 0 });
  });
});

describe('the activity log (issue 8)', () => {
  const log = (who: string, query: Record<string, string>) =>
    get(`/api/business-associates/${a.baId}/activity-log`, who, { range: '[0,99]', ...query });

  it('describes item events and filters by activity, description, status and time', async () => {
    const all = await log('staff1000', { sort: '["id","DESC"]' });
    expect(all.status).toBe(200);
    const actions = (all.body as { action: string }[]).map((r) => r.action);
    expect(actions[0]).toBe('Applied for company code 2000');
    expect(actions).toEqual(
      expect.arrayContaining(['Primary bank account added (…9012)', 'Document PAN Card approved till 2027-01-31', 'Concession LDC-001 added']),
    );
    const reviewed = await log('staff1000', { filter: '{"action":"DocumentReviewed"}' });
    expect((reviewed.body as { action: string }[]).map((r) => r.action)).toEqual(['Document PAN Card approved till 2027-01-31']);
    expect(((await log('staff1000', { filter: '{"q":"pan card"}' })).body as unknown[]).length).toBe(3);
    expect(((await log('staff1000', { filter: '{"status":"expired"}' })).body as { eventType: string }[]).map((r) => r.eventType)).toEqual([
      'DocumentExpired',
    ]);
    // The last two item events (the test's clock is its own, so `to` leaves out the set-up's real-time entries).
    const window = { from: new Date(clock - 90_000).toISOString(), to: new Date(clock).toISOString() };
    const late = await log('staff1000', { filter: JSON.stringify(window) });
    expect((late.body as { eventType: string }[]).map((r) => r.eventType)).toEqual(['DocumentExpired', 'CompanyCodeApplied']);
    // Pages of two, newest first, add up to the whole log: nothing dropped, nothing twice.
    const total = Number(String(all.headers['content-range']).split('/')[1]);
    const paged: number[] = [];
    for (let offset = 0; offset < total; offset += 2) {
      const page = await log('staff1000', { sort: '["id","DESC"]', range: `[${offset},${offset + 1}]` });
      paged.push(...(page.body as { id: number }[]).map((r) => r.id));
    }
    expect(paged).toEqual((all.body as { id: number }[]).map((r) => r.id));
  });
});
