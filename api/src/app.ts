import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { EventStore } from '../../domain/src/event-store/port';
import { waitForProjections } from '../../projections/src/runner';
import { defaultHealthChecks, healthRoutes, type HealthChecks } from './health/routes';
import { authenticate, createAuth, type AuthConfig, type AuthKeys } from './http/auth';
import { HttpError, problemHandler } from './http/problem';
import { createRateLimiter } from './http/rate-limit';
import { identityRoutes } from './identity/routes';
import { masterRoutes } from './masters/routes';
import { onboardingRoutes } from './onboarding/routes';
import { taskRoutes } from './tasks/routes';

export type AppDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  /** The queue lifecycles are started on (registration, in a later issue, starts them from the API). */
  taskQueue: string;
  auth: { config: AuthConfig; keys: AuthKeys };
  /** Built front ends: the console at /console, the portal at /. */
  staticDirs?: { console?: string; portal?: string };
  /** Replace single health checks (tests simulate an outage this way). */
  health?: Partial<HealthChecks>;
  /** Sign-in attempts per username and client address (default 10 a minute). */
  loginRateLimit?: { limit: number; windowMs: number };
  /** Bound on a command's wait for its write to reach the read models (default 2 s). */
  projectionWaitMs?: number;
  /** Origins other than our own that may call the API from a browser (development servers). */
  corsOrigins?: readonly string[];
  log?: (line: string) => void;
};

/** JSON bodies are small forms; anything larger is refused with 413 before it is parsed. */
export const BODY_LIMIT = '100kb';

function cors(origins: readonly string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    // ra-data-simple-rest reads the total from Content-Range: a cross-origin caller must be allowed to see it.
    res.setHeader('Access-Control-Expose-Headers', 'Content-Range');
    const origin = req.get('origin');
    if (origin && origins.includes(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Vary', 'Origin');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,DELETE,OPTIONS');
        res.setHeader('Access-Control-Allow-Headers', 'Authorization,Content-Type,Idempotency-Key,X-Correlation-Id');
        res.setHeader('Access-Control-Max-Age', '600');
        return res.status(204).end();
      }
    }
    next();
  };
}

/** A single-page app: its files, and index.html for any other GET below its mount point. */
function spa(app: Express, mount: string, dir: string, skip: (p: string) => boolean): void {
  const index = path.join(dir, 'index.html');
  app.use(mount, express.static(dir, { index: 'index.html', fallthrough: true }));
  app.use(mount, (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || skip(req.originalUrl)) return next();
    res.sendFile(index, (err) => (err ? next(err) : undefined));
  });
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  const log = deps.log ?? ((line: string) => console.error(line));
  const auth = createAuth(deps.auth.config, deps.auth.keys);
  const limit = deps.loginRateLimit ?? { limit: 10, windowMs: 60_000 };
  const waitMs = deps.projectionWaitMs ?? 2000;

  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });

  app.use(healthRoutes({ ...defaultHealthChecks(deps), ...deps.health }));

  const api = express.Router();
  api.use(cors(deps.corsOrigins ?? []));
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(express.json({ limit: BODY_LIMIT }));
  api.use(authenticate(auth));
  api.use(identityRoutes({ pool: deps.pool, auth, loginLimiter: createRateLimiter(limit) }));
  api.use(masterRoutes());
  api.use(
    onboardingRoutes({
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      projectionWaitMs: waitMs,
      waitForProjections: (position, timeoutMs) => waitForProjections(deps.pool, position, { timeoutMs }),
    }),
  );
  api.use(taskRoutes({ pool: deps.pool }));
  api.use(() => {
    throw new HttpError(404, 'Not found');
  });
  app.use('/api', api);

  const isApi = (p: string) => p === '/api' || p.startsWith('/api/') || p.startsWith('/health');
  if (deps.staticDirs?.console) spa(app, '/console', deps.staticDirs.console, isApi);
  if (deps.staticDirs?.portal) spa(app, '/', deps.staticDirs.portal, (p) => isApi(p) || p.startsWith('/console'));

  const describe = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));
  app.use(problemHandler((err, status) => log(`HTTP ${status}: ${describe(err)}`)));
  return app;
}
