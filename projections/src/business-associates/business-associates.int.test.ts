import type { EventStore } from '../../../domain/src/event-store/port';
import { WELCOME_MESSAGE } from '../../../domain/src/onboarding/decide';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import {
  actors,
  applyDirectly,
  createOnboardingDriver,
  dumpTables,
  foreignEvent,
  type Onboarding,
} from '../test-support';
import { changeMasters } from '../../../tests/support/masters';
import { bankAccount, baDocument, createItemEvents, gstRow, reviewBy } from '../onboarding-items/test-events';
import { createTasksProjection } from '../tasks/tasks.projection';
import { mastersProjection } from '../masters/masters.projection';
import { businessAssociatesProjection } from './business-associates.projection';
import { blocksProjection } from '../blocks/blocks.projection';
import { vendorBlockStreamId } from '../../../domain/src/block/events';
import { getBusinessAssociate, listBusinessAssociates, statusCounts } from './business-associates.queries';

let db: TestDatabase;
let store: EventStore;
let ba: Onboarding;
let applied = 0;

/** Applies every event not applied yet, in pages of `pageSize`, as the runner would. */
async function project(pageSize = 1000): Promise<void> {
  for (;;) {
    const page = await store.readAll(applied, pageSize);
    const last = page[page.length - 1];
    if (!last) return;
    await applyDirectly(db.pool, businessAssociatesProjection, page);
    applied = last.globalPosition;
  }
}

/**
 * The lifecycle badges; the issue-8 keys are checked here once for every call: `pending` is the sidebar's
 * name for pendingOnboarding, and these lifecycles have no expired document.
 */
const counts = async (codes: readonly string[] | 'all' = ['1000']) => {
  const { pending, documentsExpired, blockedUsers, ...lifecycle } = await statusCounts(db.pool, codes);
  expect(pending).toBe(lifecycle.pendingOnboarding);
  expect(documentsExpired).toBe(0);
  expect(blockedUsers).toBe(0);
  return lifecycle;
};

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
  ba = createOnboardingDriver(store);
  applied = 0;
});

afterEach(async () => {
  await db.drop();
});

describe('business_associates projection', () => {
  it('follows a BA from registration to verification, with catalogue names and badge counts', async () => {
    await ba.create('ba-1');
    await project();
    expect(await getBusinessAssociate(db.pool, 'ba-1')).toMatchObject({
      id: 'ba-1',
      companyCode: '1000',
      status: 'pending',
      stage: null,
      companyName: null,
      submission: 0,
      submittedAt: null,
      details: null,
    });
    expect(await counts()).toEqual({
      all: 1,
      registered: 1,
      pendingOnboarding: 0,
      firstStage: 0,
      secondStage: 0,
      verified: 0,
      rejected: 0,
    });

    await ba.save('ba-1');
    await ba.submit('ba-1');
    await project();
    const submitted = await getBusinessAssociate(db.pool, 'ba-1');
    expect(submitted).toMatchObject({
      status: 'inprogress',
      stage: 1,
      submission: 1,
      companyName: 'Acme Logistics',
      panNumber: 'ABCDE1234F',
      contactPersonName: 'Ravi Kumar',
      contactPersonMobileNumber: '9876543210',
      cityId: 2701,
      cityName: 'Mumbai',
      stateId: 27,
      stateName: 'Maharashtra',
      serviceId: 1,
      serviceName: 'Transportation',
    });
    expect(submitted?.details).toMatchObject({ companyName: 'Acme Logistics', addressLine1: '12 Dock Road', cinNumber: null });
    expect(submitted?.submittedAt).toBe(submitted?.updatedAt);
    expect(await counts()).toMatchObject({ all: 1, registered: 0, pendingOnboarding: 1, firstStage: 1 });

    await ba.approve('ba-1', 1, actors.procurement);
    await project();
    expect(await getBusinessAssociate(db.pool, 'ba-1')).toMatchObject({ status: 'inprogress', stage: 2 });
    expect(await counts()).toMatchObject({ pendingOnboarding: 1, firstStage: 0, secondStage: 1 });

    await ba.approve('ba-1', 2, actors.commercial);
    await project();
    expect(await getBusinessAssociate(db.pool, 'ba-1')).toMatchObject({
      status: 'verified',
      stage: null,
      welcomeMessage: WELCOME_MESSAGE,
    });
    expect(await counts()).toEqual({
      all: 1,
      registered: 0,
      pendingOnboarding: 0,
      firstStage: 0,
      secondStage: 0,
      verified: 1,
      rejected: 0,
    });
  });

  it('shows the rejection remarks until the BA resubmits, and marks and clears overdue reviews', async () => {
    await ba.create('ba-2');
    await ba.save('ba-2');
    await ba.submit('ba-2');
    await ba.overdue('ba-2', 1, 1, ba.now());
    await project();
    expect(await getBusinessAssociate(db.pool, 'ba-2')).toMatchObject({ stage: 1, overdue: true });

    await ba.approve('ba-2', 1, actors.admin);
    await ba.reject('ba-2', 2, actors.commercial, 'PAN card does not match the company name');
    await project();
    expect(await getBusinessAssociate(db.pool, 'ba-2')).toMatchObject({
      status: 'rejected',
      stage: null,
      overdue: false,
      remarks: 'PAN card does not match the company name',
    });
    expect(await counts()).toMatchObject({ all: 1, rejected: 1, pendingOnboarding: 0, secondStage: 0 });

    await ba.save('ba-2', { companyName: 'Acme Logistics Pvt' });
    await ba.submit('ba-2');
    await project();
    expect(await getBusinessAssociate(db.pool, 'ba-2')).toMatchObject({
      status: 'inprogress',
      stage: 1,
      submission: 2,
      remarks: null,
      companyName: 'Acme Logistics Pvt',
    });
    expect(await counts()).toMatchObject({ all: 1, rejected: 0, pendingOnboarding: 1, firstStage: 1 });
  });

  it('gives the same rows and counts when pages are applied again or split differently, and skips unknown events', async () => {
    for (const id of ['a', 'b', 'c']) {
      await ba.create(id, id === 'c' ? '2000' : '1000');
      await ba.save(id, { companyName: `Company ${id}` });
    }
    await ba.submit('a');
    await ba.approve('a', 1, actors.procurement);
    await ba.submit('b');
    await ba.reject('b', 1, actors.procurement, 'Wrong PAN');

    // One event per page.
    await project(1);
    const tables = ['business_associates', 'ba_status_counts', 'ba_facet_counts'];
    const once = await dumpTables(db.pool, tables);

    // Everything again in one page, with an unknown event in the middle.
    const all = await store.readAll(0, 1000);
    const head = all[all.length - 1]?.globalPosition ?? 0;
    await applyDirectly(db.pool, businessAssociatesProjection, [...all.slice(0, 3), foreignEvent(head + 1), ...all.slice(3)]);
    await applyDirectly(db.pool, businessAssociatesProjection, all);
    expect(await dumpTables(db.pool, tables)).toEqual(once);
    expect(await counts('all')).toEqual({
      all: 3,
      registered: 1,
      pendingOnboarding: 1,
      firstStage: 0,
      secondStage: 1,
      verified: 0,
      rejected: 1,
    });
    expect(await counts(['2000'])).toMatchObject({ all: 1, registered: 1 });
    // Issue 12: the facet counts the list sums for its location filter are the rows' own.
    const { rows: recounted } = await db.pool.query(
      `SELECT b.company_code, s AS value, count(*)::int AS n FROM business_associates b, unnest(b.location_state_ids) s GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const { rows: kept } = await db.pool.query(
      `SELECT company_code, value, count::int AS n FROM ba_facet_counts WHERE facet = 'location' AND bucket = 'all' ORDER BY 1, 2`,
    );
    expect(recounted.length).toBeGreaterThan(0);
    expect(kept).toEqual(recounted);
  });
});

describe('business_associates names', () => {
  it('names the city, state and service as the masters name them when read: a rename shows at once', async () => {
    await ba.create('n1');
    await ba.save('n1');
    await project();
    expect(await getBusinessAssociate(db.pool, 'n1')).toMatchObject({
      cityId: 2701,
      cityName: 'Mumbai',
      stateName: 'Maharashtra',
      serviceName: 'Transportation',
    });
    const from = await store.headPosition();
    const projectMasters = async () => applyDirectly(db.pool, mastersProjection, await store.readAll(from, 100));
    await changeMasters({ store, pool: db.pool, project: projectMasters }, [
      { type: 'ChangeMasterItem', master: 'cities', id: 2701, values: { name: 'Mumbai City' } },
    ]);
    expect(await getBusinessAssociate(db.pool, 'n1')).toMatchObject({ cityId: 2701, cityName: 'Mumbai City' });
    const { rows } = await listBusinessAssociates(db.pool, { companyCodes: 'all', sort: { field: 'cityName', order: 'ASC' } });
    expect(rows.find((r) => r.id === 'n1')?.cityName).toBe('Mumbai City');
  });
});

describe('business_associates projection, overlapping pages', () => {
  it('counts a BA once when a page overlaps events already applied', async () => {
    // After the reference data the database starts with (the BA's own events are the page).
    const from = await store.headPosition();
    await ba.create('o1');
    await ba.save('o1');
    await ba.submit('o1');
    const events = await store.readAll(from, 100);
    await applyDirectly(db.pool, businessAssociatesProjection, events.slice(0, 2));
    await applyDirectly(db.pool, businessAssociatesProjection, events);
    expect(await getBusinessAssociate(db.pool, 'o1')).toMatchObject({ status: 'inprogress', stage: 1, submission: 1 });
    expect(await counts()).toEqual({
      all: 1,
      registered: 0,
      pendingOnboarding: 1,
      firstStage: 1,
      secondStage: 0,
      verified: 0,
      rejected: 0,
    });
  });
});

describe('listBusinessAssociates', () => {
  beforeEach(async () => {
    // 1000: p1 pending (Pune), s1 first stage, s2 second stage, v verified, r rejected; 2000: x pending.
    await ba.create('p1');
    await ba.save('p1', { companyName: 'Pune Movers', panNumber: 'PUNEM1234A', cityId: 2702 });
    for (const [id, name, pan] of [
      ['s1', 'Sigma Freight', 'SIGMA1234B'],
      ['s2', 'Swift Carriers', 'SWIFT1234C'],
      ['v', 'Vega Transport', 'VEGAT1234D'],
      ['r', 'Rapid 50% Cargo', 'RAPID1234E'],
    ] as const) {
      await ba.create(id);
      await ba.save(id, { companyName: name, panNumber: pan });
      await ba.submit(id);
    }
    await ba.approve('s2', 1, actors.procurement);
    await ba.approve('v', 1, actors.procurement);
    await ba.approve('v', 2, actors.commercial);
    await ba.reject('r', 1, actors.procurement, 'Incomplete address');
    await ba.create('x', '2000');
    await ba.save('x', { companyName: 'Xeno Shipping' });
    await project();
  });

  const ids = (r: { rows: { id: string }[] }) => r.rows.map((x) => x.id);
  const list = (filter: Record<string, unknown>, codes: readonly string[] | 'all' = ['1000']) =>
    listBusinessAssociates(db.pool, { companyCodes: codes, filter, sort: { field: 'id', order: 'ASC' }, range: { offset: 0, limit: 50 } });

  it('filters by status, the spec list filters and the stage tabs, with totals', async () => {
    expect(await list({})).toMatchObject({ total: 5 });
    expect(ids(await list({}))).toEqual(['p1', 'r', 's1', 's2', 'v']);
    expect(ids(await list({ status: 'registered' }))).toEqual(['p1']);
    expect(ids(await list({ status: 'pending' }))).toEqual(['p1']);
    expect(await list({ status: 'inprogress' })).toMatchObject({ total: 2 });
    expect(ids(await list({ tab: 'first' }))).toEqual(['s1']);
    expect(ids(await list({ status: 'inprogress', stage: 2 }))).toEqual(['s2']);
    expect(ids(await list({ stage: '2' }))).toEqual(['s2']);
    expect(ids(await list({ status: 'approved' }))).toEqual(['v']);
    expect(ids(await list({ status: 'processed' }))).toEqual(['r', 'v']);
    expect(await list({ status: 'processed' })).toMatchObject({ total: 2 });
    expect(await list({ status: 'blocked' })).toEqual({ rows: [], total: 0 });
    expect(await list({ status: 'verified', tab: 'second' })).toEqual({ rows: [], total: 0 });
    await expect(list({ status: 'nonsense' })).rejects.toMatchObject({ code: 'validation' });
    await expect(list({ stage: 3 })).rejects.toMatchObject({ code: 'validation' });
  });

  it('issue 9: a BA is blocked while one of its vendor codes is (filter "blocked", row flag, blockedUsers count)', async () => {
    const meta = { actor: actors.procurement, companyCode: '1000', correlationId: 'c', causationId: null, workflowId: null, requestId: null, at: '2026-01-15T10:00:00.000Z' };
    const ref = { vendorCode: '1000000042', baId: 'v', pan: 'VEGAT1234D', companyCode: '1000', level: 'parent', requestId: 'r-1' };
    const vendorEvent = (n: number, type: string, data: Record<string, unknown>) => ({ eventId: `00000000-0000-4000-8000-00000000000${n}`, type, data, metadata: meta });
    const stream = vendorBlockStreamId(ref.vendorCode);
    await store.appendToStream(stream, [vendorEvent(1, 'VendorBlockRequestOpened', { ...ref, action: 'block' })], { expectedVersion: 'no_stream' });
    const blockedNow = async () => {
      const page = await store.readAll(0, 10_000);
      await applyDirectly(db.pool, blocksProjection, page.filter((e) => e.streamId === stream));
    };
    await blockedNow();
    // Asked, not yet applied: not blocked.
    expect(await list({ status: 'blocked' })).toEqual({ rows: [], total: 0 });
    await store.appendToStream(
      stream,
      [vendorEvent(2, 'VendorBlockRequestClosed', { ...ref, action: 'block', outcome: 'applied', blocked: true })],
      { expectedVersion: 0 },
    );
    await blockedNow();
    expect(ids(await list({ status: 'blocked' }))).toEqual(['v']);
    expect(ids(await list({ status: 'blocked', companyName: 'vega' }))).toEqual(['v']);
    expect(await list({ status: 'blocked' }, ['2000'])).toEqual({ rows: [], total: 0 });
    expect((await list({ status: 'verified' })).rows[0]).toMatchObject({ id: 'v', blocked: true });
    expect((await getBusinessAssociate(db.pool, 's1'))?.blocked).toBe(false);
    expect((await statusCounts(db.pool, ['1000'])).blockedUsers).toBe(1);
    expect((await statusCounts(db.pool, 'all')).blockedUsers).toBe(1);
    expect((await statusCounts(db.pool, ['2000'])).blockedUsers).toBe(0);
    await store.appendToStream(
      stream,
      [vendorEvent(3, 'VendorBlockRequestOpened', { ...ref, requestId: 'r-2', action: 'unblock' }), vendorEvent(4, 'VendorBlockRequestClosed', { ...ref, requestId: 'r-2', action: 'unblock', outcome: 'applied', blocked: false })],
      { expectedVersion: 1 },
    );
    await blockedNow();
    expect(await list({ status: 'blocked' })).toEqual({ rows: [], total: 0 });
    expect((await statusCounts(db.pool, ['1000'])).blockedUsers).toBe(0);
  });

  it('searches by name, name prefix, PAN prefix and city, with counted totals', async () => {
    expect(ids(await list({ q: 'FREIGHT' }))).toEqual(['s1']);
    expect(ids(await list({ q: '50%' }))).toEqual(['r']);
    expect(ids(await list({ q: '%' }))).toEqual(['r']);
    expect(ids(await list({ companyName: 's' }))).toEqual(['s1', 's2']);
    expect(await list({ companyName: 's', status: 'inprogress', stage: 1 })).toMatchObject({ total: 1 });
    expect(ids(await list({ panNumber: 'vegat' }))).toEqual(['v']);
    expect(ids(await list({ cityId: '2702' }))).toEqual(['p1']);
    expect(await list({ cityId: 2701 })).toMatchObject({ total: 4 });
  });

  it('keeps staff to their company codes and a BA to its own record', async () => {
    expect(ids(await list({}, ['2000']))).toEqual(['x']);
    expect(await list({}, 'all')).toMatchObject({ total: 6 });
    expect(ids(await list({ companyCode: '2000' }, ['1000']))).toEqual([]);
    expect(await list({ companyCode: '2000' }, ['1000'])).toMatchObject({ total: 0 });
    expect(ids(await list({ companyCode: '2000' }, 'all'))).toEqual(['x']);
    const own = await listBusinessAssociates(db.pool, { companyCodes: 'all', baId: 's1', filter: {} });
    expect(own).toMatchObject({ total: 1, rows: [{ id: 's1' }] });
  });

  it('sorts by whitelisted fields only, pages, and caps the page size', async () => {
    const byName = await listBusinessAssociates(db.pool, {
      companyCodes: ['1000'],
      filter: {},
      sort: { field: 'companyName', order: 'DESC' },
      range: { offset: 1, limit: 2 },
    });
    expect(byName).toMatchObject({ total: 5, rows: [{ companyName: 'Swift Carriers' }, { companyName: 'Sigma Freight' }] });
    // An unknown sort field falls back to the default order instead of reaching SQL.
    const fallback = await listBusinessAssociates(db.pool, {
      companyCodes: ['1000'],
      filter: {},
      sort: { field: 'id; DROP TABLE business_associates', order: 'ASC' },
      range: { offset: 0, limit: 10 },
    });
    expect(fallback.rows.map((r) => r.updatedAt)).toEqual(fallback.rows.map((r) => r.updatedAt).sort().reverse());
    for (let i = 0; i < 120; i += 1) await ba.create(`bulk-${String(i).padStart(3, '0')}`);
    await project();
    const capped = await listBusinessAssociates(db.pool, { companyCodes: 'all', filter: {}, range: { offset: 0, limit: 500 } });
    expect(capped.rows).toHaveLength(100);
    expect(capped.total).toBe(126);
  });
});

describe('registered contact on the BA list', () => {
  it('shows the e-mail id and mobile a BA registered with, in list rows and the single read, and finds it by them', async () => {
    // Given a BA that has registered but filled nothing in, and one that has
    await ba.create('fresh');
    await ba.create('filled');
    await ba.save('filled');
    await project();

    // Then both carry what they registered with, so staff recognise the fresh one without a company name
    const { rows } = await listBusinessAssociates(db.pool, { companyCodes: ['1000'], filter: {}, sort: { field: 'id', order: 'ASC' } });
    expect(rows.map((r) => [r.id, r.companyName, r.registeredEmail, r.registeredMobile, r.companyCode])).toEqual([
      ['filled', 'Acme Logistics', 'filled@demo.test', '9876543210', '1000'],
      ['fresh', null, 'fresh@demo.test', '9876543210', '1000'],
    ]);
    expect(await getBusinessAssociate(db.pool, 'fresh')).toMatchObject({
      registeredEmail: 'fresh@demo.test',
      registeredMobile: '9876543210',
      // The admin created with the BA: staff start a contact change for this user from the BA page.
      adminUserId: 'ba-user-fresh',
    });

    // And the search box finds a BA by its registered e-mail id or mobile as well as by its name
    const search = async (q: string) =>
      (await listBusinessAssociates(db.pool, { companyCodes: ['1000'], filter: { q } })).rows.map((r) => r.id).sort();
    expect(await search('FRESH@demo')).toEqual(['fresh']);
    expect(await search('98765')).toEqual(['filled', 'fresh']);
    expect(await search('acme')).toEqual(['filled']);
  });

  it('keeps the registered contact when later events rewrite the row, and when pages are applied again', async () => {
    await ba.create('kept');
    await project();
    await ba.save('kept');
    await ba.submit('kept');
    await project();
    applied = 0;
    await project();
    expect(await getBusinessAssociate(db.pool, 'kept')).toMatchObject({
      status: 'inprogress',
      registeredEmail: 'kept@demo.test',
      registeredMobile: '9876543210',
    });
  });
});

describe('issue 8: the items on the BA list', () => {
  let items: ReturnType<typeof createItemEvents>;
  beforeEach(() => {
    items = createItemEvents(store);
  });
  const list = (filter: Record<string, unknown>, extra: { caller?: { userId: string; roles: string[] } } = {}) =>
    listBusinessAssociates(db.pool, { companyCodes: ['1000'], filter, sort: { field: 'id', order: 'ASC' }, ...extra });
  const ids = (r: { rows: { id: string }[] }) => r.rows.map((x) => x.id);
  const upload = (baId: string, docId: string, replaces: string | null = null) =>
    items.append(baId, {
      type: 'DocumentUploaded',
      data: { baId, docId, document: baDocument({ validTill: '2027-01-31' }), replaces, uploadedBy: actors.ba(baId).userId, role: 'BA Admin' },
    });
  const review = (baId: string, docId: string, decision: 'approved' | 'rejected') =>
    items.append(
      baId,
      { type: 'DocumentReviewed', data: { baId, docId, decision, approvedTill: decision === 'approved' ? '2027-01-31' : null, ...reviewBy(actors.procurement, items.now(), decision === 'rejected' ? 'Blurred' : null) } },
      actors.procurement,
    );
  const expire = (baId: string, docId: string) =>
    items.append(baId, { type: 'DocumentExpired', data: { baId, docId, documentTypeName: 'PAN Card', validTill: '2027-01-31' } }, actors.system);
  const expiredCount = async () => (await statusCounts(db.pool, ['1000'])).documentsExpired;

  it('flags expired documents until a replacement is uploaded and approved, in rows, the filter and the badge', async () => {
    await ba.create('e1');
    await ba.create('e2');
    await upload('e1', 'd1');
    await review('e1', 'd1', 'approved');
    await expire('e1', 'd1');
    await project();
    expect(ids(await list({ status: 'documents_expired' }))).toEqual(['e1']);
    expect((await getBusinessAssociate(db.pool, 'e1'))?.documentsExpired).toBe(true);
    expect(await expiredCount()).toBe(1);
    // Combined with a lifecycle status: e1 is registered (pending), not verified.
    expect(ids(await list({ status: 'documents_expired', tab: 'registered' }))).toEqual(['e1']);
    expect(ids(await list({ status: 'documents_expired', tab: 'verified' }))).toEqual([]);

    // A replacement uploaded, then rejected: still expired.
    await upload('e1', 'd2', 'd1');
    await review('e1', 'd2', 'rejected');
    await project();
    expect(await expiredCount()).toBe(1);
    // Another upload replacing the rejected one, approved: the flag goes.
    await upload('e1', 'd3', 'd2');
    await review('e1', 'd3', 'approved');
    await project();
    expect(ids(await list({ status: 'documents_expired' }))).toEqual([]);
    expect(await getBusinessAssociate(db.pool, 'e1')).toMatchObject({ documentsExpired: false });
    expect(await expiredCount()).toBe(0);

    // Deleting the expired document itself also clears it.
    await upload('e2', 'x1');
    await expire('e2', 'x1');
    await project();
    expect(await expiredCount()).toBe(1);
    await items.append('e2', { type: 'DocumentDeleted', data: { baId: 'e2', docId: 'x1' } });
    await project();
    expect(await expiredCount()).toBe(0);
  });

  it('filters by vertical, location (state of the company or a GST row) and mobile number', async () => {
    await ba.create('m1');
    await ba.save('m1', { stateId: 27, cityId: 2701, contactPersonMobileNumber: '9000000001' });
    await ba.create('m2');
    await ba.save('m2', { stateId: 29, cityId: 2901, pinCode: '560001', contactPersonMobileNumber: '9000000002' });
    await items.append('m1', {
      type: 'VerticalMappingSaved',
      data: { baId: 'm1', mapping: { verticalIds: [4, 2], subServiceIds: [], vehicleTypeIds: [], zoneIds: [], pickupZoneIds: [], deliveryZoneIds: [] }, changes: {} },
    });
    await items.append('m2', { type: 'GstRegistrationSaved', data: { baId: 'm2', gstId: 'g', registration: gstRow({ stateId: 33, gstNo: '33ABCDE1234F1Z5' }), changes: {} } });
    await project();
    expect(ids(await list({ verticalId: 2 }))).toEqual(['m1']);
    expect(ids(await list({ verticalId: '4' }))).toEqual(['m1']);
    expect(ids(await list({ verticalId: 3 }))).toEqual([]);

    // Locations of the masters in the test data: one per state it needs, found by state.
    const location = async (stateId: number) => {
      const { rows } = await db.pool.query<{ id: string }>(
        `SELECT id FROM master_items WHERE master = 'locations' AND values->>'stateId' = $1 ORDER BY num_id LIMIT 1`,
        [String(stateId)],
      );
      expect(rows[0]).toBeDefined();
      return rows[0]!.id;
    };
    for (const [stateId, expected] of [
      [27, ['m1']],
      [29, ['m2']],
      [33, ['m2']],
    ] as const) {
      expect(ids(await list({ locationId: await location(stateId) }))).toEqual(expected);
    }
    expect(await list({ locationId: 987654 })).toEqual({ rows: [], total: 0 });
    // The GST row deleted: m2 is no longer in that state.
    await items.append('m2', { type: 'GstRegistrationDeleted', data: { baId: 'm2', gstId: 'g' } });
    await project();
    expect(ids(await list({ locationId: await location(33) }))).toEqual([]);

    expect(ids(await list({ mobileNo: '9000000002' }))).toEqual(['m2']);
    expect(ids(await list({ mobileNo: '900000000' }))).toEqual(['m1', 'm2']);
    await expect(list({ mobileNo: '90-00' })).rejects.toMatchObject({ code: 'validation' });
    expect((await getBusinessAssociate(db.pool, 'm1'))).toMatchObject({ mobileNo: '9000000001', email: 'm1@demo.test', paymentsOnHold: false });
  });

  it("finds the caller's pending tasks with user_pending_task", async () => {
    await ba.create('t1');
    await ba.save('t1');
    await ba.submit('t1');
    await ba.create('t2');
    await ba.save('t2');
    await ba.submit('t2');
    await ba.approve('t2', 1, actors.procurement);
    await project();
    const tasks = createTasksProjection({});
    await applyDirectly(db.pool, tasks, await store.readAll(0, 10_000));
    const procurement = { userId: 'u-procurement', roles: ['MLL Procurement'] };
    const commercial = { userId: 'u-commercial', roles: ['MLL Commercial'] };
    expect(ids(await list({ status: 'user_pending_task' }, { caller: procurement }))).toEqual(['t1']);
    expect(ids(await list({ status: 'user_pending_task' }, { caller: commercial }))).toEqual(['t2']);
    expect(ids(await list({ status: 'user_pending_task' }))).toEqual([]);
  });

  it('holds payments while a bank change request waits, and applies an approved company change', async () => {
    await ba.create('h1');
    await ba.save('h1');
    await items.append('h1', { type: 'BankAccountSaved', data: { baId: 'h1', accountId: 'p', primary: true, account: bankAccount(), changes: {} } });
    await items.append('h1', { type: 'PaymentsHeld', data: { baId: 'h1', reason: 'Bank account change', changeRequestId: 'cr' } });
    await items.append('h1', {
      type: 'ChangeRequestRaised',
      data: { baId: 'h1', requestId: 'cc', section: 'company', proposed: { companyName: 'Acme Freight' }, changes: {} },
    });
    await project();
    expect(await getBusinessAssociate(db.pool, 'h1')).toMatchObject({ paymentsOnHold: true, companyName: 'Acme Logistics' });
    await items.append('h1', { type: 'PaymentsReleased', data: { baId: 'h1', changeRequestId: 'cr' } });
    await items.append('h1', {
      type: 'ChangeRequestApproved',
      data: { baId: 'h1', requestId: 'cc', approvedBy: 'u-procurement', role: 'MLL Procurement', at: items.now(), final: true },
    });
    await project();
    expect(await getBusinessAssociate(db.pool, 'h1')).toMatchObject({ paymentsOnHold: false, companyName: 'Acme Freight' });
  });
});
