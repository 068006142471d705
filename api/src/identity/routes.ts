import { Router, type Request, type Response } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors, messages as fieldMessages } from '../../../domain/src/validation/fields';
import { findUserById, findUserByUsername, type UserRecord } from '../../../projections/src/identity/users.queries';
import type { Me, SessionResponse } from '../contract';
import {
  applicationFor,
  clearRefreshCookie,
  principalOf,
  readCookie,
  refreshCookieName,
  requireAuth,
  setRefreshCookie,
  type Application,
  type Auth,
} from '../http/auth';
import { HttpError, messages } from '../http/problem';
import type { RateLimiter } from '../http/rate-limit';
import { decoyHash, verifyPassword } from './password';

export const identityMessages = {
  badCredentials: 'Invalid username or password',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a minute and try again',
} as const;

/** What the API tells a client about a user: never the password hash. */
export const toMe = (u: UserRecord): Me => ({
  id: u.id,
  username: u.username,
  name: u.name,
  roles: u.roles,
  companyCodes: u.companyCodes,
  baId: u.baId,
  application: applicationFor(u.roles),
});

// Sign-in fields only need to be present (spec 000 §5: "Login password: must only be non-empty").
const loginBody = z.object({
  username: z.string({ error: fieldMessages.required }).trim().min(1, { error: fieldMessages.required }).max(260),
  password: z.string({ error: fieldMessages.required }).min(1, { error: fieldMessages.required }).max(1024),
});

export type IdentityDeps = { pool: Pool; auth: Auth; loginLimiter: RateLimiter };

/** Signs the user in: a new access token in the body, a new refresh token in the httpOnly cookie. */
async function sendSession(res: Response, auth: Auth, user: UserRecord): Promise<void> {
  const me = toMe(user);
  const accessToken = await auth.issueAccessToken({
    userId: me.id,
    username: me.username,
    name: me.name,
    roles: user.roles,
    companyCodes: me.companyCodes,
    baId: me.baId,
    app: me.application,
  });
  setRefreshCookie(res, auth, await auth.issueRefreshToken(me.id), me.application);
  res.json({ accessToken, expiresIn: auth.config.accessTokenTtlSeconds, user: me } satisfies SessionResponse);
}

const APPLICATIONS: readonly Application[] = ['console', 'portal'];

/** `?app=console|portal` names the caller's application; without it, whichever refresh cookie is present. */
function appsOf(req: Request): readonly Application[] {
  const app = req.query.app;
  if (app === undefined) return APPLICATIONS;
  if (app === 'console' || app === 'portal') return [app];
  throw new DomainError('validation', 'Unknown application', { app: 'Unknown application' });
}

function refreshCookieOf(req: Request): string | undefined {
  for (const app of appsOf(req)) {
    const token = readCookie(req, refreshCookieName(app));
    if (token) return token;
  }
  return undefined;
}

export function identityRoutes({ pool, auth, loginLimiter }: IdentityDeps): Router {
  const router = Router();

  router.post('/auth/login', async (req: Request, res) => {
    const parsed = loginBody.safeParse(req.body ?? {});
    if (!parsed.success)
      throw new DomainError('validation', 'Please enter your username and password', fieldErrors(parsed.error));
    const { username, password } = parsed.data;
    const limit = loginLimiter.hit(`${username.toLowerCase()}|${req.ip ?? ''}`);
    if (!limit.allowed) {
      const headers = { 'Retry-After': String(limit.retryAfterSeconds) };
      throw new HttpError(429, identityMessages.tooManyAttempts, undefined, headers);
    }

    const user = await findUserByUsername(pool, username);
    // Same work whether or not the user exists, so timing does not reveal who has an account.
    const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !ok) throw new HttpError(401, identityMessages.badCredentials);

    await sendSession(res, auth, user);
  });

  // Rotates the refresh token: the old one is revoked as soon as it has been used.
  router.post('/auth/refresh', async (req, res) => {
    const token = refreshCookieOf(req);
    if (!token) throw new HttpError(401, messages.unauthenticated);
    const claims = await auth.verifyRefreshToken(token);
    const user = await findUserById(pool, claims.sub);
    if (!user) throw new HttpError(401, messages.unauthenticated);
    auth.revokeRefreshToken(claims);
    await sendSession(res, auth, user);
  });

  router.post('/auth/logout', async (req, res) => {
    const token = refreshCookieOf(req);
    if (token) {
      try {
        auth.revokeRefreshToken(await auth.verifyRefreshToken(token));
      } catch {
        // An invalid or expired refresh token needs no revoking: logging out still succeeds.
      }
    }
    for (const app of appsOf(req)) clearRefreshCookie(res, auth, app);
    res.status(204).end();
  });

  router.get('/me', requireAuth(), async (_req, res) => {
    const user = await findUserById(pool, principalOf(res).userId);
    if (!user) throw new HttpError(401, messages.unauthenticated);
    res.json(toMe(user));
  });

  return router;
}
