import type { Pool, PoolClient } from 'pg';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { AppAccess } from '../../../domain/src/identity/applications';
import { userIdForUsername, type RegisterUser, type UpdateUser } from '../../../domain/src/identity/users';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { enqueueMessages } from '../../../platform/src/notifications/outbox';
import {
  findUserById,
  findUserByUsername,
  findUsersByMobile,
  type UserRecord,
} from '../../../projections/src/identity/users.queries';
import { revokeUserSessions } from '../identity/sessions';
import { createOneTimeToken } from '../identity/store/one-time-tokens';
import { runUserCommand } from '../identity/user-commands';

/**
 * What the three user screens (staff users, BA users, child Bill-Hub users) share: creating an account for
 * someone else (unique e-mail and mobile, an unusable password, an invitation link to choose one) and
 * blocking or unblocking it (a block also ends the user's sessions and tells them by e-mail).
 */
export type AccountDeps = {
  pool: Pool;
  store: EventStore;
  publicUrl: string;
  projectionWaitMs?: number;
  /** Called after a block or unblock, so this process's cached status of the user is not used again. */
  statusChanged?: (userId: string) => void;
};

/** The status lookup behind requireAuth's refusal of blocked users' tokens (createBlockedCheck). */
export const isUserBlocked =
  (db: Pool) =>
  async (userId: string): Promise<boolean> => {
    const { rows } = await db.query<{ status: string }>('SELECT status FROM users WHERE id = $1', [userId]);
    return rows[0]?.status === 'blocked';
  };

/** How long an invitation link stays valid; the e-mail says so. */
export const INVITATION_HOURS = 72;

export const accountMessages = {
  contactInUse: 'This e-mail id or mobile number is already in use',
  cannotBlockSelf: 'You cannot block yourself',
  invalid: 'Please correct the highlighted fields',
} as const;

const inUse = () => new DomainError('conflict', accountMessages.contactInUse);

/**
 * Serialises the check-then-register of concurrent requests on the same keys (a mobile number, a Bill-Hub
 * state of a BA): the e-mail is unique by construction (one stream per address), the rest only by this
 * check. Transaction-scoped advisory locks, taken in sorted order so two requests never deadlock; held
 * until the user is in the read model (runUserCommand waits for it), so the next check sees them.
 */
export async function withLocks<T>(pool: Pool, keys: readonly string[], fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const key of [...new Set(keys)].sort())
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** 409 when another user already signs in with this e-mail id or holds this mobile number. */
export async function assertContactFree(
  db: Pool | PoolClient,
  contact: { emailId?: string; mobileNo?: string | null },
  exceptUserId?: string,
): Promise<void> {
  if (contact.emailId !== undefined) {
    const byEmail = await findUserByUsername(db, contact.emailId);
    if (byEmail && byEmail.id !== exceptUserId) throw inUse();
  }
  if (contact.mobileNo) {
    const byMobile = await findUsersByMobile(db, contact.mobileNo);
    if (byMobile.some((u) => u.id !== exceptUserId)) throw inUse();
  }
}

export const mobileLock = (mobileNo: string): string => `user-mobile:${mobileNo}`;

export type NewAccount = {
  name: string;
  emailId: string;
  mobileNo: string;
  applications: readonly AppAccess[];
  companyCodes: readonly string[];
  baId: string | null;
  department: string | null;
  billHubStateId?: number | null;
};

/**
 * Registers an account someone else creates: it has no password at all (no credential: sign-in compares
 * against the decoy hash and fails, so it cannot be signed in to until the invitation link is used), the
 * first sign-in must choose a password anyway, and the invitation e-mail carries a single-use link (72 h) to
 * the set-password page, which is the reset page: it shows the link's purpose.
 *
 * `extraCheck` runs under the same locks before the registration (e.g. one Bill-Hub user per state).
 */
export async function registerInvitedAccount(
  deps: AccountDeps,
  account: NewAccount,
  actor: Actor,
  options: { lockKeys?: readonly string[]; extraCheck?: (client: PoolClient) => Promise<void> } = {},
): Promise<UserRecord> {
  const emailId = account.emailId.trim().toLowerCase();
  const userId = userIdForUsername(emailId);
  return withLocks(deps.pool, [mobileLock(account.mobileNo), ...(options.lockKeys ?? [])], async (client) => {
    await assertContactFree(client, { emailId, mobileNo: account.mobileNo });
    await options.extraCheck?.(client);
    const command: RegisterUser = {
      type: 'RegisterUser',
      userId,
      username: emailId,
      name: account.name,
      credentialId: null,
      roles: [],
      companyCodes: account.companyCodes,
      baId: account.baId,
      mobileNo: account.mobileNo,
      department: account.department,
      applications: account.applications,
      mustChangePassword: true,
      ...(account.billHubStateId ? { billHubStateId: account.billHubStateId } : {}),
    };
    try {
      await runUserCommand(deps, userId, command, { actor, companyCode: account.companyCodes[0] ?? null });
    } catch (err) {
      // The stream exists: the address was someone's before (a contact change moved them away from it).
      if (err instanceof DomainError && err.code === 'conflict') throw inUse();
      throw err;
    }
    // The read model normally shows the user by now; if the projector is slow, answer from the command.
    const user = (await findUserById(client, userId)) ?? pendingRecord(command);
    const token = await createOneTimeToken(client, 'invitation', userId, INVITATION_HOURS * 3_600_000);
    await enqueueMessages(client, [
      {
        channel: 'email',
        to: emailId,
        template: 'invitation',
        params: { name: user.name, link: `${deps.publicUrl.replace(/\/$/, '')}/reset-password/${token}`, hours: String(INVITATION_HOURS) },
      },
    ]);
    return user;
  });
}

/** The account as it will appear in the read model, for an answer that cannot wait for the projector. */
function pendingRecord(c: RegisterUser): UserRecord {
  const now = new Date().toISOString();
  const applications = [...(c.applications ?? [])] as AppAccess[];
  const roles = [...new Set(applications.map((a) => a.roleName))];
  return {
    id: c.userId,
    username: c.username,
    name: c.name.trim(),
    credentialId: null,
    credentialHistory: [],
    passwordChangedAt: now,
    mustChangePassword: true,
    mobileNo: c.mobileNo ?? null,
    department: c.department ?? null,
    kind: c.baId ? 'ba' : 'staff',
    status: 'active',
    roles,
    applications,
    companyCodes: [...new Set(c.companyCodes)],
    baId: c.baId,
    billHubStateId: c.billHubStateId ?? null,
    createdAt: now,
    version: 0,
  };
}

/** Blocks the user, ends every session they have (refresh tokens) and tells them by e-mail. */
export async function blockAccount(deps: AccountDeps, user: UserRecord, reason: string, actor: Actor): Promise<UserRecord> {
  if (user.id === actor.userId) throw new DomainError('rule', accountMessages.cannotBlockSelf);
  await runUserCommand(deps, user.id, { type: 'BlockUser', reason }, { actor, companyCode: user.companyCodes[0] ?? null });
  deps.statusChanged?.(user.id);
  await withLocks(deps.pool, [], async (client) => {
    await revokeUserSessions(client, user.id);
    await enqueueMessages(client, [{ channel: 'email', to: user.username, template: 'user-blocked', params: { name: user.name } }]);
  });
  return (await findUserById(deps.pool, user.id)) ?? { ...user, status: 'blocked' };
}

/** UpdateUser; a new mobile number is checked, under its lock, to be nobody else's. */
export async function updateAccount(deps: AccountDeps, user: UserRecord, command: UpdateUser, actor: Actor): Promise<UserRecord> {
  const run = () => runUserCommand(deps, user.id, command, { actor, companyCode: command.companyCodes[0] ?? null });
  const mobile = command.mobileNo;
  if (mobile && mobile !== user.mobileNo)
    await withLocks(deps.pool, [mobileLock(mobile)], async (client) => {
      await assertContactFree(client, { mobileNo: mobile }, user.id);
      await run();
    });
  else await run();
  return (await findUserById(deps.pool, user.id)) ?? user;
}

export async function unblockAccount(deps: AccountDeps, user: UserRecord, reason: string, actor: Actor): Promise<UserRecord> {
  await runUserCommand(deps, user.id, { type: 'UnblockUser', reason }, { actor, companyCode: user.companyCodes[0] ?? null });
  deps.statusChanged?.(user.id);
  return (await findUserById(deps.pool, user.id)) ?? { ...user, status: 'active' };
}
