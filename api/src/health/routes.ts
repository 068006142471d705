import { Router } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { EventStore } from '../../../domain/src/event-store/port';
import { projectorLag } from '../../../projections/src/runner';
import { publicRoute } from '../http/auth';

/**
 * GET /health, without authentication (load balancers and the supervisor call it): each dependency is
 * checked with a short timeout, and any one down answers 503 so traffic moves elsewhere.
 */
export type ProjectorStatus = { lag: number; checkpoint: number; head: number };

export type HealthChecks = {
  database: () => Promise<void>;
  temporal: () => Promise<void>;
  projector: () => Promise<ProjectorStatus>;
};

export type HealthReport = {
  status: 'ok' | 'unavailable';
  database: 'up' | 'down';
  temporal: 'up' | 'down';
  projector: ProjectorStatus | null;
};

export const HEALTH_TIMEOUT_MS = 1500;

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

export function defaultHealthChecks(deps: { pool: Pool; store: EventStore; temporal: Client }): HealthChecks {
  return {
    database: async () => {
      await deps.pool.query('SELECT 1');
    },
    // The cheapest call that proves the frontend service answers. Aborted, not just abandoned, at the
    // timeout: the SDK retries an unreachable server, and those retries must not outlive the request.
    temporal: async () => {
      const { connection, workflowService } = deps.temporal;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), HEALTH_TIMEOUT_MS - 100);
      try {
        await connection.withDeadline(Date.now() + HEALTH_TIMEOUT_MS - 100, () =>
          connection.withAbortSignal(controller.signal, () => workflowService.getSystemInfo({})),
        );
      } finally {
        clearTimeout(timer);
      }
    },
    projector: () => projectorLag(deps.pool, deps.store),
  };
}

export async function checkHealth(checks: HealthChecks, timeoutMs = HEALTH_TIMEOUT_MS): Promise<HealthReport> {
  const [database, temporal, projector] = await Promise.allSettled([
    within(timeoutMs, checks.database),
    within(timeoutMs, checks.temporal),
    within(timeoutMs, checks.projector),
  ]);
  const report: HealthReport = {
    status: 'ok',
    database: database.status === 'fulfilled' ? 'up' : 'down',
    temporal: temporal.status === 'fulfilled' ? 'up' : 'down',
    projector: projector.status === 'fulfilled' ? projector.value : null,
  };
  // The projector's lag is reported, not judged: a burst of events is not an outage.
  if (report.database === 'down' || report.temporal === 'down') report.status = 'unavailable';
  return report;
}

export function healthRoutes(checks: HealthChecks): Router {
  const router = Router();
  router.get('/health', publicRoute(), async (_req, res) => {
    const report = await checkHealth(checks);
    res.setHeader('Cache-Control', 'no-store');
    res.status(report.status === 'ok' ? 200 : 503).json(report);
  });
  return router;
}
