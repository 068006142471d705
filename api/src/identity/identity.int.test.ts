import { Client, Connection } from '@temporalio/client';
import { SignJWT, base64url } from 'jose';
import pg from 'pg';
import request from 'supertest';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { Role } from '../../../domain/src/identity/roles';
import { userDecider, userIdForUsername, userStreamId } from '../../../domain/src/identity/users';
import { waitForProjections } from '../../../projections/src/runner';
import { createApp } from '../app';
import { ACCESS_TOKEN_TYPE, generateAuthKeys, refreshCookieName } from '../http/auth';
import { startApiHarness, TEST_AUTH_CONFIG, type ApiHarness } from '../testing/harness';
import { hashPassword } from './password';
import { identityMessages } from './routes';

/** Sign-in, sessions, /api/me, /health and the HTTP guards, against the real database and Temporal. */
// Workflow round trips on a 2-core machine: generous bounds, set here as well as in jest.config.ts.
jest.setTimeout(120_000);

let h: ApiHarness;
const PASSWORD = 'Sup3r@secret';

async function registerUser(username: string, roles: Role[], companyCodes: string[], baId: string | null = null) {
  const userId = userIdForUsername(username);
  const result = await handleCommand(
    h.store,
    userStreamId(userId),
    userDecider,
    { type: 'RegisterUser', userId, username, name: 'Test User', passwordHash: await hashPassword(PASSWORD), roles, companyCodes, baId },
    {
      commandId: `test:${username}`,
      actor: { userId: 'test', role: 'system' },
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
  h = await startApiHarness('api-identity');
  await registerUser('Procurement@Example.test', ['MLL Procurement'], ['1000']);
  await registerUser('ba.user@example.test', ['BA User'], ['1000'], 'ba-77');
});

afterAll(async () => {
  await h?.stop();
});

const login = (username: string, password: string) => request(h.app).post('/api/auth/login').send({ username, password });

describe('POST /api/auth/login', () => {
  it('signs in with the right password: an access token, the user, and an httpOnly refresh cookie', async () => {
    const res = await login('procurement@example.test', PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.expiresIn).toBe(900);
    expect(res.body.user).toEqual({
      id: userIdForUsername('procurement@example.test'),
      username: 'procurement@example.test',
      name: 'Test User',
      roles: ['MLL Procurement'],
      companyCodes: ['1000'],
      baId: null,
      application: 'console',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/i);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`${refreshCookieName('console')}=`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/auth/);
  });

  it('accepts the username in any case', async () => {
    expect((await login('PROCUREMENT@example.TEST', PASSWORD)).status).toBe(200);
  });

  it('refuses a wrong password and an unknown user alike with 401', async () => {
    const wrong = await login('procurement@example.test', 'Wrong@123');
    const unknown = await login('nobody@example.test', PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.message).toBe(identityMessages.badCredentials);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses a missing username or password with 400 and field errors', async () => {
    const res = await request(h.app).post('/api/auth/login').send({ username: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ username: 'This field is required', password: 'This field is required' });
  });

  it('answers 429 after 10 attempts a minute for one username from one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await login('Guess.Me@example.test', `Wrong@${i}`)).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
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
});

describe('GET /api/me', () => {
  it('returns the signed-in user', async () => {
    const token = await h.login('procurement@example.test', PASSWORD);
    const res = await request(h.app).get('/api/me').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'procurement@example.test', roles: ['MLL Procurement'], companyCodes: ['1000'], baId: null });
  });

  it('tells a BA user its BA and application', async () => {
    const token = await h.login('ba.user@example.test', PASSWORD);
    const res = await request(h.app).get('/api/me').set('Authorization', `Bearer ${token}`);
    expect(res.body).toMatchObject({ roles: ['BA User'], baId: 'ba-77', application: 'portal' });
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
    const me = (token: string) => request(h.app).get('/api/me').set('Authorization', `Bearer ${token}`);
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
      const other = createApp({
        pool: h.db.pool,
        store: h.store,
        temporal: h.temporal,
        taskQueue: h.taskQueue,
        auth: { config: { ...TEST_AUTH_CONFIG, audience: 'another-api' }, keys },
      });
      const mine = createApp({ pool: h.db.pool, store: h.store, temporal: h.temporal, taskQueue: h.taskQueue, auth: { config: TEST_AUTH_CONFIG, keys } });
      const foreign = (await request(other).post('/api/auth/login').send({ username: 'procurement@example.test', password: PASSWORD })).body
        .accessToken as string;
      expect((await request(mine).get('/api/me').set('Authorization', `Bearer ${foreign}`)).status).toBe(401);

      const expired = createApp({
        pool: h.db.pool,
        store: h.store,
        temporal: h.temporal,
        taskQueue: h.taskQueue,
        auth: { config: { ...TEST_AUTH_CONFIG, accessTokenTtlSeconds: -60 }, keys },
      });
      const stale = (await request(expired).post('/api/auth/login').send({ username: 'procurement@example.test', password: PASSWORD })).body
        .accessToken as string;
      expect((await request(mine).get('/api/me').set('Authorization', `Bearer ${stale}`)).status).toBe(401);
    });
  });
});

describe('refresh and logout', () => {
  it('refreshes with the cookie, and the cookie no longer works after logout', async () => {
    const agent = request.agent(h.app);
    const signedIn = await agent.post('/api/auth/login').send({ username: 'procurement@example.test', password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';

    const refreshed = await request(h.app).post('/api/auth/refresh').set('Cookie', cookie);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.username).toBe('procurement@example.test');
    const next = String(refreshed.headers['set-cookie']).split(';')[0] ?? '';
    // Rotation: the used refresh token is spent.
    expect((await request(h.app).post('/api/auth/refresh').set('Cookie', cookie)).status).toBe(401);

    expect((await request(h.app).post('/api/auth/logout').set('Cookie', next)).status).toBe(204);
    expect((await request(h.app).post('/api/auth/refresh').set('Cookie', next)).status).toBe(401);
  });

  it('keeps a portal session when staff sign in to the console in the same browser', async () => {
    const browser = request.agent(h.app);
    expect((await browser.post('/api/auth/login').send({ username: 'ba.user@example.test', password: PASSWORD })).status).toBe(200);
    expect((await browser.post('/api/auth/login').send({ username: 'procurement@example.test', password: PASSWORD })).status).toBe(200);

    const portal = await browser.post('/api/auth/refresh?app=portal');
    expect(portal.status).toBe(200);
    expect(portal.body.user.username).toBe('ba.user@example.test');
    const console = await browser.post('/api/auth/refresh?app=console');
    expect(console.status).toBe(200);
    expect(console.body.user.username).toBe('procurement@example.test');

    // Logging out of the console leaves the portal signed in.
    expect((await browser.post('/api/auth/logout?app=console')).status).toBe(204);
    expect((await browser.post('/api/auth/refresh?app=console')).status).toBe(401);
    expect((await browser.post('/api/auth/refresh?app=portal')).status).toBe(200);
  });

  it('answers 401 to a refresh without a cookie', async () => {
    expect((await request(h.app).post('/api/auth/refresh')).status).toBe(401);
  });
});

describe('GET /health', () => {
  it('answers 200 with database, Temporal and the projector’s lag', async () => {
    const res = await request(h.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'up', temporal: 'up' });
    expect(res.body.projector).toEqual({ lag: expect.any(Number), checkpoint: expect.any(Number), head: expect.any(Number) });
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
    const token = await h.login('procurement@example.test', PASSWORD);
    const res = await request(h.app).get('/api/cities').query({ filter: '{"stateId":27}' }).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.map((c: { name: string }) => c.name)).toEqual(['Mumbai', 'Nagpur', 'Pune']);
    expect(res.headers['content-range']).toBe('cities 0-2/3');
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
