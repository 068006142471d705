import http from 'node:http';
import pg from 'pg';
import { handleCommand } from '../domain/src/event-store/handle-command';
import { userDecider, userIdForUsername, userStreamId } from '../domain/src/identity/users';
import { hashPassword, verifyPassword } from '../api/src/identity/password';
import { saveCredential } from '../api/src/identity/store/credentials';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { codeInMessage } from '../platform/src/notifications/templates';
import { rebuildProjections } from '../projections/src/rebuild';
import { allProjections } from '../projections/src/registry';
import { startBenchApi } from './api-process';
import { percentile } from './stats';
import type { ServerGroupOptions } from './group';

/**
 * Sign-in figures for `npm run bench`: the whole sign-in (POST /api/auth/login, then the code read from the
 * outbox, then POST /api/auth/login/verify-otp) with 10 users signing in at once against the api in its own
 * process, beside the raw scrypt cost measured in the same run. A sign-in checks one password hash, which
 * is deliberately slow, so the hash's own throughput at the same concurrency is the ceiling to compare with.
 *
 * The flood guard allows 10 sign-ins a minute per username and address: the load goes round many users so
 * it measures the sign-in, not the guard.
 */
const PASSWORD = 'Bench@2026';
const CONNECTIONS = 10;

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const usernameOf = (i: number) => `bench.user.${i}@bench.test`;

/** `n` staff users with one shared password hash (hashing each would only slow the set-up), built by the projections. */
async function seedUsers(pool: pg.Pool, n: number): Promise<void> {
  const store = createPostgresEventStore(pool);
  const passwordHash = await hashPassword(PASSWORD);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < n) {
        const i = next++;
        const username = usernameOf(i);
        const userId = userIdForUsername(username);
        const credentialId = `bench-${userId}`;
        await saveCredential(pool, { credentialId, userId, hash: passwordHash });
        await handleCommand(
          store,
          userStreamId(userId),
          userDecider,
          { type: 'RegisterUser', userId, username, name: `Bench User ${i}`, credentialId, roles: ['MLL Procurement'], companyCodes: ['1000'], baId: null },
          {
            commandId: `bench:${username}`,
            actor: { userId: 'bench', role: 'system' },
            at: new Date().toISOString(),
            companyCode: '1000',
            correlationId: 'bench',
            causationId: null,
            workflowId: null,
            requestId: null,
          },
        );
      }
    }),
  );
  await rebuildProjections({ pool, store, projections: allProjections() });
}

/** scrypt on its own: one hash and one verification at a time, then verifications at the sign-in concurrency. */
async function benchHashing(durationMs: number): Promise<{ hashP50: number; verifyP50: number; verifyP99: number; verifiesPerSecond: number }> {
  const hashTimes: number[] = [];
  const verifyTimes: number[] = [];
  let stored = '';
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    stored = await hashPassword(PASSWORD);
    hashTimes.push(performance.now() - t0);
  }
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await verifyPassword(PASSWORD, stored);
    verifyTimes.push(performance.now() - t0);
  }
  let done = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        await verifyPassword(PASSWORD, stored);
        done += 1;
      }
    }),
  );
  return {
    hashP50: percentile(hashTimes, 50),
    verifyP50: percentile(verifyTimes, 50),
    verifyP99: percentile(verifyTimes, 99),
    verifiesPerSecond: done / ((performance.now() - started) / 1000),
  };
}

type Answer = { status: number; body: Record<string, unknown> };

function post(agent: http.Agent, url: URL, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
          } catch {
            // A body that is not JSON counts as an error through its status.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export type SignInLoad = {
  signInsPerSecond: number;
  requestsPerSecond: number;
  passwordP99Ms: number;
  codeP99Ms: number;
  signInP50Ms: number;
  signInP99Ms: number;
  n: number;
  errors: number;
};

/** Closed loop: `CONNECTIONS` users, each starting its next sign-in when the previous one finished. */
async function signInLoad(base: string, pool: pg.Pool, users: number, durationMs: number, offset: number): Promise<SignInLoad> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const login = new URL('/api/auth/login', base);
  const verify = new URL('/api/auth/login/verify-otp', base);
  const passwordTimes: number[] = [];
  const codeTimes: number[] = [];
  const signInTimes: number[] = [];
  let errors = 0;
  let next = offset;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const username = usernameOf(next++ % users);
        try {
          const t0 = performance.now();
          const challenge = await post(agent, login, { username, password: PASSWORD });
          const t1 = performance.now();
          if (challenge.status !== 200) {
            errors += 1;
            continue;
          }
          // The user reads the e-mail: here, the newest sign-in message to that address (not timed).
          const { rows } = await pool.query<{ body: string }>(
            `SELECT body FROM outbox WHERE lower(recipient) = lower($1) AND template = 'login-otp'
              ORDER BY created_at DESC, seq DESC LIMIT 1`,
            [username],
          );
          const otp = codeInMessage(rows[0]?.body ?? '') ?? '';
          const t2 = performance.now();
          const session = await post(agent, verify, { challengeId: challenge.body['challengeId'], otp });
          const t3 = performance.now();
          if (session.status !== 200) {
            errors += 1;
            continue;
          }
          passwordTimes.push(t1 - t0);
          codeTimes.push(t3 - t2);
          signInTimes.push(t1 - t0 + (t3 - t2));
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    signInsPerSecond: signInTimes.length / elapsed,
    requestsPerSecond: (signInTimes.length * 2) / elapsed,
    passwordP99Ms: percentile(passwordTimes, 99),
    codeP99Ms: percentile(codeTimes, 99),
    signInP50Ms: percentile(signInTimes, 50),
    signInP99Ms: percentile(signInTimes, 99),
    n: signInTimes.length,
    errors,
  };
}

/** The sign-in rows of the bench table: a fresh database, users, the api as a child process, the load. */
export async function identityFigures(options: ServerGroupOptions): Promise<void> {
  console.log('\nsign-in');
  const { server, quick, row } = options;
  const users = quick ? 400 : 1500;
  const duration = quick ? 3000 : 8000;
  await ensureDatabaseExists(server.url('postgres'), 'bench_identity');
  const pool = new pg.Pool({ connectionString: server.url('bench_identity'), max: 12 });
  try {
    await applySchema(pool);
    await ensureRoles(pool, { appRole: 'ba_portal_app' });
    await seedUsers(pool, users);
    const hashing = await benchHashing(duration);

    // The api connects as the application role, as in production (it refuses a superuser there).
    const api = await startBenchApi({
      databaseUrl: appRoleUrl(server.url('bench_identity'), 'ba_portal_app', null),
      temporalAddress: options.temporalAddress,
      keyDir: options.keyDir,
    });
    try {
      const base = api.base;
      const warm = await signInLoad(base, pool, users, 1000, 0);
      const load = await signInLoad(base, pool, users, duration, warm.n + warm.errors + CONNECTIONS);
      row(
        `sign-in: password + e-mailed code, ${CONNECTIONS} users at once`,
        `${fmt(load.signInsPerSecond, 1)} sign-ins/s (${fmt(load.requestsPerSecond, 0)} req/s), p99 password step ${fmt(load.passwordP99Ms, 1)} ms, ` +
          `p99 code step ${fmt(load.codeP99Ms, 1)} ms${load.errors ? `, ${load.errors} errors` : ''}`,
        '≥ 0.7 × the scrypt ceiling, p99 sign-in ≤ 10 × one verification',
        `scrypt verifyPassword: ${fmt(hashing.verifiesPerSecond, 1)}/s at ${CONNECTIONS} concurrent, ` +
          `one at a time p50 ${fmt(hashing.verifyP50, 1)} ms, p99 ${fmt(hashing.verifyP99, 1)} ms; hashPassword p50 ${fmt(hashing.hashP50, 1)} ms`,
        `ratio to scrypt ${fmt(load.signInsPerSecond / hashing.verifiesPerSecond, 2)}; sign-in p50 ${fmt(load.signInP50Ms, 1)} ms, p99 ${fmt(load.signInP99Ms, 1)} ms`,
      );
    } finally {
      await api.stop();
    }
  } finally {
    await pool.end();
  }
}
