import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { base64url, exportJWK, SignJWT } from 'jose';
import request from 'supertest';
import {
  ACCESS_TOKEN_TYPE,
  authenticate,
  createAuth,
  generateAuthKeys,
  loadOrCreateAuthKeys,
  PASSWORD_CHANGE_REQUIRED,
  principalOf,
  requireAuth,
  type Auth,
  type AuthConfig,
  type AuthKeys,
  type Principal,
} from './auth';
import { problemHandler } from './problem';

const config: AuthConfig = { issuer: 'ba-portal', audience: 'ba-portal-api', accessTokenTtlSeconds: 900, refreshTokenTtlSeconds: 3600 };

const procurement: Principal = {
  userId: 'u-1',
  username: 'procurement@demo.test',
  name: 'Priya Sharma',
  roles: ['MLL Procurement'],
  companyCodes: ['1000'],
  baId: null,
  app: 'console',
  activeCompanyCode: 'All',
  pwd: 'ok',
    billHubOnly: false,
};

const claimsOf = (p: Principal) => ({
  username: p.username,
  name: p.name,
  roles: p.roles,
  companyCodes: p.companyCodes,
  baId: p.baId,
  app: p.app,
  activeCompanyCode: p.activeCompanyCode,
  pwd: p.pwd,
});

let keys: AuthKeys;
let auth: Auth;

beforeAll(async () => {
  keys = await generateAuthKeys();
  auth = createAuth(config, keys);
});

/** A token like ours, with one thing changed. */
async function forge(
  overrides: { key?: CryptoKey; audience?: string; issuer?: string; exp?: number; typ?: string; claims?: Record<string, unknown> } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claimsOf(procurement), ...overrides.claims })
    .setProtectedHeader({ alg: 'EdDSA', typ: overrides.typ ?? ACCESS_TOKEN_TYPE })
    .setSubject(procurement.userId)
    .setIssuer(overrides.issuer ?? config.issuer)
    .setAudience(overrides.audience ?? config.audience)
    .setIssuedAt(now - 10)
    .setExpirationTime(overrides.exp ?? now + 600)
    .sign(overrides.key ?? keys.privateKey);
}

async function expectRefused(token: string): Promise<void> {
  await expect(auth.verifyAccessToken(token)).rejects.toMatchObject({ status: 401 });
}

describe('access tokens', () => {
  it('accept a token we issued and return the caller it names', async () => {
    const token = await auth.issueAccessToken(procurement);
    await expect(auth.verifyAccessToken(token)).resolves.toEqual(procurement);
  });

  it('refuse a token signed with another key (bad signature)', async () => {
    const other = await generateAuthKeys();
    await expectRefused(await forge({ key: other.privateKey }));
  });

  it('refuse a token whose payload was altered after signing', async () => {
    const [header, , signature] = (await auth.issueAccessToken(procurement)).split('.');
    const payload = base64url.encode(
      JSON.stringify({ ...claimsOf(procurement), roles: ['MLL-ADMIN'], sub: 'u-1', iss: config.issuer, aud: config.audience, exp: 9999999999 }),
    );
    await expectRefused(`${header}.${payload}.${signature}`);
  });

  it('refuse an unsigned token (alg none)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: ACCESS_TOKEN_TYPE }));
    const payload = base64url.encode(
      JSON.stringify({ ...claimsOf(procurement), sub: 'u-1', iss: config.issuer, aud: config.audience, iat: now, exp: now + 600 }),
    );
    await expectRefused(`${header}.${payload}.`);
  });

  it('refuse an HMAC token keyed with our public key (algorithm confusion)', async () => {
    const jwk = await exportJWK(keys.publicKey);
    const secret = new TextEncoder().encode(JSON.stringify(jwk));
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ ...claimsOf(procurement) })
      .setProtectedHeader({ alg: 'HS256', typ: ACCESS_TOKEN_TYPE })
      .setSubject('u-1')
      .setIssuer(config.issuer)
      .setAudience(config.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(secret);
    await expectRefused(token);
  });

  it('refuse a token for another audience', async () => {
    await expectRefused(await forge({ audience: 'some-other-api' }));
  });

  it('refuse a token from another issuer', async () => {
    await expectRefused(await forge({ issuer: 'someone-else' }));
  });

  it('refuse an expired token', async () => {
    await expectRefused(await forge({ exp: Math.floor(Date.now() / 1000) - 60 }));
  });

  it('refuse a refresh token presented as an access token', async () => {
    await expectRefused((await auth.issueRefreshToken(procurement.userId)).token);
  });

  it('refuse a token without the password state (every session must say whether it may act)', async () => {
    await expectRefused(await forge({ claims: { pwd: undefined } }));
    await expectRefused(await forge({ claims: { pwd: 'whatever' } }));
  });

  it('carry the active company code and the password state', async () => {
    const p: Principal = { ...procurement, activeCompanyCode: '1000', pwd: 'change-required' };
    await expect(auth.verifyAccessToken(await auth.issueAccessToken(p))).resolves.toEqual(p);
  });

  it('refuse a token whose claims are not ours (unknown role)', async () => {
    await expectRefused(await forge({ claims: { roles: ['Superuser'] } }));
  });

  it('expire after the configured lifetime', async () => {
    const shortLived = createAuth({ ...config, accessTokenTtlSeconds: 1 }, keys);
    const token = await shortLived.issueAccessToken(procurement);
    const { exp, iat } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number; iat: number };
    expect(exp - iat).toBe(1);
  });
});

describe('refresh tokens', () => {
  // Whether a refresh token is still live (rotation, logout, revocation) is the session store's business:
  // api/src/identity/identity.int.test.ts covers it against PostgreSQL.
  it('carry the user and an id, and expire with the configured lifetime', async () => {
    const issued = await auth.issueRefreshToken('u-1');
    const claims = await auth.verifyRefreshToken(issued.token);
    expect(claims).toMatchObject({ sub: 'u-1', jti: issued.jti });
    expect(claims.exp * 1000).toBe(issued.expiresAt.getTime());
    expect(issued.expiresAt.getTime() - Date.now()).toBeGreaterThan((config.refreshTokenTtlSeconds - 5) * 1000);
  });

  it('refuse a refresh token signed by another key', async () => {
    const other = createAuth(config, await generateAuthKeys());
    await expect(auth.verifyRefreshToken((await other.issueRefreshToken('u-1')).token)).rejects.toMatchObject({ status: 401 });
  });

  it('refuse an access token presented as a refresh token', async () => {
    await expect(auth.verifyRefreshToken(await auth.issueAccessToken(procurement))).rejects.toMatchObject({ status: 401 });
  });
});

describe('signing keys on disk', () => {
  it('are generated once, readable by the owner only, and reused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'auth-keys-'));
    try {
      const first = await loadOrCreateAuthKeys(path.join(dir, 'keys'));
      const files = readdirSync(path.join(dir, 'keys'));
      expect(files).toHaveLength(1);
      expect(statSync(path.join(dir, 'keys', files[0] ?? '')).mode & 0o777).toBe(0o600);
      const second = await loadOrCreateAuthKeys(path.join(dir, 'keys'));
      expect(second.kid).toBe(first.kid);
      // A token signed by the first load verifies with the second: restarts keep sessions.
      const token = await createAuth(config, first).issueAccessToken(procurement);
      await expect(createAuth(config, second).verifyAccessToken(token)).resolves.toEqual(procurement);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('requireAuth', () => {
  let app: express.Express;
  beforeAll(() => {
    app = express();
    app.use(authenticate(auth));
    app.get('/any', requireAuth(), (_req, res) => {
      res.json({ user: principalOf(res).userId });
    });
    app.get('/reviewers', requireAuth({ roles: ['MLL Procurement', 'MLL Commercial'] }), (_req, res) => {
      res.json({ ok: true });
    });
    app.get('/portal', requireAuth({ app: 'portal' }), (_req, res) => {
      res.json({ ok: true });
    });
    app.get('/me', requireAuth({ allowPasswordChange: true }), (_req, res) => {
      res.json({ ok: true });
    });
    app.get('/bills', requireAuth({ billHub: true }), (_req, res) => {
      res.json({ ok: true });
    });
    app.use(problemHandler());
  });

  it('answers 401 as a problem without a token', async () => {
    const res = await request(app).get('/any');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.message).toBe('Session Timed out.Please login again');
  });

  it('answers 401 for a malformed authorization header', async () => {
    expect((await request(app).get('/any').set('Authorization', 'Basic abc')).status).toBe(401);
    expect((await request(app).get('/any').set('Authorization', 'Bearer not-a-jwt')).status).toBe(401);
  });

  it('lets a valid token through', async () => {
    const res = await request(app).get('/any').set('Authorization', `Bearer ${await auth.issueAccessToken(procurement)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: 'u-1' });
  });

  it('answers 403 when none of the caller’s roles is allowed', async () => {
    const auditor = await auth.issueAccessToken({ ...procurement, roles: ['Auditor'] });
    expect((await request(app).get('/reviewers').set('Authorization', `Bearer ${auditor}`)).status).toBe(403);
    const reviewer = await auth.issueAccessToken(procurement);
    expect((await request(app).get('/reviewers').set('Authorization', `Bearer ${reviewer}`)).status).toBe(200);
  });

  it('lets a session that must change its password through only where the route opts in', async () => {
    const token = await auth.issueAccessToken({ ...procurement, pwd: 'change-required' });
    const refused = await request(app).get('/any').set('Authorization', `Bearer ${token}`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(PASSWORD_CHANGE_REQUIRED);
    expect((await request(app).get('/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    // The opt-in does not weaken anything else: no token is still 401.
    expect((await request(app).get('/me')).status).toBe(401);
  });

  it('keeps a Bill-Hub-only user to the Bill-Hub area and its own account', async () => {
    const token = await auth.issueAccessToken({ ...procurement, roles: ['BA User'], baId: 'ba-1', app: 'portal', billHubOnly: true });
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await request(app).get('/any').set(bearer)).status).toBe(403);
    expect((await request(app).get('/bills').set(bearer)).status).toBe(200);
    expect((await request(app).get('/me').set(bearer)).status).toBe(200);
    // Everyone else is not limited by the Bill-Hub marker.
    expect((await request(app).get('/bills').set('Authorization', `Bearer ${await auth.issueAccessToken(procurement)}`)).status).toBe(200);
  });

  it('answers 403 for a user of the other application', async () => {
    const res = await request(app).get('/portal').set('Authorization', `Bearer ${await auth.issueAccessToken(procurement)}`);
    expect(res.status).toBe(403);
  });
});
