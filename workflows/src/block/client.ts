import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { blockMessages } from '../../../domain/src/block/decide';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { withCommandDeadline, type CommandTimeout } from '../shared/command-deadline';
import { explainUpdateError } from '../shared/update-errors';
import {
  approveUpdate,
  awaitRequestedUpdate,
  blockStateQuery,
  blockWorkflowId,
  rejectUpdate,
  type BlockInput,
  type BlockUpdateResult,
  type DecisionContext,
} from './messages';
import { startLifecycle } from '../shared/start-lifecycle';

/**
 * Starts the request and answers once BlockRequested is recorded, or with its refusal (409 another request is
 * open for the vendor code, 422 not blocked / no vendor code, 400 bad fields). Update-with-start: a retried
 * start with the same request id joins the running request.
 */
export async function startBlockRequest(
  client: Client,
  taskQueue: string,
  input: BlockInput,
  options: CommandTimeout = {},
): Promise<BlockUpdateResult> {
  return startLifecycle<BlockUpdateResult>(client, {
    workflowType: 'blockWorkflow',
    workflowId: blockWorkflowId(input.requestId),
    taskQueue,
    input,
    awaitStarted: awaitRequestedUpdate,
    updateId: `requested:${input.requestId}`,
    timeoutMs: options.timeoutMs,
  });
}

export type BlockDecision = { kind: 'approve' } | { kind: 'reject'; remarks: string };

/** Approve or reject; the request id (HTTP) is the update id, so a retried request is the same update. */
export async function decideBlockRequest(
  client: Client,
  requestId: string,
  decision: BlockDecision,
  ctx: { actor: Actor; requestId: string; correlationId?: string } & CommandTimeout,
): Promise<BlockUpdateResult> {
  const workflowId = blockWorkflowId(requestId);
  const handle = client.workflow.getHandle(workflowId);
  const base: DecisionContext = { actor: ctx.actor, requestId: ctx.requestId, correlationId: ctx.correlationId ?? ctx.requestId };
  try {
    return await withCommandDeadline(client, ctx.timeoutMs, { workflowId, updateId: ctx.requestId }, (deadline) => {
      const args = deadline === undefined ? base : { ...base, deadline };
      return decision.kind === 'approve'
        ? handle.executeUpdate(approveUpdate, { updateId: ctx.requestId, args: [args] })
        : handle.executeUpdate(rejectUpdate, { updateId: ctx.requestId, args: [{ ...args, remarks: decision.remarks }] });
    });
  } catch (error) {
    throw await explainUpdateError(error, () => new DomainError('rule', blockMessages.notPending));
  }
}

/** The request as its workflow holds it, or null when there is none (or its run has closed). */
export async function getBlockState(client: Client, requestId: string): Promise<BlockUpdateResult | null> {
  try {
    return await client.workflow.getHandle(blockWorkflowId(requestId)).query(blockStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

/**
 * Waits (bounded) until the approved request has its answer from the ERP: applied (or ended), refused. Null when
 * the ERP has not answered in time (the caller says "waiting for ERP").
 */
export async function waitForBlockOutcome(client: Client, requestId: string, timeoutMs: number): Promise<BlockUpdateResult | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const current = await getBlockState(client, requestId).catch(() => null);
    if (current && current.state.status !== 'approved' && current.state.status !== 'pending') return current;
    if (Date.now() >= until) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(150, Math.max(0, until - Date.now()))));
  }
}

export type { BlockInput, BlockUpdateResult };
