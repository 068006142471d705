import { createHash, randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';

/**
 * Single-use links sent by e-mail: password reset (30 min) and the invitation of a user someone else created.
 * The link carries 256 random bits; only their sha256 is stored, so the table alone opens no account. A new
 * link of the same purpose replaces the user's earlier unused ones.
 */
export type OneTimePurpose = 'reset' | 'invitation';

type Db = Pool | PoolClient;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
const plausible = (token: string): boolean => /^[A-Za-z0-9_-]{20,100}$/.test(token);

export async function createOneTimeToken(db: Db, purpose: OneTimePurpose, userId: string, ttlMs: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `WITH retired AS (
       UPDATE one_time_tokens SET used_at = now() WHERE user_id = $2 AND purpose = $3 AND used_at IS NULL
     )
     INSERT INTO one_time_tokens (token_hash, purpose, user_id, expires_at)
     VALUES ($1, $3, $2, now() + make_interval(secs => $4::double precision / 1000))`,
    [hashToken(token), userId, purpose, ttlMs],
  );
  return token;
}

/** The user a still-valid link belongs to, without using it up (the page checks the link on load). */
export async function peekOneTimeToken(db: Db, token: string): Promise<{ userId: string; purpose: OneTimePurpose } | null> {
  if (!plausible(token)) return null;
  const { rows } = await db.query<{ user_id: string; purpose: OneTimePurpose }>(
    'SELECT user_id, purpose FROM one_time_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()',
    [hashToken(token)],
  );
  return rows[0] ? { userId: rows[0].user_id, purpose: rows[0].purpose } : null;
}

/** Uses the link up, atomically: of two concurrent submits only one gets the user id. */
export async function consumeOneTimeToken(db: Db, token: string): Promise<{ userId: string; purpose: OneTimePurpose } | null> {
  if (!plausible(token)) return null;
  const { rows } = await db.query<{ user_id: string; purpose: OneTimePurpose }>(
    `UPDATE one_time_tokens SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id, purpose`,
    [hashToken(token)],
  );
  return rows[0] ? { userId: rows[0].user_id, purpose: rows[0].purpose } : null;
}
