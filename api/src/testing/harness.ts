import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Express } from 'express';
import request from 'supertest';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createFsBlobStore, type BlobStore } from '../../../platform/src/files';
import { codeInMessage } from '../../../platform/src/notifications/templates';
import { allProjections } from '../../../projections/src/registry';
import { createProjector, type Projector } from '../../../projections/src/runner';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { claimNamespace, temporalAddress, uniqueTaskQueue, workflowBundle } from '../../../tests/support/temporal';
import { createWorker } from '../../../workflows/src/worker';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { startCrmSandbox, type StartedCrmSandbox } from '../../../sandboxes/crm/src/testing';
import { createApp, type AppDeps } from '../app';
import type { Me } from '../contract';
import { createAuth, generateAuthKeys, refreshCookieName, type Auth, type AuthConfig } from '../http/auth';

/**
 * The whole back end in one test process: a fresh PostgreSQL database, the real Temporal dev server with an
 * in-process worker on a task queue of its own, a projector, and the Express app for supertest.
 */
export type ApiHarness = {
  app: Express;
  /**
   * Another api process over the same database, store and Temporal (API_PROCESSES > 1): its own in-memory state
   * (caches, limiters), so a test can show that what one process did, the other answers.
   */
  anotherProcess: () => Express;
  db: TestDatabase;
  /** Uploaded files of this harness: a temporary folder of its own, removed by `stop`. */
  blobStore: BlobStore;
  filesDir: string;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  authConfig: AuthConfig;
  /** The app's signing keys behind the Auth API: tests issue sessions directly (no OTP round trip). */
  auth: Auth;
  /** Signs in through the API (password, then the code from the outbox) and returns the bearer token. */
  login: (username: string, password?: string) => Promise<string>;
  /** The same sign-in, answering the whole session: the SessionResponse body and the refresh cookie. */
  signIn: (username: string, password?: string) => Promise<{ accessToken: string; user: Me; cookie: string }>;
  /** The code of the newest message of `template` to `recipient` (default: the sign-in code). */
  codeSentTo: (recipient: string, template?: string) => Promise<string>;
  /**
   * The sandbox ERP this harness's worker talks to (schema `erp_sandbox` of the test database): tests read its
   * vendors and switch its faults on.
   */
  erpSandbox: StartedErpSandbox;
  /**
   * The sandbox CRM the app's opportunity lookups go to (schema `crm_sandbox` of the test database, seeded):
   * tests switch its faults on.
   */
  crmSandbox: StartedCrmSandbox;
  stop: () => Promise<void>;
  /** Stops the worker only: commands find no poller until `resumeWorker` (a worker outage). */
  pauseWorker: () => Promise<void>;
  resumeWorker: () => Promise<void>;
};

export const TEST_AUTH_CONFIG: AuthConfig = {
  issuer: 'ba-portal-test',
  audience: 'ba-portal-test-api',
  accessTokenTtlSeconds: 900,
  refreshTokenTtlSeconds: 3600,
};

export async function startApiHarness(name: string, overrides: Partial<AppDeps> = {}): Promise<ApiHarness> {
  const db = await createTestDatabase();
  // The application's code connects as the least-privileged role, as in production; db.pool (the owner)
  // stays for tests that inspect or arrange state.
  const store = createPostgresEventStore(db.appPool);
  // The ERP answers quickly here (200 ms per request) so journeys see codes without waiting like a real one.
  const erpSandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 200 });
  const crmSandbox = await startCrmSandbox({ databaseUrl: db.url });
  const taskQueue = uniqueTaskQueue(name);
  const namespace = claimNamespace();
  const nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  const launchWorker = async () => {
    const created: Worker = await createWorker({
      connection: nativeConnection,
      namespace,
      taskQueue,
      store,
      pool: db.appPool,
      erp: erpSandbox.erp,
      workflowBundle: workflowBundle(),
    });
    return { worker: created, run: created.run() };
  };
  let current: { worker: Worker; run: Promise<void> } | null = await launchWorker();
  const pauseWorker = async () => {
    current?.worker.shutdown();
    await current?.run;
    current = null;
  };
  const projector: Projector = createProjector({
    pool: db.appPool,
    store,
    projections: allProjections(),
    pollMs: 250,
    log: () => undefined,
  });
  await projector.start();
  const connection = await Connection.connect({ address: temporalAddress() });
  const temporal = new Client({ connection, namespace });
  const keys = await generateAuthKeys();
  const filesDir = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-files-'));
  const blobStore = createFsBlobStore(filesDir);

  // The api's own closers (the notification streams and their LISTEN connection), run first by stop(): a browser's
  // stream still open would otherwise reconnect to the dropped database after the suite's modules were torn down.
  const shutdown: (() => Promise<void>)[] = [];
  const makeApp = () =>
    createApp({
      onShutdown: (close) => shutdown.push(close),
      pool: db.appPool,
      store,
      temporal,
      taskQueue,
      auth: { config: TEST_AUTH_CONFIG, keys },
      blobStore,
      crm: crmSandbox.crm,
      log: () => undefined,
      ...overrides,
      // A captcha a test solves in milliseconds; everything else as configured.
      identity: { captchaCounterRange: [10, 200], ...overrides.identity },
    });
  const app = makeApp();

  const codeSentTo = async (recipient: string, template = 'login-otp') => {
    const { rows } = await db.pool.query<{ body: string }>(
      `SELECT body FROM outbox WHERE lower(recipient) = lower($1) AND template = $2 ORDER BY created_at DESC, seq DESC LIMIT 1`,
      [recipient.trim(), template],
    );
    const code = codeInMessage(rows[0]?.body ?? '');
    if (!code) throw new Error(`no ${template} message to ${recipient} in the outbox`);
    return code;
  };

  const signIn = async (username: string, password = 'Demo@2026') => {
    const started = await request(app).post('/api/auth/login').send({ username, password });
    if (started.status !== 200) throw new Error(`login of ${username} failed: ${started.status} ${JSON.stringify(started.body)}`);
    const challengeId = (started.body as { challengeId: string }).challengeId;
    const otp = await codeSentTo(username);
    const res = await request(app).post('/api/auth/login/verify-otp').send({ challengeId, otp });
    if (res.status !== 200) throw new Error(`sign-in code of ${username} refused: ${res.status} ${JSON.stringify(res.body)}`);
    const body = res.body as { accessToken: string; user: Me };
    const cookie =
      ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith(`${refreshCookieName(body.user.application)}=`))
        ?.split(';')[0] ?? '';
    return { accessToken: body.accessToken, user: body.user, cookie };
  };

  return {
    app,
    anotherProcess: makeApp,
    db,
    blobStore,
    filesDir,
    store,
    temporal,
    taskQueue,
    authConfig: TEST_AUTH_CONFIG,
    auth: createAuth(TEST_AUTH_CONFIG, keys),
    login: async (username, password) => (await signIn(username, password)).accessToken,
    signIn,
    codeSentTo,
    erpSandbox,
    crmSandbox,
    pauseWorker,
    resumeWorker: async () => {
      current ??= await launchWorker();
    },
    stop: async () => {
      for (const close of shutdown) await close();
      await pauseWorker();
      await projector.stop();
      await erpSandbox.stop();
      await crmSandbox.stop();
      await connection.close();
      await nativeConnection.close();
      await store.close();
      // pool.end() resolves before its sockets have closed; the forced DROP DATABASE may then terminate one,
      // and an unhandled pool 'error' would fail the suite after every test passed.
      db.pool.on('error', () => undefined);
      await db.drop();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}
