import { randomUUID } from 'node:crypto';
import { baStreamId } from '../../../domain/src/onboarding/events';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { workerKillSuite } from '../testing/worker-kill-suite';
import { onboardingWorkflowId, stateQuery } from './messages';
import { act, actors, onboardingInput, startAndSubmit } from './scenarios';

/**
 * A worker SIGKILLed while an activity is in flight (its event already committed, its answer never sent)
 * and replaced by a new worker process: the lifecycle completes with exactly one event per decision.
 */
// Set here, not only in jest.config: jest-circus reads the timeout of the global config, not the project's.
jest.setTimeout(90_000);
const suite = workerKillSuite('onboarding-worker-kill');

const startChildWorker = (hangAfterAppend?: string) => suite.workers.start(hangAfterAppend ? { hangAfterAppend } : {});

test('a worker killed mid-activity and replaced: the lifecycle completes with exactly one event per decision', async () => {
  const { db, client, taskQueue } = suite;
  const input = onboardingInput();
  const { baId } = input;
  const first = await startChildWorker('ReviewStageApproved');
  await startAndSubmit(client, taskQueue, input);

  // Stage 1's event is committed, then the worker dies before the activity answers.
  const approvalId = randomUUID();
  const approval = act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement, approvalId);
  await first.waitFor('appended ReviewStageApproved');
  first.process.kill('SIGKILL');
  await first.exited;

  await startChildWorker();
  // The caller's update survives the crash: the retried activity finds its event and appends nothing new.
  await expect(approval).resolves.toMatchObject({ state: { status: 'inprogress', stage: 2 } });
  await act(client, baId, { kind: 'approve', stage: 2 }, actors.commercial);
  const handle = client.workflow.getHandle(onboardingWorkflowId(baId));
  // Since issue 8 a verified lifecycle keeps running (items, expiry timers): verified, not completed.
  await expect(handle.query(stateQuery)).resolves.toMatchObject({ status: 'verified' });

  const store = createPostgresEventStore(db.pool);
  const counts: Record<string, number> = {};
  for (const e of await store.readStream(baStreamId(baId))) counts[e.type] = (counts[e.type] ?? 0) + 1;
  expect(counts).toMatchObject({
    BusinessAssociateCreated: 1,
    CompanyDetailsSaved: 1,
    OnboardingSubmitted: 1,
    ReviewStageApproved: 2,
    BusinessAssociateVerified: 1,
  });
  // Proof the kill landed mid-activity: the stage-1 append ran again as a no-op retry (attempt 2, or later
  // when a loaded machine lets the replacement worker's first attempt time out too).
  const history = await handle.fetchHistory();
  const attempts = history.events?.flatMap((e) => e.activityTaskStartedEventAttributes?.attempt ?? []) ?? [];
  expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
});
