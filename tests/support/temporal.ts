import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

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

/**
 * A Temporal namespace of this test file's own, among those global setup registered; claimed with an
 * exclusive file create so two jest workers never get the same one. Falls back to `default` on a server
 * started elsewhere (TEST_TEMPORAL_ADDRESS given, no namespaces registered).
 */
export function claimNamespace(): string {
  const names = (process.env.TEST_TEMPORAL_NAMESPACES ?? '').split(',').filter(Boolean);
  const dir = process.env.TEST_WORK_DIR;
  if (names.length === 0 || !dir) return 'default';
  for (const name of names) {
    try {
      closeSync(openSync(path.join(dir, `namespace-${name}`), 'wx'));
      return name;
    } catch {
      // taken by another test file
    }
  }
  throw new Error(`all ${names.length} test namespaces are taken: register more in tests/support/global-setup.ts`);
}
