import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { massUploadWorkflowId, type MassUploadInput } from './messages';
// Type only: the API must not load workflow code.
import type { massUploadWorkflow } from './workflow';

/**
 * Starts the ERP step of a recorded upload (`mass-upload-<uploadId>`). The same upload again (the same file)
 * finds the workflow there (running or completed) and starts nothing; only a failed or terminated run may
 * be started again. Answers whether a run was started.
 */
export async function startMassUploadErp(client: Client, taskQueue: string, input: MassUploadInput): Promise<boolean> {
  try {
    await client.workflow.start<typeof massUploadWorkflow>('massUploadWorkflow', {
      workflowId: massUploadWorkflowId(input.uploadId),
      taskQueue,
      args: [input],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}
