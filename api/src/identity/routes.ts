import { Router } from 'express';
import type { IdentityDeps } from './deps';
import { loginRoutes } from './login';
import { meRoutes } from './me';
import { passwordRoutes } from './password-routes';
import { sessionRoutes } from './session-routes';

/**
 * Sign-in, sessions and passwords (issue 5). Each concern is its own module:
 * - login.ts: captcha challenge, password check, login OTP (verify, resend);
 * - session-routes.ts: refresh (rotation, reuse detection) and logout; sessions.ts: the session store;
 * - password-routes.ts: forgot / reset / change password; passwords.ts: the new-password rule;
 * - me.ts: GET /api/me and the active company code.
 */
export type { IdentityDeps } from './deps';
export { identityMessages } from './login';

export function identityRoutes(deps: IdentityDeps): Router {
  const router = Router();
  router.use(loginRoutes(deps));
  router.use(sessionRoutes(deps));
  router.use(passwordRoutes(deps));
  router.use(meRoutes(deps));
  return router;
}
