import type { Express } from 'express';
import request from 'supertest';
import { waitFor } from '../../../tests/support/wait';
import { createApp, type AppDeps } from '../app';
import { generateAuthKeys } from '../http/auth';
import { startApiHarness, TEST_AUTH_CONFIG, type ApiHarness } from '../testing/harness';
import { addUser, TEST_PASSWORD } from '../users/testing';
import { identityMessages } from './login';
import { decoyHash, HASH_CONCURRENCY, HASH_QUEUE_LIMIT, hashingBusyMessage, hashingSlots } from './password';
import { pruneSignInAttempts } from './store/sign-in-limits';

/**
 * Sign-in limits beyond the per-username ones: per client address and overall (counted in PostgreSQL, shared
 * by every api process), and the bounded password hasher that keeps a flood of sign-ins from starving the
 * other requests. Real database, Temporal and projector; addresses come from X-Forwarded-For (TRUST_PROXY).
 */
jest.setTimeout(180_000);

let h: ApiHarness;
const USERNAME = 'limits@example.test';
// A day-long window: a test never straddles two windows, so the counts it sees are its own.
const DAY = 86_400;

beforeAll(async () => {
  h = await startApiHarness('api-sign-in-limits', {
    trustProxy: true,
    identity: { signInLimits: { perAddress: 3, overall: 10_000, windowSeconds: DAY } },
  });
  await addUser(h, { email: USERNAME });
  // The decoy hash (for unknown usernames) is made once, on first use: made now, so it queues behind nothing.
  await decoyHash();
});

afterAll(async () => {
  await h?.stop();
});

/** Another api process on the same database (own keys, own memory), with these settings. */
async function otherProcess(overrides: Partial<AppDeps>): Promise<Express> {
  return createApp({
    pool: h.db.pool,
    store: h.store,
    temporal: h.temporal,
    taskQueue: h.taskQueue,
    auth: { config: TEST_AUTH_CONFIG, keys: await generateAuthKeys() },
    log: () => undefined,
    ...overrides,
  });
}

let next = 0;
/** A username nobody has (each attempt its own, so the per-username captcha never comes into play). */
const nobody = () => `nobody-${(next += 1)}@example.test`;

const attempt = (app: Express, from: string | null, username: string, password = 'Wrong@pass1') => {
  const req = request(app).post('/api/auth/login');
  return (from ? req.set('X-Forwarded-For', from) : req).send({ username, password });
};

function expectLimited(res: request.Response, message: string) {
  expect(res.status).toBe(429);
  expect(res.body.message).toBe(message);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(DAY);
}

describe('sign-in attempts per client address', () => {
  it('allows 3 here (30 a minute by default); the next from that address is refused with 429, other addresses go on', async () => {
    const address = '203.0.113.10';
    for (let i = 0; i < 3; i++) expect((await attempt(h.app, address, nobody())).status).toBe(401);
    // Even the right password: the address has used its attempts.
    expectLimited(await attempt(h.app, address, USERNAME, TEST_PASSWORD), identityMessages.tooManyAttempts);
    // Counted in PostgreSQL: another api process refuses that address too.
    const other = await otherProcess({ trustProxy: true, identity: { signInLimits: { perAddress: 3, overall: 10_000, windowSeconds: DAY } } });
    expectLimited(await attempt(other, address, nobody()), identityMessages.tooManyAttempts);
    // Someone else is not affected.
    expect((await attempt(h.app, '203.0.113.11', USERNAME, TEST_PASSWORD)).status).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says so: a client cannot pick a fresh address per attempt', async () => {
    // One second off a day: this app's windows are rows of their own.
    const direct = await otherProcess({ trustProxy: false, identity: { signInLimits: { perAddress: 3, overall: 10_000, windowSeconds: DAY - 1 } } });
    for (let i = 0; i < 3; i++) expect((await attempt(direct, `198.51.100.${i}`, nobody())).status).toBe(401);
    expectLimited(await attempt(direct, '198.51.100.99', nobody()), identityMessages.tooManyAttempts);
  });
});

describe('sign-in attempts overall', () => {
  it('past the overall limit every address is refused with 429 until the window ends', async () => {
    const windowSeconds = DAY - 2;
    const { rows } = await h.db.pool.query<{ attempts: number }>(
      `SELECT attempts FROM sign_in_attempts
        WHERE scope = 'overall' AND window_start = to_timestamp(floor(extract(epoch FROM now()) / $1::int) * $1::int)`,
      [windowSeconds],
    );
    const before = rows[0]?.attempts ?? 0;
    const busy = await otherProcess({ trustProxy: true, identity: { signInLimits: { perAddress: 100, overall: before + 2, windowSeconds } } });
    expect((await attempt(busy, '192.0.2.1', nobody())).status).toBe(401);
    expect((await attempt(busy, '192.0.2.2', nobody())).status).toBe(401);
    expectLimited(await attempt(busy, '192.0.2.3', USERNAME, TEST_PASSWORD), identityMessages.busy);
  });

  it('forgets windows older than two (opportunistically, when a new one opens)', async () => {
    await h.db.pool.query(
      `INSERT INTO sign_in_attempts (scope, window_start, attempts) VALUES ('address:old', now() - interval '3 minutes', 5), ('address:new', now(), 1)`,
    );
    await pruneSignInAttempts(h.db.pool, 60);
    const { rows } = await h.db.pool.query<{ scope: string }>(`SELECT scope FROM sign_in_attempts WHERE scope IN ('address:old', 'address:new')`);
    expect(rows.map((r) => r.scope)).toEqual(['address:new']);
  });
});

describe('password hashing under a flood of sign-ins', () => {
  /** Holds every hashing slot, as long-running hashes would, until released. */
  function occupyHasher(): () => Promise<void> {
    const releases: (() => void)[] = [];
    const held = Array.from({ length: HASH_CONCURRENCY }, () => hashingSlots.run(() => new Promise<void>((r) => releases.push(r))));
    return async () => {
      for (const release of releases) release();
      await Promise.all(held);
    };
  }

  it('queues sign-ins behind at most HASH_CONCURRENCY hashes; other requests are answered meanwhile; past the queue 503 at once', async () => {
    const release = occupyHasher();
    expect(hashingSlots.stats()).toMatchObject({ active: HASH_CONCURRENCY, waiting: 0 });

    // The queue fills with sign-ins (each from its own address, each for an unknown user: one hash each).
    let settled = 0;
    const pending = Array.from({ length: HASH_QUEUE_LIMIT }, (_, i) =>
      attempt(h.app, `100.64.0.${i + 1}`, nobody()).then((res) => {
        settled += 1;
        return res;
      }),
    );
    await waitFor(async () => (hashingSlots.stats().waiting === HASH_QUEUE_LIMIT ? true : undefined), 60_000);

    // A request that needs no hash is answered while every sign-in waits.
    const companies = await request(h.app).get('/api/companies');
    expect(companies.status).toBe(200);
    expect(settled).toBe(0);
    expect(hashingSlots.stats()).toMatchObject({ active: HASH_CONCURRENCY, waiting: HASH_QUEUE_LIMIT });

    // One more sign-in finds the queue full: refused at once, not left waiting.
    const refused = await attempt(h.app, '100.64.1.1', nobody());
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe(hashingBusyMessage);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(settled).toBe(0);

    // The hasher frees up: every queued sign-in gets its answer, and sign-in works again.
    await release();
    const answers = await Promise.all(pending);
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: HASH_QUEUE_LIMIT }, () => 401));
    expect((await attempt(h.app, '100.64.1.2', USERNAME, TEST_PASSWORD)).status).toBe(200);
    expect(hashingSlots.stats()).toMatchObject({ active: 0, waiting: 0 });
  });
});
