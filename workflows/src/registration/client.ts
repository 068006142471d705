import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { decide, registrationMessages } from '../../../domain/src/registration/decide';
import type { RegistrationState } from '../../../domain/src/registration/state';
import { DomainError } from '../../../domain/src/shared/errors';
import { CommandTimeoutError, withCommandDeadline, type CommandTimeout } from '../shared/command-deadline';
import { explainUpdateError, failureOf } from '../shared/update-errors';
import {
  awaitStartedUpdate,
  completeUpdate,
  registrationWorkflowId,
  stateQuery,
  type CompleteArgs,
  type CompleteResult,
  type RegistrationInput,
  type RegistrationUpdateResult,
} from './messages';
// Type only: the API must not load workflow code.
import type { registrationWorkflow } from './workflow';
import { startLifecycle } from '../shared/start-lifecycle';

type RegistrationWorkflow = typeof registrationWorkflow;

/**
 * Starts the registration's lifecycle and answers once RegistrationStarted is stored, so the verify call that
 * follows always finds it. Update-with-start does both in one round trip; a retried start joins the running
 * lifecycle. With `timeoutMs` the wait is bounded (CommandTimeoutError; a run that starts late records nothing).
 */
export async function startRegistration(
  client: Client,
  taskQueue: string,
  input: RegistrationInput,
  options: CommandTimeout = {},
): Promise<RegistrationUpdateResult> {
  const workflowId = registrationWorkflowId(input.registrationId);
  return startLifecycle<RegistrationUpdateResult>(client, {
    workflowType: 'registrationWorkflow',
    workflowId,
    taskQueue,
    input,
    awaitStarted: awaitStartedUpdate,
    updateId: `started:${input.registrationId}`,
    timeoutMs: options.timeoutMs,
    // The run ended before the registration existed: its start was refused (or came after its deadline).
    explainFailure: async () => (await failureOf(client.workflow.getHandle(workflowId))) ?? undefined,
  });
}

/**
 * Completes the registration (both codes matched): the BA Admin user, RegistrationCompleted and the BA's
 * onboarding lifecycle. `updateId` identifies this verification, so the same verification sent twice is one
 * completion with one answer (see `findCompletion`).
 */
export async function completeRegistration(
  client: Client,
  registrationId: string,
  args: CompleteArgs,
  updateId: string,
  options: CommandTimeout = {},
): Promise<CompleteResult> {
  const workflowId = registrationWorkflowId(registrationId);
  const handle = client.workflow.getHandle<RegistrationWorkflow>(workflowId);
  try {
    return await withCommandDeadline(client, options.timeoutMs, { workflowId, updateId }, (deadline) =>
      handle.executeUpdate(completeUpdate, { updateId, args: [deadline === undefined ? args : { ...args, deadline }] }),
    );
  } catch (error) {
    throw await explainUpdateError(error, () => closedRefusal(handle));
  }
}

/**
 * The answer of a completion already sent under `updateId` (waiting for it if it is still running), or null
 * when there is none: no such update, it was refused, or the lifecycle does not exist. Lets a repeated verify
 * (a double click, a retried request) answer as the first one did instead of completing twice.
 */
export async function findCompletion(
  client: Client,
  registrationId: string,
  updateId: string,
  options: CommandTimeout = {},
): Promise<CompleteResult | null> {
  const workflowId = registrationWorkflowId(registrationId);
  const handle = client.workflow.getHandle<RegistrationWorkflow>(workflowId);
  try {
    // Bounded like the completion it waits for: a completion admitted while the worker is down never answers.
    return await withCommandDeadline(client, options.timeoutMs, { workflowId, updateId }, () =>
      handle.getUpdateHandle<CompleteResult>(updateId).result(),
    );
  } catch (error) {
    if (error instanceof WorkflowNotFoundError || error instanceof WorkflowUpdateFailedError) return null;
    if (error instanceof CommandTimeoutError && error.outcome === 'not-applied') return null;
    throw error;
  }
}

/** The lifecycle's current state (a closed run still answers), or null when there is no such registration. */
export async function getRegistrationState(client: Client, registrationId: string): Promise<RegistrationState | null> {
  try {
    const state = await client.workflow.getHandle(registrationWorkflowId(registrationId)).query(stateQuery);
    return state.status === 'none' ? null : state;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

/** Updates cannot reach a closed run: say why it closed (expired or completed), as the decider would. */
async function closedRefusal(handle: WorkflowHandle<RegistrationWorkflow>): Promise<DomainError> {
  const state = await handle.query(stateQuery).catch((e: unknown) => {
    if (e instanceof WorkflowNotFoundError) return null;
    throw e;
  });
  if (!state) return new DomainError('not_found', registrationMessages.notFound);
  const refused = decide({ type: 'CompleteRegistration', baId: '-', userId: '-' }, state);
  return refused instanceof DomainError ? refused : new DomainError('rule', registrationMessages.expired);
}

export type { CompleteArgs, CompleteResult, RegistrationInput };
