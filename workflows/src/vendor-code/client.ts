import { WithStartWorkflowOperation, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import type { VendorCodeCommand } from '../../../domain/src/vendor-code/commands';
import type { VendorCodeState } from '../../../domain/src/vendor-code/state';
import { withCommandDeadline, type CommandTimeout } from '../shared/command-deadline';
import { explainUpdateError } from '../shared/update-errors';
import {
  vendorCodeCommandUpdate,
  vendorCodeStateQuery,
  vendorCodeWorkflowId,
  type VendorCodeCommandArgs,
  type VendorCodeInput,
  type VendorCodeUpdateResult,
} from './messages';
// Type only: the API must not load workflow code.
import type { vendorCodeWorkflow } from './workflow';

/**
 * Sends one staff command to the BA's vendor-code lifecycle for the company code, starting the lifecycle with
 * it when there is none (update-with-start, USE_EXISTING: a double click joins the running one). The request
 * id is the update id (a retried HTTP request is the same update). Bounded by `timeoutMs` like every command.
 */
export async function sendVendorCodeCommand(
  client: Client,
  taskQueue: string,
  target: { baId: string; companyCode: string },
  command: VendorCodeCommand,
  ctx: {
    actor: Actor;
    requestId: string;
    correlationId?: string;
    /** Tests shorten the ERP's retry and poll intervals; only used when this command starts the lifecycle. */
    erp?: Pick<VendorCodeInput, 'erpRetry' | 'erpPoll'>;
  } & CommandTimeout,
): Promise<VendorCodeUpdateResult> {
  const workflowId = vendorCodeWorkflowId(target.baId, target.companyCode);
  const correlationId = ctx.correlationId ?? ctx.requestId;
  const input: VendorCodeInput = { baId: target.baId, companyCode: target.companyCode, correlationId, ...ctx.erp };
  try {
    return await withCommandDeadline(client, ctx.timeoutMs, { workflowId, updateId: ctx.requestId, start: true }, (deadline) => {
      const args: VendorCodeCommandArgs = {
        actor: ctx.actor,
        requestId: ctx.requestId,
        correlationId,
        command,
        ...(deadline === undefined ? {} : { deadline }),
      };
      const startWorkflowOperation = new WithStartWorkflowOperation<typeof vendorCodeWorkflow>('vendorCodeWorkflow', {
        workflowId,
        taskQueue,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
      return client.workflow.executeUpdateWithStart(vendorCodeCommandUpdate, {
        updateId: ctx.requestId,
        args: [args],
        startWorkflowOperation,
      });
    });
  } catch (error) {
    throw await explainUpdateError(error, () => new DomainError('rule', 'The vendor-code lifecycle is not running; please try again'));
  }
}

/** The lifecycle's state as the workflow holds it, or null when none runs. */
export async function getVendorCodeState(client: Client, baId: string, companyCode: string): Promise<VendorCodeState | null> {
  try {
    return await client.workflow.getHandle(vendorCodeWorkflowId(baId, companyCode)).query(vendorCodeStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}
