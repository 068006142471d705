import { randomBytes } from 'node:crypto';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { EventStore } from '../../domain/src/event-store/port';
import { waitForProjections } from '../../projections/src/runner';
import { defaultHealthChecks, healthDetailRoutes, healthRoutes, type HealthChecks } from './health/routes';
import { authenticate, createAuth, createBlockedCheck, type AuthConfig, type AuthKeys } from './http/auth';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../workflows/src/shared/command-deadline';
import { dispatchBySegment } from './http/dispatch';
import { HttpError, problemHandler } from './http/problem';
import { createRateLimiter } from './http/rate-limit';
import { securityHeaders } from './http/security-headers';
import { createCaptcha } from './identity/captcha';
import type { IdentityOptions } from './identity/deps';
import { identityRoutes } from './identity/routes';
import { DEFAULT_SIGN_IN_LIMITS } from './identity/store/sign-in-limits';
import { masterRoutes } from './masters/routes';
import { onboardingRoutes } from './onboarding/routes';
import { itemReadRoutes } from './onboarding/item-reads';
import { changeRequestRoutes } from './onboarding/change-requests';
import { itemCommandRoutes } from './onboarding/item-commands';
import { taskRoutes } from './tasks/routes';
import { auditRoutes } from './audit/routes';
import { anchorRoutes } from './audit/anchor-routes';
import { registrationRoutes } from './registration/routes';
import { baUserRoutes } from './ba-users/routes';
import { isUserBlocked } from './users/accounts';
import { userRoutes } from './users/routes';
import { devRoutes } from './dev/routes';
import { contactChangeRoutes } from './contact-change/routes';
import { releaseRoutes } from './releases/routes';
import { helpRoutes } from './help/routes';
import { notificationRoutes } from './notifications/routes';
import { createNotificationStreams } from './notifications/streams';
import { annexureRoutes } from './annexures/routes';
import { blockRoutes } from './block/routes';
import { vendorCodeRoutes } from './vendor-code/routes';
import { massUploadRoutes } from './mass-upload/routes';
import { nucleusVendorRoutes } from './nucleus-vendor/routes';
import { vendorCodeWorkbookRoutes } from './vendor-code-workbook/routes';
import { DEFAULT_UPLOAD_MAX_BYTES, unavailableBlobStore } from './http/uploads';
import { opportunityRoutes } from './opportunities/routes';
import { rfpRoutes } from './rfp/routes';
import { performanceRoutes } from './performance/routes';
import { invoiceCommandRoutes } from './invoices/commands';
import { invoiceReadRoutes } from './invoices/reads';
import { memoCommandRoutes } from './memos/commands';
import { memoReadRoutes } from './memos/reads';
import type { CrmPort } from '../../domain/src/crm/port';
import type { BlobStore } from '../../platform/src/files';

export type AppDeps = {
  pool: Pool;
  store: EventStore;
  /**
   * Uploaded files (FILE_STORE: platform/src/files). Without one, routes that store or send files answer 503
   * (tests of other capabilities need none).
   */
  blobStore?: BlobStore;
  /**
   * The CRM (CRM_URL: platform/src/crm/http-crm.ts) the RFP wizard looks opportunities up in. Without one,
   * /api/opportunities answers 503 (tests of other capabilities need none).
   */
  crm?: CrmPort | null;
  /** UPLOAD_MAX_BYTES (config.files.maxBytes): the cap of every upload; default 25 MB. */
  uploadMaxBytes?: number;
  temporal: Client;
  /** The queue lifecycles are started on (registration, in a later issue, starts them from the API). */
  taskQueue: string;
  auth: { config: AuthConfig; keys: AuthKeys };
  /** Built front ends: the console at /console, the portal at /. */
  staticDirs?: { console?: string; portal?: string };
  /** Replace single health checks (tests simulate an outage this way). */
  health?: Partial<HealthChecks>;
  /** SEED_DEMO (config.seedDemo): /health is not ready until the demo seed has finished. */
  seedDemo?: boolean;
  /**
   * COMMAND_TIMEOUT (config.commands.timeoutMs, default 10 s): how long a command that goes through a workflow
   * may take before the API answers 503 (workflows/src/shared/command-deadline.ts).
   */
  commandTimeoutMs?: number;
  /** PUBLIC_URL: links in e-mails (password reset, invitations) point here (default http://localhost:3000). */
  publicUrl?: string;
  /** Sign-in, session and password settings (OTP_TTL, PASSWORD_MAX_AGE, CAPTCHA_HMAC_KEY, ...). */
  identity?: IdentityOptions;
  /** Sign-in attempts per username and client address (default 10 a minute). */
  loginRateLimit?: { limit: number; windowMs: number };
  /** Bound on a command's wait for its write to reach the read models (default 2 s). */
  projectionWaitMs?: number;
  /** Mass uploads of more rows than this answer 202 and record in the background (default 5,000; tests lower it). */
  massUploadAsyncFromRows?: number;
  /** Origins other than our own that may call the API from a browser (development servers). */
  corsOrigins?: readonly string[];
  /** DEV_OUTBOX: every e-mail and SMS readable without sign-in at /api/dev/outbox and /dev/outbox (else 404). */
  devOutbox?: boolean;
  /** CONTACT_CHANGE_TTL: how long an e-mailed contact-change link works (default 24 h). */
  contactChange?: { ttlMs?: number };
  /** USER_MANUAL_URL and SUPPORT_EMAIL (config.help): GET /api/help. */
  help?: { userManualUrl: string; supportEmail: string };
  /** REGISTRATION_TTL: how long a self-registration waits for its two codes (default 30 min). */
  registration?: { ttlMs?: number };
  /** config.audit: the chain anchors' public key folder and file (GET /api/audit/anchors, POST /api/audit/verify). */
  audit?: { keyDir: string; anchorFile: string };
  /** PUBLIC_URL is https (config.http.secure): Strict-Transport-Security is sent. */
  secure?: boolean;
  /** TRUST_PROXY (config.http.trustProxy): which X-Forwarded-For hops set req.ip; false = the socket's peer. */
  trustProxy?: boolean | number | string;
  /** Heartbeat of the notification bells' event streams (GET /api/notifications/stream; default 25 s). */
  notificationHeartbeatMs?: number;
  /**
   * Work to do when the process stops, before the HTTP server closes: open event streams never end by
   * themselves, and the server waits for every open response (server.ts runs these).
   */
  onShutdown?: (close: () => Promise<void>) => void;
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
  const commandTimeoutMs = deps.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;

  app.disable('x-powered-by');
  // No ETag on JSON answers: the API says Cache-Control: no-store, so nobody revalidates, and hashing every
  // body was a few per cent of a list request's CPU (issue 12). Static files keep serve-static's own ETags.
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Only a proxy the operator names may tell us the client's address (sign-in limits are per IP).
  app.set('trust proxy', deps.trustProxy ?? false);
  app.use(securityHeaders({ secure: deps.secure ?? false }));

  const health = { ...defaultHealthChecks(deps), ...deps.health };
  app.use(healthRoutes(health));

  const api = express.Router();
  api.use(cors(deps.corsOrigins ?? []));
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(express.json({ limit: BODY_LIMIT }));
  // A blocked user's unexpired access token is refused (401) on every signed-in route.
  const blocked = createBlockedCheck(isUserBlocked(deps.pool));
  api.use(authenticate(auth, { blocked }));
  // Each capability's router, in this order, behind one dispatch table by first path segment (http/dispatch.ts):
  // a request no longer walks every router's routes before reaching its own.
  const routers: Router[] = [];
  const identity = deps.identity ?? {};
  routers.push(
    identityRoutes({
      pool: deps.pool,
      store: deps.store,
      auth,
      loginLimiter: createRateLimiter(limit),
      captcha: createCaptcha({
        hmacKey: identity.captchaHmacKey ?? randomBytes(32).toString('base64url'),
        ttlMs: identity.captchaTtlMs,
        counterRange: identity.captchaCounterRange,
      }),
      publicUrl: deps.publicUrl ?? 'http://localhost:3000',
      otpTtlMs: identity.otpTtlMs,
      passwordMaxAgeMs: identity.passwordMaxAgeMs,
      resetTtlMs: identity.resetTtlMs,
      sessionMaxAgeSeconds: identity.sessionMaxAgeSeconds,
      signInLimits: { ...DEFAULT_SIGN_IN_LIMITS, ...identity.signInLimits },
      projectionWaitMs: waitMs,
    }),
  );
  // Every master of domain/src/masters/definitions.ts: lists, items, writes, history, workbooks, counts.
  routers.push(
    masterRoutes({
      pool: deps.pool,
      store: deps.store,
      projectionWaitMs: waitMs,
      blobStore: deps.blobStore,
      uploadMaxBytes: deps.uploadMaxBytes,
    }),
  );
  routers.push(healthDetailRoutes(health));
  routers.push(
    onboardingRoutes({
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      commandTimeoutMs,
      projectionWaitMs: waitMs,
      waitForProjections: (position, timeoutMs) => waitForProjections(deps.pool, position, { timeoutMs }),
    }),
  );
  // Edit Profile of a verified BA: change requests and their approvals (api/src/onboarding/change-requests.ts).
  routers.push(
    changeRequestRoutes({
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      commandTimeoutMs,
      projectionWaitMs: waitMs,
      waitForProjections: (position, timeoutMs) => waitForProjections(deps.pool, position, { timeoutMs }),
    }),
  );
  // Reads of the BA's onboarding items (bank, GST, documents, concessions, mapping, codes, duplicates).
  // Issue 8 item commands: bank accounts, GST rows, documents, concessions, vertical mapping, company codes.
  routers.push(
    itemCommandRoutes({
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      blobStore: deps.blobStore ?? unavailableBlobStore(),
      maxBytes: deps.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES,
      commandTimeoutMs,
      projectionWaitMs: waitMs,
      waitForProjections: (position, timeoutMs) => waitForProjections(deps.pool, position, { timeoutMs }),
    }),
  );
  routers.push(itemReadRoutes({ pool: deps.pool, blobStore: deps.blobStore ?? unavailableBlobStore() }));
  routers.push(taskRoutes({ pool: deps.pool }));
  // Auditors' search across BAs, a BA as of a date, exports (api/src/audit).
  routers.push(auditRoutes({ pool: deps.pool, store: deps.store }));
  // The chain's signed anchors, their public key and the whole-trail verification (api/src/audit/anchor-routes.ts).
  routers.push(anchorRoutes({ pool: deps.pool, audit: deps.audit }));
  // Staff users (MLL-ADMIN), and a BA Admin's BA users and child Bill-Hub users.
  const accounts = {
    pool: deps.pool,
    store: deps.store,
    publicUrl: deps.publicUrl ?? 'http://localhost:3000',
    projectionWaitMs: waitMs,
    statusChanged: blocked.forget,
  };
  routers.push(userRoutes(accounts));
  routers.push(baUserRoutes(accounts));
  const dev = devRoutes({ pool: deps.pool, enabled: deps.devOutbox ?? false });
  routers.push(
    contactChangeRoutes({
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      publicUrl: deps.publicUrl ?? 'http://localhost:3000',
      ttlMs: deps.contactChange?.ttlMs,
      otpTtlMs: deps.identity?.otpTtlMs,
      commandTimeoutMs,
      projectionWaitMs: waitMs,
    }),
  );
  routers.push(
    registrationRoutes({
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      auth,
      passwordMaxAgeMs: deps.identity?.passwordMaxAgeMs,
      otpTtlMs: deps.identity?.otpTtlMs,
      registrationTtlMs: deps.registration?.ttlMs,
      commandTimeoutMs,
      projectionWaitMs: waitMs,
    }),
  );
  // Release notes (What's New, the public release page) and the help links: readable without sign-in.
  routers.push(releaseRoutes({ pool: deps.pool, store: deps.store, projectionWaitMs: waitMs }));
  routers.push(helpRoutes(deps.help));
  // Each signed-in user's notification centre: list, unread count, read marks and the live stream.
  const notificationStreams = createNotificationStreams({
    pool: deps.pool,
    heartbeatMs: deps.notificationHeartbeatMs,
    isBlocked: blocked.isBlocked,
    log,
  });
  deps.onShutdown?.(() => notificationStreams.close());
  routers.push(notificationRoutes({ pool: deps.pool, streams: notificationStreams }));
  // PO annexures: staff upload and replace them, every signed-in user lists and downloads them.
  routers.push(
    annexureRoutes({
      pool: deps.pool,
      store: deps.store,
      blobStore: deps.blobStore ?? unavailableBlobStore(),
      maxBytes: deps.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES,
      projectionWaitMs: waitMs,
    }),
  );
  // Block and unblock of vendor codes (issue 9): requests with an attachment, a second person's approval, the ERP.
  routers.push(
    blockRoutes({
      pool: deps.pool,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      blobStore: deps.blobStore ?? unavailableBlobStore(),
      maxBytes: deps.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES,
      commandTimeoutMs,
      projectionWaitMs: waitMs,
    }),
  );
  // Utility/government and other-company vendor codes from workbooks (MLL-ADMIN): templates, validate, submit.
  routers.push(
    vendorCodeWorkbookRoutes({
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      blobStore: deps.blobStore ?? unavailableBlobStore(),
      maxBytes: deps.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES,
      commandTimeoutMs,
    }),
  );
  // Nucleus and SAP-verified mass upload (MLL-ADMIN, MDM) and the nucleus vendors it records.
  routers.push(
    massUploadRoutes({
      pool: deps.pool,
      store: deps.store,
      blobStore: deps.blobStore ?? unavailableBlobStore(),
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      projectionWaitMs: waitMs,
      asyncFromRows: deps.massUploadAsyncFromRows,
      log,
    }),
  );
  routers.push(nucleusVendorRoutes({ pool: deps.pool, store: deps.store }));
  // ERP vendor codes: staff commands through the vendor-code workflow, the SAP dashboard, the BA's own codes.
  routers.push(
    vendorCodeRoutes({
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      commandTimeoutMs,
      projectionWaitMs: waitMs,
      waitForProjections: (position, timeoutMs) => waitForProjections(deps.pool, position, { timeoutMs }),
    }),
  );
  // Customer opportunities from the CRM for step 1 of the RFP wizard (issue 10): search and lookup by id.
  routers.push(opportunityRoutes({ crm: deps.crm ?? null, log }));
  // RFPs (issue 10): the staff wizard, floating, comparison, award, close, reopen, backhaul; the BAs' bids.
  routers.push(
    rfpRoutes({
      pool: deps.pool,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      blobStore: deps.blobStore ?? unavailableBlobStore(),
      maxBytes: deps.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES,
      commandTimeoutMs,
      projectionWaitMs: waitMs,
      crm: deps.crm ?? null,
      log,
    }),
  );
  // [issue 11: invoice commands]
  routers.push(
    invoiceCommandRoutes({
      pool: deps.pool,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      blobStore: deps.blobStore ?? unavailableBlobStore(),
      commandTimeoutMs,
      projectionWaitMs: waitMs,
    }),
  );
  // [issue 11: memo commands]
  routers.push(memoCommandRoutes({ pool: deps.pool, temporal: deps.temporal, taskQueue: deps.taskQueue, commandTimeoutMs, projectionWaitMs: waitMs }));
  // [issue 11: invoice and memo reads]
  // Bill-Hub reads (issue 11): invoice and memo lists, one invoice with history and allowed actions, attachments.
  routers.push(invoiceReadRoutes({ pool: deps.pool, store: deps.store, blobStore: deps.blobStore ?? unavailableBlobStore() }));
  routers.push(memoReadRoutes({ pool: deps.pool }));
  // [issue 11: performance and home]
  routers.push(performanceRoutes({ pool: deps.pool }));
  routers.push(dev.api);
  api.use(dispatchBySegment(routers));
  api.use(() => {
    throw new HttpError(404, 'Not found');
  });
  app.use('/api', api);
  // The dev outbox page: before the portal, whose fallback would otherwise answer /dev/outbox with the SPA.
  app.use(dev.pages);

  const isApi = (p: string) => p === '/api' || p.startsWith('/api/') || p.startsWith('/health');
  if (deps.staticDirs?.console) spa(app, '/console', deps.staticDirs.console, isApi);
  if (deps.staticDirs?.portal) spa(app, '/', deps.staticDirs.portal, (p) => isApi(p) || p.startsWith('/console'));

  const describe = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));
  app.use(problemHandler((err, status) => log(`HTTP ${status}: ${describe(err)}`)));
  return app;
}
