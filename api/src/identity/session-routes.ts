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

function refreshCookieOf(req: Request): string | undefined {
  for (const app of appsOf(req)) {
    const token = readCookie(req, refreshCookieName(app));
    if (token) return token;
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
  // the same family; a spent token presented again revokes the family.
  router.post('/auth/refresh', publicRoute(), async (req, res) => {
    const token = refreshCookieOf(req);
    if (!token) throw unauthenticated();
    const claims = await auth.verifyRefreshToken(token);
    const rotation = await spendRefreshToken(pool, claims.jti);
    if (!rotation.ok || rotation.userId !== claims.sub) throw unauthenticated();
    const user = await findUserById(pool, rotation.userId);
    if (!user) throw unauthenticated();
    if (user.status === 'blocked') {
      await revokeUserSessions(pool, user.id);
      throw unauthenticated();
    }
    sendSession(res, deps, await issueSession(deps, user, { familyId: rotation.familyId, app: rotation.app }));
  });

  router.post('/auth/logout', publicRoute(), async (req, res) => {
    const token = refreshCookieOf(req);
    if (token) {
      try {
        await revokeRefreshFamilyOf(pool, (await auth.verifyRefreshToken(token)).jti);
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
