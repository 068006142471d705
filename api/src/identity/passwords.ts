import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../domain/src/shared/errors';
import { PASSWORD_HISTORY_LENGTH } from '../../../domain/src/identity/users';
import { fieldErrors, newPasswordWithConfirm } from '../../../domain/src/validation/fields';
import type { UserRecord } from '../../../projections/src/identity/users.queries';
import type { Db } from '../../../projections/src/sql';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './password';
import { credentialHash, credentialHashes, rehashCredential, saveCredential } from './store/credentials';

export const passwordMessages = {
  reused: `You cannot reuse any of your last ${PASSWORD_HISTORY_LENGTH} passwords`,
  wrongOld: 'Old password is incorrect',
  changed: 'Password changed successfully',
} as const;

type Holder = Pick<UserRecord, 'id' | 'credentialId'>;

/**
 * The spec's pattern (spec 000 §5) and the confirmation equal to it ("Confirm Password Not Matching"): answers
 * the new password; throws DomainError 400 with field errors. The top-level message is the first field's, so a
 * client showing only `message` still shows the spec's words.
 */
export function validateNewPassword(body: unknown): string {
  const source = (body ?? {}) as { newPassword?: unknown; confirmPassword?: unknown };
  const parsed = newPasswordWithConfirm.safeParse({ newPassword: source.newPassword, confirmPassword: source.confirmPassword });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    throw new DomainError('validation', Object.values(errors)[0] ?? 'Please correct the highlighted fields', errors);
  }
  return parsed.data.newPassword;
}

/**
 * Hashes the password and stores it as a new credential of the user: answers its id, which the command then
 * carries. Until an event names it, the row is no one's password (store/credentials.ts).
 */
export async function storeNewCredential(db: Db, userId: string, password: string): Promise<string> {
  const credentialId = randomUUID();
  await saveCredential(db, { credentialId, userId, hash: await hashPassword(password) });
  return credentialId;
}

/**
 * The rule for a new password of an existing user (change, reset, invitation, contact change): valid, and none
 * of the last five. Stores it (storeNewCredential) and answers the credential id for the command.
 */
export async function checkNewPassword(db: Db, user: UserRecord, body: unknown): Promise<string> {
  const newPassword = validateNewPassword(body);
  if (await isRecentPassword(db, user, newPassword))
    throw new DomainError('validation', passwordMessages.reused, { newPassword: passwordMessages.reused });
  return storeNewCredential(db, user.id, newPassword);
}

/** One of the current and earlier passwords (at most five, named by the read model) matches. In parallel. */
async function isRecentPassword(db: Db, user: UserRecord, password: string): Promise<boolean> {
  const ids = user.credentialHistory.length > 0 ? user.credentialHistory : user.credentialId ? [user.credentialId] : [];
  const hashes = await credentialHashes(db, user.id, ids);
  const matches = await Promise.all(hashes.map((h) => verifyPassword(password, h)));
  return matches.some(Boolean);
}

/**
 * Whether the password is the user's current one. No user, or none set, costs the same hash (the decoy), so
 * timing does not tell who has an account. A match against a hash of an older, cheaper cost is re-hashed at
 * today's cost under the same credential (it is the same password: no event, the password's age unchanged).
 */
export async function passwordMatches(db: Db, user: Holder | null, password: string): Promise<boolean> {
  const stored = user ? await credentialHash(db, user.id, user.credentialId) : null;
  const ok = await verifyPassword(password, stored ?? (await decoyHash()));
  if (!ok || !stored || !user?.credentialId) return false;
  if (needsRehash(stored)) {
    // Best effort: the sign-in succeeds whether or not the upgrade does (a busy hasher refuses it, say).
    await hashPassword(password)
      .then((stronger) => rehashCredential(db, user.credentialId ?? '', stored, stronger))
      .catch(() => undefined);
  }
  return true;
}
