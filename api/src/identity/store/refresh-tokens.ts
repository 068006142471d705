import type { Pool, PoolClient } from 'pg';

/**
 * The refresh-token writes a durable workflow activity needs too (contact change), kept free of Express and
 * the session plumbing so the worker process can load it. sessions.ts re-exports it for the API.
 */
type Db = Pick<Pool | PoolClient, 'query'>;

/** Every refresh token of the user stops working; their next refresh answers 401. Idempotent. */
export async function revokeUserSessions(db: Db, userId: string): Promise<void> {
  await db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
}
