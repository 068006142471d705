import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { isRetryableResult } from '../../../domain/src/vendor-code-workbook/rules';
import { CommandFailedError } from '../shared/command-deadline';
import {
  vendorCodeWorkbookProgressQuery,
  vendorCodeWorkbookWorkflowId,
  type VendorCodeWorkbookInput,
  type VendorCodeWorkbookProgress,
  type VendorCodeWorkbookResult,
} from './messages';
// Type only: the API must not load workflow code.
import type { vendorCodeWorkbookWorkflow } from './workflow';

/** A run's answer so far: its result, or that it is still working (with what is done, when the worker answers). */
export type WorkbookRunState =
  | { state: 'done'; result: VendorCodeWorkbookResult }
  | { state: 'running'; progress: VendorCodeWorkbookProgress | null };

async function statusOf(client: Client, workflowId: string): Promise<string | null> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

/**
 * Runs the workbook (one run per file sha256) and waits up to `waitMs` for its result. The same file again:
 * a running run is joined; a finished one answers its result, unless some rows ended because the ERP was out
 * (or silent), in which case a new run goes over the file again: its rows reach the ERP with the same
 * idempotency keys, so what was created comes back with the same codes and nothing is created twice.
 */
export async function submitVendorCodeWorkbook(
  client: Client,
  taskQueue: string,
  input: VendorCodeWorkbookInput,
  options: { waitMs: number },
): Promise<WorkbookRunState> {
  const workflowId = vendorCodeWorkbookWorkflowId(input.sha256);
  const status = await statusOf(client, workflowId);
  if (status === 'COMPLETED') {
    const result = await client.workflow.getHandle<typeof vendorCodeWorkbookWorkflow>(workflowId).result();
    if (!result.data.some(isRetryableResult)) return { state: 'done', result };
  }
  if (status !== 'RUNNING') {
    await client.workflow.start<typeof vendorCodeWorkbookWorkflow>('vendorCodeWorkbookWorkflow', {
      workflowId,
      taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  }
  return waitForVendorCodeWorkbook(client, input.sha256, options.waitMs);
}

/** The run's result within `waitMs`, else `running` (and its progress when a worker answers the query). */
export async function waitForVendorCodeWorkbook(client: Client, sha256: string, waitMs: number): Promise<WorkbookRunState> {
  const handle = client.workflow.getHandle<typeof vendorCodeWorkbookWorkflow>(vendorCodeWorkbookWorkflowId(sha256));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    const result = await Promise.race([handle.result(), timeout]);
    if (result) return { state: 'done', result };
  } catch (error) {
    if (error instanceof WorkflowFailedError) throw new CommandFailedError('The vendor codes of this file could not be created. Please upload it again');
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const progress = await handle.query(vendorCodeWorkbookProgressQuery).catch(() => null);
  return { state: 'running', progress };
}

/** The run of a file (by its sha256): null when there is none. */
export async function getVendorCodeWorkbook(client: Client, sha256: string): Promise<WorkbookRunState | null> {
  const status = await statusOf(client, vendorCodeWorkbookWorkflowId(sha256));
  if (status === null) return null;
  if (status === 'RUNNING') {
    const handle = client.workflow.getHandle(vendorCodeWorkbookWorkflowId(sha256));
    return { state: 'running', progress: await handle.query(vendorCodeWorkbookProgressQuery).catch(() => null) };
  }
  return waitForVendorCodeWorkbook(client, sha256, 5000);
}
