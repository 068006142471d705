import { Router, type Request } from 'express';
import { DomainError } from '../../../domain/src/shared/errors';
import { findUserById } from '../../../projections/src/identity/users.queries';
import { clearRefreshCookie, publicRoute, readCookie, refreshCookieName, type Application } from '../http/auth';
import { HttpError, messages } from '../http/problem';
import type { IdentityDeps } from './deps';
import { issueSession, revokeRefreshFamilyOf, revokeUserSessions, sendSession, spendRefreshToken } from './sessions';

const APPLICATIONS: readonly Application[] = ['console', 'portal'];

/** `?app=console|portal` names the caller's application; without it, whichever refresh cookie is present. */
function appsOf(req: Request): readonly Application[] {
  const app = req.query.app;
  if (app === undefined) return APPLICATIONS;
  if (app === 'console' || app === 'portal') return [app];
  throw new DomainError('validation', 'Unknown application', { app: 'Unknown application' });
}

function refreshCookieOf(req: Request): { token: string; app: Application } | undefined {
  for (const app of appsOf(req)) {
    const token = readCookie(req, refreshCookieName(app));
    if (token) return { token, app };
  }
  return undefined;
}

/**
 * Refresh and logout work from the cookie alone (the access token lives in page memory and is gone after a
 * reload), so both are public routes; they are also what a 'change-required' session may still call.
 */
export function sessionRoutes(deps: IdentityDeps): Router {
  const { pool, auth } = deps;
  const router = Router();
  const unauthenticated = () => new HttpError(401, messages.unauthenticated);

  // Rotation with reuse detection (see sessions.ts): the presented token is spent, the next one issued in
  // the same family; a spent token presented again revokes the family. A session past SESSION_MAX_AGE ends.
  // Whatever the reason a refresh fails, the cookie it came with is cleared: it will never work again.
  router.post('/auth/refresh', publicRoute(), async (req, res) => {
    const presented = refreshCookieOf(req);
    if (!presented) throw unauthenticated();
    const ended = () => {
      clearRefreshCookie(res, auth, presented.app);
      return unauthenticated();
    };
    const claims = await auth.verifyRefreshToken(presented.token).catch((err: unknown) => {
      throw err instanceof HttpError ? ended() : err;
    });
    const rotation = await spendRefreshToken(pool, claims.jti, deps.sessionMaxAgeSeconds);
    if (!rotation.ok || rotation.userId !== claims.sub) throw ended();
    const user = await findUserById(pool, rotation.userId);
    if (!user) throw ended();
    if (user.status === 'blocked') {
      await revokeUserSessions(pool, user.id);
      throw ended();
    }
    sendSession(res, deps, await issueSession(deps, user, { familyId: rotation.familyId, app: rotation.app }));
  });

  router.post('/auth/logout', publicRoute(), async (req, res) => {
    const presented = refreshCookieOf(req);
    if (presented) {
      try {
        await revokeRefreshFamilyOf(pool, (await auth.verifyRefreshToken(presented.token)).jti);
      } catch (err) {
        // An invalid or expired refresh token needs no revoking: logging out still succeeds.
        if (!(err instanceof HttpError)) throw err;
      }
    }
    for (const app of appsOf(req)) clearRefreshCookie(res, auth, app);
    res.status(204).end();
  });

  return router;
}
