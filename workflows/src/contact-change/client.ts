import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { contactChangeRefusals, type ContactChangeState } from '../../../domain/src/contact-change/decide';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { withCommandDeadline, type CommandTimeout } from '../shared/command-deadline';
import { explainUpdateError } from '../shared/update-errors';
import {
  awaitRequestedUpdate,
  cancelUpdate,
  checkIdentityUpdate,
  completeUpdate,
  contactChangeStateQuery,
  contactChangeWorkflowId,
  otpSentUpdate,
  type ContactChangeInput,
  type ContactChangeUpdateResult,
  type StepContext,
} from './messages';
import { startLifecycle } from '../shared/start-lifecycle';

/** What the API sends to a running contact change. */
export type ContactChangeStep =
  | { kind: 'checkIdentity'; matched: boolean }
  | { kind: 'otpSent'; newEmail: string; newMobile: string; challengeId: string; resend: boolean }
  | { kind: 'complete'; challengeId: string; credentialId: string }
  /** A newer change for the same user was started (`supersededBy`): this link stops working. */
  | { kind: 'cancel'; supersededBy: string };

/**
 * Starts the change and answers once ContactChangeRequested is recorded (update-with-start: one round trip).
 * A retried start with the same change id joins the running lifecycle. With `timeoutMs` the wait is bounded
 * (CommandTimeoutError; a run that starts late records nothing).
 */
export async function startContactChange(
  client: Client,
  taskQueue: string,
  input: ContactChangeInput,
  options: CommandTimeout = {},
): Promise<ContactChangeUpdateResult> {
  return startLifecycle<ContactChangeUpdateResult>(client, {
    workflowType: 'contactChangeWorkflow',
    workflowId: contactChangeWorkflowId(input.changeId),
    taskQueue,
    input,
    awaitStarted: awaitRequestedUpdate,
    updateId: `requested:${input.changeId}`,
    timeoutMs: options.timeoutMs,
  });
}

/**
 * Sends one step and waits for its answer. The request id is the update id, so a retried HTTP request is the
 * same update. A refusal comes back as the DomainError the decider gave; a closed lifecycle (completed,
 * expired, locked) reads as the spec's expired-link text.
 */
export async function sendContactChangeStep(
  client: Client,
  changeId: string,
  step: ContactChangeStep,
  ctx: { actor: Actor; requestId: string; correlationId?: string } & CommandTimeout,
): Promise<ContactChangeUpdateResult> {
  const workflowId = contactChangeWorkflowId(changeId);
  const handle = client.workflow.getHandle(workflowId);
  const base: StepContext = { actor: ctx.actor, requestId: ctx.requestId, correlationId: ctx.correlationId ?? ctx.requestId };
  try {
    return await withCommandDeadline(client, ctx.timeoutMs, { workflowId, updateId: ctx.requestId }, (deadline) =>
      dispatch(handle, step, deadline === undefined ? base : { ...base, deadline }),
    );
  } catch (error) {
    // Updates cannot reach a closed run, and an unknown id has no run: to the link holder both are a dead link.
    throw await explainUpdateError(error, () => new DomainError('rule', contactChangeRefusals.linkExpired));
  }
}

/** One step as its update; `base` carries the actor, ids and deadline. */
async function dispatch(handle: WorkflowHandle, step: ContactChangeStep, base: StepContext): Promise<ContactChangeUpdateResult> {
  const options = { updateId: base.requestId };
  switch (step.kind) {
    case 'checkIdentity':
      return await handle.executeUpdate(checkIdentityUpdate, { ...options, args: [{ ...base, matched: step.matched }] });
    case 'otpSent': {
      const { newEmail, newMobile, challengeId, resend } = step;
      return await handle.executeUpdate(otpSentUpdate, {
        ...options,
        args: [{ ...base, newEmail, newMobile, challengeId, resend }],
      });
    }
    case 'complete':
      return await handle.executeUpdate(completeUpdate, {
        ...options,
        args: [{ ...base, challengeId: step.challengeId, credentialId: step.credentialId }],
      });
    case 'cancel':
      return await handle.executeUpdate(cancelUpdate, { ...options, args: [{ ...base, supersededBy: step.supersededBy }] });
    default: {
      const never: never = step;
      throw new DomainError('validation', `Unknown step ${String((never as { kind: unknown }).kind)}`);
    }
  }
}

/** The lifecycle's state as the workflow holds it, or null when there is no such change. */
export async function getContactChangeState(client: Client, changeId: string): Promise<ContactChangeState | null> {
  try {
    const state = await client.workflow.getHandle(contactChangeWorkflowId(changeId)).query(contactChangeStateQuery);
    return state.status === 'none' ? null : state;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

export type { ContactChangeInput, ContactChangeUpdateResult };
