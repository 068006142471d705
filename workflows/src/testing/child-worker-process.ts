import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { temporalAddress, workflowBundle } from '../../../tests/support/temporal';

/**
 * Tests only: workers in processes of their own (workflows/src/onboarding/child-worker.ts), which a test can
 * SIGKILL mid-activity — what an in-process worker cannot simulate.
 */
export type ChildWorker = { process: ChildProcess; waitFor: (line: string) => Promise<void>; exited: Promise<unknown> };

const repoRoot = path.resolve(__dirname, '../../..');
const entry = path.resolve(__dirname, '../onboarding/child-worker.ts');

export type ChildWorkers = {
  /**
   * Starts a worker and resolves once it polls. `hangAfterAppend`: after appending an event of that type the
   * worker prints `appended <type>` and never answers. `env` adds settings (e.g. ERP_URL, ERP_API_KEY).
   */
  start: (options?: { hangAfterAppend?: string; env?: NodeJS.ProcessEnv }) => Promise<ChildWorker>;
  /** Kills every worker still running and removes the prebuilt bundle. */
  stopAll: () => void;
};

export function childWorkers(taskQueue: string, databaseUrl: string): ChildWorkers {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'child-worker-'));
  const bundlePath = path.join(workDir, 'workflows.js');
  writeFileSync(bundlePath, workflowBundle().code);
  const children: ChildProcess[] = [];

  async function start(options: { hangAfterAppend?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ChildWorker> {
    // `node --import tsx`, not the tsx CLI, which would put a second process in between and swallow the kill.
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: repoRoot,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: temporalAddress(),
        TASK_QUEUE: taskQueue,
        DATABASE_URL: databaseUrl,
        WORKFLOW_BUNDLE: bundlePath,
        ...(options.hangAfterAppend ? { HANG_AFTER_APPEND: options.hangAfterAppend } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const seen = new Set<string>();
    const waiters = new Map<string, () => void>();
    createInterface({ input: child.stdout! }).on('line', (line) => {
      seen.add(line);
      waiters.get(line)?.();
    });
    const waitFor = (line: string) =>
      seen.has(line)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiters.set(line, resolve)),
            exited.then(() => {
              throw new Error(`child worker exited before printing "${line}"`);
            }),
          ]);
    await waitFor('ready');
    return { process: child, waitFor, exited };
  }

  return {
    start,
    stopAll: () => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
