import express from 'express';
import request from 'supertest';
import { createAuth, generateAuthKeys, refreshCookieName, setRefreshCookie } from './auth';
import { CONTENT_SECURITY_POLICY, securityHeaders, STRICT_TRANSPORT_SECURITY } from './security-headers';

/** A real Express app with the middleware in front of one route. */
const appWith = (secure: boolean) => {
  const app = express();
  app.use(securityHeaders({ secure }));
  app.get('/page', (_req, res) => res.type('html').send('<!doctype html><p>hi</p>'));
  return app;
};

test('every response carries the CSP, COOP, CORP, Permissions-Policy and the anti-framing headers', async () => {
  const res = await request(appWith(false)).get('/page');
  expect(res.status).toBe(200);
  const csp = res.headers['content-security-policy'] as string;
  expect(csp).toBe(CONTENT_SECURITY_POLICY);
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  expect(directives.get('default-src')).toEqual(["'self'"]);
  // No inline or evaluated script, no plug-ins, not framed, no <base> or form posts elsewhere.
  expect(directives.get('script-src')).toEqual(["'self'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  // Frames only of object URLs the portal made itself (annexure previews): no page of ours or anyone's.
  expect(directives.get('frame-src')).toEqual(['blob:']);
  expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(directives.get('base-uri')).toEqual(["'self'"]);
  expect(directives.get('form-action')).toEqual(["'self'"]);
  expect(csp).not.toMatch(/unsafe-eval|\*/);
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(res.headers['permissions-policy']).toMatch(/camera=\(\)/);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
});

test('Strict-Transport-Security only when the public URL is https', async () => {
  expect((await request(appWith(false)).get('/page')).headers['strict-transport-security']).toBeUndefined();
  expect((await request(appWith(true)).get('/page')).headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
});

test('the refresh cookie is Secure when the public URL is https, and only then', async () => {
  const keys = await generateAuthKeys();
  const cookieFrom = async (secureCookies: boolean) => {
    const auth = createAuth({ issuer: 'test', audience: 'test-api', accessTokenTtlSeconds: 900, refreshTokenTtlSeconds: 3600, secureCookies }, keys);
    const app = express();
    app.post('/api/auth/refresh', (_req, res) => {
      setRefreshCookie(res, auth, 'token', 'portal');
      res.status(204).end();
    });
    const res = await request(app).post('/api/auth/refresh');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${refreshCookieName('portal')}=`));
    expect(cookie).toBeDefined();
    return (cookie ?? '').split(';').map((p) => p.trim().toLowerCase());
  };
  const secure = await cookieFrom(true);
  expect(secure).toContain('secure');
  expect(secure).toContain('httponly');
  expect(secure).toContain('samesite=strict');
  expect(await cookieFrom(false)).not.toContain('secure');
});
