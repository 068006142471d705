import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import type { OnboardingState } from '../../../domain/src/onboarding/state';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { withCommandDeadline, type CommandTimeout } from '../shared/command-deadline';
import { explainUpdateError, failureOf } from '../shared/update-errors';
import {
  approveUpdate,
  awaitCreatedUpdate,
  commandUpdate,
  onboardingWorkflowId,
  rejectUpdate,
  saveDetailsUpdate,
  stateQuery,
  submitUpdate,
  type ActionContext,
  type OnboardingInput,
  type OnboardingUpdateResult,
} from './messages';
import { domainErrorFrom } from './refusal';
// Type only: the API must not load workflow code.
import type { onboardingWorkflow } from './workflow';

type OnboardingWorkflow = typeof onboardingWorkflow;

/** What the API and the seed send to a running onboarding lifecycle. */
export type OnboardingAction =
  | { kind: 'saveDetails'; details: unknown }
  | { kind: 'submit' }
  | { kind: 'approve'; stage: number; remarks?: string | null }
  | { kind: 'reject'; stage: number; remarks?: string | null }
  /** Any other command (issue 8: items, reviews, company codes, change requests), through the `command` update. */
  | { kind: 'command'; command: OnboardingCommand };

export const ALREADY_VERIFIED = 'This onboarding is already verified';
export const NOT_FOUND = 'Business associate not found';

/**
 * Starts the BA's lifecycle, or joins the one already running (a double click, a retried request), and
 * answers once the BA exists. Update-with-start does both in one round trip; `alreadyStarted` is false for
 * the request that created the lifecycle (also when that same request is retried), true for any other.
 */
export async function startOnboarding(
  client: Client,
  taskQueue: string,
  input: OnboardingInput,
): Promise<{ workflowId: string; alreadyStarted: boolean }> {
  const workflowId = onboardingWorkflowId(input.baId);
  const startWorkflowOperation = new WithStartWorkflowOperation<OnboardingWorkflow>('onboardingWorkflow', {
    workflowId,
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A finished lifecycle is never started again: the BA exists and is verified.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
  try {
    const created = await client.workflow.executeUpdateWithStart(awaitCreatedUpdate, {
      startWorkflowOperation,
    });
    return { workflowId, alreadyStarted: created.startedBy !== input.requestId };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      const handle = client.workflow.getHandle(workflowId);
      const { status } = await handle.describe();
      if (status.name === 'COMPLETED') return { workflowId, alreadyStarted: true };
      throw (await failureOf(handle)) ?? error;
    }
    if (error instanceof WorkflowUpdateFailedError) {
      // The run ended before the BA existed: its creation was refused (e.g. the stream already exists).
      throw domainErrorFrom(error.cause) ?? (await failureOf(client.workflow.getHandle(workflowId))) ?? error;
    }
    throw error;
  }
}

/**
 * Sends one BA action or staff decision and waits for its answer. The request id is the update id, so a
 * retried HTTP request (same Idempotency-Key) is the same update: one transition, the same answer. With
 * `timeoutMs` the wait is bounded: past it a CommandTimeoutError says whether the action can still be applied
 * (shared/command-deadline.ts). With `taskQueue`, a lifecycle that had completed (verified before lifecycles
 * kept running after verification) is resumed: a new run loads the BA from its stream and takes the action.
 */
export async function sendOnboardingAction(
  client: Client,
  baId: string,
  action: OnboardingAction,
  ctx: { actor: Actor; requestId: string; correlationId?: string; taskQueue?: string } & CommandTimeout,
): Promise<{ state: OnboardingState; lastGlobalPosition: number }> {
  const workflowId = onboardingWorkflowId(baId);
  const handle = client.workflow.getHandle(workflowId);
  const target = { workflowId, updateId: ctx.requestId };
  const base = (deadline: number | undefined): ActionContext => ({
    actor: ctx.actor,
    requestId: ctx.requestId,
    correlationId: ctx.correlationId ?? ctx.requestId,
    ...(deadline === undefined ? {} : { deadline }),
  });
  try {
    return await withCommandDeadline(client, ctx.timeoutMs, target, (deadline) => dispatch(handle, action, base(deadline)));
  } catch (error) {
    if (ctx.taskQueue !== undefined && error instanceof WorkflowNotFoundError && (await statusOf(handle)) === 'COMPLETED') {
      const { taskQueue } = ctx;
      try {
        return await withCommandDeadline(client, ctx.timeoutMs, { ...target, start: true }, (deadline) =>
          resume(client, taskQueue, baId, action, base(deadline)),
        );
      } catch (resumeError) {
        throw await explainUpdateError(resumeError, () => closedRefusal(handle));
      }
    }
    throw await explainUpdateError(error, () => closedRefusal(handle));
  }
}

/**
 * A completed lifecycle's next run, started together with the action (update-with-start): the run loads the
 * BA's state from its stream (`resume`) and never creates it. USE_EXISTING: two actions arriving at once share
 * the one new run. Only a COMPLETED lifecycle gets here (the caller checked), and only it may be run again.
 */
async function resume(
  client: Client,
  taskQueue: string,
  baId: string,
  action: OnboardingAction,
  base: ActionContext,
): Promise<OnboardingUpdateResult> {
  const input: OnboardingInput = {
    baId,
    // Read from the stream by the run; the first company code is the state's, never this.
    companyCode: '',
    adminUserId: null,
    mobileNo: null,
    email: null,
    actor: base.actor,
    correlationId: base.correlationId,
    requestId: base.requestId,
    resume: true,
  };
  const startWorkflowOperation = new WithStartWorkflowOperation<OnboardingWorkflow>('onboardingWorkflow', {
    workflowId: onboardingWorkflowId(baId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
  const { update, args } = updateOf(action, base);
  return await client.workflow.executeUpdateWithStart(update, { updateId: base.requestId, args, startWorkflowOperation });
}

async function statusOf(handle: WorkflowHandle): Promise<string | null> {
  return handle.describe().then(
    (d) => d.status.name,
    (e: unknown) => {
      if (e instanceof WorkflowNotFoundError) return null;
      throw e;
    },
  );
}

type OnboardingUpdate = typeof saveDetailsUpdate;

/** One action as its update and arguments; `base` carries the actor, ids and deadline. */
function updateOf(action: OnboardingAction, base: ActionContext): { update: OnboardingUpdate; args: [never] } {
  const as = <A>(update: { name: string }, arg: A) => ({ update: update as OnboardingUpdate, args: [arg] as [never] });
  switch (action.kind) {
    case 'saveDetails':
      return as(saveDetailsUpdate, { ...base, details: action.details });
    case 'submit':
      return as(submitUpdate, base);
    case 'approve':
      return as(approveUpdate, { ...base, stage: action.stage, remarks: action.remarks ?? null });
    case 'reject':
      return as(rejectUpdate, { ...base, stage: action.stage, remarks: action.remarks ?? null });
    case 'command':
      return as(commandUpdate, { ...base, command: action.command });
    default: {
      const never: never = action;
      throw new DomainError('validation', `Unknown action ${String((never as { kind: unknown }).kind)}`);
    }
  }
}

/** One action as its update, sent to the running lifecycle. */
async function dispatch(handle: WorkflowHandle, action: OnboardingAction, base: ActionContext): Promise<OnboardingUpdateResult> {
  const { update, args } = updateOf(action, base);
  return (await handle.executeUpdate(update, { updateId: base.requestId, args })) as OnboardingUpdateResult;
}

/** The lifecycle's current state, or null when there is no such BA (no lifecycle, or not created yet). */
export async function getOnboardingState(client: Client, baId: string): Promise<OnboardingState | null> {
  try {
    const state = await client.workflow.getHandle(onboardingWorkflowId(baId)).query(stateQuery);
    return state.status === 'none' ? null : state;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

/** Updates cannot reach a closed run: tell "never existed" apart from "already done". */
async function closedRefusal(handle: WorkflowHandle): Promise<DomainError> {
  const status = await statusOf(handle);
  if (status === null) return new DomainError('not_found', NOT_FOUND);
  if (status === 'COMPLETED') return new DomainError('rule', ALREADY_VERIFIED);
  return new DomainError('rule', `This onboarding is no longer running (${status.toLowerCase()})`);
}

export type { OnboardingInput, OnboardingUpdateResult };
