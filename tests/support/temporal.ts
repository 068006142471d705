import { readFileSync } from 'node:fs';

/** Address of the Temporal dev server global setup started. */
export const temporalAddress = (): string => {
  const address = process.env.TEST_TEMPORAL_ADDRESS;
  if (!address) throw new Error('TEST_TEMPORAL_ADDRESS is not set: run integration tests through jest (global setup)');
  return address;
};

let cached: { code: string } | null = null;

/** The workflow code bundled once in global setup, for `Worker.create({ workflowBundle })`. */
export const workflowBundle = (): { code: string } => {
  if (cached) return cached;
  const file = process.env.TEST_WORKFLOW_BUNDLE;
  if (!file) throw new Error('TEST_WORKFLOW_BUNDLE is not set: run integration tests through jest (global setup)');
  cached = { code: readFileSync(file, 'utf8') };
  return cached;
};

/** One task queue per test file (design.md §8), unique per run. */
export const uniqueTaskQueue = (name: string): string => `${name}-${process.pid}-${Date.now().toString(36)}`;
