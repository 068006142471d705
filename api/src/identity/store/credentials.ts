import type { Pool, PoolClient } from 'pg';
import { PASSWORD_HISTORY_LENGTH } from '../../../../domain/src/identity/users';

/**
 * The `credentials` table: one row per password a user has set (its scrypt hash), named by a credential id
 * that the user's events carry instead of the hash. Order of writes: the row first (idempotent on its id),
 * then the event that names it. Which row is the password is decided by the events alone (the users read
 * model's `credential_id`), never by "the newest row": a row whose event was never appended (a crash, a
 * refused command, a registration that lost the race for its e-mail id) stays an orphan that nothing reads.
 */
type Db = Pick<Pool | PoolClient, 'query'>;

/** How long a row no event names yet is kept: its command may still be on its way (a workflow update). */
export const UNNAMED_CREDENTIAL_GRACE_SECONDS = 3600;

export async function saveCredential(db: Db, row: { credentialId: string; userId: string; hash: string }): Promise<void> {
  await db.query(
    'INSERT INTO credentials (credential_id, user_id, hash) VALUES ($1, $2, $3) ON CONFLICT (credential_id) DO NOTHING',
    [row.credentialId, row.userId, row.hash],
  );
}

/** The hash of the credential the user's events name, or null (no password set, or the row was erased). */
export async function credentialHash(db: Db, userId: string, credentialId: string | null): Promise<string | null> {
  if (!credentialId) return null;
  const { rows } = await db.query<{ hash: string }>('SELECT hash FROM credentials WHERE credential_id = $1 AND user_id = $2', [
    credentialId,
    userId,
  ]);
  return rows[0]?.hash ?? null;
}

/** The hashes of these credentials of the user (the reuse rule's last five). */
export async function credentialHashes(db: Db, userId: string, credentialIds: readonly string[]): Promise<string[]> {
  if (credentialIds.length === 0) return [];
  const { rows } = await db.query<{ hash: string }>(
    'SELECT hash FROM credentials WHERE user_id = $1 AND credential_id = ANY($2::text[])',
    [userId, credentialIds.slice(0, PASSWORD_HISTORY_LENGTH)],
  );
  return rows.map((r) => r.hash);
}

/** Replaces a hash by a stronger one of the same password (same credential), unless it changed meanwhile. */
export async function rehashCredential(db: Db, credentialId: string, oldHash: string, newHash: string): Promise<void> {
  await db.query('UPDATE credentials SET hash = $3 WHERE credential_id = $1 AND hash = $2', [credentialId, oldHash, newHash]);
}

/**
 * Erases the user's hashes that no longer count: every row the read model's last five do not name, once it is
 * older than the grace (a younger one may belong to a command still on its way). Called after each password
 * change, so a user keeps at most five rows plus the ones written in the last hour.
 */
export async function pruneCredentials(db: Db, userId: string): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM credentials
      WHERE user_id = $1
        AND created_at < now() - make_interval(secs => ${UNNAMED_CREDENTIAL_GRACE_SECONDS})
        AND NOT (credential_id = ANY(coalesce((SELECT credential_history FROM users WHERE id = $1), '{}'::text[])))`,
    [userId],
  );
  return rowCount ?? 0;
}

/** Every hash of the user gone (erasure): the account can then only get a password through a reset link. */
export async function eraseCredentials(db: Db, userId: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM credentials WHERE user_id = $1', [userId]);
  return rowCount ?? 0;
}
