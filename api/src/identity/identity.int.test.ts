import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Express } from 'express';
import { SignJWT, base64url } from 'jose';
import pg from 'pg';
import request from 'supertest';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { AppAccess } from '../../../domain/src/identity/applications';
import { CITIES } from '../../../domain/src/masters/reference-data/cities';
import type { Role } from '../../../domain/src/identity/roles';
import { userDecider, userIdForUsername, userStreamId, type UserEvent, type UserState } from '../../../domain/src/identity/users';
import type { Decider } from '../../../domain/src/shared/decider';
import { legacyCredentialId } from '../../../projections/src/identity/legacy-credentials';
import { findUserById } from '../../../projections/src/identity/users.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { createApp, type AppDeps } from '../app';
import { ACCESS_TOKEN_TYPE, generateAuthKeys, PASSWORD_CHANGE_REQUIRED, refreshCookieName, type Application } from '../http/auth';
import { startApiHarness, TEST_AUTH_CONFIG, type ApiHarness } from '../testing/harness';
import { SCRYPT_HASH, testCredential } from './testing';
import { hashPassword, verifyPassword } from './password';
import { passwordMessages, storeNewCredential } from './passwords';
import { resetMessages } from './password-routes';
import { identityMessages } from './routes';
import { createOneTimeToken } from './store/one-time-tokens';
import { otpMessages } from './store/otp';
import { runUserCommand } from './user-commands';

/**
 * Sign-in (password, then the code sent by SMS and e-mail, captcha after 3 failures), sessions (refresh-token
 * rotation with reuse detection in PostgreSQL), passwords (change, forgot, reset, expiry, first login),
 * /api/me, /health and the HTTP guards, against the real database and Temporal.
 */
// Workflow round trips on a 2-core machine: generous bounds, set here as well as in jest.config.ts.
jest.setTimeout(120_000);

let h: ApiHarness;
const PASSWORD = 'Sup3r@secret';
const PUBLIC_URL = 'https://portal.example.test';
const system = { actor: { userId: 'test', role: 'system' } };
const commands = () => ({ pool: h.db.pool, store: h.store });
// Every request here comes from one address: the per-address and overall sign-in limits have their own suite
// (sign-in-limits.int.test.ts), so here they are out of reach.
const OUT_OF_REACH = { signInLimits: { perAddress: 10_000, overall: 10_000, windowSeconds: 60 } };

type UserOptions = {
  roles?: Role[];
  companyCodes?: string[];
  baId?: string | null;
  mobileNo?: string | null;
  applications?: AppAccess[];
  mustChangePassword?: boolean;
};

async function registerUser(username: string, options: UserOptions = {}): Promise<string> {
  const { roles = ['MLL Procurement'], companyCodes = ['1000'], baId = null } = options;
  const userId = userIdForUsername(username);
  const result = await handleCommand(
    h.store,
    userStreamId(userId),
    userDecider,
    {
      type: 'RegisterUser',
      userId,
      username,
      name: 'Test User',
      credentialId: await testCredential(h.db.pool, userId, PASSWORD),
      roles,
      companyCodes,
      baId,
      mobileNo: options.mobileNo ?? null,
      ...(options.applications ? { applications: options.applications } : {}),
      mustChangePassword: options.mustChangePassword ?? false,
    },
    {
      commandId: `test:${username}`,
      actor: system.actor,
      at: new Date().toISOString(),
      companyCode: companyCodes[0] ?? null,
      correlationId: 'test',
      causationId: null,
      workflowId: null,
      requestId: null,
    },
  );
  await waitForProjections(h.db.pool, result.lastGlobalPosition, { timeoutMs: 10_000 });
  return userId;
}

beforeAll(async () => {
  h = await startApiHarness('api-identity', { publicUrl: PUBLIC_URL, identity: OUT_OF_REACH });
  await registerUser('Procurement@Example.test', { mobileNo: '9876543210' });
  await registerUser('ba.user@example.test', { roles: ['BA User'], baId: 'ba-77' });
  // Separate users per concern: the flood guard allows 10 sign-ins a minute per username.
  for (const username of ['sessions@example.test', 'console.staff@example.test', 'reader@example.test']) await registerUser(username);
});

afterAll(async () => {
  await h?.stop();
});

type Agent = ReturnType<typeof request.agent>;

const login = (username: string, password: string, captcha?: unknown, app: Express = h.app) =>
  request(app).post('/api/auth/login').send({ username, password, ...(captcha === undefined ? {} : { captcha }) });

const verify = (challengeId: string, otp: string, app: Express = h.app) =>
  request(app).post('/api/auth/login/verify-otp').send({ challengeId, otp });

/** Both steps through one client (an agent keeps the cookie, as a browser does). */
async function signInVia(client: Agent, username: string, password = PASSWORD) {
  const started = await client.post('/api/auth/login').send({ username, password });
  expect(started.status).toBe(200);
  return client.post('/api/auth/login/verify-otp').send({ challengeId: started.body.challengeId, otp: await h.codeSentTo(username) });
}

/** The refresh cookie a response set, as a Cookie header value. */
function cookieOf(res: request.Response, app: Application = 'console'): string {
  const all = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return all.find((c) => c.startsWith(`${refreshCookieName(app)}=`))?.split(';')[0] ?? '';
}

const refresh = (cookie: string) => request(h.app).post('/api/auth/refresh').set('Cookie', cookie);

/** The refresh token's id (jti) inside a Cookie header value. */
function jtiOf(cookie: string): string {
  const token = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { jti: string }).jti;
}

/** The session (family) of the cookie's token: its id, how many tokens it has had, how many are revoked. */
async function familyOf(cookie: string): Promise<{ familyId: string; tokens: number; revoked: number }> {
  const { rows } = await h.db.pool.query<{ familyId: string; tokens: number; revoked: number }>(
    `SELECT family_id AS "familyId", count(*)::int AS tokens, count(revoked_at)::int AS revoked FROM refresh_tokens
      WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE jti = $1) GROUP BY family_id`,
    [jtiOf(cookie)],
  );
  if (!rows[0]) throw new Error('no such refresh token');
  return rows[0];
}

/** The answer removes the refresh cookie it came with (an empty value that expired in 1970). */
const clearsCookie = (res: request.Response, app: Application = 'console'): boolean =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).some((c) => c.startsWith(`${refreshCookieName(app)}=;`) && /Expires=Thu, 01 Jan 1970/.test(c));

const SESSION_TIMED_OUT = 'Session Timed out.Please login again';

/**
 * The user's newest event says the password changed (for `reason`) by naming a credential; the hash is in that
 * credentials row, and in none of the user's events.
 */
async function expectPasswordEventsWithoutHashes(userId: string, reason: string): Promise<void> {
  const events = await h.store.readStream(userStreamId(userId));
  expect(events.at(-1)).toMatchObject({ type: 'UserPasswordChanged', data: { userId, reason, credentialId: expect.any(String) } });
  for (const e of events) expect(JSON.stringify(e.data)).not.toMatch(SCRYPT_HASH);
  const credentialId = (events.at(-1)?.data as { credentialId: string }).credentialId;
  const { rows } = await h.db.pool.query<{ hash: string }>('SELECT hash FROM credentials WHERE credential_id = $1 AND user_id = $2', [credentialId, userId]);
  expect(rows[0]?.hash).toMatch(/^scrypt\$131072\$8\$1\$/);
}
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function outboxCount(recipient: string, template?: string): Promise<number> {
  const { rows } = await h.db.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM outbox WHERE lower(recipient) = lower($1) AND ($2::text IS NULL OR template = $2)',
    [recipient, template ?? null],
  );
  return rows[0]?.n ?? 0;
}

/** A code that is certainly not the right one. */
const wrongCode = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');

/** An app on the same database with other identity settings (short lifetimes). */
async function appWith(overrides: Partial<AppDeps>): Promise<Express> {
  return createApp({
    pool: h.db.pool,
    store: h.store,
    temporal: h.temporal,
    taskQueue: h.taskQueue,
    auth: { config: TEST_AUTH_CONFIG, keys: await generateAuthKeys() },
    publicUrl: PUBLIC_URL,
    ...overrides,
    identity: { ...OUT_OF_REACH, ...overrides.identity },
  });
}

async function solvedCaptcha(): Promise<string> {
  const res = await request(h.app).get('/api/auth/captcha');
  expect(res.status).toBe(200);
  const challenge = res.body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('captcha not solved');
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

describe('POST /api/auth/login (the password step)', () => {
  it('with the right password sends a sign-in code by e-mail and SMS and answers the challenge, no session yet', async () => {
    const before = await outboxCount('9876543210', 'login-otp');
    const res = await login('procurement@example.test', PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      otpRequired: true,
      challengeId: expect.any(String),
      expiresInSeconds: 600,
      resendAfterSeconds: 30,
      sentTo: { mobile: '******3210', email: 'p***@example.test' },
    });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await h.codeSentTo('procurement@example.test')).toMatch(/^\d{6}$/);
    expect(await outboxCount('9876543210', 'login-otp')).toBe(before + 1);
  });

  it('accepts the username in any case', async () => {
    expect((await login('PROCUREMENT@example.TEST', PASSWORD)).status).toBe(200);
  });

  it('refuses a wrong password and an unknown user alike with 401, sending nothing', async () => {
    await registerUser('wrong.password@example.test');
    const wrong = await login('wrong.password@example.test', 'Wrong@123');
    const unknown = await login('nobody@example.test', PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ message: identityMessages.badCredentials, captchaRequired: false });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(Object.keys(wrong.body).sort()).toEqual(Object.keys(unknown.body).sort());
    expect(await outboxCount('wrong.password@example.test')).toBe(0);
    expect(await outboxCount('nobody@example.test')).toBe(0);
  });

  it('refuses a missing username or password with 400 and field errors', async () => {
    const res = await request(h.app).post('/api/auth/login').send({ username: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ username: 'This field is required', password: 'This field is required' });
  });

  it('answers 429 after 10 attempts a minute for one username from one address (the flood guard)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await login('Guess.Me@example.test', `Wrong@${i}`)).status);
    // Three wrong passwords, then the captcha is required.
    expect(statuses).toEqual([401, 401, 401, 400, 400, 400, 400, 400, 400, 400]);
    // Counted per username whatever its case, so changing case does not buy more guesses.
    const limited = await login('guess.me@example.test', PASSWORD);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body.message).toBe(identityMessages.tooManyAttempts);
    // Other usernames are not affected.
    expect((await login('procurement@example.test', PASSWORD)).status).toBe(200);
  });

  it('refuses a body over 100 kB with 413', async () => {
    const res = await request(h.app).post('/api/auth/login').send({ username: 'x'.repeat(200_000), password: 'y' });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('tells a blocked user with the right password that the account is blocked, and sends no code', async () => {
    const userId = await registerUser('blocked@example.test', { mobileNo: '9811122233' });
    await runUserCommand(commands(), userId, { type: 'BlockUser', reason: 'Left the company' }, system);
    const res = await login('blocked@example.test', PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your account has been blocked. Please contact admin team for support');
    expect(await outboxCount('blocked@example.test')).toBe(0);
    expect(await outboxCount('9811122233')).toBe(0);
    // A wrong password learns nothing about the block.
    expect((await login('blocked@example.test', 'Wrong@123')).status).toBe(401);
  });
});

describe('the sign-in code (POST /api/auth/login/verify-otp, resend-otp)', () => {
  beforeAll(async () => {
    await registerUser('otp@example.test');
  });

  const start = async (username = 'otp@example.test', app: Express = h.app) => {
    const res = await login(username, PASSWORD, undefined, app);
    expect(res.status).toBe(200);
    return { challengeId: res.body.challengeId as string, code: await h.codeSentTo(username) };
  };

  it('signs in with the e-mailed code: an access token, the user, and an httpOnly refresh cookie', async () => {
    const { challengeId, code } = await start('procurement@example.test');
    const res = await verify(challengeId, code);
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.expiresIn).toBe(900);
    expect(res.body.user).toEqual({
      id: userIdForUsername('procurement@example.test'),
      username: 'procurement@example.test',
      name: 'Test User',
      emailId: 'procurement@example.test',
      mobileNo: '9876543210',
      roles: ['MLL Procurement'],
      applications: [{ appId: 'onboard', roleName: 'MLL Procurement' }],
      companyCodes: ['1000'],
      activeCompanyCode: 'All',
      baId: null,
      baStatus: null,
      application: 'console',
      firstLogin: false,
      passwordExpired: false,
      status: 'active',
      home: '/console',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password_?hash/i);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`${refreshCookieName('console')}=`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    const claims = JSON.parse(Buffer.from(res.body.accessToken.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ activeCompanyCode: 'All', pwd: 'ok', app: 'console' });
  });

  it('accepts the code from the SMS as well', async () => {
    const res = await login('procurement@example.test', PASSWORD);
    const sms = await h.codeSentTo('9876543210');
    expect((await verify(res.body.challengeId, sms)).status).toBe(200);
  });

  it('refuses a wrong code with the tries left, and locks the challenge after 5 wrong tries', async () => {
    const { challengeId, code } = await start();
    const left: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await verify(challengeId, wrongCode(code));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: otpMessages.wrong, errors: { otp: otpMessages.wrong } });
      left.push(res.body.attemptsLeft);
    }
    expect(left).toEqual([4, 3, 2, 1]);
    const fifth = await verify(challengeId, wrongCode(code));
    expect(fifth.status).toBe(410);
    expect(fifth.body.message).toBe(otpMessages.locked);
    // Locked: even the right code no longer opens it.
    expect((await verify(challengeId, code)).status).toBe(410);
  });

  it('accepts a code once: the second use answers 410', async () => {
    const { challengeId, code } = await start();
    expect((await verify(challengeId, code)).status).toBe(200);
    const again = await verify(challengeId, code);
    expect(again.status).toBe(410);
    expect(again.body.message).toBe(otpMessages.used);
  });

  it('refuses an expired code with 410 (OTP_TTL)', async () => {
    const shortLived = await appWith({ identity: { otpTtlMs: 1000 } });
    const { challengeId, code } = await start('otp@example.test', shortLived);
    await new Promise((r) => setTimeout(r, 1500));
    const res = await verify(challengeId, code, shortLived);
    expect(res.status).toBe(410);
    expect(res.body.message).toBe(otpMessages.expired);
  });

  it('refuses a malformed code without counting a try, and an unknown challenge with 404', async () => {
    const { challengeId, code } = await start();
    const bad = await verify(challengeId, '12ab');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.otp).toBe('OTP must be 6 digits');
    expect((await verify(challengeId, wrongCode(code))).body.attemptsLeft).toBe(4);
    expect((await verify('00000000-0000-4000-8000-000000000000', code)).status).toBe(404);
  });

  it('resends no sooner than 30 s (429 with Retry-After); a resent code replaces the old one', async () => {
    const { challengeId, code } = await start();
    const tooSoon = await request(h.app).post('/api/auth/login/resend-otp').send({ challengeId });
    expect(tooSoon.status).toBe(429);
    const retryAfter = Number(tooSoon.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);

    // 30 s later (moved back in time rather than waited for).
    await h.db.pool.query(`UPDATE otp_challenges SET last_sent_at = now() - interval '31 seconds' WHERE id = $1`, [challengeId]);
    const resent = await request(h.app).post('/api/auth/login/resend-otp').send({ challengeId });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ expiresInSeconds: 600, resendAfterSeconds: 30 });
    const fresh = await h.codeSentTo('otp@example.test');
    if (fresh !== code) expect((await verify(challengeId, code)).status).toBe(400);
    expect((await verify(challengeId, fresh)).status).toBe(200);
  });

  it('refuses the code of a user blocked meanwhile', async () => {
    const userId = await registerUser('blocked.meanwhile@example.test');
    const { challengeId, code } = await start('blocked.meanwhile@example.test');
    await runUserCommand(commands(), userId, { type: 'BlockUser', reason: 'Left the company' }, system);
    expect((await verify(challengeId, code)).status).toBe(403);
  });
});

describe('the captcha after 3 failed sign-ins', () => {
  it('is asked for from the third failure on, and a solved one lets the right password through', async () => {
    await registerUser('forgetful@example.test');
    const failures = [];
    for (let i = 0; i < 3; i++) failures.push(await login('forgetful@example.test', `Wrong@${i}`));
    expect(failures.map((r) => [r.status, r.body.captchaRequired])).toEqual([
      [401, false],
      [401, false],
      [401, true],
    ]);
    // Now even the right password needs the captcha.
    const refused = await login('forgetful@example.test', PASSWORD);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ captchaRequired: true, message: identityMessages.captchaRequired });

    const res = await login('forgetful@example.test', PASSWORD, await solvedCaptcha());
    expect(res.status).toBe(200);
    expect(res.body.otpRequired).toBe(true);
    // The right password cleared the count: no captcha next time.
    expect((await login('forgetful@example.test', PASSWORD)).status).toBe(200);
  });

  it('accepts a solved captcha only once, and never a forged one', async () => {
    await registerUser('careless@example.test');
    for (let i = 0; i < 3; i++) await login('careless@example.test', `Wrong@${i}`);
    const captcha = await solvedCaptcha();
    // Used on a wrong password: still spent.
    const wrong = await login('careless@example.test', 'Wrong@9', captcha);
    expect(wrong.status).toBe(401);
    expect(wrong.body.captchaRequired).toBe(true);
    const replayed = await login('careless@example.test', PASSWORD, captcha);
    expect(replayed.status).toBe(400);
    expect(replayed.body.captchaRequired).toBe(true);

    // A solution altered after solving, a test payload, and junk are refused alike.
    const decoded = JSON.parse(Buffer.from(await solvedCaptcha(), 'base64').toString());
    decoded.challenge.parameters.expiresAt += 3600;
    const tampered = Buffer.from(JSON.stringify(decoded)).toString('base64');
    const testPayload = Buffer.from(JSON.stringify({ challenge: null, solution: null, test: true })).toString('base64');
    for (const forged of [tampered, testPayload, 'not-base64-json'])
      expect((await login('careless@example.test', PASSWORD, forged)).status).toBe(400);
  });

  it('expires: a challenge older than its lifetime is refused', async () => {
    await registerUser('slow@example.test');
    const shortLived = await appWith({ identity: { captchaTtlMs: 1000, captchaCounterRange: [10, 50] } });
    for (let i = 0; i < 3; i++) await login('slow@example.test', `Wrong@${i}`, undefined, shortLived);
    const challenge = (await request(shortLived).get('/api/auth/captcha')).body as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    await new Promise((r) => setTimeout(r, 1500));
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    expect((await login('slow@example.test', PASSWORD, payload, shortLived)).status).toBe(400);
  });
});

describe('GET /api/me', () => {
  it('returns the signed-in user', async () => {
    const token = await h.login('procurement@example.test', PASSWORD);
    const res = await request(h.app).get('/api/me').set(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'procurement@example.test', roles: ['MLL Procurement'], companyCodes: ['1000'], baId: null });
  });

  it('tells a BA user its BA and application', async () => {
    const token = await h.login('ba.user@example.test', PASSWORD);
    const res = await request(h.app).get('/api/me').set(bearer(token));
    expect(res.body).toMatchObject({ roles: ['BA User'], baId: 'ba-77', application: 'portal', baStatus: null, home: '/onboard/status' });
  });

  it('answers 401 without a token', async () => {
    const res = await request(h.app).get('/api/me');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Session Timed out.Please login again');
  });

  describe('refuses tampered tokens with 401', () => {
    let good: string;
    beforeAll(async () => {
      good = await h.login('procurement@example.test', PASSWORD);
    });
    const me = (token: string) => request(h.app).get('/api/me').set(bearer(token));
    const claims = () => JSON.parse(Buffer.from(good.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

    it('a changed payload (bad signature)', async () => {
      const [header, , signature] = good.split('.');
      const payload = base64url.encode(JSON.stringify({ ...claims(), roles: ['MLL-ADMIN'] }));
      expect((await me(`${header}.${payload}.${signature}`)).status).toBe(401);
    });

    it('alg none', async () => {
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: ACCESS_TOKEN_TYPE }));
      expect((await me(`${header}.${good.split('.')[1]}.`)).status).toBe(401);
    });

    it('signed by a key that is not ours', async () => {
      const { privateKey } = await generateAuthKeys();
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'EdDSA', typ: ACCESS_TOKEN_TYPE }).sign(privateKey);
      expect((await me(token)).status).toBe(401);
    });

    it('a wrong audience or an expired time, even when correctly signed by us', async () => {
      // A second app with the same keys but another audience: its tokens must not open this one.
      const keys = await generateAuthKeys();
      const deps = { pool: h.db.pool, store: h.store, temporal: h.temporal, taskQueue: h.taskQueue, identity: OUT_OF_REACH };
      const other = createApp({ ...deps, auth: { config: { ...TEST_AUTH_CONFIG, audience: 'another-api' }, keys } });
      const mine = createApp({ ...deps, auth: { config: TEST_AUTH_CONFIG, keys } });
      // Each token must really have been issued: a failed sign-in would leave no token, refused for that alone.
      const issuedBy = async (app: typeof mine) => {
        const res = await signInVia(request.agent(app), 'procurement@example.test');
        expect(res.status).toBe(200);
        const token = res.body.accessToken as string;
        expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
        const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { aud: string; exp: number };
        return { token, claims };
      };
      const meOf = (app: typeof mine, token: string) => request(app).get('/api/me').set(bearer(token));
      // Controls: the keys are shared, so a refusal below is the audience's or the clock's doing.
      expect((await meOf(mine, (await issuedBy(mine)).token)).status).toBe(200);

      const foreign = await issuedBy(other);
      expect(foreign.claims.aud).toBe('another-api');
      expect((await meOf(other, foreign.token)).status).toBe(200);
      expect((await meOf(mine, foreign.token)).status).toBe(401);

      const expired = createApp({ ...deps, auth: { config: { ...TEST_AUTH_CONFIG, accessTokenTtlSeconds: -60 }, keys } });
      const stale = await issuedBy(expired);
      expect(stale.claims.aud).toBe(TEST_AUTH_CONFIG.audience);
      expect(stale.claims.exp * 1000).toBeLessThan(Date.now());
      expect((await meOf(mine, stale.token)).status).toBe(401);
    });
  });
});

describe('refresh and logout (refresh tokens in PostgreSQL)', () => {
  /** Moves every spent token past the grace window, as if the reuse came a minute later. */
  const ageSpentTokens = () =>
    h.db.pool.query("UPDATE refresh_tokens SET used_at = used_at - interval '1 minute' WHERE used_at IS NOT NULL");

  it('two tabs restoring the session at once with the same cookie both stay signed in', async () => {
    const cookie = cookieOf(await signInVia(request.agent(h.app), 'sessions@example.test'));
    const [one, two] = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect((await refresh(cookieOf(one))).status).toBe(200);
    expect((await refresh(cookieOf(two))).status).toBe(200);
    // Nothing of the family was revoked: the race is not mistaken for a stolen token.
    expect(await familyOf(cookie)).toMatchObject({ revoked: 0 });
  });

  it('rotates on refresh; presenting a used token again revokes the whole family', async () => {
    const signedIn = await signInVia(request.agent(h.app), 'sessions@example.test');
    const first = cookieOf(signedIn);
    const refreshed = await refresh(first);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.username).toBe('sessions@example.test');
    const second = cookieOf(refreshed);
    expect(second).not.toBe(first);

    // The first token again, after the grace window: a copy is in use somewhere. Both copies stop working:
    // the whole chain is revoked, and the answer clears the cookie it came with.
    await ageSpentTokens();
    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expect(clearsCookie(reused)).toBe(true);
    const family = await familyOf(first);
    expect(family.revoked).toBe(family.tokens);
    expect((await refresh(second)).status).toBe(401);
  });

  it('ends a session SESSION_MAX_AGE (12 h) after its sign-in however often it refreshed: 401 and the cookie cleared', async () => {
    const first = cookieOf(await signInVia(request.agent(h.app), 'sessions@example.test'));
    const rotated = await refresh(first);
    expect(rotated.status).toBe(200);
    // A rotated token keeps its family's start: the lifetime counts from the sign-in.
    const { familyId } = await familyOf(first);
    const { rows: starts } = await h.db.pool.query<{ n: number; tokens: number }>(
      'SELECT count(DISTINCT family_started_at)::int AS n, count(*)::int AS tokens FROM refresh_tokens WHERE family_id = $1',
      [familyId],
    );
    expect(starts[0]).toEqual({ n: 1, tokens: 2 });
    // Eleven hours on, the session still refreshes; past twelve it does not.
    const startedAgo = (interval: string) =>
      h.db.pool.query(`UPDATE refresh_tokens SET family_started_at = now() - $2::interval WHERE family_id = $1`, [familyId, interval]);
    await startedAgo('11 hours');
    const later = await refresh(cookieOf(rotated));
    expect(later.status).toBe(200);
    await startedAgo('12 hours 1 second');
    const ended = await refresh(cookieOf(later));
    expect(ended.status).toBe(401);
    expect(ended.body.message).toBe(SESSION_TIMED_OUT);
    expect(clearsCookie(ended)).toBe(true);
  });

  it('takes the absolute lifetime from SESSION_MAX_AGE', async () => {
    const minute = await appWith({ identity: { sessionMaxAgeSeconds: 60 } });
    const cookie = cookieOf(await signInVia(request.agent(minute), 'sessions@example.test'));
    await h.db.pool.query(`UPDATE refresh_tokens SET family_started_at = now() - interval '61 seconds' WHERE family_id = $1`, [
      (await familyOf(cookie)).familyId,
    ]);
    // The harness's app (12 h) would still refresh this session; the one configured for a minute does not.
    const refused = await request(minute).post('/api/auth/refresh').set('Cookie', cookie);
    expect(refused.status).toBe(401);
    expect(clearsCookie(refused)).toBe(true);
  });

  it('deletes expired refresh tokens when a session starts, and keeps spent ones until they expire', async () => {
    const row = (jti: string, expires: string, used: boolean) =>
      h.db.pool.query(
        `INSERT INTO refresh_tokens (jti, family_id, user_id, app, expires_at, used_at)
         VALUES ($1, $1, 'u-prune', 'console', now() + $2::interval, CASE WHEN $3 THEN now() END)`,
        [jti, expires, used],
      );
    const stale = `stale-${randomUUID()}`;
    const spent = `spent-${randomUUID()}`;
    await row(stale, '-1 minute', true);
    await row(spent, '1 hour', true);
    await signInVia(request.agent(h.app), 'sessions@example.test');
    const { rows } = await h.db.pool.query<{ jti: string }>('SELECT jti FROM refresh_tokens WHERE jti = ANY($1)', [[stale, spent]]);
    expect(rows.map((r) => r.jti)).toEqual([spent]);
    const { rows: left } = await h.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens WHERE expires_at <= now()');
    expect(left[0]?.n).toBe(0);
  });

  it('a reuse ends only that family: the same user’s other sign-ins keep working', async () => {
    const a = cookieOf(await signInVia(request.agent(h.app), 'sessions@example.test'));
    const b = cookieOf(await signInVia(request.agent(h.app), 'sessions@example.test'));
    expect((await refresh(a)).status).toBe(200);
    await ageSpentTokens();
    expect((await refresh(a)).status).toBe(401);
    expect((await refresh(b)).status).toBe(200);
  });

  it('logout revokes the session: its refresh token no longer works', async () => {
    const cookie = cookieOf(await signInVia(request.agent(h.app), 'sessions@example.test'));
    const next = cookieOf(await refresh(cookie));
    expect((await request(h.app).post('/api/auth/logout').set('Cookie', next)).status).toBe(204);
    expect((await refresh(next)).status).toBe(401);
  });

  it('keeps a portal session when staff sign in to the console in the same browser', async () => {
    const browser = request.agent(h.app);
    expect((await signInVia(browser, 'ba.user@example.test')).status).toBe(200);
    expect((await signInVia(browser, 'console.staff@example.test')).status).toBe(200);

    const portal = await browser.post('/api/auth/refresh?app=portal');
    expect(portal.status).toBe(200);
    expect(portal.body.user.username).toBe('ba.user@example.test');
    const console = await browser.post('/api/auth/refresh?app=console');
    expect(console.status).toBe(200);
    expect(console.body.user.username).toBe('console.staff@example.test');

    // Logging out of the console leaves the portal signed in.
    expect((await browser.post('/api/auth/logout?app=console')).status).toBe(204);
    expect((await browser.post('/api/auth/refresh?app=console')).status).toBe(401);
    expect((await browser.post('/api/auth/refresh?app=portal')).status).toBe(200);
  });

  it('a BA signing in on the console gets 403 and no session; the staff session in that browser keeps its cookie', async () => {
    const browser = request.agent(h.app);
    expect((await signInVia(browser, 'console.staff@example.test')).status).toBe(200);
    const started = await browser.post('/api/auth/login').send({ username: 'ba.user@example.test', password: PASSWORD });
    expect(started.status).toBe(200);
    const otp = await h.codeSentTo('ba.user@example.test');
    const refused = await browser.post('/api/auth/login/verify-otp?app=console').send({ challengeId: started.body.challengeId, otp });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(identityMessages.noAccess);
    expect(refused.headers['set-cookie']).toBeUndefined();

    const staff = await browser.post('/api/auth/refresh?app=console');
    expect(staff.status).toBe(200);
    expect(staff.body.user.username).toBe('console.staff@example.test');
    // No portal session was opened either.
    expect((await browser.post('/api/auth/refresh?app=portal')).status).toBe(401);
    // The same code on the portal (or without naming an application) would have opened the BA's session.
    expect((await request(h.app).post('/api/auth/login/verify-otp?app=somewhere').send({ challengeId: 'x', otp: '123456' })).status).toBe(400);
  });

  it('ends the sessions of a blocked user: refresh answers 401', async () => {
    const userId = await registerUser('to.block@example.test');
    const cookie = cookieOf(await signInVia(request.agent(h.app), 'to.block@example.test'));
    await runUserCommand(commands(), userId, { type: 'BlockUser', reason: 'Left the company' }, system);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it('answers 401 to a refresh without a cookie or with a forged one', async () => {
    expect((await request(h.app).post('/api/auth/refresh')).status).toBe(401);
    expect((await refresh(`${refreshCookieName('console')}=not.a.token`)).status).toBe(401);
  });
});

describe('POST /api/auth/change-password', () => {
  const change = (token: string, body: object) => request(h.app).post('/api/auth/change-password').set(bearer(token)).send(body);

  it('refuses a wrong old password, a weak or unconfirmed new one, and the current one', async () => {
    await registerUser('changer@example.test');
    const token = await h.login('changer@example.test', PASSWORD);
    const wrongOld = await change(token, { oldPassword: 'Wrong@123', newPassword: 'New@pass1', confirmPassword: 'New@pass1' });
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body.errors).toEqual({ oldPassword: 'Old password is incorrect' });

    const weak = await change(token, { oldPassword: PASSWORD, newPassword: 'weak', confirmPassword: 'weak' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.newPassword).toMatch(/8-20 characters/);

    const unconfirmed = await change(token, { oldPassword: PASSWORD, newPassword: 'New@pass1', confirmPassword: 'New@pass2' });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.errors).toEqual({ confirmPassword: 'Confirm Password Not Matching' });

    const same = await change(token, { oldPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual({ newPassword: passwordMessages.reused });
  });

  it('changes the password, ends every other session, continues the caller in a new one, and says so by e-mail', async () => {
    await registerUser('mover@example.test');
    const other = cookieOf(await signInVia(request.agent(h.app), 'mover@example.test'));
    const mine = await signInVia(request.agent(h.app), 'mover@example.test');
    const res = await change(mine.body.accessToken, { oldPassword: PASSWORD, newPassword: 'New@pass1', confirmPassword: 'New@pass1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Password changed successfully', user: { username: 'mover@example.test' } });
    expect(res.body.accessToken).toEqual(expect.any(String));

    expect((await refresh(other)).status).toBe(401);
    expect((await refresh(cookieOf(mine))).status).toBe(401);
    expect((await refresh(cookieOf(res))).status).toBe(200);
    expect(await outboxCount('mover@example.test', 'password-changed')).toBe(1);

    expect((await login('mover@example.test', PASSWORD)).status).toBe(401);
    expect((await login('mover@example.test', 'New@pass1')).status).toBe(200);
    await expectPasswordEventsWithoutHashes(userIdForUsername('mover@example.test'), 'change');
  });

  it('refuses any of the last 5 passwords, and accepts one older than that', async () => {
    await registerUser('cycler@example.test');
    let token = await h.login('cycler@example.test', PASSWORD);
    const passwords = [PASSWORD, 'Cycle@001', 'Cycle@002', 'Cycle@003', 'Cycle@004', 'Cycle@005'];
    for (let i = 1; i < passwords.length; i++) {
      const res = await change(token, { oldPassword: passwords[i - 1], newPassword: passwords[i], confirmPassword: passwords[i] });
      expect(res.status).toBe(200);
      token = res.body.accessToken;
      if (i === 2) {
        const reuse = await change(token, { oldPassword: passwords[2], newPassword: PASSWORD, confirmPassword: PASSWORD });
        expect(reuse.status).toBe(400);
        expect(reuse.body.message).toBe('You cannot reuse any of your last 5 passwords');
      }
    }
    // History now: Cycle@005 … Cycle@001. The first password is six changes back: allowed again.
    // (Rows are erased only an hour after they stop counting: age them, as if the changes were spread out.)
    const userId = userIdForUsername('cycler@example.test');
    await h.db.pool.query(`UPDATE credentials SET created_at = created_at - interval '2 hours' WHERE user_id = $1`, [userId]);
    const back = await change(token, { oldPassword: 'Cycle@005', newPassword: PASSWORD, confirmPassword: PASSWORD });
    expect(back.status).toBe(200);
    // Only the last five passwords' hashes are kept; the two older ones are erased.
    const { rows } = await h.db.pool.query<{ credential_id: string }>('SELECT credential_id FROM credentials WHERE user_id = $1', [userId]);
    const { rows: named } = await h.db.pool.query<{ credential_history: string[] }>('SELECT credential_history FROM users WHERE id = $1', [userId]);
    expect(named[0]?.credential_history).toHaveLength(5);
    expect(rows.map((r) => r.credential_id).sort()).toEqual([...(named[0]?.credential_history ?? [])].sort());
  });

  it('needs a session', async () => {
    expect((await request(h.app).post('/api/auth/change-password').send({})).status).toBe(401);
  });
});

describe('first login and password expiry restrict the session to changing the password', () => {
  const tryEverything = async (token: string) => ({
    me: (await request(h.app).get('/api/me').set(bearer(token))).status,
    list: await request(h.app).get('/api/business-associates').set(bearer(token)),
    company: (await request(h.app).put('/api/me/active-company').set(bearer(token)).send({ companyCode: '1000' })).status,
  });

  it('a first login (an account someone else created) must choose a password first', async () => {
    await registerUser('invited@example.test', { mustChangePassword: true });
    const session = await h.signIn('invited@example.test', PASSWORD);
    expect(session.user).toMatchObject({ firstLogin: true, passwordExpired: false, home: '/change-password' });
    const restricted = await tryEverything(session.accessToken);
    expect(restricted.me).toBe(200);
    expect(restricted.list.status).toBe(403);
    expect(restricted.list.body.message).toBe(PASSWORD_CHANGE_REQUIRED);
    expect(restricted.company).toBe(403);
    // Refresh still works (and stays restricted).
    const refreshed = await refresh(session.cookie);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.home).toBe('/change-password');

    const changed = await request(h.app)
      .post('/api/auth/change-password')
      .set(bearer(session.accessToken))
      .send({ oldPassword: PASSWORD, newPassword: 'Chosen@123', confirmPassword: 'Chosen@123' });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ firstLogin: false, home: '/console' });
    expect((await tryEverything(changed.body.accessToken)).list.status).toBe(200);
  });

  it('a password older than PASSWORD_MAX_AGE (90 days) must be changed', async () => {
    const userId = await registerUser('stale@example.test');
    // 91 days ago, set in the read model rather than waited for.
    await h.db.pool.query(`UPDATE users SET password_changed_at = now() - interval '91 days' WHERE id = $1`, [userId]);
    const session = await h.signIn('stale@example.test', PASSWORD);
    expect(session.user).toMatchObject({ firstLogin: false, passwordExpired: true, home: '/change-password' });
    const restricted = await tryEverything(session.accessToken);
    expect([restricted.me, restricted.list.status, restricted.company]).toEqual([200, 403, 403]);

    const changed = await request(h.app)
      .post('/api/auth/change-password')
      .set(bearer(session.accessToken))
      .send({ oldPassword: PASSWORD, newPassword: 'Fresh@123', confirmPassword: 'Fresh@123' });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ passwordExpired: false, home: '/console' });
    expect((await tryEverything(changed.body.accessToken)).list.status).toBe(200);
  });
});

describe('forgot password and reset links', () => {
  const forgot = (email: string, app: Express = h.app) => request(app).post('/api/auth/forgot-password').send({ email });

  async function linkTokenSentTo(email: string): Promise<string> {
    const { rows } = await h.db.pool.query<{ body: string }>(
      `SELECT body FROM outbox WHERE recipient = $1 AND template = 'password-reset' ORDER BY created_at DESC, seq DESC LIMIT 1`,
      [email],
    );
    const link = /(https:\/\/\S+\/reset-password\/([A-Za-z0-9_-]+))/.exec(rows[0]?.body ?? '');
    expect(link?.[1]).toMatch(new RegExp(`^${PUBLIC_URL}/reset-password/`));
    return link?.[2] ?? '';
  }

  it('answers the same for a known and an unknown e-mail, and writes a message only for the known one', async () => {
    await registerUser('forgot@example.test');
    const known = await forgot('Forgot@Example.test');
    const unknown = await forgot('nobody.here@example.test');
    for (const res of [known, unknown]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Password Reset Link sent successfully !.' });
    }
    expect(await outboxCount('forgot@example.test', 'password-reset')).toBe(1);
    expect(await outboxCount('nobody.here@example.test')).toBe(0);
  });

  it('refuses a malformed e-mail with 400', async () => {
    const res = await forgot('not-an-email');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ email: 'Please enter a valid email id' });
  });

  it('a link sets a new password once, ends every session, and is then gone', async () => {
    const userId = await registerUser('resetter@example.test');
    const session = cookieOf(await signInVia(request.agent(h.app), 'resetter@example.test'));
    await forgot('resetter@example.test');
    const token = await linkTokenSentTo('resetter@example.test');

    const peek = await request(h.app).get(`/api/auth/reset-tokens/${token}`);
    expect(peek.status).toBe(200);
    expect(peek.body).toEqual({ userId, username: 'resetter@example.test', purpose: 'reset' });

    // A mismatch does not use the link up.
    const mismatch = await request(h.app).post('/api/auth/reset-password').send({ token, newPassword: 'Reset@123', confirmPassword: 'Reset@124' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual({ confirmPassword: 'Confirm Password Not Matching' });

    const done = await request(h.app).post('/api/auth/reset-password').send({ token, newPassword: 'Reset@123', confirmPassword: 'Reset@123' });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Password changed successfully' });
    expect((await refresh(session)).status).toBe(401);
    expect(await outboxCount('resetter@example.test', 'password-changed')).toBe(1);
    expect((await login('resetter@example.test', 'Reset@123')).status).toBe(200);
    await expectPasswordEventsWithoutHashes(userId, 'reset');

    const again = await request(h.app).post('/api/auth/reset-password').send({ token, newPassword: 'Reset@456', confirmPassword: 'Reset@456' });
    expect(again.status).toBe(410);
    expect(again.body.message).toBe(resetMessages.linkInvalid);
    expect((await request(h.app).get(`/api/auth/reset-tokens/${token}`)).status).toBe(410);
  });

  it('a link expires after its lifetime (30 minutes; shortened here)', async () => {
    await registerUser('late@example.test');
    const shortLived = await appWith({ identity: { resetTtlMs: 1000 } });
    await forgot('late@example.test', shortLived);
    const token = await linkTokenSentTo('late@example.test');
    expect((await request(shortLived).get(`/api/auth/reset-tokens/${token}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const res = await request(shortLived).get(`/api/auth/reset-tokens/${token}`);
    expect(res.status).toBe(410);
    expect(res.body.message).toBe('This link is invalid or has expired');
    const reset = await request(shortLived).post('/api/auth/reset-password').send({ token, newPassword: 'Late@1234', confirmPassword: 'Late@1234' });
    expect(reset.status).toBe(410);
  });

  it('the default link lives 30 minutes', async () => {
    await registerUser('default.ttl@example.test');
    await forgot('default.ttl@example.test');
    const { rows } = await h.db.pool.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM one_time_tokens
        WHERE user_id = $1 AND purpose = 'reset'`,
      [userIdForUsername('default.ttl@example.test')],
    );
    expect(rows.map((r) => r.minutes)).toEqual([30]);
  });

  it('an invitation link sets the first password (recorded as such)', async () => {
    const userId = await registerUser('new.hire@example.test', { mustChangePassword: true });
    const token = await createOneTimeToken(h.db.pool, 'invitation', userId, 60_000);
    expect((await request(h.app).get(`/api/auth/reset-tokens/${token}`)).body.purpose).toBe('invitation');
    const res = await request(h.app).post('/api/auth/reset-password').send({ token, newPassword: 'Hired@123', confirmPassword: 'Hired@123' });
    expect(res.status).toBe(200);
    await expectPasswordEventsWithoutHashes(userId, 'invitation');
    // The password was chosen: no forced change at the first sign-in any more.
    expect((await h.signIn('new.hire@example.test', 'Hired@123')).user.firstLogin).toBe(false);
  });

  it('refuses an unknown link with 410', async () => {
    expect((await request(h.app).get('/api/auth/reset-tokens/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).status).toBe(410);
    expect((await request(h.app).get('/api/auth/reset-tokens/x')).status).toBe(410);
  });
});

describe('password hashes live in the credentials table; events only name them', () => {
  it('a stored credential that no event names never becomes the password (its command failed after the row was written)', async () => {
    const userId = await registerUser('orphan@example.test');
    // What a reset or a contact change writes before its command; then the command "fails": no event follows.
    await storeNewCredential(h.db.pool, userId, 'Orphan@123');
    expect((await login('orphan@example.test', 'Orphan@123')).status).toBe(401);
    expect((await login('orphan@example.test', PASSWORD)).status).toBe(200);
  });

  it('an account whose events still carry the hash (written before issue 6) signs in, and its cheaper hash is upgraded', async () => {
    const username = 'legacy@example.test';
    const userId = userIdForUsername(username);
    const oldHash = await hashPassword(PASSWORD, { N: 16384, r: 8, p: 1 });
    const legacy = [
      {
        type: 'UserRegistered',
        data: { userId, username, name: 'Legacy User', passwordHash: oldHash, roles: ['MLL Procurement'], companyCodes: ['1000'], baId: null },
      },
    ] as UserEvent[];
    // Appended as the old code did: the hash in the event itself.
    const oldCode: Decider<null, UserEvent, UserState> = { ...userDecider, decide: () => legacy };
    const written = await handleCommand(h.store, userStreamId(userId), oldCode, null, {
      commandId: `test:${username}`,
      actor: system.actor,
      at: new Date().toISOString(),
      companyCode: '1000',
      correlationId: 'test',
      causationId: null,
      workflowId: null,
      requestId: null,
    });
    await waitForProjections(h.db.pool, written.lastGlobalPosition, { timeoutMs: 10_000 });

    // The projection moved the hash into credentials under its legacy id; the read model names it.
    const user = await findUserById(h.db.pool, userId);
    expect(user).toMatchObject({ credentialId: legacyCredentialId(oldHash), credentialHistory: [legacyCredentialId(oldHash)] });
    const stored = async () =>
      (await h.db.pool.query<{ hash: string }>('SELECT hash FROM credentials WHERE credential_id = $1', [legacyCredentialId(oldHash)])).rows[0]?.hash;
    expect(await stored()).toBe(oldHash);

    expect((await login(username, 'Wrong@pass1')).status).toBe(401);
    const token = await h.login(username, PASSWORD);
    // Re-hashed at today's cost under the same credential: the same password, no event, no new age.
    const upgraded = await stored();
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/);
    await expect(verifyPassword(PASSWORD, upgraded ?? '')).resolves.toBe(true);
    expect((await h.store.readStream(userStreamId(userId))).map((e) => e.type)).toEqual(['UserRegistered']);
    // The reuse rule reads it too.
    const reuse = await request(h.app)
      .post('/api/auth/change-password')
      .set(bearer(token))
      .send({ oldPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD });
    expect(reuse.body.errors).toEqual({ newPassword: passwordMessages.reused });
  });
});

describe('PUT /api/me/active-company', () => {
  it('accepts All or one of the user’s codes, keeps it, and answers a new access token carrying it', async () => {
    await registerUser('two.codes@example.test', { roles: ['BA Engagement Manager'], companyCodes: ['1000', '2000'] });
    const token = await h.login('two.codes@example.test', PASSWORD);
    const put = (companyCode: string, t = token) => request(h.app).put('/api/me/active-company').set(bearer(t)).send({ companyCode });

    const refused = await put('3000');
    expect(refused.status).toBe(400);
    expect(refused.body.errors.companyCode).toBeDefined();

    const res = await put('2000');
    expect(res.status).toBe(200);
    expect(res.body.user.activeCompanyCode).toBe('2000');
    const claims = JSON.parse(Buffer.from(res.body.accessToken.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(claims.activeCompanyCode).toBe('2000');
    // Kept: the next sign-in starts in it.
    expect((await h.signIn('two.codes@example.test', PASSWORD)).user.activeCompanyCode).toBe('2000');
    expect((await put('All', res.body.accessToken)).body.user.activeCompanyCode).toBe('All');
  });
});

describe('GET /health', () => {
  it('answers 200 with database, Temporal and the worker up, and nothing about event volume', async () => {
    // The projector's position is for staff only (GET /api/health/detail, api/src/health/health.int.test.ts).
    const res = await request(h.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', temporal: 'up', worker: 'up' });
  });

  it('answers 503 when Temporal is unreachable', async () => {
    // No gRPC retry interceptor: a retry timer left running would fire after the connection is closed.
    const connection = Connection.lazy({ address: '127.0.0.1:1', interceptors: [] });
    const app = createApp({
      pool: h.db.pool,
      store: h.store,
      temporal: new Client({ connection }),
      taskQueue: h.taskQueue,
      auth: { config: TEST_AUTH_CONFIG, keys: await generateAuthKeys() },
    });
    const res = await request(app).get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'unavailable', database: 'up', temporal: 'down' });
    await connection.close();
  });

  it('answers 503 when the database is unreachable', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 500 });
    const app = createApp({
      pool,
      store: h.store,
      temporal: h.temporal,
      taskQueue: h.taskQueue,
      auth: { config: TEST_AUTH_CONFIG, keys: await generateAuthKeys() },
    });
    const res = await request(app).get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ database: 'down', temporal: 'up' });
    await pool.end();
  });
});

describe('reference data and unknown routes', () => {
  it('lists the cities of a state in ra-data-simple-rest form', async () => {
    const token = await h.login('reader@example.test', PASSWORD);
    const res = await request(h.app).get('/api/cities').query({ filter: '{"stateId":27}' }).set(bearer(token));
    expect(res.status).toBe(200);
    // The reference data every installation starts with: Maharashtra's cities, by name.
    const maharashtra = CITIES.filter((c) => c.stateId === 27).map((c) => c.name);
    expect(res.body.map((c: { name: string }) => c.name)).toEqual([...maharashtra].sort((a, b) => a.localeCompare(b)));
    expect(res.headers['content-range']).toBe(`cities 0-${maharashtra.length - 1}/${maharashtra.length}`);
  });

  it('lists the companies without a session (the registration form needs them)', async () => {
    const res = await request(h.app).get('/api/companies');
    expect(res.status).toBe(200);
    expect(res.body.map((c: { companyCode: string }) => c.companyCode).sort()).toEqual(['1000', '2000']);
  });

  it('answers an unknown API path with a 404 problem', async () => {
    const res = await request(h.app).get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});
