import { rfpStreamId } from '../../../domain/src/rfp/events';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { waitFor } from '../../../tests/support/wait';
import { workerKillSuite } from '../testing/worker-kill-suite';
import { floatRfp, getRfpState } from './client';
import { as, draftReady, fromNow, rfpActors, uniqueRfpCode } from './testing';

/**
 * The due-date timer is Temporal's, not the worker's: a worker SIGKILLed while bidding is open, with no worker
 * polling when the due date passes, and a new worker process started after it — bidding is closed once, by the
 * system, as soon as the new worker takes the fired timer.
 */
jest.setTimeout(180_000);
const suite = workerKillSuite('rfp-worker-kill');

test('a worker killed while bidding is open, the due date passing with no worker: a new worker closes bidding', async () => {
  const { db, client, workers, taskQueue } = suite;
  const store = createPostgresEventStore(db.pool);
  const typesOf = async (rfpCode: string) => (await store.readStream(rfpStreamId(rfpCode))).map((e) => e.type);
  const first = await workers.start();
  const rfpCode = uniqueRfpCode();
  await draftReady(client, taskQueue, rfpCode);
  const dueAt = fromNow(3_000);
  await floatRfp(client, rfpCode, { baIds: ['ba-1'], comments: '', floatToAll: false, rfpType: 'standard' }, { ...as(rfpActors.procurement), dueAt });
  first.process.kill('SIGKILL');
  await first.exited;

  await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(dueAt) - Date.now()) + 1_000));
  // Nobody could act: bidding is still open in the stream.
  expect(await typesOf(rfpCode)).not.toContain('RfpBiddingClosed');

  await workers.start();
  const view = await waitFor(async () => {
    const v = await getRfpState(client, rfpCode);
    return v?.summary.status === 'evaluation' ? v : undefined;
  }, 60_000);
  expect(view.summary.round).toBe(1);
  const closings = (await store.readStream(rfpStreamId(rfpCode))).filter((e) => e.type === 'RfpBiddingClosed');
  expect(closings.map((e) => e.data)).toEqual([expect.objectContaining({ round: 1, reason: 'due' })]);
  expect(closings[0]?.metadata.actor).toMatchObject({ userId: 'system', role: 'system' });
});
