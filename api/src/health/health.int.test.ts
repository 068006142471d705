import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { setDemoSeedStatus } from '../../../platform/src/db/demo-seed-state';
import { createApp } from '../app';
import { generateAuthKeys } from '../http/auth';
import { startApiHarness, TEST_AUTH_CONFIG, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf } from '../users/testing';
import { workerPolling } from './routes';

/**
 * /health as readiness (issue 6): a task queue nobody polls is `degraded`, a demo seed still running is
 * `starting`, both 503; anonymous callers see up/down only, the projector's position is for staff and
 * auditors (GET /api/health/detail). Database and Temporal outages: api/src/identity/identity.int.test.ts.
 */
jest.setTimeout(120_000);

let h: ApiHarness;

beforeAll(async () => {
  h = await startApiHarness('api-health');
});

afterAll(async () => {
  await h?.stop();
});

/** The harness's app, rebuilt with other settings on the same database and Temporal. */
async function appWith(overrides: { taskQueue?: string; seedDemo?: boolean }) {
  return createApp({
    pool: h.db.appPool,
    store: h.store,
    temporal: h.temporal,
    taskQueue: overrides.taskQueue ?? h.taskQueue,
    seedDemo: overrides.seedDemo,
    auth: { config: TEST_AUTH_CONFIG, keys: await generateAuthKeys() },
    log: () => undefined,
  });
}

describe('GET /health', () => {
  it('tells an anonymous caller each dependency up or down, and nothing about event volume', async () => {
    await addBa(h, 'health');
    const res = await request(h.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', temporal: 'up', worker: 'up' });
    expect(JSON.stringify(res.body)).not.toMatch(/lag|checkpoint|head/);
  });

  it('answers 503 degraded when no worker polls the task queue', async () => {
    const app = await appWith({ taskQueue: `nobody-polls-${randomUUID()}` });
    const res = await request(app).get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'degraded', database: 'up', temporal: 'up', worker: 'down' });
  });

  it('is not ready while the demo seed it waits for has not finished', async () => {
    const app = await appWith({ seedDemo: true });
    const notYet = await request(app).get('/health');
    expect(notYet.status).toBe(503);
    expect(notYet.body).toMatchObject({ status: 'starting', worker: 'up', seed: 'running' });
    await setDemoSeedStatus(h.db.pool, 'running');
    expect((await request(app).get('/health')).body).toMatchObject({ status: 'starting', seed: 'running' });
    await setDemoSeedStatus(h.db.pool, 'done');
    const ready = await request(app).get('/health');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', seed: 'done' });
    // An api that does not run the seed does not wait for it.
    expect((await request(h.app).get('/health')).body).not.toHaveProperty('seed');
  });
});

describe('the worker check', () => {
  it('reads a worker that stopped polling as down, and up again once one polls', async () => {
    // A live, idle worker's last poll may be a minute old (the server holds each poll that long): production
    // allows POLLER_FRESH_MS. Here 2 s stands in for it, right after a worker started (it polls at once).
    await h.pauseWorker();
    await h.resumeWorker();
    expect(await workerPolling(h.temporal, h.taskQueue, 2000)).toBe(true);
    await h.pauseWorker();
    try {
      await new Promise((r) => setTimeout(r, 2500));
      expect(await workerPolling(h.temporal, h.taskQueue, 2000)).toBe(false);
    } finally {
      await h.resumeWorker();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(await workerPolling(h.temporal, h.taskQueue, 2000)).toBe(true);
  });
});

describe('GET /api/health/detail', () => {
  it('gives staff the projector’s position; nobody else', async () => {
    const staff = await addUser(h, { email: `ops-${randomUUID().slice(0, 8)}@example.test`, roles: ['MLL-ADMIN'] });
    const res = await request(h.app).get('/api/health/detail').set((await sessionOf(h, staff)).auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', worker: 'up' });
    expect(res.body.projector).toEqual({ lag: expect.any(Number), checkpoint: expect.any(Number), head: expect.any(Number) });
    expect(res.body.projector.head).toBeGreaterThan(0);

    expect((await request(h.app).get('/api/health/detail')).status).toBe(401);
    const ba = await addBa(h, 'health-detail');
    expect((await request(h.app).get('/api/health/detail').set((await sessionOf(h, ba.admin)).auth)).status).toBe(403);
  });
});
