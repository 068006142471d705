import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { baStreamId, refusals, WELCOME_MESSAGE } from '../../../domain/src/onboarding';
import { messages } from '../../../domain/src/validation/fields';
import { waitForProjections } from '../../../projections/src/runner';
import { createOnboardingDriver } from '../../../projections/src/test-support';
import { DEMO_BAS, seedDemo } from '../../../scripts/seed';
import { changeMasters, deactivate } from '../../../tests/support/masters';
import { MAX_PAGE_SIZE } from '../http/simple-rest';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, details, sessionOf } from '../users/testing';
import { submissionRefusals } from '../../../domain/src/onboarding/submission';
import { approveEveryItem, fillEveryTab, type FilledTabs } from '../../../workflows/src/onboarding/scenarios';

/** A PAN no other BA of this test has: the same PAN twice under one company code is refused (409). */
let pans = 0;
const uniquePan = (): string => `AAHCT${String((pans += 1)).padStart(4, '0')}K`;
/** Issue 8: every tab of a BA (through its workflow, as its admin), so a submission is complete. */
const fillTabs = (baId: string, admin: { id: string; name: string }, pan: string): Promise<FilledTabs> =>
  fillEveryTab(h.temporal, baId, { userId: admin.id, role: 'BA Admin', name: admin.name }, { gst: { gstNo: `27${pan}1Z5` } });
const approveItems = (baId: string, tabs: FilledTabs) =>
  approveEveryItem(h.temporal, baId, tabs, { userId: 'items-reviewer', role: 'MLL Procurement', name: 'Items reviewer' });

/**
 * Onboarding over HTTP against the real stack (PostgreSQL, Temporal dev server, worker, projector), on the
 * demo data the seed creates through the workflows.
 *
 * Every test passes alone and in any order: tests only read the seeded BAs of company code 1000 (so their
 * figures follow from DEMO_BAS), and a test that changes a BA brings one of its own in company code 2000.
 */
// Workflow round trips on a 2-core machine: generous bounds, set here as well as in jest.config.ts.
jest.setTimeout(120_000);

let h: ApiHarness;
const tokens: Record<string, string> = {};
const ba = (key: string) => {
  const found = DEMO_BAS.find((b) => b.key === key);
  if (!found) throw new Error(key);
  return found;
};
const as = (user: string) => ({ Authorization: `Bearer ${tokens[user] ?? ''}` });
const stream = async (baId: string) => {
  const events = await h.store.readStream(baStreamId(baId));
  return { length: events.length, last: events[events.length - 1]?.hash ?? null };
};
/** Seeded BAs of company code 1000 by target (no test changes them). */
const seeded1000 = (status: string, stage?: 1 | 2) =>
  DEMO_BAS.filter(
    (b) =>
      b.companyCode === '1000' &&
      b.target.status === status &&
      (stage === undefined || ('stage' in b.target && b.target.stage === stage)),
  );

/**
 * A BA of the test's own in company code 2000, through its real workflow and the API: 'pending' (registered),
 * 'stage1' (submitted) or 'stage2' (stage 1 approved by procurement.2000). Returns its id and its admin's auth.
 */
async function ownBa(key: string, at: 'pending' | 'stage1' | 'stage2' = 'pending') {
  const created = await addBa(h, key, { companyCode: '2000' });
  const admin = (await sessionOf(h, created.admin)).auth;
  const baId = created.baId;
  const post = (path: string, auth: Record<string, string>, body: object = {}) =>
    request(h.app).post(`/api/business-associates/${baId}/${path}`).set(auth).send(body);
  const pan = uniquePan();
  if (at !== 'pending') {
    expect((await post('details', admin, details({ companyName: `${key} Logistics Private Limited`, panNumber: pan }))).status).toBe(200);
    const tabs = await fillTabs(baId, created.admin, pan);
    expect((await post('submit', admin)).status).toBe(200);
    await approveItems(baId, tabs);
  }
  if (at === 'stage2') expect((await post('approve', as('procurement.2000'), { stage: 1 })).status).toBe(200);
  return { baId, admin, pan, user: created.admin };
}

beforeAll(async () => {
  h = await startApiHarness('api-onboarding');
  await seedDemo({ pool: h.db.pool, store: h.store, temporal: h.temporal, taskQueue: h.taskQueue, blobStore: h.blobStore });
  for (const user of ['ba.admin', 'ba.8', 'procurement', 'commercial', 'admin', 'auditor', 'procurement.2000', 'commercial.2000'])
    tokens[user] = await h.login(`${user}@demo.test`);
});

afterAll(async () => {
  await h?.stop();
});

describe('the demo seed', () => {
  it('is idempotent: a second run appends nothing', async () => {
    const head = await h.store.headPosition();
    const again = await seedDemo({ pool: h.db.pool, store: h.store, temporal: h.temporal, taskQueue: h.taskQueue, blobStore: h.blobStore });
    expect(again).toMatchObject({ outcome: 'already-seeded', usersCreated: 0, basCreated: 0, actions: 0 });
    expect(await h.store.headPosition()).toBe(head);
  });

  it('leaves ba.admin’s BA pending with a partial draft', async () => {
    const res = await request(h.app).get(`/api/business-associates/${ba('sahyadri').baId}`).set(as('ba.admin'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending', companyCode: '1000', companyName: 'Sahyadri Roadways Private Limited' });
    expect(res.body.details.addressLine1).toBeNull();
  });
});

describe('GET /api/business-associates', () => {
  it('lists only the caller’s company codes, with Content-Range exposed for react-admin', async () => {
    const res = await request(h.app)
      .get('/api/business-associates')
      .query({ sort: '["companyName","ASC"]', range: '[0,2]', filter: '{}' })
      .set(as('procurement'));
    expect(res.status).toBe(200);
    const total = DEMO_BAS.filter((b) => b.companyCode === '1000').length;
    expect(res.headers['content-range']).toBe(`business-associates 0-2/${total}`);
    expect(res.headers['access-control-expose-headers']).toMatch(/Content-Range/);
    expect(res.body).toHaveLength(3);
    expect(res.body.every((r: { companyCode: string }) => r.companyCode === '1000')).toBe(true);
    const names = res.body.map((r: { companyName: string }) => r.companyName);
    expect(names).toEqual([...names].sort());
  });

  it('filters by status, stage, name, PAN and city', async () => {
    const list = async (filter: object) =>
      (await request(h.app).get('/api/business-associates').query({ filter: JSON.stringify(filter), range: '[0,99]' }).set(as('admin')))
        .body as { id: string }[];
    expect((await list({ status: 'inprogress', stage: 2 })).map((r) => r.id)).toEqual([ba('cauvery').baId]);
    expect((await list({ q: 'coromandel' })).map((r) => r.id)).toEqual([ba('coromandel').baId]);
    expect((await list({ panNumber: 'AAECS' })).map((r) => r.id)).toEqual([ba('sabarmati').baId]);
    expect((await list({ cityId: 2703 })).map((r) => r.id)).toEqual([ba('vidarbha').baId]);
    // A company code the caller does not hold narrows to nothing rather than widening.
    expect(await list({ companyCode: '2000' })).toEqual([]);
  });

  it('refuses bad list parameters with 400 and caps the page size', async () => {
    const bad = await request(h.app).get('/api/business-associates').query({ sort: '["password_hash","ASC"]' }).set(as('admin'));
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(bad.body.errors).toHaveProperty(['sort.0']);

    // More BAs than a page may hold, straight into the store (only the list's paging is under test here).
    const bulk = createOnboardingDriver(h.store);
    const run = randomUUID().slice(0, 8);
    let head = 0;
    for (let i = 0; i <= MAX_PAGE_SIZE; i += 1) head = await bulk.create(`bulk-${run}-${i}`, '2000');
    await waitForProjections(h.db.pool, head, { timeoutMs: 30_000 });
    const big = await request(h.app).get('/api/business-associates').query({ range: '[0,5000]' }).set(as('procurement.2000'));
    expect(big.status).toBe(200);
    expect(big.body).toHaveLength(MAX_PAGE_SIZE);
    const total = Number(String(big.headers['content-range']).split('/')[1]);
    expect(total).toBeGreaterThan(MAX_PAGE_SIZE);
    expect(big.headers['content-range']).toBe(`business-associates 0-${MAX_PAGE_SIZE - 1}/${total}`);
  });

  it('shows a BA only its own row', async () => {
    const res = await request(h.app).get('/api/business-associates').set(as('ba.admin'));
    expect(res.body.map((r: { id: string }) => r.id)).toEqual([ba('sahyadri').baId]);
    expect(res.headers['content-range']).toBe('business-associates 0-0/1');
  });

  it('answers 401 without a session', async () => {
    expect((await request(h.app).get('/api/business-associates')).status).toBe(401);
  });
});

describe('isolation', () => {
  it('a BA cannot read another BA, even of its company code: 404', async () => {
    for (const path of ['', '/activity-log'])
      expect((await request(h.app).get(`/api/business-associates/${ba('konkan').baId}${path}`).set(as('ba.admin'))).status).toBe(404);
  });

  it('staff cannot reach a BA of another company code: 404, as for a BA that does not exist', async () => {
    const other = ba('indraprastha').baId;
    const before = await stream(other);
    expect((await request(h.app).get(`/api/business-associates/${other}`).set(as('procurement'))).status).toBe(404);
    expect((await request(h.app).get(`/api/business-associates/${other}/activity-log`).set(as('auditor'))).status).toBe(404);
    const approve = await request(h.app).post(`/api/business-associates/${other}/approve`).send({ stage: 1 }).set(as('procurement'));
    expect(approve.status).toBe(404);
    expect(await stream(other)).toEqual(before);
    expect((await request(h.app).get('/api/business-associates/no-such-ba').set(as('procurement'))).status).toBe(404);
  });

  it('a BA of company code 2000 is reachable by its own admin', async () => {
    const res = await request(h.app).get(`/api/business-associates/${ba('hooghly').baId}`).set(as('ba.8'));
    expect(res.status).toBe(200);
    expect(res.body.companyCode).toBe('2000');
  });
});

describe('onboarding via HTTP', () => {
  const sahyadri = () => ba('sahyadri').baId;

  it('refuses to submit incomplete details with 422, naming the missing fields, appending nothing', async () => {
    const before = await stream(sahyadri());
    const res = await request(h.app).post(`/api/business-associates/${sahyadri()}/submit`).set(as('ba.admin'));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(submissionRefusals.incompleteTabs);
    expect(res.body.errors.companyDetails).toMatch(/Address/);
    expect(await stream(sahyadri())).toEqual(before);
  });

  it('refuses invalid details with 400 and the spec’s field messages, appending nothing', async () => {
    const before = await stream(sahyadri());
    const res = await request(h.app)
      .post(`/api/business-associates/${sahyadri()}/details`)
      .set(as('ba.admin'))
      .send({ ...ba('sahyadri').details, panNumber: 'ABCDE12345', pinCode: '4110', contactPersonMobileNumber: '5123456789' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ panNumber: messages.pan, pinCode: messages.pinCode, contactPersonMobileNumber: messages.mobile });
    expect(await stream(sahyadri())).toEqual(before);
  });

  it('decides the service, state and city against the masters: any active item, in its state', async () => {
    const { baId, admin, pan } = await ownBa('masters');
    const save = (change: object) =>
      request(h.app).post(`/api/business-associates/${baId}/details`).set(admin).send({ ...ba('sahyadri').details, panNumber: pan, ...change });
    // Hyderabad (Telangana) and Packaging were never in the old fixed catalogue.
    const hyderabad = await save({ serviceId: 6, stateId: 36, cityId: 3601, pinCode: '500001' });
    expect(hyderabad.status).toBe(200);
    expect(hyderabad.body).toMatchObject({ cityName: 'Hyderabad', stateName: 'Telangana', serviceName: 'Packaging' });
    expect(hyderabad.body.details).toMatchObject({ serviceId: 6, stateId: 36, cityId: 3601 });
    expect(hyderabad.body.details).not.toHaveProperty('references');

    const before = await stream(baId);
    const elsewhere = await save({ stateId: 27, cityId: 3601 });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.errors).toEqual({ cityId: 'The city does not belong to the selected state' });
    const unknown = await save({ serviceId: 99, stateId: 36, cityId: 3699 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ serviceId: 'Please select a service', cityId: 'Please select a city' });
    await changeMasters({ store: h.store, pool: h.db.pool }, [deactivate('cities', 3602)]);
    const inactive = await save({ stateId: 36, cityId: 3602 });
    expect(inactive.status).toBe(400);
    expect(inactive.body.errors).toEqual({ cityId: 'Please select a city' });
    expect(await stream(baId)).toEqual(before);
  });

  it('refuses actions a role may never take with 403, appending nothing', async () => {
    const before = await stream(sahyadri());
    const staffSaves = await request(h.app).post(`/api/business-associates/${sahyadri()}/details`).set(as('procurement')).send({});
    expect(staffSaves.status).toBe(403);
    const baApproves = await request(h.app).post(`/api/business-associates/${sahyadri()}/approve`).set(as('ba.admin')).send({ stage: 1 });
    expect(baApproves.status).toBe(403);
    const auditorRejects = await request(h.app)
      .post(`/api/business-associates/${sahyadri()}/reject`)
      .set(as('auditor'))
      .send({ stage: 1, remarks: 'no' });
    expect(auditorRejects.status).toBe(403);
    expect(await stream(sahyadri())).toEqual(before);
  });

  it('runs the whole lifecycle: BA saves and submits, procurement approves stage 1, commercial stage 2', async () => {
    const { baId, admin, pan, user } = await ownBa('lifecycle');
    const saved = await request(h.app)
      .post(`/api/business-associates/${baId}/details`)
      .set(admin)
      .send({ ...ba('sahyadri').details, panNumber: pan, addressLine2: '' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: baId, status: 'pending' });
    expect(saved.body.details).toMatchObject({ addressLine1: 'Plot 14, Bhosari MIDC', addressLine2: null });

    const tabs = await fillTabs(baId, user, pan);
    const submitted = await request(h.app).post(`/api/business-associates/${baId}/submit`).set(admin);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'inprogress', stage: 1, submission: 1 });
    await approveItems(baId, tabs);

    // The answer waited for the projections: the task queue already shows the new task.
    const tasks = await request(h.app).get('/api/tasks').query({ range: '[0,99]' }).set(as('procurement.2000'));
    expect(tasks.body.map((t: { baId: string }) => t.baId)).toContain(baId);

    const stage1 = await request(h.app)
      .post(`/api/business-associates/${baId}/approve`)
      .set(as('procurement.2000'))
      .send({ stage: 1, remarks: 'Details match the PAN and CIN records' });
    expect(stage1.status).toBe(200);
    expect(stage1.body).toMatchObject({ status: 'inprogress', stage: 2 });

    // Procurement may never decide stage 2.
    const wrongRole = await request(h.app).post(`/api/business-associates/${baId}/approve`).set(as('procurement.2000')).send({ stage: 2 });
    expect(wrongRole.status).toBe(403);

    const stage2 = await request(h.app).post(`/api/business-associates/${baId}/approve`).set(as('commercial.2000')).send({ stage: 2 });
    expect(stage2.status).toBe(200);
    expect(stage2.body).toMatchObject({ status: 'verified', stage: null, welcomeMessage: WELCOME_MESSAGE });

    const seen = await request(h.app).get(`/api/business-associates/${baId}`).set(admin);
    expect(seen.body).toMatchObject({ status: 'verified', welcomeMessage: WELCOME_MESSAGE });

    const log = await request(h.app).get(`/api/business-associates/${baId}/activity-log`).set(as('commercial.2000'));
    expect(log.status).toBe(200);
    const roles = log.body.map((r: { role: string }) => r.role);
    expect(roles).toEqual(expect.arrayContaining(['BA Admin', 'MLL Procurement', 'MLL Commercial']));
    expect(log.headers['content-range']).toMatch(/^activity-log 0-\d+\/\d+$/);
  });

  it('gives auditors and MLL-ADMIN the raw event stream with versions, positions and hashes', async () => {
    // A BA the seed verified: its stream holds the whole lifecycle.
    const coromandel = ba('coromandel').baId;
    const res = await request(h.app).get(`/api/business-associates/${coromandel}/events`).set(as('auditor'));
    expect(res.status).toBe(200);
    const events = res.body as { version: number; globalPosition: number; type: string; prevHash: string; hash: string }[];
    expect(events.map((e) => e.version)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['BusinessAssociateCreated', 'OnboardingSubmitted', 'ReviewStageApproved', 'BusinessAssociateVerified']),
    );
    for (const [i, e] of events.entries()) {
      expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
      if (i > 0) expect(e.globalPosition).toBeGreaterThan(events[i - 1]?.globalPosition ?? 0);
    }
    expect((await request(h.app).get(`/api/business-associates/${coromandel}/events`).set(as('admin'))).status).toBe(200);
    expect((await request(h.app).get(`/api/business-associates/${coromandel}/events`).set(as('procurement'))).status).toBe(403);
  });

  it('refuses the stage-1 approver approving stage 2 with 422, appending nothing', async () => {
    const { baId } = await ownBa('same-approver', 'stage1');
    // MLL-ADMIN may decide either stage, but not both of one submission.
    const adminUser = await addUser(h, { email: `admin.${baId}@onboarding.test`, roles: ['MLL-ADMIN'], companyCodes: ['2000'] });
    const admin = (await sessionOf(h, adminUser)).auth;
    const first = await request(h.app).post(`/api/business-associates/${baId}/approve`).set(admin).send({ stage: 1 });
    expect(first.status).toBe(200);
    const before = await stream(baId);
    const second = await request(h.app).post(`/api/business-associates/${baId}/approve`).set(admin).send({ stage: 2 });
    expect(second.status).toBe(422);
    expect(second.body.message).toBe(refusals.sameApprover);
    expect(await stream(baId)).toEqual(before);
  });

  it('refuses a decision for a stage the BA is not at with 409, appending nothing', async () => {
    const deccan = ba('deccan').baId;
    const before = await stream(deccan);
    const res = await request(h.app).post(`/api/business-associates/${deccan}/approve`).set(as('commercial')).send({ stage: 2 });
    expect(res.status).toBe(409);
    expect(await stream(deccan)).toEqual(before);
  });

  it('requires remarks to reject (400), then rejects with them so the BA reads them', async () => {
    const { baId, admin } = await ownBa('reject', 'stage1');
    const before = await stream(baId);
    const reject = (remarks: string) =>
      request(h.app).post(`/api/business-associates/${baId}/reject`).set(as('procurement.2000')).send({ stage: 1, remarks });
    const bare = await reject('  ');
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual({ remarks: refusals.remarksRequired });
    expect(await stream(baId)).toEqual(before);

    const remarks = 'GST certificate address does not match the registered address';
    const rejected = await reject(remarks);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', remarks });
    expect((await request(h.app).get(`/api/business-associates/${baId}`).set(admin)).body).toMatchObject({ status: 'rejected', remarks });
  });

  it('treats a repeated Idempotency-Key as the same request: one transition, the same answer', async () => {
    const { baId } = await ownBa('idempotent', 'stage2');
    const before = await stream(baId);
    const send = () =>
      request(h.app)
        .post(`/api/business-associates/${baId}/approve`)
        .set(as('commercial.2000'))
        .set('Idempotency-Key', `approve-${baId}-stage-2`)
        .send({ stage: 2 });
    const [a, b] = [await send(), await send()];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.status).toBe('verified');
    // ReviewStageApproved + BusinessAssociateVerified, once.
    expect((await stream(baId)).length).toBe(before.length + 2);
  });
});

describe('counts and tasks', () => {
  type Counts = Record<
    'all' | 'registered' | 'pendingOnboarding' | 'firstStage' | 'secondStage' | 'verified' | 'rejected' | 'myPendingTasks',
    number
  >;
  const counts = async (user: string) => {
    const res = await request(h.app).get('/api/ba-counts').set(as(user));
    expect(res.status).toBe(200);
    return res.body as Counts;
  };
  const taskBas = async (user: string) => {
    const res = await request(h.app).get('/api/tasks').query({ range: '[0,99]' }).set(as(user));
    expect(res.status).toBe(200);
    return res.body as { baId: string; companyCode: string; stage: number }[];
  };

  it('counts the badges of the seeded story over the caller’s company codes, with their pending tasks', async () => {
    // Expected figures from the seed's targets, not from the tables the counts are kept in.
    const inReview = seeded1000('inprogress');
    const expected = {
      all: DEMO_BAS.filter((b) => b.companyCode === '1000').length,
      registered: seeded1000('pending').length,
      pendingOnboarding: inReview.length,
      pending: inReview.length,
      firstStage: seeded1000('inprogress', 1).length,
      secondStage: seeded1000('inprogress', 2).length,
      verified: seeded1000('verified').length,
      rejected: seeded1000('rejected').length,
      // The seed lets no document lapse (validity dates lie ahead), and leaves one BA's additional document for review.
      documentsExpired: 0,
      // Issue 9: the seed blocks no vendor code.
      blockedUsers: 0,
      additionalDocumentsPending: DEMO_BAS.filter((b) => b.companyCode === '1000' && b.story?.additionalDocument).length,
    };
    expect(expected.firstStage).toBeGreaterThan(0);
    expect(expected.additionalDocumentsPending).toBeGreaterThan(0);
    expect(await counts('procurement')).toEqual({ ...expected, myPendingTasks: expected.firstStage });
    expect(await counts('commercial')).toEqual({ ...expected, myPendingTasks: expected.secondStage });
    expect((await request(h.app).get('/api/ba-counts').set(as('ba.admin'))).status).toBe(403);
  });

  it('moves a BA between the badges and the reviewers’ pending tasks as it goes through review', async () => {
    const before = { procurement: await counts('procurement.2000'), commercial: await counts('commercial.2000') };
    const { baId, admin, pan, user } = await ownBa('badges');
    const change = async (user: 'procurement.2000' | 'commercial.2000') => {
      const now = await counts(user);
      const was = before[user === 'procurement.2000' ? 'procurement' : 'commercial'];
      return Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - was[k as keyof Counts]]).filter(([, d]) => d !== 0));
    };
    expect(await change('procurement.2000')).toEqual({ all: 1, registered: 1 });

    expect((await request(h.app).post(`/api/business-associates/${baId}/details`).set(admin).send(details({ panNumber: pan }))).status).toBe(200);
    const tabs = await fillTabs(baId, user, pan);
    expect((await request(h.app).post(`/api/business-associates/${baId}/submit`).set(admin)).status).toBe(200);
    await approveItems(baId, tabs);
    expect(await change('procurement.2000')).toEqual({ all: 1, pendingOnboarding: 1, pending: 1, firstStage: 1, myPendingTasks: 1 });
    expect(await change('commercial.2000')).toEqual({ all: 1, pendingOnboarding: 1, pending: 1, firstStage: 1 });

    const approve = request(h.app).post(`/api/business-associates/${baId}/approve`).set(as('procurement.2000')).send({ stage: 1 });
    expect((await approve).status).toBe(200);
    expect(await change('procurement.2000')).toEqual({ all: 1, pendingOnboarding: 1, pending: 1, secondStage: 1 });
    expect(await change('commercial.2000')).toEqual({ all: 1, pendingOnboarding: 1, pending: 1, secondStage: 1, myPendingTasks: 1 });

    const reject = request(h.app)
      .post(`/api/business-associates/${baId}/reject`)
      .set(as('commercial.2000'))
      .send({ stage: 2, remarks: 'Rates not agreed' });
    expect((await reject).status).toBe(200);
    expect(await change('commercial.2000')).toEqual({ all: 1, rejected: 1 });
  });

  it('lists a reviewer’s pending tasks within their company codes and stage only', async () => {
    // The seeded story has stage-1 reviews in both company codes and a stage-2 review in 1000.
    const ids = (bas: readonly { baId: string }[]) => bas.map((b) => b.baId).sort();
    const procurement = await taskBas('procurement');
    expect(procurement.length).toBeGreaterThan(0);
    expect(ids(procurement)).toEqual(ids(seeded1000('inprogress', 1)));
    for (const t of procurement) expect(t).toMatchObject({ companyCode: '1000', stage: 1 });
    expect(ids(await taskBas('commercial'))).toEqual(ids(seeded1000('inprogress', 2)));
    expect(DEMO_BAS.some((b) => b.companyCode === '2000' && b.target.status === 'inprogress')).toBe(true);
    expect((await request(h.app).get('/api/tasks').set(as('ba.admin'))).status).toBe(403);
  });
});
