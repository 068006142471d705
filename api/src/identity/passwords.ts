import { DomainError } from '../../../domain/src/shared/errors';
import { PASSWORD_HISTORY_LENGTH } from '../../../domain/src/identity/users';
import { fieldErrors, newPasswordWithConfirm } from '../../../domain/src/validation/fields';
import type { UserRecord } from '../../../projections/src/identity/users.queries';
import { hashPassword, verifyPassword } from './password';

export const passwordMessages = {
  reused: `You cannot reuse any of your last ${PASSWORD_HISTORY_LENGTH} passwords`,
  wrongOld: 'Old password is incorrect',
  changed: 'Password changed successfully',
} as const;

/**
 * The rule for every new password (change, reset, invitation, registration, contact change): the spec's
 * pattern (spec 000 §5), the confirmation equal to it ("Confirm Password Not Matching"), and for an existing
 * user none of the last five. Answers the hash to store; throws DomainError 400 with field errors. The
 * top-level message is the first field's, so a client showing only `message` still shows the spec's words.
 */
export async function checkNewPassword(user: UserRecord | null, body: unknown): Promise<string> {
  const source = (body ?? {}) as { newPassword?: unknown; confirmPassword?: unknown };
  const parsed = newPasswordWithConfirm.safeParse({ newPassword: source.newPassword, confirmPassword: source.confirmPassword });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    throw new DomainError('validation', Object.values(errors)[0] ?? 'Please correct the highlighted fields', errors);
  }
  const { newPassword } = parsed.data;
  if (user && (await isRecentPassword(user, newPassword)))
    throw new DomainError('validation', passwordMessages.reused, { newPassword: passwordMessages.reused });
  return hashPassword(newPassword);
}

/** One of the current and earlier hashes (newest first, at most five) matches. Checked in parallel. */
async function isRecentPassword(user: UserRecord, password: string): Promise<boolean> {
  const history = user.passwordHistory.length > 0 ? user.passwordHistory : [user.passwordHash];
  const matches = await Promise.all(history.slice(0, PASSWORD_HISTORY_LENGTH).map((h) => verifyPassword(password, h)));
  return matches.some(Boolean);
}
