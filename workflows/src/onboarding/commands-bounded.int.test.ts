import { randomUUID } from 'node:crypto';
import { WorkflowUpdateStage, type Client } from '@temporalio/client';
import type { EventStore } from '../../../domain/src/event-store/port';
import { baStreamId } from '../../../domain/src/onboarding/events';
import { registrationStreamId } from '../../../domain/src/registration/events';
import { uniqueTaskQueue } from '../../../tests/support/temporal';
import { startRegistration } from '../registration/client';
import { registrationWorkflowId } from '../registration/messages';
import { registrationInput } from '../registration/scenarios';
import { CommandFailedError, CommandTimeoutError } from '../shared/command-deadline';
import { startTestWorker, type TestWorker } from '../testing/worker';
import { sendOnboardingAction, startOnboarding } from './client';
import { onboardingWorkflowId, submitUpdate } from './messages';
import { act, actors, approveEveryItem, fillEveryTab, onboardingInput, startAndSubmit, validDetails } from './scenarios';

/**
 * Issue 6, "commands never hang": a command with a deadline answers within it even with the worker down and
 * is never applied later; an activity that keeps failing fails its command after a bound and the lifecycle
 * takes the next one; a request id answered in one run is answered the same in the next (continue-as-new).
 */
jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('commands-bounded');
let w: TestWorker;
let client: Client;
let store: EventStore;
/** When set, the onboarding activity throws it for approvals (a permanent fault injected by a test). */
let approvalFault: (() => Error) | null = null;
/** When set, the onboarding activity takes this long for commands of this type (a slow database). */
let slow: { type: string; ms: number } | null = null;

beforeAll(async () => {
  w = await startTestWorker(taskQueue, {
    activities: (real) => ({
      handleOnboardingCommand: async (args) => {
        if (approvalFault && args.command.type === 'ApproveReviewStage') throw approvalFault();
        if (slow && args.command.type === slow.type) await new Promise((r) => setTimeout(r, slow?.ms));
        return real.handleOnboardingCommand(args);
      },
    }),
  });
  ({ client, store } = w);
});

afterAll(async () => {
  await w?.stop();
});

const countOf = async (streamId: string, type: string) =>
  (await store.readStream(streamId)).filter((e) => e.type === type).length;

/** Runs `call`, expecting a CommandTimeoutError; answers its outcome and how long the call took. */
async function timedOut(call: Promise<unknown>): Promise<{ outcome: string; ms: number; reason: string }> {
  const started = Date.now();
  try {
    await call;
  } catch (error) {
    if (error instanceof CommandTimeoutError) return { outcome: error.outcome, ms: Date.now() - started, reason: error.reason };
    throw error;
  }
  throw new Error('expected the command to time out');
}

describe('with the worker down', () => {
  test('a staff decision answers "not applied" within its deadline and is not applied when the worker returns', async () => {
    const input = onboardingInput();
    const { baId } = input;
    await startAndSubmit(client, taskQueue, input);

    await w.pauseWorker();
    const late = await timedOut(
      sendOnboardingAction(client, baId, { kind: 'approve', stage: 1 }, {
        actor: actors.procurement,
        requestId: 'approval-while-down',
        timeoutMs: 1500,
      }),
    );
    await w.resumeWorker();
    // The probe's reason travels in the string, so a failure says what the server answered.
    expect(`${late.outcome}: ${late.reason}`).toMatch(/^not-applied: /);
    // The deadline, then at most the settle window and two status calls.
    expect(late.ms).toBeGreaterThanOrEqual(1500);
    expect(late.ms).toBeLessThan(5000);

    // The next decision is taken after the one left waiting in Temporal: had that one been applied, this one
    // (the same stage) would be refused as stale. It is accepted, and the stream holds one approval: its own.
    const next = await act(client, baId, { kind: 'approve', stage: 1 }, actors.admin, 'approval-after-return');
    expect(next.state).toMatchObject({ status: 'inprogress', stage: 2 });
    const approvals = (await store.readStream(baStreamId(baId))).filter((e) => e.type === 'ReviewStageApproved');
    expect(approvals.map((e) => (e.metadata as { requestId?: string }).requestId)).toEqual(['approval-after-return']);
  });

  test('a registration started while no worker polls records nothing once a worker takes it', async () => {
    const input = registrationInput();
    await w.pauseWorker();
    const late = await timedOut(startRegistration(client, taskQueue, input, { timeoutMs: 1500 }));
    await w.resumeWorker();
    // The probe's reason travels in the string, so a failure says what the server answered.
    expect(`${late.outcome}: ${late.reason}`).toMatch(/^not-applied: /);
    // The run Temporal kept ends without appending RegistrationStarted (its first task came after the deadline).
    await client.workflow.getHandle(registrationWorkflowId(input.registrationId)).result();
    expect(await store.readStream(registrationStreamId(input.registrationId))).toEqual([]);
  });
});

describe('a slow command', () => {
  afterEach(() => {
    slow = null;
  });

  test('answered "pending" once a handler has it: it is then applied', async () => {
    const input = onboardingInput();
    await startAndSubmit(client, taskQueue, input);
    slow = { type: 'ApproveReviewStage', ms: 3000 };
    const requestId = randomUUID();
    const late = await timedOut(
      sendOnboardingAction(client, input.baId, { kind: 'approve', stage: 1 }, { actor: actors.procurement, requestId, timeoutMs: 1000 }),
    );
    expect(late).toMatchObject({ outcome: 'pending' }); // on failure, the diff shows the probe's reason
    const done = await client.workflow.getHandle(onboardingWorkflowId(input.baId)).getUpdateHandle(requestId).result();
    expect(done).toMatchObject({ state: { stage: 2 } });
    expect(await countOf(baStreamId(input.baId), 'ReviewStageApproved')).toBe(1);
  });

  test('a command whose deadline passes while it waits for its turn is refused when its turn comes', async () => {
    const input = onboardingInput();
    const { baId } = input;
    const ba = actors.ba(baId);
    await startOnboarding(client, taskQueue, input);
    slow = { type: 'SaveCompanyDetails', ms: 3000 };
    // The first save holds the lifecycle's lock for 3 s; the second is accepted meanwhile and waits behind it.
    const first = act(client, baId, { kind: 'saveDetails', details: validDetails }, ba);
    await new Promise((r) => setTimeout(r, 300));
    const second = await timedOut(
      sendOnboardingAction(client, baId, { kind: 'saveDetails', details: { ...validDetails, addressLine1: '99 Late Road' } }, {
        actor: ba,
        requestId: randomUUID(),
        timeoutMs: 1000,
      }),
    );
    expect(second).toMatchObject({ outcome: 'pending' }); // on failure, the diff shows the probe's reason
    await first;
    // Both saves would be accepted by the decider: only the deadline keeps the second out.
    await fillEveryTab(client, baId);
    await act(client, baId, { kind: 'submit' }, ba);
    const saved = (await store.readStream(baStreamId(baId))).filter((e) => e.type === 'CompanyDetailsSaved');
    expect(saved).toHaveLength(1);
    expect(JSON.stringify(saved[0]?.data)).not.toMatch(/Late Road/);
  });
});

describe('bounded activity retries', () => {
  test('a decision whose activity keeps failing fails after the retry bound; the lifecycle takes the next command', async () => {
    const input = onboardingInput();
    const { baId } = input;
    await startAndSubmit(client, taskQueue, input);

    approvalFault = () => new Error('the disk is full');
    let failure: unknown;
    try {
      await act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement);
    } catch (error) {
      failure = error;
    } finally {
      approvalFault = null;
    }
    expect(failure).toBeInstanceOf(CommandFailedError);
    expect((failure as Error).message).toMatch(/could not record this change/);
    // Retried up to the bound (8 attempts), not for ever.
    const history = await client.workflow.getHandle(onboardingWorkflowId(baId)).fetchHistory();
    const attempts = history.events?.flatMap((e) => e.activityTaskStartedEventAttributes?.attempt ?? []) ?? [];
    expect(Math.max(...attempts)).toBe(8);

    const next = await act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement);
    expect(next.state).toMatchObject({ status: 'inprogress', stage: 2 });
    expect(await countOf(baStreamId(baId), 'ReviewStageApproved')).toBe(1);
  });

  test('a programming fault is not retried at all', async () => {
    const input = onboardingInput();
    await startAndSubmit(client, taskQueue, input);
    approvalFault = () => new TypeError("Cannot read properties of undefined (reading 'stage')");
    try {
      await expect(act(client, input.baId, { kind: 'approve', stage: 1 }, actors.procurement)).rejects.toBeInstanceOf(
        CommandFailedError,
      );
    } finally {
      approvalFault = null;
    }
    const history = await client.workflow.getHandle(onboardingWorkflowId(input.baId)).fetchHistory();
    const attempts = history.events?.flatMap((e) => e.activityTaskStartedEventAttributes?.attempt ?? []) ?? [];
    expect(Math.max(...attempts)).toBe(1);
  });
});

describe('continue-as-new mid-lifecycle', () => {
  test('a repeated request id gets the same answer in the next run; the lifecycle goes on', async () => {
    // A run continues as new as soon as its history passes 8 events: after every command.
    const input = onboardingInput({ continueAsNewAfterHistoryLength: 8 });
    const { baId } = input;
    const ba = actors.ba(baId);
    await startOnboarding(client, taskQueue, input);
    await act(client, baId, { kind: 'saveDetails', details: validDetails }, ba);
    const tabs = await fillEveryTab(client, baId);

    const handle = client.workflow.getHandle(onboardingWorkflowId(baId));
    const submitId = randomUUID();
    const update = await handle.startUpdate(submitUpdate, {
      updateId: submitId,
      args: [{ actor: ba, requestId: submitId, correlationId: submitId }],
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    const first = await update.result();
    expect(first.state).toMatchObject({ status: 'inprogress', stage: 1 });
    // The run that took the submit hands over to the next.
    for (let i = 0; (await handle.describe()).runId === update.workflowRunId; i++) {
      if (i > 100) throw new Error('the run did not continue as new');
      await new Promise((r) => setTimeout(r, 100));
    }

    // The same request again, now in a run where Temporal has never seen its update id.
    const again = await sendOnboardingAction(client, baId, { kind: 'submit' }, { actor: ba, requestId: submitId });
    expect(again).toEqual(first);
    expect(await countOf(baStreamId(baId), 'OnboardingSubmitted')).toBe(1);

    await approveEveryItem(client, baId, tabs);
    const stage1 = await act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement);
    expect(stage1.state).toMatchObject({ status: 'inprogress', stage: 2 });
  });
});
