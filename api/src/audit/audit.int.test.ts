import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { Pool } from 'pg';
import request from 'supertest';
import { baStreamId } from '../../../domain/src/onboarding';
import { waitForProjections } from '../../../projections/src/runner';
import type { ActivityEntry, AuditActivityEntry, BaAsOf, BaAuditExport } from '../contract';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { approveAllItemsViaApi, completeOnboardingViaApi } from '../testing/onboarding';
import { addBa, addUser, details, sessionOf, type TestBa } from '../users/testing';
import { ORGANISATION } from './ba-activity-view';

/**
 * The auditors' own checks (issue 6) against the real stack: the search across BAs, a BA as of an instant,
 * the export of a BA's log and events, the BA's own reduced view of its log, and getMany in one query.
 */
jest.setTimeout(180_000);

let h: ApiHarness;
type Headers = { Authorization: string };
const as: Record<string, Headers> = {};
let a: TestBa; // company 1000, driven through the API: submitted, approved at stage 1, rejected at stage 2
let c: TestBa; // company 1000, verified by the set-up actors
let e: TestBa; // company 1000, verified
let f: TestBa; // company 2000, verified
const ids: Record<string, string> = {};
const times: Record<string, Date> = {};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const APPROVAL_REMARKS = 'Internal: PAN checked against the NSDL record';
const REJECTION_REMARKS = 'Please upload a clearer copy of the PAN card';
// The verified BAs of 1000 hold the default test PAN: one PAN per company code (issue 8 duplicates).
const A_PAN = 'AAHCA4821K';
const FORMULA_NAME = '=HYPERLINK("http://evil.test","open me")';

beforeAll(async () => {
  h = await startApiHarness('api-audit');
  [a, c, e, f] = await Promise.all([
    addBa(h, 'a'),
    addBa(h, 'c', { verified: true }),
    addBa(h, 'e', { verified: true }),
    addBa(h, 'f', { verified: true, companyCode: '2000' }),
  ]);
  const b = await addBa(h, 'b', { companyCode: '2000' });
  const staff = async (key: string, role: Parameters<typeof addUser>[1]['roles'], name: string, codes = ['1000']) => {
    const user = await addUser(h, { email: `${key}@audit.test`, name, roles: role, companyCodes: codes });
    ids[key] = user.id;
    as[key] = (await sessionOf(h, user)).auth;
  };
  await staff('auditor', ['Auditor'], 'Asha Auditor');
  await staff('auditor2000', ['Auditor'], 'Bela Auditor', ['2000']);
  await staff('admin', ['MLL-ADMIN'], 'Arun Admin');
  await staff('procurement', ['MLL Procurement'], 'Priya Procurement');
  await staff('commercial', ['MLL Commercial'], 'Kiran Commercial');
  as['baA'] = (await sessionOf(h, a.admin)).auth;
  as['baB'] = (await sessionOf(h, b.admin)).auth;

  // BA "a" through the API, with known instants between the steps.
  times['beforeCreate'] = new Date(Date.now() - 60 * 60 * 1000);
  const path = `/api/business-associates/${a.baId}`;
  expect((await request(h.app).post(`${path}/details`).set(as['baA']!).send(details({ panNumber: A_PAN }))).status).toBe(200);
  // Issue 8: every tab before the submission, every item approved before stage 1.
  await completeOnboardingViaApi(h, a.baId, as['baA']!);
  expect((await request(h.app).post(`${path}/submit`).set(as['baA']!)).status).toBe(200);
  await pause(30);
  times['afterSubmit'] = new Date();
  await pause(30);
  await approveAllItemsViaApi(h, a.baId, as['procurement']!);
  const approve = await request(h.app).post(`${path}/approve`).set(as['procurement']!).send({ stage: 1, remarks: APPROVAL_REMARKS });
  expect(approve.status).toBe(200);
  const reject = await request(h.app).post(`${path}/reject`).set(as['commercial']!).send({ stage: 2, remarks: REJECTION_REMARKS });
  expect(reject.status).toBe(200);
  // An internal SLA mark, and a value recorded before today's input rules that a spreadsheet would run.
  const { lastGlobalPosition } = await h.store.appendToStream(
    baStreamId(a.baId),
    [
      {
        eventId: randomUUID(),
        type: 'ReviewOverdue',
        data: { baId: a.baId, submission: 1, stage: 2, dueAt: new Date().toISOString() },
        metadata: {
          actor: { userId: '\tsla-timer', role: 'system', name: FORMULA_NAME },
          companyCode: '1000',
          correlationId: 'audit-test',
          causationId: null,
          workflowId: null,
          requestId: null,
          at: new Date().toISOString(),
        },
      },
    ],
    { expectedVersion: 'any' },
  );
  await waitForProjections(h.db.pool, lastGlobalPosition, { timeoutMs: 10_000 });
});

afterAll(async () => {
  await h?.stop();
});

/*
 * Issue 8: a BA's stream holds its onboarding items (bank account, GST row, documents, mapping) and their
 * reviews between the lifecycle's steps. The checks below name the lifecycle steps and count the rest from the
 * store, so an entry dropped or added anywhere still fails them.
 */
const LIFECYCLE = ['BusinessAssociateCreated', 'CompanyDetailsSaved', 'OnboardingSubmitted', 'ReviewStageApproved', 'OnboardingRejected', 'ReviewOverdue'];
const ITEM_SAVES = ['BankAccountSaved', 'GstRegistrationSaved', 'DocumentUploaded', 'VerticalMappingSaved'];
const ITEM_REVIEWS = ['BankAccountReviewed', 'DocumentReviewed', 'VerticalMappingReviewed'];
const lifecycleOf = <T extends { eventType: string }>(rows: T[]): T[] => rows.filter((r) => LIFECYCLE.includes(r.eventType));
const streamOfA = () => h.store.readStream(baStreamId(a.baId));

const search = (who: string, filter: object, extra: Record<string, string> = {}) =>
  request(h.app)
    .get('/api/audit/activity')
    .query({ filter: JSON.stringify(filter), range: '[0,99]', ...extra })
    .set(as[who] ?? {});

describe('GET /api/audit/activity: search across BAs', () => {
  it('finds an actor’s entries across the BAs of the caller’s company codes, newest first, with the BA’s name', async () => {
    // The set-up actor "test-procurement" approved stage 1 of c, e (company 1000) and f (company 2000).
    const res = await search('auditor', { actor: 'test-procurement' });
    expect(res.status).toBe(200);
    const rows = res.body as AuditActivityEntry[];
    // Stage 1 of each, and the item reviews before it (issue 8: every item approved first).
    expect(rows.filter((r) => r.action === 'Stage 1 approved').map((r) => r.baId).sort()).toEqual([c.baId, e.baId].sort());
    expect([...new Set(rows.map((r) => r.baId))].sort()).toEqual([c.baId, e.baId].sort());
    expect(rows.every((r) => (r.action === 'Stage 1 approved' || ITEM_REVIEWS.includes(r.eventType)) && r.companyName === 'Test Roadways Private Limited')).toBe(true);
    expect(res.headers['content-range']).toBe(`audit-activity 0-${rows.length - 1}/${rows.length}`);
    const times = rows.map((r) => r.at);
    expect(times).toEqual([...times].sort().reverse());
    // Company code 2000's auditor sees f's entries only.
    const other = (await search('auditor2000', { actor: 'test-procurement' })).body as AuditActivityEntry[];
    expect(other.filter((r) => r.action === 'Stage 1 approved').map((r) => r.baId)).toEqual([f.baId]);
    expect(new Set(other.map((r) => r.baId))).toEqual(new Set([f.baId]));
  });

  it('matches an actor by name (contains, any case) and an action by its words', async () => {
    const byName = (await search('admin', { actor: 'priya' })).body as AuditActivityEntry[];
    // Priya approved a's items, then its stage 1 (newest first).
    expect(byName.map((r) => [r.baId, r.action])[0]).toEqual([a.baId, 'Stage 1 approved']);
    expect(byName[0]?.remarks).toBe(APPROVAL_REMARKS);
    expect(byName.slice(1).every((r) => r.baId === a.baId && ITEM_REVIEWS.includes(r.eventType))).toBe(true);
    expect(byName).toHaveLength((await streamOfA()).filter((x) => ITEM_REVIEWS.includes(x.type)).length + 1);
    const rejections = (await search('auditor', { action: 'rejected' })).body as AuditActivityEntry[];
    expect(rejections.map((r) => [r.baId, r.actorName])).toEqual([[a.baId, 'Kiran Commercial']]);
  });

  it('narrows by time and by BA, paging with Content-Range', async () => {
    const stored = await streamOfA();
    const before = (await search('auditor', { baId: a.baId, to: times['afterSubmit']!.toISOString() })).body as AuditActivityEntry[];
    expect(lifecycleOf(before).map((r) => r.action).sort()).toEqual(['Company details saved', 'Registered', 'Submitted for verification'].sort());
    const savedItems = stored.filter((x) => ITEM_SAVES.includes(x.type)).length;
    expect(before.filter((r) => ITEM_SAVES.includes(r.eventType))).toHaveLength(savedItems);
    expect(before).toHaveLength(3 + savedItems);
    const after = (await search('auditor', { baId: a.baId, from: times['afterSubmit']!.toISOString() })).body as AuditActivityEntry[];
    expect(lifecycleOf(after).map((r) => r.eventType)).toEqual(['ReviewOverdue', 'OnboardingRejected', 'ReviewStageApproved']);
    expect(after).toHaveLength(3 + stored.filter((x) => ITEM_REVIEWS.includes(x.type)).length);
    expect(before.length + after.length).toBe(stored.length);
    const page = await search('auditor', { baId: a.baId }, { range: '[1,2]', sort: '["id","ASC"]' });
    expect(page.headers['content-range']).toBe(`audit-activity 1-2/${stored.length}`);
    expect((page.body as AuditActivityEntry[]).map((r) => r.eventType)).toEqual(['CompanyDetailsSaved', stored[2]!.type]);
  });

  it('refuses bad filters (400), BAs and other staff (403) and anonymous callers (401)', async () => {
    expect((await search('auditor', { from: 'yesterday' })).status).toBe(400);
    expect((await search('auditor', { actor: 'x', password: 'y' })).status).toBe(400);
    const from = new Date().toISOString();
    expect((await search('auditor', { from, to: times['afterSubmit']!.toISOString() })).status).toBe(400);
    expect((await search('baA', {})).status).toBe(403);
    expect((await search('procurement', {})).status).toBe(403);
    expect((await request(h.app).get('/api/audit/activity')).status).toBe(401);
  });
});

describe('GET /api/business-associates/:id/as-of', () => {
  const asOf = (who: string, baId: string, at?: string) =>
    request(h.app)
      .get(`/api/business-associates/${baId}/as-of`)
      .query(at === undefined ? {} : { at })
      .set(as[who] ?? {});

  it('rebuilds the BA from its events up to the instant, naming the last event included', async () => {
    const res = await asOf('auditor', a.baId, times['afterSubmit']!.toISOString());
    expect(res.status).toBe(200);
    const state = res.body as BaAsOf;
    expect(state).toMatchObject({
      id: a.baId,
      existed: true,
      status: 'inprogress',
      stage: 1,
      submission: 1,
      companyCode: '1000',
      companyName: 'Test Roadways Private Limited',
      cityName: 'Mumbai',
      remarks: null,
    });
    expect(state.details).toMatchObject({ panNumber: A_PAN, addressLine1: '1 Test Road' });
    const stored = await streamOfA();
    const version = stored.findIndex((x) => x.type === 'OnboardingSubmitted');
    // Every event up to the submission: the lifecycle's and the tabs' items.
    expect(state.eventCount).toBe(version + 1);
    const submitted = stored[version]!;
    expect(state.lastEvent).toEqual({
      globalPosition: submitted.globalPosition,
      version,
      type: 'OnboardingSubmitted',
      recordedAt: submitted.recordedAt,
      at: submitted.metadata.at,
    });
  });

  it('shows the BA as it is now for a later instant, and as not yet registered before its first event', async () => {
    const now = (await asOf('admin', a.baId, new Date(Date.now() + 60_000).toISOString())).body as BaAsOf;
    expect(now).toMatchObject({ status: 'rejected', stage: null, remarks: REJECTION_REMARKS, overdueStages: [2], eventCount: (await streamOfA()).length });
    const early = (await asOf('auditor', a.baId, times['beforeCreate']!.toISOString().replace('Z', '+00:00'))).body as BaAsOf;
    expect(early).toMatchObject({ existed: false, status: 'none', eventCount: 0, lastEvent: null, details: null });
  });

  it('refuses a missing or zone-less instant (400), other company codes (404), BAs and staff (403), anonymous (401)', async () => {
    expect((await asOf('auditor', a.baId)).status).toBe(400);
    expect((await asOf('auditor', a.baId, '2025-11-03T10:30:00')).status).toBe(400);
    const at = new Date().toISOString();
    expect((await asOf('auditor2000', a.baId, at)).status).toBe(404);
    expect((await asOf('auditor', 'no-such-ba', at)).status).toBe(404);
    expect((await asOf('baA', a.baId, at)).status).toBe(403);
    expect((await asOf('procurement', a.baId, at)).status).toBe(403);
    expect((await request(h.app).get(`/api/business-associates/${a.baId}/as-of`).query({ at })).status).toBe(401);
  });
});

/** supertest buffers a binary answer only when told how. */
const binary = (res: NodeJS.ReadableStream, done: (err: Error | null, body: unknown) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
  res.on('error', (err: Error) => done(err, null));
};

describe('GET /api/business-associates/:id/audit-export', () => {
  const exportOf = (who: string, baId: string, format?: string) =>
    request(h.app)
      .get(`/api/business-associates/${baId}/audit-export`)
      .query(format ? { format } : {})
      .set(as[who] ?? {});

  it('streams an .xlsx with the activity log and the events, every formula-like text kept as text', async () => {
    const res = await exportOf('auditor', a.baId, 'xlsx').buffer(true).parse(binary as unknown as Parameters<request.Test['parse']>[0]);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="BA-${a.baId}-audit-\\d{4}-\\d{2}-\\d{2}\\.xlsx"$`));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Activity log', 'Events']);
    const log = workbook.getWorksheet('Activity log')!;
    const events = workbook.getWorksheet('Events')!;
    const stored = await h.store.readStream(baStreamId(a.baId));
    const n = stored.length;
    expect(log.rowCount).toBe(1 + n);
    expect(events.rowCount).toBe(1 + n);
    expect(log.getRow(1).values).toEqual(expect.arrayContaining(['Position', 'Actor', 'Action', 'Remarks']));

    // The overdue mark (the last event) has an actor name starting with "=", a user id with a tab: stored as
    // text behind an apostrophe.
    expect(stored[n - 1]!.type).toBe('ReviewOverdue');
    const overdue = log.getRow(1 + n);
    const texts = (overdue.values as unknown[]).filter((v) => typeof v === 'string') as string[];
    expect(texts).toEqual(expect.arrayContaining([`'${FORMULA_NAME}`, "'\tsla-timer", 'Review overdue at stage 2']));
    overdue.eachCell((cell) => {
      expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
      expect(cell.formula).toBeUndefined();
    });
    const lastEvent = events.getRow(1 + n);
    expect(lastEvent.getCell(4).value).toBe('ReviewOverdue');
    expect(lastEvent.getCell(6).value).toBe(`'${FORMULA_NAME}`);
    lastEvent.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula));
    // Hashes and positions as the store holds them.
    expect(events.getRow(2).getCell(1).value).toBe(stored[0]!.globalPosition);
    expect(events.getRow(1 + n).getCell(11).value).toBe(stored[n - 1]!.hash);
    const approval = stored.findIndex((x) => x.type === 'ReviewStageApproved');
    expect(log.getRow(2 + approval).getCell(9).value).toBe(APPROVAL_REMARKS);
  });

  it('answers JSON with both lists, unaltered', async () => {
    const res = await exportOf('admin', a.baId, 'json');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="BA-.+-audit-\d{4}-\d{2}-\d{2}\.json"/);
    const body = res.body as BaAuditExport;
    expect(body.baId).toBe(a.baId);
    expect(lifecycleOf(body.activityLog).map((r) => r.eventType)).toEqual(LIFECYCLE);
    const stored = await h.store.readStream(baStreamId(a.baId));
    expect(body.activityLog.map((r) => r.eventType)).toEqual(stored.map((x) => x.type));
    expect(body.events.map((x) => [x.globalPosition, x.hash, x.prevHash])).toEqual(stored.map((x) => [x.globalPosition, x.hash, x.prevHash]));
    expect(body.events[stored.length - 1]?.metadata.actor.name).toBe(FORMULA_NAME);
  });

  it('refuses other company codes (404), BAs and staff (403), anonymous (401) and unknown formats (400)', async () => {
    expect((await exportOf('auditor2000', a.baId, 'json')).status).toBe(404);
    expect((await exportOf('baA', a.baId, 'json')).status).toBe(403);
    expect((await exportOf('procurement', a.baId, 'json')).status).toBe(403);
    expect((await request(h.app).get(`/api/business-associates/${a.baId}/audit-export`)).status).toBe(401);
    expect((await exportOf('auditor', a.baId, 'csv')).status).toBe(400);
  });
});

describe('GET /api/business-associates/:id/activity-log: the BA’s view and the staff’s', () => {
  const logOf = async (who: string) => {
    const res = await request(h.app).get(`/api/business-associates/${a.baId}/activity-log`).query({ range: '[0,99]' }).set(as[who]!);
    expect(res.status).toBe(200);
    return { rows: res.body as ActivityEntry[], range: String(res.headers['content-range']) };
  };

  it('staff and auditors see every entry with actors, remarks and the internal marks', async () => {
    const { rows, range } = await logOf('auditor');
    const n = (await streamOfA()).length;
    expect(range).toBe(`activity-log 0-${n - 1}/${n}`);
    const approval = rows.find((r) => r.eventType === 'ReviewStageApproved');
    expect(approval).toMatchObject({ actorName: 'Priya Procurement', actorUserId: ids['procurement'], role: 'MLL Procurement', remarks: APPROVAL_REMARKS });
    expect(rows.map((r) => r.eventType)).toContain('ReviewOverdue');
    expect((await logOf('procurement')).rows).toEqual(rows);
  });

  it('a BA sees its own actions whole, staff as the organisation, rejection remarks only, no internal marks', async () => {
    const { rows, range } = await logOf('baA');
    // Everything but the internal overdue mark: the lifecycle, the BA's items and their reviews.
    const n = (await streamOfA()).length - 1;
    expect(range).toBe(`activity-log 0-${n - 1}/${n}`);
    expect(lifecycleOf(rows).map((r) => r.eventType)).toEqual([
      'BusinessAssociateCreated',
      'CompanyDetailsSaved',
      'OnboardingSubmitted',
      'ReviewStageApproved',
      'OnboardingRejected',
    ]);
    const reviews = rows.filter((r) => ITEM_REVIEWS.includes(r.eventType));
    expect(reviews.length).toBeGreaterThan(0);
    for (const review of reviews) expect(review).toMatchObject({ actorUserId: '', actorName: ORGANISATION });
    const [created, saved, submitted, approved, rejected] = lifecycleOf(rows);
    expect(saved).toMatchObject({ actorUserId: a.admin.id, actorName: a.admin.name, role: 'BA Admin' });
    expect(saved?.changes).toHaveProperty('panNumber');
    expect(submitted).toMatchObject({ actorUserId: a.admin.id, role: 'BA Admin' });
    expect(created).toMatchObject({ actorUserId: '', actorName: 'System', role: 'System' });
    expect(approved).toMatchObject({ actorUserId: '', actorName: ORGANISATION, role: 'MLL stage 1 review', remarks: null, action: 'Stage 1 approved' });
    expect(rejected).toMatchObject({ actorUserId: '', actorName: ORGANISATION, role: 'MLL stage 2 review', remarks: REJECTION_REMARKS });
    // No staff identity anywhere in the answer.
    const text = JSON.stringify(rows);
    for (const hidden of ['Priya', 'Kiran', ids['procurement']!, ids['commercial']!, APPROVAL_REMARKS, 'sla-timer', 'Test set-up'])
      expect(text).not.toContain(hidden);
  });

  it('a BA cannot sort by the hidden columns (400)', async () => {
    const res = await request(h.app)
      .get(`/api/business-associates/${a.baId}/activity-log`)
      .query({ sort: '["actorName","ASC"]' })
      .set(as['baA']!);
    expect(res.status).toBe(400);
  });
});

describe('GET /api/business-associates?filter={"id":[…]} (react-admin getMany)', () => {
  const getMany = (who: string, list: string[]) =>
    request(h.app).get('/api/business-associates').query({ filter: JSON.stringify({ id: list }) }).set(as[who]!);

  it('answers the visible rows of several ids in one query of the BA table', async () => {
    // Every pool of the test database (the app connects as the least-privileged role's pool).
    const pools = [...new Set(Object.values(h.db).filter((v): v is Pool => v instanceof Pool))];
    const spies = pools.map((pool) => jest.spyOn(pool, 'query'));
    try {
      const res = await getMany('procurement', [a.baId, c.baId, f.baId, 'no-such-ba', e.baId]);
      expect(res.status).toBe(200);
      expect((res.body as { id: string }[]).map((r) => r.id).sort()).toEqual([a.baId, c.baId, e.baId].sort());
      expect(res.headers['content-range']).toBe('business-associates 0-2/3');
      const sqlOf = (arg: unknown) => (typeof arg === 'string' ? arg : String((arg as { text?: string }).text));
      const baQueries = spies.flatMap((spy) => spy.mock.calls).filter(([sql]) => /FROM business_associates/.test(sqlOf(sql)));
      expect(baQueries).toHaveLength(1);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('gives a BA its own row only, and staff of another code none of 1000’s', async () => {
    expect(((await getMany('baA', [a.baId, c.baId])).body as { id: string }[]).map((r) => r.id)).toEqual([a.baId]);
    expect(((await getMany('auditor2000', [a.baId, c.baId, f.baId])).body as { id: string }[]).map((r) => r.id)).toEqual([f.baId]);
  });
});
