import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

/** The bundle entry (workflows.ts); a worker given this path bundles on start, which takes seconds. */
export const workflowsPath = path.join(__dirname, 'workflows.ts');

const quiet = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  log: () => undefined,
  warn: (message: string, meta?: Record<string, unknown>) => console.warn(message, meta ?? ''),
  error: (message: string, meta?: Record<string, unknown>) => console.error(message, meta ?? ''),
};

let bundled: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * Bundles the workflow code once per process and hands the same bundle to every worker that asks (tests,
 * bench, the replayer), instead of paying webpack for each.
 */
export function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  bundled ??= bundleWorkflowCode({ workflowsPath, logger: quiet });
  return bundled;
}
