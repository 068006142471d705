import request from 'supertest';
import { userIdForUsername } from '../domain/src/identity/users';
import { baStreamId } from '../domain/src/onboarding';
import type { EventStore } from '../domain/src/event-store/port';
import { demoSeedStatus, setDemoSeedStatus } from '../platform/src/db/demo-seed-state';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { createOnboardingDriver } from '../projections/src/test-support';
import { startApiHarness, type ApiHarness } from '../api/src/testing/harness';
import { createTestDatabase, type TestDatabase } from '../tests/support/postgres';
import { DEMO_BAS, DEMO_SEED_NAME, DEMO_USERS, seedDemo, type SeedResult } from './seed';
import { mandatoryDocumentTypes } from './seed-onboarding';
import { approveAllItemsViaApi } from '../api/src/testing/onboarding';

/**
 * The demo seed never touches real work (issue 6): it goes only into an empty store, a restart is a no-op, a
 * resumed run leaves alone a demo BA a person has acted on, and every seeded step is the "Demo seed" actor's.
 * On the real stack: PostgreSQL, the Temporal dev server, the worker, the projector and the api.
 */
jest.setTimeout(180_000);

let h: ApiHarness;
let first: SeedResult;
const tokens: Record<string, string> = {};
const ba = (key: string) => {
  const found = DEMO_BAS.find((b) => b.key === key);
  if (!found) throw new Error(key);
  return found;
};
const seed = (store: EventStore = h.store, pool = h.db.pool) =>
  seedDemo({ pool, store, temporal: h.temporal, taskQueue: h.taskQueue, blobStore: h.blobStore });
const as = (user: string) => ({ Authorization: `Bearer ${tokens[user] ?? ''}` });
const streamOf = async (key: string) => (await h.store.readStream(baStreamId(ba(key).baId))).map((e) => e.hash);
const approveAs = (user: string, key: string, stage: 1 | 2) =>
  request(h.app).post(`/api/business-associates/${ba(key).baId}/approve`).set(as(user)).send({ stage });
const stateOf = async (user: string, key: string) =>
  (await request(h.app).get(`/api/business-associates/${ba(key).baId}`).set(as(user))).body as { status: string; stage: number | null };

beforeAll(async () => {
  h = await startApiHarness('seed');
  first = await seed();
  for (const user of ['procurement', 'commercial', 'auditor', 'procurement.2000', 'commercial.2000'])
    tokens[user] = await h.login(`${user}@demo.test`);
});

afterAll(async () => {
  await h?.stop();
});

describe('the demo seed on a first start', () => {
  it('fills the empty store and records that it is done (readiness waits for this)', async () => {
    expect(first).toMatchObject({ outcome: 'seeded', usersCreated: DEMO_USERS.length, basCreated: DEMO_BAS.length, leftAlone: [] });
    expect(first.actions).toBeGreaterThan(DEMO_BAS.length);
    expect(await demoSeedStatus(h.db.pool)).toBe('done');
  });

  it('credits every seeded step in the activity log to "Demo seed", in the stage’s role for reviews, never a demo person', async () => {
    const people = new Set(DEMO_USERS.map((u) => userIdForUsername(u.username)));
    const res = await request(h.app)
      .get(`/api/business-associates/${ba('coromandel').baId}/activity-log`)
      .query({ range: '[0,99]' })
      .set(as('auditor'));
    expect(res.status).toBe(200);
    const log = res.body as { actorName: string | null; actorUserId: string; role: string; eventType: string }[];
    // Issue 8: every tab filled before the submission, every item approved before stage 1, then Coromandel's
    // extras: an additional document (the BA's) and a concession staff uploaded for it.
    const documents = mandatoryDocumentTypes(ba('coromandel').details.serviceId).length;
    const times = (n: number, row: string[]) => Array.from({ length: n }, () => row);
    expect(log.map((e) => [e.eventType, e.actorName, e.role])).toEqual([
      ['BusinessAssociateCreated', DEMO_SEED_NAME, 'system'],
      ['CompanyDetailsSaved', DEMO_SEED_NAME, 'system'],
      ['BankAccountSaved', DEMO_SEED_NAME, 'system'],
      ['GstRegistrationSaved', DEMO_SEED_NAME, 'system'],
      ...times(documents, ['DocumentUploaded', DEMO_SEED_NAME, 'system']),
      ['VerticalMappingSaved', DEMO_SEED_NAME, 'system'],
      ['OnboardingSubmitted', DEMO_SEED_NAME, 'system'],
      ['BankAccountReviewed', DEMO_SEED_NAME, 'MLL Procurement'],
      ...times(documents, ['DocumentReviewed', DEMO_SEED_NAME, 'MLL Procurement']),
      ['VerticalMappingReviewed', DEMO_SEED_NAME, 'MLL Procurement'],
      ['ReviewStageApproved', DEMO_SEED_NAME, 'MLL Procurement'],
      ['ReviewStageApproved', DEMO_SEED_NAME, 'MLL Commercial'],
      ['BusinessAssociateVerified', DEMO_SEED_NAME, 'MLL Commercial'],
      ['DocumentUploaded', DEMO_SEED_NAME, 'system'],
      ['ConcessionSaved', DEMO_SEED_NAME, 'MLL Procurement'],
    ]);
    for (const e of log) expect(people.has(e.actorUserId)).toBe(false);
  });

  it('leaves the seeded review tasks to the real reviewers: the stage-2 reviewer may decide what the seed approved at stage 1', async () => {
    const tasks = await request(h.app).get('/api/tasks').query({ range: '[0,99]' }).set(as('commercial'));
    expect(tasks.status).toBe(200);
    expect(tasks.body.map((t: { baId: string }) => t.baId)).toContain(ba('cauvery').baId);
    const stage1 = await request(h.app).get('/api/tasks').query({ range: '[0,99]' }).set(as('procurement'));
    expect(stage1.body.map((t: { baId: string }) => t.baId)).toContain(ba('vidarbha').baId);
  });

  it('gives every new onboarding screen data: real files, item reviews, the queues, a change request, a duplicate', async () => {
    const get = (user: string, path: string) => request(h.app).get(`/api${path}`).query({ range: '[0,99]' }).set(as(user));
    type Doc = { id: string; kind: string; reviewStatus: string; reviewRemarks: string | null; documentTypeId: number };
    // A verified BA: its onboarding documents approved, an additional one waiting, each a real PDF in the blob store.
    const coromandel = ba('coromandel').baId;
    const docs = (await get('procurement', `/business-associates/${coromandel}/documents`)).body as Doc[];
    expect(docs.filter((d) => d.kind === 'onboarding').every((d) => d.reviewStatus === 'approved')).toBe(true);
    expect(docs.filter((d) => d.kind === 'additional').map((d) => d.reviewStatus)).toEqual(['pending']);
    const file = await get('procurement', `/business-associates/${coromandel}/documents/${docs[0]!.id}/file`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect((file.body as Buffer).subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    const queue = (await get('procurement', `/additional-documents?filter=${encodeURIComponent('{"reviewStatus":"pending"}')}`)).body as { baId: string }[];
    expect(queue.map((d) => d.baId)).toContain(coromandel);
    const concessions = (await get('procurement', `/business-associates/${coromandel}/concessions`)).body as { reviewStatus: string; isInternalUpload: boolean }[];
    expect(concessions).toMatchObject([{ reviewStatus: 'pending', isInternalUpload: true }]);
    // The rejected BA: the PAN card and the bank account rejected with remarks.
    const sabarmati = ba('sabarmati').baId;
    const rejected = ((await get('procurement', `/business-associates/${sabarmati}/documents`)).body as Doc[]).filter((d) => d.reviewStatus === 'rejected');
    expect(rejected).toMatchObject([{ documentTypeId: 1, reviewRemarks: expect.stringMatching(/PAN card/) }]);
    expect((await get('procurement', `/business-associates/${sabarmati}/bank-accounts`)).body).toMatchObject([
      { reviewStatus: 'rejected', reviewRemarks: expect.stringMatching(/account name/) },
    ]);
    // Stage 1 with documents waiting for review.
    const waiting = (await get('procurement', `/business-associates/${ba('vidarbha').baId}/documents`)).body as Doc[];
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((d) => d.reviewStatus === 'pending')).toBe(true);
    // A bank change waiting for its second approver.
    const requests = (await get('commercial.2000', `/business-associates/${ba('kovai').baId}/change-requests`)).body as { section: string; status: string }[];
    expect(requests).toMatchObject([{ section: 'bank', status: 'first-approved' }]);
    // The same GSTIN under another company code: the duplicate warning.
    const duplicates = (await get('procurement.2000', `/business-associates/${ba('vidarbha-2000').baId}/duplicates`)).body as { field: string; otherBaId: string }[];
    expect(duplicates).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'gstNo', otherBaId: ba('vidarbha').baId })]));
  });

  it('does nothing on a restart, even where a person has since moved a demo BA along', async () => {
    // Indraprastha's seeded target is stage 1; the seed of old would now approve stage 2 "as" the demo reviewer.
    await approveAllItemsViaApi(h, ba('indraprastha').baId, as('procurement.2000'));
    expect((await approveAs('procurement.2000', 'indraprastha', 1)).status).toBe(200);
    const head = await h.store.headPosition();
    const again = await seed();
    expect(again).toMatchObject({ outcome: 'already-seeded', usersCreated: 0, basCreated: 0, actions: 0 });
    expect(await h.store.headPosition()).toBe(head);
    expect(await stateOf('procurement.2000', 'indraprastha')).toMatchObject({ status: 'inprogress', stage: 2 });
  });

  it('finishing an interrupted run, leaves alone a demo BA a person acted on in between', async () => {
    // As if the first start stopped before it recorded 'done'; meanwhile a reviewer approved Deccan's stage 1.
    await setDemoSeedStatus(h.db.pool, 'running');
    await approveAllItemsViaApi(h, ba('deccan').baId, as('procurement'));
    expect((await approveAs('procurement', 'deccan', 1)).status).toBe(200);
    const deccan = await streamOf('deccan');

    const resumed = await seed();
    expect(resumed).toMatchObject({ outcome: 'seeded', actions: 0, leftAlone: expect.arrayContaining(['deccan']) });
    expect(resumed.leftAlone).not.toContain('coromandel');
    expect(await streamOf('deccan')).toEqual(deccan);
    expect(await stateOf('procurement', 'deccan')).toMatchObject({ status: 'inprogress', stage: 2 });
    expect(await demoSeedStatus(h.db.pool)).toBe('done');
  });
});

describe('the demo seed on a store that already holds data', () => {
  let db: TestDatabase;
  afterEach(async () => {
    await db?.drop();
  });

  it('is skipped, writes nothing and says why, now and on every later start', async () => {
    db = await createTestDatabase({ poolSize: 4 });
    const store = createPostgresEventStore(db.pool);
    // Real work from before any seed ran (or data from before the seed kept its state).
    await createOnboardingDriver(store).create('ba-real');
    const head = await store.headPosition();

    const skipped = await seed(store, db.pool);
    expect(skipped).toMatchObject({ outcome: 'skipped', usersCreated: 0, basCreated: 0, actions: 0 });
    expect(skipped.detail).toMatch(/already held 1 events?.*empty store/);
    expect(await demoSeedStatus(db.pool)).toBe('skipped');
    expect(await store.headPosition()).toBe(head);

    expect(await seed(store, db.pool)).toMatchObject({ outcome: 'skipped', actions: 0 });
    expect(await store.headPosition()).toBe(head);
  });
});
