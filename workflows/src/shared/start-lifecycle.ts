import {
  WithStartWorkflowOperation,
  WorkflowUpdateFailedError,
  type Client,
  type UpdateDefinition,
} from '@temporalio/client';
import { withCommandDeadline } from './command-deadline';
import { commandErrorFrom } from './update-errors';

/**
 * Starts a lifecycle whose id is the request's (registration, contact change, block request) and answers with
 * its first update once the workflow has recorded the start, in one round trip (update-with-start). A retried
 * start with the same id joins the running lifecycle (USE_EXISTING) and gets the same answer; a closed one is
 * never started again (REJECT_DUPLICATE). With `timeoutMs` the wait is bounded (CommandTimeoutError; a run that
 * starts late records nothing). A refused start comes back as the decider's DomainError; where the update's
 * failure carries none, `explainFailure` may say what happened (e.g. from the closed run's own failure).
 * Client code only.
 */
export async function startLifecycle<Result>(
  client: Client,
  options: {
    workflowType: string;
    workflowId: string;
    taskQueue: string;
    /** The workflow's input (its one argument). */
    input: object;
    /** The update that answers once the start is recorded (it takes no arguments). */
    awaitStarted: UpdateDefinition<Result, [], string>;
    updateId: string;
    timeoutMs?: number;
    /**
     * Default REJECT_DUPLICATE. ALLOW_DUPLICATE for a lifecycle whose id is a business code a person may try
     * again after a refused or abandoned start (an RFP code): its creation command refuses an existing stream.
     */
    workflowIdReusePolicy?: 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE';
    explainFailure?: () => Promise<Error | undefined>;
  },
): Promise<Result> {
  const { workflowId, updateId, input } = options;
  try {
    return await withCommandDeadline(client, options.timeoutMs, { workflowId, updateId, start: true }, (deadline) => {
      const startWorkflowOperation = new WithStartWorkflowOperation(options.workflowType, {
        workflowId,
        taskQueue: options.taskQueue,
        args: [deadline === undefined ? input : { ...input, deadline }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: options.workflowIdReusePolicy ?? 'REJECT_DUPLICATE',
      });
      return client.workflow.executeUpdateWithStart(options.awaitStarted, { startWorkflowOperation, updateId });
    });
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) throw commandErrorFrom(error.cause) ?? (await options.explainFailure?.()) ?? error;
    throw error;
  }
}
