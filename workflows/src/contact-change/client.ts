import {
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import { contactChangeRefusals, type ContactChangeState } from '../../../domain/src/contact-change/decide';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { domainErrorFrom } from '../onboarding/refusal';
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
// Type only: the API must not load workflow code.
import type { contactChangeWorkflow } from './workflow';

/** What the API sends to a running contact change. */
export type ContactChangeStep =
  | { kind: 'checkIdentity'; matched: boolean }
  | { kind: 'otpSent'; newEmail: string; newMobile: string; challengeId: string; resend: boolean }
  | { kind: 'complete'; challengeId: string; passwordHash: string }
  /** A newer change for the same user was started (`supersededBy`): this link stops working. */
  | { kind: 'cancel'; supersededBy: string };

/**
 * Starts the change and answers once ContactChangeRequested is recorded (update-with-start: one round trip).
 * A retried start with the same change id joins the running lifecycle.
 */
export async function startContactChange(
  client: Client,
  taskQueue: string,
  input: ContactChangeInput,
): Promise<ContactChangeUpdateResult> {
  const startWorkflowOperation = new WithStartWorkflowOperation<typeof contactChangeWorkflow>('contactChangeWorkflow', {
    workflowId: contactChangeWorkflowId(input.changeId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
  try {
    return await client.workflow.executeUpdateWithStart(awaitRequestedUpdate, { startWorkflowOperation });
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) throw domainErrorFrom(error.cause) ?? error;
    throw error;
  }
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
  ctx: { actor: Actor; requestId: string; correlationId?: string },
): Promise<ContactChangeUpdateResult> {
  const handle = client.workflow.getHandle(contactChangeWorkflowId(changeId));
  const base: StepContext = { actor: ctx.actor, requestId: ctx.requestId, correlationId: ctx.correlationId ?? ctx.requestId };
  const options = { updateId: ctx.requestId };
  try {
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
          args: [{ ...base, challengeId: step.challengeId, passwordHash: step.passwordHash }],
        });
      case 'cancel':
        return await handle.executeUpdate(cancelUpdate, { ...options, args: [{ ...base, supersededBy: step.supersededBy }] });
      default: {
        const never: never = step;
        throw new DomainError('validation', `Unknown step ${String((never as { kind: unknown }).kind)}`);
      }
    }
  } catch (error) {
    // Updates cannot reach a closed run, and an unknown id has no run: to the link holder both are a dead link.
    throw await explainUpdateError(error, () => new DomainError('rule', contactChangeRefusals.linkExpired));
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
