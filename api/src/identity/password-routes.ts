import { Router } from 'express';
import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors, fields, messages as fieldMessages } from '../../../domain/src/validation/fields';
import { enqueueMessages } from '../../../platform/src/notifications/outbox';
import { findUserById, findUserByUsername, type UserRecord } from '../../../projections/src/identity/users.queries';
import { principalOf, publicRoute, requireAuth } from '../http/auth';
import { HttpError, messages } from '../http/problem';
import { DEFAULT_RESET_TTL_MS, floodKey, invalid, type IdentityDeps } from './deps';
import { clearLoginFailures, identityMessages } from './login';
import { checkNewPassword, passwordMatches, passwordMessages } from './passwords';
import { pruneCredentials } from './store/credentials';
import { revokeUserSessions, startSession } from './sessions';
import { consumeOneTimeToken, createOneTimeToken, peekOneTimeToken } from './store/one-time-tokens';
import { runUserCommand } from './user-commands';

/**
 * Forgotten password (a single-use link by e-mail), setting a password from a reset or invitation link, and
 * changing the password when signed in (also forced on a first login or an expired password). Every change
 * ends the user's other sessions and tells the user by e-mail.
 */
export const resetMessages = {
  sent: 'Password Reset Link sent successfully !.',
  linkInvalid: 'This link is invalid or has expired',
} as const;

const forgotBody = z.object({ email: fields.email });
const tokenParam = z.string().min(1).max(200);
const resetBody = z.object({ token: z.string({ error: fieldMessages.required }).min(1, { error: fieldMessages.required }).max(200) });
const changeBody = z.object({ oldPassword: fields.loginPassword.max(1024) });

const minutesOf = (ms: number): string => String(Math.max(1, Math.round(ms / 60_000)));

export function passwordRoutes(deps: IdentityDeps): Router {
  const { pool, loginLimiter, publicUrl } = deps;
  const resetTtlMs = deps.resetTtlMs ?? DEFAULT_RESET_TTL_MS;
  const router = Router();

  const tooMany = (retryAfterSeconds: number) =>
    new HttpError(429, identityMessages.tooManyAttempts, undefined, { 'Retry-After': String(retryAfterSeconds) });

  const notifyChanged = (user: UserRecord) =>
    enqueueMessages(pool, [{ channel: 'email', to: user.username, template: 'password-changed', params: { name: user.name } }]);

  // Always the same answer, so the form does not reveal who has an account.
  router.post('/auth/forgot-password', publicRoute(), async (req, res) => {
    const parsed = forgotBody.safeParse({ email: typeof req.body?.email === 'string' ? req.body.email.trim() : req.body?.email });
    if (!parsed.success) throw invalid(fieldErrors(parsed.error));
    const email = parsed.data.email.toLowerCase();
    const limit = loginLimiter.hit(floodKey(req, `forgot:${email}`));
    if (!limit.allowed) throw tooMany(limit.retryAfterSeconds);
    const user = await findUserByUsername(pool, email);
    if (user && user.status === 'active') {
      const token = await createOneTimeToken(pool, 'reset', user.id, resetTtlMs);
      await enqueueMessages(pool, [
        {
          channel: 'email',
          to: user.username,
          template: 'password-reset',
          params: { name: user.name, link: `${publicUrl.replace(/\/+$/, '')}/reset-password/${token}`, minutes: minutesOf(resetTtlMs) },
        },
      ]);
    }
    res.json({ message: resetMessages.sent });
  });

  /** The link's user, for the page to check the link on load (spec 000 §4 "Password reset"). */
  async function linkUser(token: unknown): Promise<{ user: UserRecord; purpose: 'reset' | 'invitation' }> {
    const parsed = tokenParam.safeParse(token);
    const link = parsed.success ? await peekOneTimeToken(pool, parsed.data) : null;
    const user = link ? await findUserById(pool, link.userId) : null;
    if (!link || !user || user.status === 'blocked') throw new HttpError(410, resetMessages.linkInvalid);
    return { user, purpose: link.purpose };
  }

  router.get('/auth/reset-tokens/:token', publicRoute(), async (req, res) => {
    const { user, purpose } = await linkUser(req.params['token']);
    res.json({ userId: user.id, username: user.username, purpose });
  });

  router.post('/auth/reset-password', publicRoute(), async (req, res) => {
    const parsed = resetBody.safeParse(req.body ?? {});
    if (!parsed.success) throw new HttpError(410, resetMessages.linkInvalid);
    const { user } = await linkUser(parsed.data.token);
    // Checked (and the new credential stored) before the link is used up, so a typo in the confirmation does
    // not cost the link; a credential whose command never follows is nobody's password.
    const credentialId = await checkNewPassword(pool, user, req.body);
    const link = await consumeOneTimeToken(pool, parsed.data.token);
    if (!link || link.userId !== user.id) throw new HttpError(410, resetMessages.linkInvalid);
    await runUserCommand(
      deps,
      user.id,
      { type: 'ChangePassword', credentialId, reason: link.purpose === 'invitation' ? 'invitation' : 'reset' },
      { actor: { userId: user.id, role: user.roles[0] ?? 'user', name: user.name } },
    );
    await pruneCredentials(pool, user.id);
    await revokeUserSessions(pool, user.id);
    await clearLoginFailures(pool, user.username);
    await notifyChanged(user);
    res.json({ message: passwordMessages.changed });
  });

  router.post('/auth/change-password', requireAuth({ allowPasswordChange: true }), async (req, res) => {
    const principal = principalOf(res);
    const parsed = changeBody.safeParse(req.body ?? {});
    if (!parsed.success) throw invalid(fieldErrors(parsed.error));
    const limit = loginLimiter.hit(floodKey(req, `change:${principal.userId}`));
    if (!limit.allowed) throw tooMany(limit.retryAfterSeconds);
    const user = await findUserById(pool, principal.userId);
    if (!user || user.status === 'blocked') throw new HttpError(401, messages.unauthenticated);
    if (!(await passwordMatches(pool, user, parsed.data.oldPassword)))
      throw new DomainError('validation', passwordMessages.wrongOld, { oldPassword: passwordMessages.wrongOld });
    const credentialId = await checkNewPassword(pool, user, req.body);
    await runUserCommand(
      deps,
      user.id,
      { type: 'ChangePassword', credentialId, reason: 'change' },
      { actor: { userId: user.id, role: principal.roles[0] ?? 'user', name: user.name } },
    );
    await pruneCredentials(pool, user.id);
    // Every session of the user ends (a stolen one included); the caller continues in a fresh one.
    await revokeUserSessions(pool, user.id);
    await notifyChanged(user);
    const changed = await findUserById(pool, user.id);
    if (!changed) throw new HttpError(401, messages.unauthenticated);
    await startSession(res, deps, changed, principal.app, { message: passwordMessages.changed });
  });

  return router;
}
