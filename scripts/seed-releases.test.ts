import { handleCommand } from '../domain/src/event-store/handle-command';
import type { EventStore } from '../domain/src/event-store/port';
import { releaseDecider } from '../domain/src/releases/decide';
import { releaseStreamId } from '../domain/src/releases/fields';
import type { NewEvent, StoredEvent } from '../domain/src/shared/events';
import { DEMO_RELEASES, demoReleaseId, seedReleases } from './seed-releases';

const SEED = { userId: 'demo-seed', role: 'system', name: 'Demo seed' };

/** Just enough of an event store for the seed: streams in memory, expected-version checks. */
function memoryStore(): EventStore {
  const streams = new Map<string, StoredEvent[]>();
  let position = 0;
  return {
    readStream: async (id: string) => streams.get(id) ?? [],
    appendToStream: async (id: string, events: NewEvent[]) => {
      const stream = streams.get(id) ?? [];
      for (const e of events)
        stream.push({ ...e, streamId: id, version: stream.length, globalPosition: ++position, recordedAt: e.metadata.at, prevHash: '', hash: '' });
      streams.set(id, stream);
      return { nextExpectedVersion: stream.length - 1, lastGlobalPosition: position };
    },
  } as unknown as EventStore;
}

describe('demo releases', () => {
  it('are published through the release decider as "Demo seed", and only once', async () => {
    const store = memoryStore();
    expect(await seedReleases(store, SEED)).toBe(DEMO_RELEASES.length);
    for (const r of DEMO_RELEASES) {
      const [event, ...rest] = await store.readStream(releaseStreamId(demoReleaseId(r)));
      expect(rest).toEqual([]);
      expect(event).toMatchObject({ type: 'ReleasePublished', data: { versionReleased: r.versionReleased }, metadata: { actor: SEED } });
    }
    // A resumed seed writes nothing again.
    expect(await seedReleases(store, SEED)).toBe(0);
  });

  it('leaves a release an admin published first as it stands', async () => {
    const store = memoryStore();
    const first = DEMO_RELEASES[0]!;
    await handleCommand(store, releaseStreamId(demoReleaseId(first)), releaseDecider, { type: 'PublishRelease', input: { ...first, featureClass: 'ba' } }, {
      commandId: 'admin-1',
      actor: { userId: 'u-admin', role: 'MLL-ADMIN' },
      at: '2026-07-01T00:00:00.000Z',
      companyCode: null,
      correlationId: 'admin-1',
      causationId: null,
      workflowId: null,
      requestId: null,
    });
    expect(await seedReleases(store, SEED)).toBe(DEMO_RELEASES.length - 1);
    const events = await store.readStream(releaseStreamId(demoReleaseId(first)));
    expect(events.map((e) => (e.data as { featureClass: string }).featureClass)).toEqual(['ba']);
  });
});
