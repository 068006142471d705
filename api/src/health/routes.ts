import { Router } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { EventStore } from '../../../domain/src/event-store/port';
import { AUDITOR_ROLE, STAFF_ROLES } from '../../../domain/src/identity/roles';
import { demoSeedStatus } from '../../../platform/src/db/demo-seed-state';
import { projectorLag } from '../../../projections/src/runner';
import { publicRoute, requireAuth } from '../http/auth';

/**
 * Readiness. `GET /health` (no sign-in: load balancers and the supervisor call it) answers each dependency as
 * up or down and nothing more, 200 only when every one is ready:
 * - database or Temporal unreachable → `unavailable`;
 * - no worker polls the workflow task queue → `degraded` (commands would wait for their deadline and fail);
 * - the demo seed (SEED_DEMO) has not finished → `starting` (the printed demo logins do not work yet).
 * Anything but `ok` is 503. How far the projector is behind (event volume) is only for signed-in staff and
 * auditors, at `GET /api/health/detail`.
 */
export type ProjectorStatus = { lag: number; checkpoint: number; head: number };

/** The demo seed as readiness sees it: not finished yet (`running`), or finished either way. */
export type SeedReadiness = 'running' | 'done' | 'skipped';

export type HealthChecks = {
  database: () => Promise<void>;
  temporal: () => Promise<void>;
  /** True when a worker polls the workflow task queue (see `workerPolling`). */
  worker: () => Promise<boolean>;
  projector: () => Promise<ProjectorStatus>;
  /** The demo seed's progress when this api waits for it (SEED_DEMO), else null. */
  seed: () => Promise<SeedReadiness | null>;
};

type UpDown = 'up' | 'down';

export type HealthReport = {
  status: 'ok' | 'starting' | 'degraded' | 'unavailable';
  database: UpDown;
  temporal: UpDown;
  worker: UpDown;
  /** Only when the api waits for the demo seed. */
  seed?: SeedReadiness;
};

export type HealthDetail = HealthReport & { projector: ProjectorStatus | null };

export const HEALTH_TIMEOUT_MS = 1500;

/**
 * A worker long-polls its task queue and polls again as soon as a poll ends, which the server holds up to a
 * minute: a live, idle worker's last poll may be that old. Older than this, nobody is polling any more.
 */
export const POLLER_FRESH_MS = 75_000;

// TaskQueueKind.NORMAL, TaskQueueType.WORKFLOW (temporal.api.enums.v1).
const NORMAL = 1;
const WORKFLOW = 1;

function within<T>(ms: number, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    work().then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * One Temporal call bounded by `ms`: aborted, not just abandoned, at the timeout, since the SDK retries an
 * unreachable server and those retries must not outlive the request.
 */
async function bounded<T>(temporal: Client, ms: number, call: () => Promise<T>): Promise<T> {
  const { connection } = temporal;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await connection.withDeadline(Date.now() + ms, () => connection.withAbortSignal(controller.signal, call));
  } finally {
    clearTimeout(timer);
  }
}

/** True when some worker has polled the task queue's workflow tasks within `freshMs` (DescribeTaskQueue). */
export async function workerPolling(temporal: Client, taskQueue: string, freshMs = POLLER_FRESH_MS): Promise<boolean> {
  const { pollers } = await bounded(temporal, HEALTH_TIMEOUT_MS - 100, () =>
    temporal.workflowService.describeTaskQueue({
      namespace: temporal.options.namespace,
      taskQueue: { name: taskQueue, kind: NORMAL },
      taskQueueType: WORKFLOW,
    }),
  );
  const now = Date.now();
  return (pollers ?? []).some((p) => {
    const seconds = p.lastAccessTime?.seconds;
    if (seconds === undefined || seconds === null) return false;
    const at = Number(seconds) * 1000 + Math.floor((p.lastAccessTime?.nanos ?? 0) / 1e6);
    return now - at <= freshMs;
  });
}

export function defaultHealthChecks(deps: {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  /** SEED_DEMO: readiness waits for the demo seed to finish. */
  seedDemo?: boolean;
}): HealthChecks {
  return {
    database: async () => {
      await deps.pool.query('SELECT 1');
    },
    // The cheapest call that proves the frontend service answers.
    temporal: async () => {
      await bounded(deps.temporal, HEALTH_TIMEOUT_MS - 100, () => deps.temporal.workflowService.getSystemInfo({}));
    },
    worker: () => workerPolling(deps.temporal, deps.taskQueue),
    projector: () => projectorLag(deps.pool, deps.store),
    seed: async () => {
      if (!deps.seedDemo) return null;
      const status = await demoSeedStatus(deps.pool);
      return status === 'done' || status === 'skipped' ? status : 'running';
    },
  };
}

export async function checkHealth(checks: HealthChecks, timeoutMs = HEALTH_TIMEOUT_MS): Promise<HealthDetail> {
  const [database, temporal, worker, projector, seed] = await Promise.allSettled([
    within(timeoutMs, checks.database),
    within(timeoutMs, checks.temporal),
    within(timeoutMs, checks.worker),
    within(timeoutMs, checks.projector),
    within(timeoutMs, checks.seed),
  ]);
  const report: HealthDetail = {
    status: 'ok',
    database: database.status === 'fulfilled' ? 'up' : 'down',
    temporal: temporal.status === 'fulfilled' ? 'up' : 'down',
    worker: worker.status === 'fulfilled' && worker.value ? 'up' : 'down',
    projector: projector.status === 'fulfilled' ? projector.value : null,
  };
  // The seed's state lives in the database: unknown (database down) reads as not finished.
  const seeded: SeedReadiness | null = seed.status === 'fulfilled' ? seed.value : 'running';
  if (seeded !== null) report.seed = seeded;
  // The projector's lag is reported, not judged: a burst of events is not an outage.
  if (report.database === 'down' || report.temporal === 'down') report.status = 'unavailable';
  else if (report.worker === 'down') report.status = 'degraded';
  else if (seeded === 'running') report.status = 'starting';
  return report;
}

/** What an anonymous caller may see: readiness and each dependency up or down, no event volume. */
export function publicReport({ projector: _volume, ...report }: HealthDetail): HealthReport {
  return report;
}

/** `GET /health`, public, mounted at the root. */
export function healthRoutes(checks: HealthChecks): Router {
  const router = Router();
  router.get('/health', publicRoute(), async (_req, res) => {
    const report = await checkHealth(checks);
    res.setHeader('Cache-Control', 'no-store');
    res.status(report.status === 'ok' ? 200 : 503).json(publicReport(report));
  });
  return router;
}

/**
 * `GET /health/detail` under /api: the same report with the projector's position, for staff and auditors.
 * A diagnostic read, not a probe: it answers 200 whatever the status says.
 */
export function healthDetailRoutes(checks: HealthChecks): Router {
  const router = Router();
  const staff = requireAuth({ roles: [...STAFF_ROLES, AUDITOR_ROLE], app: 'console' });
  router.get('/health/detail', staff, async (_req, res) => {
    res.json(await checkHealth(checks));
  });
  return router;
}
