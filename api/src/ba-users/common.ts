import type { Request, Response } from 'express';
import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { findUserById, type UserRecord } from '../../../projections/src/identity/users.queries';
import type { AccountDeps } from '../users/accounts';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { HttpError, messages } from '../http/problem';
import { idParam, parseBody, reason } from '../users/fields';

/**
 * What the BA Admin's two user screens share (BA users, child Bill-Hub users): the caller is a BA Admin of
 * the portal acting on users of its own BA only; anyone else's user is answered 404, as if it did not exist.
 */
export const baAdminOnly = () => requireAuth({ roles: ['BA Admin'], app: 'portal' });

export type BaCaller = { principal: Principal; baId: string; actor: Actor };

export function baCaller(res: Response): BaCaller {
  const principal = principalOf(res);
  // A BA Admin token always carries its BA; without one there is nothing this caller may manage.
  if (!principal.baId) throw new HttpError(403, messages.forbidden);
  return { principal, baId: principal.baId, actor: { userId: principal.userId, role: 'BA Admin', name: principal.name } };
}

export const baUserMessages = {
  notFound: 'User not found',
  adminAccount: "The BA Admin's own account cannot be changed here",
} as const;

/** A user of the caller's BA that `belongs` accepts (a BA user, or a Bill-Hub user), else 404. */
export async function ownUser(
  deps: AccountDeps,
  req: Request,
  caller: BaCaller,
  belongs: (u: UserRecord) => boolean,
): Promise<UserRecord> {
  const id = idParam.safeParse(req.params['id']);
  const user = id.success ? await findUserById(deps.pool, id.data) : null;
  if (!user || user.kind !== 'ba' || user.baId !== caller.baId || !belongs(user))
    throw new DomainError('not_found', baUserMessages.notFound);
  return user;
}

export const displayStatus = (u: UserRecord): 'Active' | 'Blocked' => (u.status === 'blocked' ? 'Blocked' : 'Active');

/**
 * The spec's block call sends a status: "blocked" as 0, anything else as 1 (spec 000 §4 "Block status").
 * The verb routes accept that status (it must agree with the verb) or no body at all; the reason is optional
 * here because the BA's screen has no field for it.
 */
const statusValue = z.preprocess(
  (v) => (v === '0' || v === '1' ? Number(v) : v),
  z.union([z.literal(0), z.literal(1)], { error: 'Status must be 0 (blocked) or 1 (active)' }),
);
const blockBody = z.object({ status: statusValue.optional(), reason }).passthrough();

export function blockReason(body: unknown, verb: 'block' | 'unblock'): string {
  const parsed = parseBody(blockBody, body);
  const expected = verb === 'block' ? 0 : 1;
  if (parsed.status !== undefined && parsed.status !== expected) {
    const message = `Status must be ${expected} on ${verb}`;
    throw new DomainError('validation', message, { status: message });
  }
  const given = parsed.reason?.trim();
  return given ? given : verb === 'block' ? 'Blocked by the BA Admin' : 'Unblocked by the BA Admin';
}
