import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../domain/src/event-store/handle-command';
import type { EventStore } from '../../domain/src/event-store/port';
import { userDecider, userIdForUsername, userStreamId } from '../../domain/src/identity/users';
import type { Role } from '../../domain/src/identity/roles';
import { masterDecider } from '../../domain/src/masters/decide';
import { masterItemStreamId, type MasterCommand } from '../../domain/src/masters/events';
import { createPostgresEventStore } from '../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../tests/support/postgres';
import { readCheckpoints } from './checkpoints';
import { REBUILD_SUFFIX, rebuildProjections, rebuildTables } from './rebuild';
import { allProjections } from './registry';
import { createProjector } from './runner';
import { COPY_MIN_ROWS } from './sql';
import { actors, createOnboardingDriver, dumpTables, type Onboarding } from './test-support';
import { createItemEvents, fullItemHistory } from './onboarding-items/test-events';

let db: TestDatabase;
let store: EventStore;
let ba: Onboarding;

const projections = allProjections();
const tables = projections.flatMap((p) => p.tables);
const names = projections.map((p) => p.name);

/** A spread of lifecycles: every event type, several BAs per page, two company codes. */
async function history(prefix: string): Promise<void> {
  for (let i = 0; i < 4; i += 1) {
    const id = `${prefix}${i}`;
    await ba.create(id, i % 2 === 0 ? '1000' : '2000');
    await ba.save(id, { companyName: `Company ${id}` });
    if (i === 0) continue;
    await ba.submit(id);
    if (i === 1) continue;
    await ba.overdue(id, 1, 1, ba.now());
    await ba.approve(id, 1, actors.procurement);
    if (i === 2) await ba.reject(id, 2, actors.commercial, 'Fleet details missing');
    else await ba.approve(id, 2, actors.commercial);
  }
  // Issue 8: every kind of item event (saves, deletes, replacements, reviews, expiry) on one BA.
  await fullItemHistory(createItemEvents(store, { start: ba.now() }), `${prefix}1`);
  await masterItems(prefix);
}

let masterIds = 960_000;
/** Master items (the `masters` projection): created, changed, deactivated and activated again. */
async function masterItems(prefix: string): Promise<void> {
  const run = (command: MasterCommand) =>
    handleCommand(store, masterItemStreamId(command.master, command.id), masterDecider, command, {
      actor: actors.system,
      at: ba.now(),
      companyCode: null,
      correlationId: randomUUID(),
      causationId: null,
      workflowId: null,
      requestId: null,
      commandId: randomUUID(),
    });
  const truck = (masterIds += 1);
  const city = (masterIds += 1);
  await run({ type: 'CreateMasterItem', master: 'vehicle-types', id: truck, values: { name: `Truck ${prefix}` } });
  await run({ type: 'ChangeMasterItem', master: 'vehicle-types', id: truck, values: { name: `32 ft MXL ${prefix}` } });
  await run({ type: 'CreateMasterItem', master: 'cities', id: city, values: { name: `Rebuild Nagar`, stateId: 27 } });
  await run({ type: 'SetMasterItemStatus', master: 'cities', id: city, status: 'inactive' });
  await run({ type: 'SetMasterItemStatus', master: 'vehicle-types', id: truck, status: 'inactive' });
  await run({ type: 'SetMasterItemStatus', master: 'vehicle-types', id: truck, status: 'active' });
}

/**
 * Reviewers of both company codes and a BA Admin of the first BAs, so the notifications projection has
 * recipients to fan out to; returns how many events that appended.
 */
async function people(prefix: string): Promise<number> {
  const users: [string, Role, string, string | null][] = [
    [`${prefix}proc`, 'MLL Procurement', '1000', null],
    [`${prefix}comm`, 'MLL Commercial', '2000', null],
    [`${prefix}admin`, 'MLL-ADMIN', '1000', null],
    [`${prefix}ba`, 'BA Admin', '1000', `${prefix}2`],
  ];
  for (const [name, role, companyCode, baId] of users) {
    const username = `${name}@rebuild.test`;
    const userId = userIdForUsername(username);
    await handleCommand(
      store,
      userStreamId(userId),
      userDecider,
      { type: 'RegisterUser', userId, username, name, roles: [role], companyCodes: [companyCode], baId },
      {
        actor: actors.system,
        at: ba.now(),
        companyCode: null,
        correlationId: randomUUID(),
        causationId: null,
        workflowId: null,
        requestId: null,
        commandId: randomUUID(),
      },
    );
  }
  return users.length;
}

// The projector as the application role: it must keep writing the tables the rebuild (the owner) swapped in.
const projector = () => createProjector({ pool: db.appPool, store, projections, pollMs: 20, log: () => undefined });

async function leftovers(): Promise<string[]> {
  const { rows } = await db.pool.query<{ relname: string }>(
    `SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND strpos(relname, $1) > 0`,
    [REBUILD_SUFFIX],
  );
  return rows.map((r) => r.relname);
}

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 6 });
  store = createPostgresEventStore(db.pool);
  ba = createOnboardingDriver(store);
});

afterEach(async () => {
  await db.drop();
});

describe('projections rebuild', () => {
  it('rebuilds tables equal to the live ones row for row and swaps them in with the checkpoints', async () => {
    await people('a');
    await history('a');
    const head = await projector().catchUp();
    const live = await dumpTables(db.pool, tables);
    expect(live.business_associates).toHaveLength(4);
    expect(live.notifications?.length).toBeGreaterThan(5);
    expect(live.master_items?.length).toBeGreaterThanOrEqual(2);
    expect(live.master_counts?.length).toBeGreaterThanOrEqual(2);
    expect(live.ba_documents?.length).toBeGreaterThanOrEqual(3);
    expect(live.activity_item_labels?.length).toBeGreaterThan(0);

    const result = await rebuildProjections({ pool: db.pool, store, projections, pageSize: 3 });
    expect(result).toMatchObject({ position: head, events: head });
    expect(await dumpTables(db.pool, tables)).toEqual(live);
    expect([...(await readCheckpoints(db.pool, names)).values()]).toEqual(names.map(() => head));
    expect(await leftovers()).toEqual([]);
    // The swapped tables carry the live names of their indexes, so the schema stays idempotent.
    const { rows } = await db.pool.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'business_associates' ORDER BY indexname`,
    );
    expect(rows.map((r) => r.indexname)).toContain('business_associates_pkey');
    expect(rows.map((r) => r.indexname)).toContain('business_associates_status_updated_idx');
  });

  it('writes the same rows when a page holds many new streams (sent as COPY) as the projector does a few at a time', async () => {
    await people('e');
    // More new BAs than COPY_MIN_ROWS, with awkward text, so one rebuild page inserts them all as COPY.
    for (let i = 0; i < COPY_MIN_ROWS + 6; i += 1) {
      const id = `e${i}`;
      await ba.create(id, i % 2 === 0 ? '1000' : '2000');
      if (i % 3 === 0) await ba.save(id, { companyName: `Tab\there, "quoted" \\ line\nbreak ${i}` });
      if (i % 6 === 0) await ba.submit(id);
    }
    const head = await createProjector({ pool: db.appPool, store, projections, pollMs: 20, pageSize: 5, log: () => undefined }).catchUp();
    const live = await dumpTables(db.pool, tables);
    expect(live.business_associates).toHaveLength(COPY_MIN_ROWS + 6);

    const result = await rebuildProjections({ pool: db.pool, store, projections, pageSize: 5_000 });
    expect(result).toMatchObject({ position: head, events: head });
    expect(await dumpTables(db.pool, tables)).toEqual(live);
  });

  it('loses no event appended while it runs, with the projector running beside it', async () => {
    const userEvents = await people('b');
    await history('b');
    const live = projector();
    await live.start();
    let pages = 0;
    const result = await rebuildProjections({
      pool: db.pool,
      store,
      projections,
      pageSize: 4,
      // Appended behind the bulk read, while the projector applies them to the live tables.
      onPage: async () => {
        pages += 1;
        if (pages <= 2) await history(`c${pages}-`);
      },
      // Appended after the bulk read ended: only the swap's catch-up under the checkpoint locks sees them.
      beforeSwap: () => history('d'),
    });
    expect(result.swapEvents).toBeGreaterThan(0);
    await live.stop();
    const head = await store.headPosition();
    expect(result.position).toBeLessThanOrEqual(head);
    expect(await projector().catchUp()).toBe(head);
    const afterSwap = await dumpTables(db.pool, tables);
    // Master items (reference data and ours) have no BA activity: their history is their own stream.
    const masterEvents = Number((await db.pool.query(`SELECT count(*) AS n FROM events WHERE stream_id LIKE 'master-%'`)).rows[0].n);
    expect(Number((await db.pool.query('SELECT count(*) AS n FROM activity_log')).rows[0].n)).toBe(head - userEvents - masterEvents);
    expect(afterSwap.notifications?.length).toBeGreaterThan(5);

    // A quiet rebuild from scratch must agree with what the swap plus the projector produced.
    await rebuildProjections({ pool: db.pool, store, projections, swap: false });
    const fresh = await dumpTables(db.pool, tables.map(rebuildTables));
    expect(Object.values(fresh)).toEqual(Object.values(afterSwap));
  });
});
