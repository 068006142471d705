import type { EventStore } from '../../../domain/src/event-store/port';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { ReleaseCommand } from '../../../domain/src/releases/commands';
import { releaseDecider } from '../../../domain/src/releases/decide';
import { releaseIdOf, releaseStreamId, type DeviceType } from '../../../domain/src/releases/fields';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { rebuildProjections, rebuildTables } from '../rebuild';
import { allProjections } from '../registry';
import { applyDirectly, dumpTables, foreignEvent } from '../test-support';
import { releasesProjection } from './releases.projection';
import { getRelease, listReleases } from './releases.queries';

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

const release = (versionReleased: string, deviceType: DeviceType, over: Record<string, unknown> = {}) => ({
  versionReleased,
  deviceType,
  featureClass: 'ba',
  releasedOn: '2026-03-05',
  newFeatures: [{ featureDesc: `Feature of ${versionReleased}` }],
  bugFixes: [],
  ...over,
});

async function run(id: string, command: ReleaseCommand) {
  n += 1;
  await handleCommand(store, releaseStreamId(id), releaseDecider, command, {
    commandId: `test-${n}`,
    actor: { userId: 'u-admin', role: 'MLL-ADMIN', name: 'Anil Admin' },
    at: `2026-03-0${Math.min(n, 9)}T10:00:00.000Z`,
    companyCode: null,
    correlationId: `c-${n}`,
    causationId: null,
    workflowId: null,
    requestId: null,
  });
}

const publish = (v: string, d: DeviceType, over: Record<string, unknown> = {}) =>
  run(releaseIdOf(v, d), { type: 'PublishRelease', input: release(v, d, over) });

/** Every event type, a withdrawal and a republish on the same stream. */
async function history() {
  await publish('1.9.2', 'web', { releasedOn: '2026-01-10' });
  await publish('1.10.0', 'web', { releasedOn: '2026-02-01', featureClass: 'all' });
  await publish('1.10.0', 'android', { releasedOn: '2026-02-01' });
  await publish('2.0.0', 'ios', { releasedOn: '2026-03-01' });
  await run('1.9.2-web', {
    type: 'ChangeRelease',
    id: '1.9.2-web',
    input: release('1.9.2', 'web', { releasedOn: '2026-01-12', bugFixes: [{ featureDesc: 'Pincode check', releasedOn: '2026-01-11' }] }),
  });
  await run('2.0.0-ios', { type: 'WithdrawRelease', id: '2.0.0-ios' });
  await publish('1.0.0', 'web', { releasedOn: '2025-12-01' });
  await run('1.0.0-web', { type: 'WithdrawRelease', id: '1.0.0-web' });
  await publish('1.0.0', 'web', { releasedOn: '2025-12-02', featureClass: 'all' });
}

const page = { offset: 0, limit: 100 };

describe('releases projection', () => {
  it('lists published releases newest first (versions as numbers), edits applied, withdrawn ones gone', async () => {
    await history();
    await applyDirectly(db.pool, releasesProjection, await store.readAll(0, 1000));

    const all = await listReleases(db.pool, { sort: { field: 'releasedOn', order: 'DESC' }, range: page });
    expect(all.total).toBe(4);
    expect(all.rows.map((r) => r.id)).toEqual(['1.10.0-android', '1.10.0-web', '1.9.2-web', '1.0.0-web']);
    expect(all.rows[2]).toEqual({
      id: '1.9.2-web',
      versionReleased: '1.9.2',
      deviceType: 'web',
      featureClass: 'ba',
      releasedOn: '2026-01-12',
      newFeatures: [{ featureDesc: 'Feature of 1.9.2', releasedOn: '2026-01-12' }],
      bugFixes: [{ featureDesc: 'Pincode check', releasedOn: '2026-01-11' }],
    });

    const byVersion = await listReleases(db.pool, { sort: { field: 'versionReleased', order: 'DESC' }, range: page });
    expect(byVersion.rows.map((r) => r.versionReleased)).toEqual(['1.10.0', '1.10.0', '1.9.2', '1.0.0']);

    const forAll = await listReleases(db.pool, { classes: ['all'], sort: { field: 'releasedOn', order: 'DESC' }, range: page });
    expect(forAll.rows.map((r) => r.id)).toEqual(['1.10.0-web', '1.0.0-web']);
    const second = await listReleases(db.pool, { sort: { field: 'releasedOn', order: 'DESC' }, range: { offset: 10, limit: 2 } });
    expect(second).toEqual({ rows: [], total: 4 });

    expect(await getRelease(db.pool, '2.0.0-ios')).toBeNull();
    expect((await getRelease(db.pool, '1.0.0-web'))?.featureClass).toBe('all');
  });

  it('changes nothing when events are applied again, and ignores unknown events', async () => {
    await history();
    const events = await store.readAll(0, 1000);
    await applyDirectly(db.pool, releasesProjection, events);
    const once = await dumpTables(db.pool, ['releases']);
    await applyDirectly(db.pool, releasesProjection, [...events, foreignEvent(events.length + 1)]);
    expect(await dumpTables(db.pool, ['releases'])).toEqual(once);
  });

  it('is registered, and a rebuild from the events equals the live table row for row', async () => {
    expect(allProjections().map((p) => p.name)).toContain('releases');
    await history();
    await applyDirectly(db.pool, releasesProjection, await store.readAll(0, 1000));
    const live = await dumpTables(db.pool, ['releases']);
    expect(live['releases']).toHaveLength(5);
    await rebuildProjections({ pool: db.pool, store, projections: [releasesProjection], pageSize: 2, swap: false });
    const rebuilt = await dumpTables(db.pool, [rebuildTables('releases')]);
    expect(rebuilt[rebuildTables('releases')]).toEqual(live['releases']);
  });
});
