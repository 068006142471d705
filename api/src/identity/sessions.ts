import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type { Pool } from 'pg';
import { isBillHubOnly } from '../../../domain/src/identity/applications';
import { getBusinessAssociate } from '../../../projections/src/business-associates/business-associates.queries';
import type { UserRecord } from '../../../projections/src/identity/users.queries';
import type { Db } from '../../../projections/src/sql';
import { ALL_COMPANIES, type Me, type SessionResponse } from '../contract';
import {
  applicationFor,
  setRefreshCookie,
  type Application,
  type Auth,
  type PasswordState,
  type Principal,
} from '../http/auth';

/**
 * Sessions: a short-lived access token in the body and a refresh token in an httpOnly cookie. The refresh
 * tokens live in PostgreSQL (`refresh_tokens`), so every api process agrees on which are still live:
 *
 * - a sign-in starts a new family; each refresh marks its token used and issues the next one in the same
 *   family (rotation);
 * - a used token presented again means it was copied: the whole family is revoked (reuse detection), so the
 *   thief and the victim are both signed out and the victim signs in again;
 * - logout revokes the presented token; `revokeUserSessions` revokes every token of a user (password change
 *   or reset, block, contact change);
 * - a family lives at most SESSION_MAX_AGE from its sign-in (`family_started_at`), however often it refreshes;
 * - rows past their expiry are deleted when a new session starts, a bounded batch at a time, so the table holds
 *   about the live sessions and does not grow with age.
 *
 * Access tokens are not looked up per request (that is what keeps reads cheap): a revoked session's access
 * token stays valid until it expires (ACCESS_TOKEN_TTL, 15 min).
 */

/** PASSWORD_MAX_AGE default: a password older than this must be changed before anything else. */
export const DEFAULT_PASSWORD_MAX_AGE_MS = 90 * 86_400_000;

/** SESSION_MAX_AGE default (platform config): 12 hours from the sign-in, whatever the refreshes. */
export const DEFAULT_SESSION_MAX_AGE_SECONDS = 12 * 3600;

/** Expired refresh-token rows deleted per new sign-in: enough to keep up, small enough to cost nothing. */
export const REFRESH_PRUNE_BATCH = 500;

export type SessionDeps = {
  pool: Pool;
  auth: Auth;
  /** PASSWORD_MAX_AGE in ms (default 90 days). */
  passwordMaxAgeMs?: number;
  /** SESSION_MAX_AGE in seconds (default 12 h). */
  sessionMaxAgeSeconds?: number;
};

// SQL only, in the store: the contact-change workflow's activity revokes sessions from the worker process.
export { revokeUserSessions } from './store/refresh-tokens';

/** Ends one session (logout): the token and the rest of its family, so an older copy cannot revive it. */
export async function revokeRefreshFamilyOf(db: Db, jti: string): Promise<void> {
  await db.query(
    `UPDATE refresh_tokens SET revoked_at = now()
      WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE jti = $1) AND revoked_at IS NULL`,
    [jti],
  );
}

export type Rotation =
  | { ok: true; userId: string; familyId: string; app: Application }
  /**
   * 'reused': the token had been used already, its family is now revoked. 'session_expired': the family is
   * older than SESSION_MAX_AGE (its tokens stay as they are; they cannot be used any more anyway).
   */
  | { ok: false; reason: 'unknown' | 'revoked' | 'expired' | 'reused' | 'session_expired' };

/** How long after its first use a refresh token still rotates instead of counting as stolen and reused. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** When a token's session began (rows written before family_started_at existed: their own creation). */
const FAMILY_START = 'coalesce(family_started_at, created_at)';

/**
 * Spends a refresh token, atomically: of two concurrent refreshes with the same token one rotates, the other
 * is a reuse (or, within the grace, the same session's second tab). A reuse revokes the family in the same
 * statement sequence, before the answer goes out. A session older than SESSION_MAX_AGE is refused.
 */

export async function spendRefreshToken(
  db: Db,
  jti: string,
  sessionMaxAgeSeconds = DEFAULT_SESSION_MAX_AGE_SECONDS,
): Promise<Rotation> {
  const maxAge = Math.max(1, Math.round(sessionMaxAgeSeconds));
  const spent = await db.query<{ user_id: string; family_id: string; app: Application }>(
    `UPDATE refresh_tokens SET used_at = now()
      WHERE jti = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        AND ${FAMILY_START} > now() - make_interval(secs => $2::int)
      RETURNING user_id, family_id, app`,
    [jti, maxAge],
  );
  const row = spent.rows[0];
  if (row) return { ok: true, userId: row.user_id, familyId: row.family_id, app: row.app };
  const { rows } = await db.query<{
    user_id: string;
    family_id: string;
    app: Application;
    used: boolean;
    revoked: boolean;
    within_grace: boolean;
    session_over: boolean;
  }>(
    `SELECT user_id, family_id, app, used_at IS NOT NULL AS used,
            revoked_at IS NOT NULL AS revoked,
            used_at > now() - make_interval(secs => ${REFRESH_REUSE_GRACE_SECONDS}) AND expires_at > now() AS within_grace,
            ${FAMILY_START} <= now() - make_interval(secs => $2::int) AS session_over
       FROM refresh_tokens WHERE jti = $1`,
    [jti, maxAge],
  );
  const found = rows[0];
  if (!found) return { ok: false, reason: 'unknown' };
  if (found.revoked) return { ok: false, reason: 'revoked' };
  if (found.session_over) return { ok: false, reason: 'session_expired' };
  // Two tabs of one browser restore their session at the same moment with the same cookie: the slower one
  // is not a thief. Within a few seconds of the first use it gets a token of the same family too.
  if (found.used && found.within_grace)
    return { ok: true, userId: found.user_id, familyId: found.family_id, app: found.app };
  if (found.used) {
    await db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [found.family_id]);
    return { ok: false, reason: 'reused' };
  }
  return { ok: false, reason: 'expired' };
}

/**
 * Deletes a batch of refresh-token rows past their expiry: they can never be used again. A spent token must
 * stay until then (presented again, it reveals a copy), so nothing younger goes; a session past
 * SESSION_MAX_AGE is refused by the check in spendRefreshToken and its rows go when they expire (by
 * REFRESH_TOKEN_TTL). Called on every new sign-in; answers how many went.
 */
export async function pruneRefreshTokens(db: Db, batch = REFRESH_PRUNE_BATCH): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM refresh_tokens WHERE jti IN (SELECT jti FROM refresh_tokens WHERE expires_at <= now() LIMIT $1)',
    [batch],
  );
  return rowCount ?? 0;
}

/** The company code a user works in: the stored choice while it is still one of theirs, else 'All'. */
export async function activeCompanyOf(db: Db, user: UserRecord): Promise<string> {
  const { rows } = await db.query<{ active_company_code: string }>(
    'SELECT active_company_code FROM user_settings WHERE user_id = $1',
    [user.id],
  );
  const stored = rows[0]?.active_company_code;
  return stored && user.companyCodes.includes(stored) ? stored : ALL_COMPANIES;
}

export async function setActiveCompany(db: Db, userId: string, companyCode: string): Promise<void> {
  await db.query(
    `INSERT INTO user_settings (user_id, active_company_code) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET active_company_code = EXCLUDED.active_company_code`,
    [userId, companyCode],
  );
}

/** Older than PASSWORD_MAX_AGE, counted from the last change (or the account's creation). */
export function isPasswordExpired(user: UserRecord, maxAgeMs = DEFAULT_PASSWORD_MAX_AGE_MS, now = Date.now()): boolean {
  const since = Date.parse(user.passwordChangedAt ?? user.createdAt);
  return Number.isFinite(since) && now - since > maxAgeMs;
}

export function passwordStateOf(user: UserRecord, maxAgeMs?: number): PasswordState {
  return user.mustChangePassword || isPasswordExpired(user, maxAgeMs) ? 'change-required' : 'ok';
}

/** Post-login routing (spec 000 §2). */
export function homeOf(me: Pick<Me, 'firstLogin' | 'passwordExpired' | 'application' | 'applications' | 'baStatus'>): string {
  if (me.firstLogin || me.passwordExpired) return '/change-password';
  if (me.application === 'console') return '/console';
  if (isBillHubOnly(me.applications)) return '/bill-hub';
  if (me.baStatus === 'verified') return '/home';
  return '/onboard/status';
}

/** What the API tells a client about a user (never a password hash). */
export async function buildMe(deps: SessionDeps, user: UserRecord): Promise<Me> {
  const application = applicationFor(user.roles);
  const [activeCompanyCode, ba] = await Promise.all([
    activeCompanyOf(deps.pool, user),
    user.kind === 'ba' && user.baId ? getBusinessAssociate(deps.pool, user.baId) : Promise.resolve(null),
  ]);
  const firstLogin = user.mustChangePassword;
  const passwordExpired = isPasswordExpired(user, deps.passwordMaxAgeMs);
  const me: Omit<Me, 'home'> = {
    id: user.id,
    username: user.username,
    name: user.name,
    emailId: user.username,
    mobileNo: user.mobileNo,
    roles: user.roles,
    applications: user.applications,
    companyCodes: user.companyCodes,
    activeCompanyCode,
    baId: user.baId,
    baStatus: user.kind === 'ba' ? (ba?.status ?? null) : null,
    application,
    firstLogin,
    passwordExpired,
    status: user.status,
  };
  return { ...me, home: homeOf(me) };
}

export const principalFor = (me: Me): Principal => ({
  userId: me.id,
  username: me.username,
  name: me.name,
  roles: me.roles as Principal['roles'],
  companyCodes: me.companyCodes,
  baId: me.baId,
  app: me.application,
  activeCompanyCode: me.activeCompanyCode,
  pwd: me.firstLogin || me.passwordExpired ? 'change-required' : 'ok',
  billHubOnly: isBillHubOnly(me.applications),
});

export type IssuedSession = { body: SessionResponse; refreshToken: string; app: Application };

/**
 * A new access token and refresh token for the user. Without `familyId` this is a new sign-in (a new
 * family); with it, the next token of a rotated family.
 */
export async function issueSession(
  deps: SessionDeps,
  user: UserRecord,
  options: { familyId?: string; app?: Application } = {},
): Promise<IssuedSession> {
  const me = await buildMe(deps, user);
  const app = options.app ?? me.application;
  const accessToken = await deps.auth.issueAccessToken(principalFor(me));
  const refresh = await deps.auth.issueRefreshToken(user.id);
  // A rotated token keeps its family's start (read here, at full precision): SESSION_MAX_AGE counts from the
  // sign-in, not the last refresh. A new family starts now.
  await deps.pool.query(
    `INSERT INTO refresh_tokens (jti, family_id, user_id, app, expires_at, family_started_at)
     VALUES ($1, $2, $3, $4, $5,
             coalesce((SELECT min(${FAMILY_START}) FROM refresh_tokens WHERE family_id = $2), now()))`,
    [refresh.jti, options.familyId ?? randomUUID(), user.id, app, refresh.expiresAt],
  );
  if (!options.familyId) await pruneRefreshTokens(deps.pool);
  return { body: { accessToken, expiresIn: deps.auth.config.accessTokenTtlSeconds, user: me }, refreshToken: refresh.token, app };
}

/**
 * Signs the user in: a new session family, the refresh cookie of the user's application, and the
 * SessionResponse as the answer (`extra` members are merged into it, e.g. a success message).
 */
export async function startSession(
  res: Response,
  deps: SessionDeps,
  user: UserRecord,
  app?: Application,
  extra: Record<string, unknown> = {},
): Promise<SessionResponse> {
  const session = await issueSession(deps, user, { app });
  sendSession(res, deps, session, extra);
  return session.body;
}

export function sendSession(res: Response, deps: SessionDeps, session: IssuedSession, extra: Record<string, unknown> = {}): void {
  setRefreshCookie(res, deps.auth, session.refreshToken, session.app);
  res.json({ ...extra, ...session.body });
}
