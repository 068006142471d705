import type { EventStore } from '../domain/src/event-store/port';
import { masterItemStreamId } from '../domain/src/masters/events';
import { REFERENCE_DATA, REFERENCE_DATA_ACTOR } from '../domain/src/masters/reference-data';
import { getMasterItem, masterCounts } from '../projections/src/masters/masters.queries';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { changeMasters, deactivate } from '../tests/support/masters';
import { createTestDatabase, type TestDatabase } from '../tests/support/postgres';
import { loadReferenceData, loadReferenceDataWithReadModels } from './reference-data';

/**
 * The reference data goes in through the masters' commands, once: a second start appends nothing, an item an
 * administrator changed stays as they left it, and rows a later release adds arrive on the next start.
 */
jest.setTimeout(120_000);

const ITEMS = REFERENCE_DATA.reduce((n, m) => n + m.rows.length, 0);
let db: TestDatabase;
let store: EventStore;

beforeEach(async () => {
  db = await createTestDatabase({ empty: true, poolSize: 20 });
  store = createPostgresEventStore(db.appPool);
});

afterEach(async () => {
  await store?.close();
  await db?.drop();
});

it('creates every item once, as the reference-data actor, and the read models show them', async () => {
  const started = Date.now();
  const first = await loadReferenceDataWithReadModels(db.appPool);
  const ms = Date.now() - started;
  expect(first).toMatchObject({ created: ITEMS, existing: 0 });
  expect(await store.headPosition()).toBe(ITEMS);
  // Reported, not asserted: timing belongs to the bench, but a slow loader is every start's cost.
  console.log(`[reference-data] ${ITEMS} items loaded and projected in ${ms} ms`);

  const mumbai = await store.readStream(masterItemStreamId('cities', 2701));
  expect(mumbai.map((e) => [e.type, e.data, e.metadata.actor])).toEqual([
    ['MasterItemCreated', { master: 'cities', id: 2701, values: { name: 'Mumbai', stateId: 27 } }, REFERENCE_DATA_ACTOR],
  ]);
  expect(await getMasterItem(db.pool, 'companies', '1000')).toMatchObject({ id: '1000', name: 'MLL Logistics', status: 'active' });
  const counts = new Map((await masterCounts(db.pool)).map((c) => [c.master, c.active]));
  for (const { resource, rows } of REFERENCE_DATA) expect([resource, counts.get(resource)]).toEqual([resource, rows.length]);
});

it('appends nothing on a second run, and never touches an item someone has changed', async () => {
  await loadReferenceData(store, { pool: db.appPool });
  await changeMasters({ store, pool: db.pool, project: async () => undefined }, [deactivate('cities', 2701)]);
  const head = await store.headPosition();
  const mumbai = await store.readStream(masterItemStreamId('cities', 2701));

  const again = await loadReferenceData(store, { pool: db.appPool });
  expect(again).toEqual({ created: 0, existing: ITEMS, lastGlobalPosition: 0 });
  expect(await store.headPosition()).toBe(head);
  expect(await store.readStream(masterItemStreamId('cities', 2701))).toEqual(mumbai);
});

it('creates only what is missing: an interrupted run, or rows a later release added', async () => {
  const states = REFERENCE_DATA.find((m) => m.resource === 'states')!;
  await loadReferenceData(store, { pool: db.appPool, data: [{ resource: 'states', rows: states.rows.slice(0, 10) }] });
  const rest = await loadReferenceData(store, { pool: db.appPool });
  expect(rest).toMatchObject({ created: ITEMS - 10, existing: 10 });
  expect(await store.headPosition()).toBe(ITEMS);
});

it('works the same without PostgreSQL to ask (KurrentDB): each stream is read instead', async () => {
  const few = REFERENCE_DATA.filter((m) => ['companies', 'states'].includes(m.resource));
  const count = few.reduce((n, m) => n + m.rows.length, 0);
  expect(await loadReferenceData(store, { data: few })).toMatchObject({ created: count, existing: 0 });
  expect(await loadReferenceData(store, { data: few })).toMatchObject({ created: 0, existing: count });
  expect(await store.headPosition()).toBe(count);
});

it('lets two starts at the same moment create each item once', async () => {
  // Both decide the same command (same id, same event ids): the store keeps the first append and answers the
  // second with its result, so each loader may count an item the other wrote; the store holds it once.
  await Promise.all([loadReferenceData(store, { pool: db.appPool }), loadReferenceData(store, { pool: db.appPool })]);
  expect(await store.headPosition()).toBe(ITEMS);
  const { rows } = await db.pool.query<{ n: number }>('select count(distinct stream_id)::int as n from events');
  expect(rows[0]?.n).toBe(ITEMS);
});
