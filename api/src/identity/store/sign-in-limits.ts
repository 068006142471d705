import type { Pool, PoolClient } from 'pg';

/**
 * Sign-in attempts per client address and overall, counted in PostgreSQL (`sign_in_attempts`) so every api
 * process counts the same. Fixed one-minute windows: one upsert per attempt, a row per scope and window.
 * The per-username count (captcha after 3 failures) is `login_failures`; the in-memory flood guard (per
 * username and address) stays in front of both as the cheapest check.
 *
 * Per address: a person mistyping does not come near 30 a minute; one machine guessing across many usernames
 * does (and an office behind one NAT address has room). Overall: about what one api process can hash in a
 * minute at the OWASP cost (2 at a time, ~0.4 s each), so a flood from many addresses is refused before it
 * reaches the hasher. Both are configurable (AppDeps.signInLimits) for tests and other deployments.
 */
export type SignInLimits = { perAddress: number; overall: number; windowSeconds: number };
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAddress: 30, overall: 300, windowSeconds: 60 };

export type SignInAdmission = { allowed: true } | { allowed: false; scope: 'address' | 'overall'; retryAfterSeconds: number };

type Db = Pick<Pool | PoolClient, 'query'>;

/** Windows older than this are deleted (opportunistically, when a new overall window opens). */
const KEEP_WINDOWS = 2;

/** Counts one attempt from `address` (and one overall); answers whether it is within both limits. */
export async function admitSignIn(db: Db, address: string, limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS): Promise<SignInAdmission> {
  const window = Math.max(1, Math.round(limits.windowSeconds));
  // The two rows in one statement, always in the same order (address, then overall), so concurrent attempts
  // lock them in the same order.
  const { rows } = await db.query<{ scope: string; attempts: number; remaining: number }>(
    `WITH w AS (SELECT to_timestamp(floor(extract(epoch FROM now()) / $2::int) * $2::int) AS start)
     INSERT INTO sign_in_attempts (scope, window_start, attempts)
     SELECT s.scope, w.start, 1 FROM w, unnest($1::text[]) WITH ORDINALITY AS s(scope, n) ORDER BY s.n
     ON CONFLICT (scope, window_start) DO UPDATE SET attempts = sign_in_attempts.attempts + 1
     RETURNING scope, attempts, extract(epoch FROM window_start + make_interval(secs => $2::int) - now())::float8 AS remaining`,
    [[`address:${address}`, 'overall'], window],
  );
  const overall = rows.find((r) => r.scope === 'overall');
  if (overall?.attempts === 1) await pruneSignInAttempts(db, window);
  const retryAfter = (r: { remaining: number }) => Math.max(1, Math.ceil(r.remaining));
  const byAddress = rows.find((r) => r.scope !== 'overall');
  if (byAddress && byAddress.attempts > limits.perAddress) return { allowed: false, scope: 'address', retryAfterSeconds: retryAfter(byAddress) };
  if (overall && overall.attempts > limits.overall) return { allowed: false, scope: 'overall', retryAfterSeconds: retryAfter(overall) };
  return { allowed: true };
}

export async function pruneSignInAttempts(db: Db, windowSeconds: number): Promise<void> {
  await db.query('DELETE FROM sign_in_attempts WHERE window_start < now() - make_interval(secs => $1)', [windowSeconds * KEEP_WINDOWS]);
}
