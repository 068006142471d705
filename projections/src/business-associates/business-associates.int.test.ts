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
import { mastersProjection } from '../masters/masters.projection';
import { businessAssociatesProjection } from './business-associates.projection';
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

const counts = (codes: readonly string[] | 'all' = ['1000']) => statusCounts(db.pool, codes);

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
    const tables = ['business_associates', 'ba_status_counts'];
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
