import type { Client } from '@temporalio/client';
import type { ErpPort } from '../../../domain/src/erp/port';
import { decideBlockRequest, startBlockRequest, type BlockUpdateResult } from './client';
import { blockWorkflowId, type BlockInput } from './messages';
import { blockActors, blockInput, createErpParent } from './testing';

/**
 * The block journeys the golden history is recorded from (and tests may drive), kept next to the workflow so
 * the recording is exactly what they prove. They need a worker with an ERP (the sandbox).
 */

/**
 * A parent vendor created in the ERP for `pan` (company code 1000); a block request with an end date two days
 * ahead, approved by a second person and applied in the ERP; its end-date timer fires `endAfterMs` after that
 * (1.5 s by default) and the system unblocks it in the ERP. Answers the workflow's result (status 'ended').
 */
export async function blockedUntilEndDate(
  client: Client,
  taskQueue: string,
  erp: ErpPort,
  options: { pan: string; requestId?: string } & Partial<Pick<BlockInput, 'endAfterMs'>>,
): Promise<BlockUpdateResult> {
  const { pan } = options;
  await createErpParent(erp, pan, '1000');
  const endDate = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const input = blockInput({
    pan,
    endDate,
    endAfterMs: options.endAfterMs ?? 1_500,
    ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
  });
  await startBlockRequest(client, taskQueue, input);
  await decideBlockRequest(client, input.requestId, { kind: 'approve' }, {
    actor: blockActors.approver,
    requestId: `approve:${input.requestId}:${blockActors.approver.userId}`,
  });
  return client.workflow.getHandle(blockWorkflowId(input.requestId)).result() as Promise<BlockUpdateResult>;
}
