import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection, type WorkflowBundleOption } from '@temporalio/worker';
import type { Pool } from 'pg';
import type { EventStore } from '../domain/src/event-store/port';
import { bundleWorkflows } from '../workflows/src/bundle';
import type { HandleOnboardingCommandArgs } from '../workflows/src/onboarding/activities';
import { onboardingWorkflowId, type OnboardingInput } from '../workflows/src/onboarding/messages';
import type { onboardingWorkflow } from '../workflows/src/onboarding/workflow';
import { createActivities } from '../workflows/src/worker';
import type { BenchFigure } from './event-store';
import { percentile } from './stats';

type OnboardingWorkflow = typeof onboardingWorkflow;

/**
 * Temporal figure for `npm run bench` (target: p99 ≤ 150 ms): the time from the client's start call to the
 * moment the lifecycle's first activity (creating the BA) begins on the worker. Both ends are read from the
 * same clock, because the worker runs in this process with its real activities (on the given store),
 * wrapped to note when each workflow's first activity starts. Starts are sequential: this is a latency
 * figure, not a throughput one. The started lifecycles are terminated afterwards.
 */
export async function benchWorkflowStart(options: {
  client: Client;
  /** The worker's connection (a NativeConnection to the same server as the client). */
  connection: NativeConnection;
  store: EventStore;
  /** The database the store writes to: the activities resolve company codes from its masters. */
  pool: Pool;
  taskQueue: string;
  n: number;
  namespace?: string;
  workflowBundle?: WorkflowBundleOption;
  /** Starts made but not counted, so loading the bundle and setting up connections are left out. */
  warmup?: number;
}): Promise<BenchFigure> {
  const { client, taskQueue, n } = options;
  const warmup = options.warmup ?? 5;
  const base = createActivities({ store: options.store, pool: options.pool });
  const started = new Map<string, () => void>();
  const activities = {
    ...base,
    handleOnboardingCommand: (args: HandleOnboardingCommandArgs) => {
      started.get(args.workflowId)?.();
      started.delete(args.workflowId);
      return base.handleOnboardingCommand(args);
    },
  };
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    taskQueue,
    workflowBundle: options.workflowBundle ?? (await bundleWorkflows()),
    activities,
  });

  const latencies: number[] = [];
  const workflowIds: string[] = [];
  await worker.runUntil(async () => {
    for (let i = 0; i < warmup + n; i++) {
      const baId = `bench-${randomUUID()}`;
      const workflowId = onboardingWorkflowId(baId);
      const input: OnboardingInput = {
        baId,
        companyCode: '1000',
        adminUserId: null,
        mobileNo: null,
        email: null,
        actor: { userId: 'bench', role: 'system' },
        correlationId: randomUUID(),
        requestId: randomUUID(),
      };
      const firstActivity = new Promise<number>((resolve) => {
        started.set(workflowId, () => resolve(performance.now()));
      });
      const t0 = performance.now();
      await client.workflow.start<OnboardingWorkflow>('onboardingWorkflow', {
        workflowId,
        taskQueue,
        args: [input],
      });
      const t1 = await firstActivity;
      workflowIds.push(workflowId);
      if (i >= warmup) latencies.push(t1 - t0);
    }
    // Leave nothing waiting for decisions on the server.
    await Promise.all(workflowIds.map((id) => client.workflow.getHandle(id).terminate('bench finished')));
  });

  const round = (v: number) => Number(v.toFixed(2));
  return {
    name: 'Temporal: workflow start → first activity',
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    n: latencies.length,
  };
}
