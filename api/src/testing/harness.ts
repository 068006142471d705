import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Express } from 'express';
import request from 'supertest';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { allProjections } from '../../../projections/src/registry';
import { createProjector, type Projector } from '../../../projections/src/runner';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { claimNamespace, temporalAddress, uniqueTaskQueue, workflowBundle } from '../../../tests/support/temporal';
import { createWorker } from '../../../workflows/src/worker';
import { createApp, type AppDeps } from '../app';
import { generateAuthKeys, type AuthConfig } from '../http/auth';

/**
 * The whole back end in one test process: a fresh PostgreSQL database, the real Temporal dev server with an
 * in-process worker on a task queue of its own, a projector, and the Express app for supertest.
 */
export type ApiHarness = {
  app: Express;
  db: TestDatabase;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  authConfig: AuthConfig;
  /** Signs in through the API and returns the bearer token. */
  login: (username: string, password?: string) => Promise<string>;
  stop: () => Promise<void>;
};

export const TEST_AUTH_CONFIG: AuthConfig = {
  issuer: 'ba-portal-test',
  audience: 'ba-portal-test-api',
  accessTokenTtlSeconds: 900,
  refreshTokenTtlSeconds: 3600,
};

export async function startApiHarness(name: string, overrides: Partial<AppDeps> = {}): Promise<ApiHarness> {
  const db = await createTestDatabase();
  const store = createPostgresEventStore(db.pool);
  const taskQueue = uniqueTaskQueue(name);
  const namespace = claimNamespace();
  const nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  const worker: Worker = await createWorker({
    connection: nativeConnection,
    namespace,
    taskQueue,
    store,
    workflowBundle: workflowBundle(),
  });
  const workerRun = worker.run();
  const projector: Projector = createProjector({
    pool: db.pool,
    store,
    projections: allProjections(),
    pollMs: 250,
    log: () => undefined,
  });
  await projector.start();
  const connection = await Connection.connect({ address: temporalAddress() });
  const temporal = new Client({ connection, namespace });
  const keys = await generateAuthKeys();

  const app = createApp({
    pool: db.pool,
    store,
    temporal,
    taskQueue,
    auth: { config: TEST_AUTH_CONFIG, keys },
    log: () => undefined,
    ...overrides,
  });

  return {
    app,
    db,
    store,
    temporal,
    taskQueue,
    authConfig: TEST_AUTH_CONFIG,
    login: async (username, password = 'Demo@2026') => {
      const res = await request(app).post('/api/auth/login').send({ username, password });
      if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as { accessToken: string }).accessToken;
    },
    stop: async () => {
      worker.shutdown();
      await workerRun;
      await projector.stop();
      await connection.close();
      await nativeConnection.close();
      await store.close();
      // pool.end() resolves before its sockets have closed; the forced DROP DATABASE may then terminate one,
      // and an unhandled pool 'error' would fail the suite after every test passed.
      db.pool.on('error', () => undefined);
      await db.drop();
    },
  };
}
