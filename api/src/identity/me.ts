import { Router } from 'express';
import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import { findUserById } from '../../../projections/src/identity/users.queries';
import { ALL_COMPANIES, type SessionResponse } from '../contract';
import { principalOf, requireAuth } from '../http/auth';
import { HttpError, messages } from '../http/problem';
import type { IdentityDeps } from './deps';
import { buildMe, principalFor, setActiveCompany } from './sessions';

export const meMessages = {
  unknownCompany: 'Please choose All or one of your company codes',
} as const;

const activeCompanyBody = z.object({ companyCode: z.string().trim().min(1).max(10) });

/** The signed-in user (post-login routing reads `home`), and the company code they work in. */
export function meRoutes(deps: IdentityDeps): Router {
  const { pool, auth } = deps;
  const router = Router();

  const currentUser = async (userId: string) => {
    const user = await findUserById(pool, userId);
    if (!user || user.status === 'blocked') throw new HttpError(401, messages.unauthenticated);
    return user;
  };

  router.get('/me', requireAuth({ allowPasswordChange: true }), async (_req, res) => {
    res.json(await buildMe(deps, await currentUser(principalOf(res).userId)));
  });

  // Spec 000 §6: "Users can switch active company code; company codes narrow BA list queries". The choice is
  // kept (user_settings) and carried in a new access token; the refresh cookie stays as it is (a refresh
  // reads the stored choice).
  router.put('/me/active-company', requireAuth(), async (req, res) => {
    const user = await currentUser(principalOf(res).userId);
    const parsed = activeCompanyBody.safeParse(req.body ?? {});
    const code = parsed.success ? parsed.data.companyCode : '';
    const chosen = code.toLowerCase() === ALL_COMPANIES.toLowerCase() ? ALL_COMPANIES : code;
    if (chosen !== ALL_COMPANIES && !user.companyCodes.includes(chosen))
      throw new DomainError('validation', meMessages.unknownCompany, { companyCode: meMessages.unknownCompany });
    await setActiveCompany(pool, user.id, chosen);
    const me = await buildMe(deps, user);
    const accessToken = await auth.issueAccessToken(principalFor(me));
    res.json({ accessToken, expiresIn: auth.config.accessTokenTtlSeconds, user: me } satisfies SessionResponse);
  });

  return router;
}
