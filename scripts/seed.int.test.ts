import { INVOICE_STATUSES } from '../domain/src/invoices/events';
import request from 'supertest';
import { userIdForUsername } from '../domain/src/identity/users';
import { baStreamId } from '../domain/src/onboarding';
import type { EventStore } from '../domain/src/event-store/port';
import { demoSeedStatus, setDemoSeedStatus } from '../platform/src/db/demo-seed-state';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { createOnboardingDriver } from '../projections/src/test-support';
import { startApiHarness, type ApiHarness } from '../api/src/testing/harness';
import { createTestDatabase, type TestDatabase } from '../tests/support/postgres';
import { DEMO_BAS, DEMO_SEED_NAME, DEMO_USERS, SEED_SAP_ACTORS, seedDemo, type SeedResult } from './seed';
import { mandatoryDocumentTypes } from './seed-onboarding';
import { approveAllItemsViaApi } from '../api/src/testing/onboarding';
import { VENDOR_CODE_EVENT_TYPES, vendorCodeStreamId, type VendorCodeEvent } from '../domain/src/vendor-code/events';
import { evolveVendorCode, initialVendorCodeState } from '../domain/src/vendor-code/state';
import { massUploadStreamId } from '../domain/src/mass-upload/events';
import { DEMO_NUCLEUS_VENDORS, demoBlockRequestId } from './seed-vendor-codes';
import { DEMO_RFPS } from './seed-rfps';
import { awardsOf, comparison, getRfp, invitationsOf, listRfpsForBa, quotesOf } from '../projections/src/rfps/rfps.queries';
import { RFP_STATUSES } from '../domain/src/rfp/model';

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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Polls until `done` (bounded): the ERP answers the sandbox's requests after the seed has returned. */
async function eventually<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value).slice(0, 500)})`);
    await sleep(250);
  }
}
const approveAs = (user: string, key: string, stage: 1 | 2) =>
  request(h.app).post(`/api/business-associates/${ba(key).baId}/approve`).set(as(user)).send({ stage });
const stateOf = async (user: string, key: string) =>
  (await request(h.app).get(`/api/business-associates/${ba(key).baId}`).set(as(user))).body as { status: string; stage: number | null };

beforeAll(async () => {
  h = await startApiHarness('seed');
  const started = Date.now();
  first = await seed();
  // For comparing starts (the e2e suites run the whole seed in every beforeAll).
  console.log(`seedDemo on an empty store took ${Date.now() - started} ms`);
  for (const user of ['procurement', 'commercial', 'auditor', 'procurement.2000', 'commercial.2000', 'accounts', 'accounts.head', 'ba.verified'])
    tokens[user] = await h.login(`${user}@demo.test`);
});

afterAll(async () => {
  await h?.stop();
});

describe('the demo seed on a first start', () => {
  it('fills the empty store and records that it is done (readiness waits for this)', async () => {
    expect(first).toMatchObject({ outcome: 'seeded', usersCreated: DEMO_USERS.length, basCreated: DEMO_BAS.length, leftAlone: [] });
    expect(first.actions).toBeGreaterThan(DEMO_BAS.length);
    // SAP (issue 9): coromandel parent + category set + approved + a child; narmada parent + category set;
    // godavari parent + category set + approved; chamundi (Bill-Hub) parent + category set + approved + a child;
    // one block request; 5 nucleus parents and 2 children recorded.
    expect(first.sap).toEqual({ commands: 13, blockRequests: 1, nucleusRows: 7, waitingForErp: [], leftAlone: [] });
    expect(first.rfps).toMatchObject({ created: DEMO_RFPS.length, leftAlone: [] });
    expect(first.detail).toContain(`RFPs: ${DEMO_RFPS.length} created`);
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
    // Its SAP vendor codes (issue 9) share the BA's log: the onboarding entries first, exactly as before.
    const isVendorCode = (e: { eventType: string }) => (VENDOR_CODE_EVENT_TYPES as readonly string[]).includes(e.eventType);
    expect(log.filter((e) => !isVendorCode(e)).map((e) => [e.eventType, e.actorName, e.role])).toEqual([
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
    // The seed's SAP commands, in SAP roles: requested and set by MLL Accounts, approved by MLL Accounts_HEAD.
    expect(log.filter((e) => isVendorCode(e) && e.actorName === DEMO_SEED_NAME).map((e) => [e.eventType, e.role])).toEqual([
      ['ParentCodeRequested', 'MLL Accounts'],
      ['VendorCategorySet', 'MLL Accounts'],
      ['VendorCategoryApproved', 'MLL Accounts_HEAD'],
      ['ChildCodeRequested', 'MLL Accounts'],
    ]);
    // The parent code came from the ERP (the lifecycle records its answers as the system).
    expect(log.filter((e) => e.eventType === 'ParentCodeAssigned').map((e) => e.role)).toEqual(['system']);
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

  it('gives every SAP screen data through the lifecycles: codes from the sandbox ERP, a category to approve, a block, nucleus vendors', async () => {
    type Row = { status: string; parentCode: string | null; vendorCategoryStatus: string; vendorCategorySetBy: string | null; childCodes: { childCode: string | null; paymentTermsCode: string | null }[] };
    const vendorCode = async (key: string) =>
      (await request(h.app).get(`/api/vendor-codes/${ba(key).baId}:1000`).set(as('accounts'))).body as Row;
    // Processed once the ERP answered the child code (the seed does not wait for it).
    const processed = await eventually('coromandel processed', () => vendorCode('coromandel'), (r) => r.status === 'processed');
    expect(processed.parentCode).toMatch(/^\d{10}$/);
    expect(processed.vendorCategoryStatus).toBe('approved');
    expect(processed.childCodes).toEqual([expect.objectContaining({ childCode: expect.stringMatching(/^\d{10}$/), paymentTermsCode: 'Z030' })]);
    // Waiting for a second person (accounts.head) to approve the category the seed set as MLL Accounts.
    expect(await vendorCode('narmada')).toMatchObject({
      status: 'verification-pending',
      vendorCategoryStatus: 'pending',
      vendorCategorySetBy: SEED_SAP_ACTORS.accounts.userId,
      parentCode: expect.stringMatching(/^\d{10}$/),
    });
    expect(await vendorCode('godavari')).toMatchObject({ status: 'verified', vendorCategoryStatus: 'approved' });
    // The block request waits for an approver; its attachment is a real PDF.
    const blocks = await request(h.app)
      .get('/api/blocks')
      .query({ filter: JSON.stringify({ status: 'pending' }), range: '[0,99]' })
      .set(as('accounts.head'));
    expect(blocks.status).toBe(200);
    expect(blocks.body).toEqual([
      expect.objectContaining({
        id: demoBlockRequestId('godavari'),
        baId: ba('godavari').baId,
        action: 'block',
        reason: 'Poor service performance',
        fileName: 'block-request-note.pdf',
        vendorCode: (await vendorCode('godavari')).parentCode,
        requestedBy: expect.objectContaining({ userId: SEED_SAP_ACTORS.accounts.userId }),
      }),
    ]);
    const file = await request(h.app)
      .get(`/api/blocks/${demoBlockRequestId('godavari')}/file`)
      .set(as('accounts.head'))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect((file.body as Buffer).subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    // Five nucleus vendors, each with its codes once the mass upload's ERP step has them.
    type Nucleus = { pan: string; source: string; parentCode: string | null; erpStatus: string; childCodes: { childCode: string | null }[] };
    const pans = DEMO_NUCLEUS_VENDORS.parents.map((r) => r.pan);
    const nucleus = await eventually(
      'nucleus vendor codes',
      async () => ((await request(h.app).get('/api/nucleus-vendors').query({ range: '[0,99]' }).set(as('accounts'))).body as Nucleus[]).filter((n) => pans.includes(n.pan)),
      (rows) => rows.length === 5 && rows.every((n) => n.erpStatus === 'assigned'),
    );
    expect(nucleus.every((n) => n.source === 'nucleus' && /^\d{10}$/.test(n.parentCode ?? ''))).toBe(true);
    expect(nucleus.flatMap((n) => n.childCodes.map((c) => c.childCode))).toHaveLength(DEMO_NUCLEUS_VENDORS.children.length);
    const counts = (await request(h.app).get('/api/vendor-codes/counts').set(as('accounts'))).body as Record<string, number>;
    expect(counts).toMatchObject({ verificationPending: 1, verified: 1, processed: 2, nucleusVendor: 5 });

    // accounts.head approves the seeded category (a person acting on demo data: the seed leaves it alone from now on).
    const approved = await request(h.app)
      .post(`/api/business-associates/${ba('narmada').baId}/vendor-codes/vendor-category`)
      .set(as('accounts.head'))
      .send({ action: 'approve' });
    expect(approved.status).toBe(200);
    // Everything the ERP still owes has come before the restarts below (they compare the store's head).
    for (const key of ['coromandel', 'narmada', 'godavari'])
      await eventually(`${key}: no open ERP request`, async () => {
        const events = await h.store.readStream(vendorCodeStreamId(ba(key).baId, '1000'));
        const state = events.reduce((st, e) => evolveVendorCode(st, { type: e.type, data: e.data } as VendorCodeEvent), initialVendorCodeState);
        return Object.keys(state.jobs).length;
      }, (open) => open === 0);
    // Kovai's document valid for one more week: the expiry timer's 7-day reminder is on its stream.
    await eventually('kovai: the expiry reminder', async () => (await h.store.readStream(baStreamId(ba('kovai').baId))).filter((e) => e.type === 'DocumentExpiryReminded').map((e) => e.data), (reminders) =>
      reminders.length === 1 && (reminders[0] as { daysBefore?: number }).daysBefore === 7,
    );
    const uploadId = nucleus[0] ? ((await h.store.readStream(`nucleus-vendor-${nucleus[0].pan}`))[0]?.data as { uploadId: string }).uploadId : '';
    await eventually('the nucleus ERP step done', async () => (await h.store.readStream(massUploadStreamId(uploadId))).map((e) => e.type), (types) =>
      types.includes('MassUploadErpCompleted'),
    );
  });

  it('gives every RFP screen data: each status with lanes, quotes to compare, a split award, a second round, backhaul, T&C', async () => {
    const pool = h.db.pool;
    const rfp = async (code: string) => {
      const found = await getRfp(pool, code, { companyCodes: 'all' });
      if (!found) throw new Error(`${code} not in the read model`);
      return found;
    };
    const records = await Promise.all(DEMO_RFPS.map((r) => rfp(r.rfpCode)));
    // Every status of the lifecycle, each RFP with 10 to 20 lanes, standard and non-standard, all company code 1000.
    expect(new Set(records.map((r) => r.status))).toEqual(new Set(RFP_STATUSES));
    for (const r of records) expect([r.rfpCode, r.laneCount >= 10 && r.laneCount <= 20, r.companyCode]).toEqual([r.rfpCode, true, '1000']);
    expect(new Set(records.map((r) => r.rfpType))).toEqual(new Set(['standard', 'non-standard']));
    const byStatus = (status: string) => records.filter((r) => r.status === status).map((r) => r.rfpCode);

    // The draft stands at the wizard's step 4 (BA selection saved, not floated): opening it restores steps 1-5.
    const [draft] = byStatus('draft');
    const draftView = await request(h.app).get(`/api/rfps/${draft}`).set(as('procurement'));
    expect(draftView.status).toBe(200);
    expect(draftView.body.steps[4].baList.length).toBe(3);
    expect(draftView.body.steps[5]).toBeNull();
    expect(draftView.body.wizard).toMatchObject({ step: 3, restoreBaSelection: true });

    const verified = ba('chamundi').baId;
    const coromandel = ba('coromandel').baId;
    // ba.verified's own RFP list: the draft is not among them; one floated RFP waits for its first quote.
    const mine = await listRfpsForBa(pool, verified, 0, 20);
    expect(mine.rows.map((r) => r.rfpCode).sort()).toEqual(DEMO_RFPS.filter((r) => r.outcome !== 'draft').map((r) => r.rfpCode).sort());
    const open = mine.rows.filter((r) => r.status === 'floated' && r.round === 1);
    expect(open.map((r) => r.lanesQuoted)).toEqual([0]);
    // …while Coromandel has quoted every lane of it, and the T&C can be downloaded.
    const [floated] = open;
    expect((await quotesOf(pool, floated!.rfpCode, 1, coromandel)).length).toBe(floated!.laneCount);
    const terms = await request(h.app).get(`/api/rfps/${floated!.rfpCode}/terms`).set(as('procurement'));
    expect([terms.status, terms.headers['content-type']]).toEqual([200, 'application/pdf']);

    // Evaluation: three BAs' quotes to compare by location.
    const [evaluation] = byStatus('evaluation');
    const compared = await comparison(pool, evaluation!, 1, 'location', { page: 0, perPage: 100 });
    expect(compared.groups.length).toBeGreaterThan(0);
    expect((await invitationsOf(pool, evaluation!)).filter((i) => i.lanesQuoted > 0)).toHaveLength(3);

    // Awarded: a lane split between two BAs, ba.verified among the winners; backhaul offered to it.
    const [awarded] = byStatus('awarded');
    const awards = await awardsOf(pool, awarded!);
    const lanes = new Map<string, number[]>();
    for (const a of awards) lanes.set(a.laneId, [...(lanes.get(a.laneId) ?? []), a.sharePercent]);
    expect([...lanes.values()].some((shares) => shares.length === 2 && shares.reduce((x, y) => x + y, 0) === 100)).toBe(true);
    expect(awards.some((a) => a.baId === verified)).toBe(true);
    expect((await invitationsOf(pool, awarded!)).find((i) => i.baId === verified)?.backhaulInvited).toBe(true);
    const verifiedView = await listRfpsForBa(pool, verified, 0, 20);
    expect(verifiedView.rows.find((r) => r.rfpCode === awarded)?.lanesAwarded).toBeGreaterThan(0);

    // Closed after its award, with its T&C.
    const [closed] = byStatus('closed');
    expect((await awardsOf(pool, closed!)).length).toBeGreaterThan(0);
    expect((await rfp(closed!)).terms?.type).toBe('application/pdf');

    // Reopened into round 2: Coromandel revised its quotes, round 1 stays readable.
    const reopened = records.find((r) => r.round === 2);
    expect(reopened?.status).toBe('floated');
    const round1 = await quotesOf(pool, reopened!.rfpCode, 1, coromandel);
    const round2 = await quotesOf(pool, reopened!.rfpCode, 2, coromandel);
    expect(round2.length).toBe(round1.length);
    expect(round2[0]?.values['ratePerTrip']).not.toBe(round1[0]?.values['ratePerTrip']);
    expect((await quotesOf(pool, reopened!.rfpCode, 1, verified)).length).toBeGreaterThan(0);

    // Every RFP event is the seed's, as staff (MLL Procurement) or as a BA's admin; never a demo person.
    const people = new Set(DEMO_USERS.map((u) => userIdForUsername(u.username)));
    for (const r of DEMO_RFPS)
      for (const e of await h.store.readStream(`rfp-${r.rfpCode}`)) {
        expect(people.has(e.metadata.actor.userId)).toBe(false);
        expect(e.metadata.actor.name).toBe(DEMO_SEED_NAME);
      }
  });

  it('gives every Bill-Hub screen data: ba.verified\'s invoices in every status and a memo with an advance', async () => {
    const mine = await request(h.app).get('/api/invoices').query({ range: '[0,49]', filter: JSON.stringify({ status: [...INVOICE_STATUSES] }) }).set(as('ba.verified'));
    expect(mine.status).toBe(200);
    const rows = mine.body as { invoiceNumber: string; status: string; erpDocumentNumber: string | null; memoNumber: string | null; remarks: string | null }[];
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(INVOICE_STATUSES));
    expect(rows.find((r) => r.status === 'B')?.erpDocumentNumber).toMatch(/^\d{10}$/);
    expect(rows.find((r) => r.status === 'C')?.remarks).toBeTruthy();
    expect(rows.filter((r) => /^MEMO\/1000\/\d{4}-\d{2}\/000001$/.test(r.memoNumber ?? ''))).toHaveLength(3);
    // Staff of company code 1000 see the submitted ones, never the draft or the discarded one.
    const staff = (await request(h.app).get('/api/invoices').query({ range: '[0,49]' }).set(as('commercial'))).body as { status: string }[];
    expect(staff.length).toBe(rows.length - 2);
    expect(staff.some((r) => r.status === 'draft' || r.status === 'discarded')).toBe(false);
    const memos = (await request(h.app).get('/api/memos').set(as('accounts'))).body as { invoiceCount: number; advanceAmount: string; balance: string }[];
    expect(memos).toEqual([expect.objectContaining({ invoiceCount: 3, advanceAmount: '25000.00' })]);
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
    // …and procurement invited another BA for backhaul on the closed RFP.
    const closedRfp = DEMO_RFPS.find((r) => r.outcome === 'closed')?.rfpCode ?? '';
    const backhaul = await request(h.app)
      .post(`/api/rfps/${closedRfp}/backhaul-invitations`)
      .set(as('procurement'))
      .send({ baId: ba('coromandel').baId, isInvited: true });
    expect(backhaul.status).toBe(200);

    const resumed = await seed();
    expect(resumed).toMatchObject({ outcome: 'seeded', actions: 0, leftAlone: expect.arrayContaining(['deccan']) });
    expect(resumed.leftAlone).not.toContain('coromandel');
    // The SAP stories stand: nothing sent again; the one a person acted on (narmada's approval) is left alone.
    expect(resumed.sap).toMatchObject({ commands: 0, blockRequests: 0, nucleusRows: 0 });
    expect(resumed.leftAlone).toContain('narmada (SAP)');
    // The RFPs stand too; the one a person acted on is left alone.
    expect(resumed.rfps).toMatchObject({ created: 0, commands: 0 });
    expect(resumed.leftAlone).toContain(`${closedRfp} (RFP)`);
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
