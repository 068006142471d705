import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { memoMessages } from '../../../domain/src/memos/decide';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { withCommandDeadline, type CommandTimeout } from '../shared/command-deadline';
import { startLifecycle } from '../shared/start-lifecycle';
import { explainUpdateError } from '../shared/update-errors';
import { awaitMemoSubmittedUpdate, memoStateQuery, memoWorkflowId, recordAdvanceUpdate, type AdvanceArgs, type MemoInput, type MemoUpdateResult } from './messages';

/**
 * Submits a memo and answers once MemoSubmitted is recorded (its number in `state.memoNumber`), or with the
 * refusal (404 unknown invoice, 409 already in a memo, 422 status / mixed group). Update-with-start: a retried
 * submission with the same memo id joins the running memo and gets the same number.
 */
export async function submitMemo(client: Client, taskQueue: string, input: MemoInput, options: CommandTimeout = {}): Promise<MemoUpdateResult> {
  return startLifecycle<MemoUpdateResult>(client, {
    workflowType: 'memoWorkflow',
    workflowId: memoWorkflowId(input.memoId),
    taskQueue,
    input,
    awaitStarted: awaitMemoSubmittedUpdate,
    updateId: `submitted:${input.memoId}`,
    timeoutMs: options.timeoutMs,
  });
}

/** Records an advance payment; the HTTP request id is the update id and the advance id (recorded once). */
export async function recordAdvancePayment(
  client: Client,
  memoId: string,
  advance: Omit<AdvanceArgs, 'correlationId' | 'deadline'> & { correlationId?: string } & CommandTimeout,
): Promise<MemoUpdateResult> {
  const workflowId = memoWorkflowId(memoId);
  const handle = client.workflow.getHandle(workflowId);
  const args: AdvanceArgs = {
    actor: advance.actor,
    requestId: advance.requestId,
    correlationId: advance.correlationId ?? advance.requestId,
    amount: advance.amount,
    reference: advance.reference,
    paidOn: advance.paidOn,
  };
  try {
    return await withCommandDeadline(client, advance.timeoutMs, { workflowId, updateId: advance.requestId }, (deadline) =>
      handle.executeUpdate(recordAdvanceUpdate, { updateId: advance.requestId, args: [deadline === undefined ? args : { ...args, deadline }] }),
    );
  } catch (error) {
    throw await explainUpdateError(error, () => new DomainError('not_found', memoMessages.memoNotFound));
  }
}

/** The memo as its workflow holds it, or null when there is none. */
export async function getMemoState(client: Client, memoId: string): Promise<MemoUpdateResult | null> {
  try {
    return await client.workflow.getHandle(memoWorkflowId(memoId)).query(memoStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

export type { Actor, MemoInput, MemoUpdateResult };
