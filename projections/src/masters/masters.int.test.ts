import type { EventStore } from '../../../domain/src/event-store/port';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import { masterDecider } from '../../../domain/src/masters/decide';
import { masterDefinition, normaliseKeyPart } from '../../../domain/src/masters/definitions';
import { masterItemStreamId, type MasterCommand } from '../../../domain/src/masters/events';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { rebuildProjections, rebuildTables } from '../rebuild';
import { allProjections } from '../registry';
import { applyDirectly, dumpTables, foreignEvent } from '../test-support';
import { mastersProjection } from './masters.projection';
import { findByUniqueKey, getMasterItem, getMasterItems, listMasterItems, masterCounts } from './masters.queries';

let db: TestDatabase;
let store: EventStore;
let n = 0;

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
});

afterEach(async () => {
  await db.drop();
});

async function run(command: MasterCommand) {
  n += 1;
  await handleCommand(store, masterItemStreamId(command.master, command.id), masterDecider, command, {
    commandId: `test-${n}`,
    actor: { userId: 'u-mdm', role: 'MDM', name: 'Meera MDM' },
    at: `2026-03-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
    companyCode: null,
    correlationId: `c-${n}`,
    causationId: null,
    workflowId: null,
    requestId: null,
  });
}

// Ids far from the reference data (which the test template may hold), so the assertions see only these.
const S = 900001;
async function history() {
  await run({ type: 'CreateMasterItem', master: 'states', id: S, values: { name: 'Testland', stateCode: 'QT', gstStateCode: '91' } });
  await run({ type: 'CreateMasterItem', master: 'states', id: S + 1, values: { name: 'Otherland', stateCode: 'QO', gstStateCode: '92' } });
  const cities = ['Zeta Nagar', 'alpha Pur', 'Beta Gaon', 'Gamma Puram'];
  for (const [i, name] of cities.entries()) {
    await run({ type: 'CreateMasterItem', master: 'cities', id: S + 10 + i, values: { name, stateId: i < 3 ? S : S + 1 } });
  }
  await run({ type: 'ChangeMasterItem', master: 'cities', id: S + 12, values: { name: 'Beta Nagar' } });
  await run({ type: 'SetMasterItemStatus', master: 'cities', id: S + 13, status: 'inactive' });
  await run({ type: 'CreateMasterItem', master: 'tax-codes', id: S + 20, values: { taxCode: 'QA', description: 'Ten', taxRate: 10 } });
  await run({ type: 'CreateMasterItem', master: 'tax-codes', id: S + 21, values: { taxCode: 'QB', description: 'Nine', taxRate: 9 } });
  await run({ type: 'CreateMasterItem', master: 'tax-codes', id: S + 22, values: { taxCode: 'QC', description: 'Two', taxRate: 2.5 } });
  await run({ type: 'CreateMasterItem', master: 'zones', id: S + 30, values: { name: 'Test Zone', stateIds: [S + 1, S] } });
  await run({ type: 'CreateMasterItem', master: 'companies', id: 'Q9', values: { companyCode: 'Q9', name: 'Quality Nine' } });
}

const page = { offset: 0, limit: 100 };
const mine = <T extends { id: unknown }>(rows: T[]) => rows.filter((r) => typeof r.id !== 'number' || r.id >= S);

describe('masters projection', () => {
  it('projects items with their values, edits and status, and answers the queries', async () => {
    await history();
    await applyDirectly(db.pool, mastersProjection, await store.readAll(0, 100_000));
    const cities = masterDefinition('cities');

    expect(await getMasterItem(db.pool, 'cities', S + 12)).toEqual({
      id: S + 12,
      name: 'Beta Nagar',
      stateId: S,
      status: 'active',
      updatedAt: expect.stringMatching(/^2026-03-01T10:00:\d\d\.000Z$/),
    });
    expect((await getMasterItem(db.pool, 'companies', 'Q9'))?.id).toBe('Q9');
    expect(await getMasterItem(db.pool, 'cities', S + 99)).toBeNull();

    // Default order: the display value, case-insensitively.
    const byName = await listMasterItems(db.pool, cities, { refs: { stateId: [S, S + 1] }, sort: { field: 'name', order: 'ASC' }, range: page });
    expect(byName.rows.map((r) => r['name'])).toEqual(['alpha Pur', 'Beta Nagar', 'Gamma Puram', 'Zeta Nagar']);
    expect(byName.total).toBe(4);

    const active = await listMasterItems(db.pool, cities, { status: 'active', refs: { stateId: [S, S + 1] }, sort: { field: 'name', order: 'ASC' }, range: page });
    expect(active.rows.map((r) => r.id)).toEqual([S + 11, S + 12, S + 10]);

    const inState = await listMasterItems(db.pool, cities, { refs: { stateId: [S + 1] }, sort: { field: 'id', order: 'ASC' }, range: page });
    expect(inState.rows.map((r) => r.id)).toEqual([S + 13]);

    const searched = await listMasterItems(db.pool, cities, { q: 'NAGAR', sort: { field: 'name', order: 'DESC' }, range: page });
    expect(mine(searched.rows).map((r) => r['name'])).toEqual(['Zeta Nagar', 'Beta Nagar']);
    // LIKE wildcards in q are matched literally.
    expect((await listMasterItems(db.pool, cities, { q: '%', sort: { field: 'name', order: 'ASC' }, range: page })).total).toBe(0);

    // Numbers sort as numbers: 2.5 < 9 < 10.
    const taxCodes = masterDefinition('tax-codes');
    const byRate = await listMasterItems(db.pool, taxCodes, { ids: [S + 20, S + 21, S + 22], sort: { field: 'taxRate', order: 'ASC' }, range: page });
    expect(byRate.rows.map((r) => r['taxRate'])).toEqual([2.5, 9, 10]);

    // A list of references (stored sorted) filters by containment.
    const zones = await listMasterItems(db.pool, masterDefinition('zones'), { refs: { stateIds: [S + 1] }, sort: { field: 'name', order: 'ASC' }, range: page });
    expect(zones.rows).toEqual([expect.objectContaining({ id: S + 30, stateIds: [S, S + 1] })]);

    // Paging past the end still reports the total.
    const past = await listMasterItems(db.pool, cities, { refs: { stateId: [S] }, sort: { field: 'name', order: 'ASC' }, range: { offset: 50, limit: 10 } });
    expect(past).toEqual({ rows: [], total: 3 });

    expect((await getMasterItems(db.pool, 'states', [S + 1, S, S - 2])).map((r) => r.id)).toEqual([S, S + 1]);
    const counts = new Map((await masterCounts(db.pool)).map((c) => [c.master, c]));
    const unfiltered = await listMasterItems(db.pool, cities, { sort: { field: 'name', order: 'ASC' }, range: { offset: 0, limit: 1 } });
    expect(unfiltered.total).toBe(counts.get('cities')!.active + counts.get('cities')!.inactive);
    const inactive = await listMasterItems(db.pool, cities, { status: 'inactive', sort: { field: 'name', order: 'ASC' }, range: page });
    expect(inactive.total).toBe(counts.get('cities')!.inactive);
    expect(mine(inactive.rows).map((r) => r.id)).toEqual([S + 13]);
  });

  it('keeps the counts equal to a recount of the items, page by page and with statuses going back and forth', async () => {
    await history();
    await run({ type: 'SetMasterItemStatus', master: 'cities', id: S + 13, status: 'active' });
    await run({ type: 'SetMasterItemStatus', master: 'cities', id: S + 10, status: 'inactive' });
    await run({ type: 'SetMasterItemStatus', master: 'cities', id: S + 10, status: 'active' });
    await run({ type: 'SetMasterItemStatus', master: 'cities', id: S + 11, status: 'inactive' });
    await run({ type: 'SetMasterItemStatus', master: 'tax-codes', id: S + 20, status: 'inactive' });
    const events = await store.readAll(0, 100_000);
    const recount = async () =>
      (
        await db.pool.query(
          `SELECT master, count(*) FILTER (WHERE status = 'active')::int AS active,
                  count(*) FILTER (WHERE status = 'inactive')::int AS inactive
             FROM master_items GROUP BY master ORDER BY master`,
        )
      ).rows;
    const counts = async () => (await db.pool.query('SELECT master, active, inactive FROM master_counts ORDER BY master')).rows;
    // Half in one page (a create and its status changes together), the rest one event a page.
    const half = Math.floor(events.length / 2);
    await applyDirectly(db.pool, mastersProjection, events.slice(0, half));
    expect(await counts()).toEqual(await recount());
    for (const e of events.slice(half)) await applyDirectly(db.pool, mastersProjection, [e]);
    expect(await counts()).toEqual(await recount());
  });

  it('changes nothing when events are applied again, and ignores unknown events', async () => {
    await history();
    const events = await store.readAll(0, 100_000);
    await applyDirectly(db.pool, mastersProjection, events);
    const once = await dumpTables(db.pool, mastersProjection.tables);
    await applyDirectly(db.pool, mastersProjection, [...events, foreignEvent(events.length + 1)]);
    // Applied again one by one (pages that overlap what was applied).
    for (const e of events.slice(-5)) await applyDirectly(db.pool, mastersProjection, [e]);
    expect(await dumpTables(db.pool, mastersProjection.tables)).toEqual(once);
  });

  it('is registered, and a rebuild from the events equals the live tables row for row', async () => {
    expect(allProjections().map((p) => p.name)).toContain('masters');
    await history();
    await applyDirectly(db.pool, mastersProjection, await store.readAll(0, 100_000));
    const live = await dumpTables(db.pool, mastersProjection.tables);
    await rebuildProjections({ pool: db.pool, store, projections: [mastersProjection], pageSize: 3, swap: false });
    const rebuilt = await dumpTables(db.pool, mastersProjection.tables.map(rebuildTables));
    expect(Object.values(rebuilt)).toEqual(Object.values(live));
  });

  it('keeps each unique key of an item as the api claims it, and finds a holder by it, case and spaces aside', async () => {
    await history();
    await applyDirectly(db.pool, mastersProjection, await store.readAll(0, 100_000));
    const { rows } = await db.pool.query(`SELECT id, unique_keys FROM master_items WHERE master = 'states' AND id = $1`, [String(S)]);
    // states: the name and, on their own, the state code and the GST state code.
    expect(rows[0].unique_keys).toEqual(expect.arrayContaining(['name=testland', 'stateCode=qt', 'gstStateCode=91']));

    const city = (name: string, stateId: number, except: string | null = null) =>
      findByUniqueKey(db.pool, 'cities', ['name', 'stateId'], [normaliseKeyPart(name), normaliseKeyPart(stateId)], except);
    expect(await city('  BETA   nagar ', S)).toBe(String(S + 12));
    // The key moved with the change: the old name is free; the same name in another state is another key.
    expect(await city('Beta Gaon', S)).toBeNull();
    expect(await city('Beta Nagar', S + 1)).toBeNull();
    // The item itself is not its own duplicate; an inactive item still holds its key.
    expect(await city('Beta Nagar', S, String(S + 12))).toBeNull();
    expect(await city('Gamma Puram', S + 1)).toBe(String(S + 13));

    // A row projected before the column existed (NULL) is still found, by its values.
    await db.pool.query(`UPDATE master_items SET unique_keys = NULL WHERE master = 'cities' AND id = $1`, [String(S + 10)]);
    expect(await city('zeta nagar', S)).toBe(String(S + 10));
  });
});
