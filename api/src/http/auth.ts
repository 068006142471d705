import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, linkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { z } from 'zod';
import { ALL_ROLES, isBaRole, type Role } from '../../../domain/src/identity/roles';
import { HttpError, messages } from './problem';

/**
 * Sessions: a short-lived access token (a JWT signed with an asymmetric key, sent as a bearer token) and a
 * longer-lived refresh token in an httpOnly, SameSite=Strict cookie scoped to /api/auth, so page scripts can
 * never read it and other sites can never send it.
 */
export const TOKEN_ALG = 'EdDSA';
/** Only this algorithm is accepted: `alg: none`, HMAC with the public key as secret and the rest are refused. */
export const ALLOWED_ALGS = [TOKEN_ALG] as const;
export const ACCESS_TOKEN_TYPE = 'at+jwt';
export const REFRESH_TOKEN_TYPE = 'rt+jwt';
export const REFRESH_COOKIE = 'ba_portal_refresh';
/**
 * One refresh cookie per application, so signing in to the console in a browser that holds a BA's portal
 * session (or the reverse) does not replace it.
 */
export const refreshCookieName = (app: Application): string => `${REFRESH_COOKIE}_${app}`;
export const REFRESH_COOKIE_PATH = '/api/auth';
const CLOCK_TOLERANCE_SECONDS = 5;

export type AuthConfig = {
  issuer: string;
  audience: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Mark the refresh cookie Secure; on when the public URL is https. */
  secureCookies?: boolean;
};

export type AuthKeys = { privateKey: CryptoKey; publicKey: CryptoKey; kid: string };

/** Which front end a user belongs to: BA roles use the portal, staff and auditors the console. */
export type Application = 'console' | 'portal';

/**
 * Whether the session may do anything but change its password: 'change-required' on a first login (an
 * account someone else created) and when the password is older than PASSWORD_MAX_AGE (spec 000 §4 Login 4-5).
 */
export type PasswordState = 'ok' | 'change-required';

/** The refusal a 'change-required' session gets everywhere but the few routes that opt in. */
export const PASSWORD_CHANGE_REQUIRED = 'Please change your password to continue';

export type Principal = {
  userId: string;
  username: string;
  name: string;
  roles: Role[];
  companyCodes: string[];
  baId: string | null;
  app: Application;
  /** 'All' or one of `companyCodes`: the company the user is working in (spec 000 §6). */
  activeCompanyCode: string;
  pwd: PasswordState;
  /** Holds roles on the Bill-Hub application only: signs in to the Bill-Hub area and nowhere else. */
  billHubOnly: boolean;
};

export const applicationFor = (roles: readonly string[]): Application =>
  roles.some((r) => isBaRole(r)) ? 'portal' : 'console';

export async function generateAuthKeys(): Promise<AuthKeys> {
  const { privateKey, publicKey } = await generateKeyPair(TOKEN_ALG, { extractable: true });
  const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
  return { privateKey, publicKey, kid };
}

const KEY_FILE = 'access-token-signing-key.jwk.json';

async function keysFromJwk(jwk: JWK): Promise<AuthKeys> {
  const { d: _private, ...pub } = jwk;
  const privateKey = (await importJWK(jwk, TOKEN_ALG)) as CryptoKey;
  const publicKey = (await importJWK(pub, TOKEN_ALG)) as CryptoKey;
  return { privateKey, publicKey, kid: await calculateJwkThumbprint(pub) };
}

/**
 * Reads the signing key from `keyDir`, generating it on first start. The file is written 0600 and put in
 * place with link(2), which fails if another process won the race: both then use the same key.
 */
export async function loadOrCreateAuthKeys(keyDir: string): Promise<AuthKeys> {
  const file = path.join(keyDir, KEY_FILE);
  const read = async () => keysFromJwk(JSON.parse(readFileSync(file, 'utf8')) as JWK);
  try {
    return await read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(keyDir, { recursive: true, mode: 0o700 });
  const { privateKey } = await generateKeyPair(TOKEN_ALG, { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: TOKEN_ALG, use: 'sig' };
  const tmp = path.join(keyDir, `.${KEY_FILE}.${process.pid}.${randomUUID()}`);
  writeFileSync(tmp, JSON.stringify(jwk), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  return read();
}

const claimsSchema = z.object({
  sub: z.string().min(1),
  username: z.string().min(1),
  name: z.string(),
  roles: z.array(z.enum(ALL_ROLES as unknown as [Role, ...Role[]])).min(1),
  companyCodes: z.array(z.string()),
  baId: z.string().nullable(),
  app: z.enum(['console', 'portal']),
  activeCompanyCode: z.string().min(1),
  pwd: z.enum(['ok', 'change-required']),
  billHubOnly: z.boolean().default(false),
});

const refreshClaimsSchema = z.object({ sub: z.string().min(1), jti: z.string().min(1), exp: z.number() });

export type RefreshClaims = z.output<typeof refreshClaimsSchema>;

/** A signed refresh token and what the session store keeps of it (never the token itself). */
export type IssuedRefreshToken = { token: string; jti: string; expiresAt: Date };

export type Auth = {
  config: AuthConfig;
  keys: AuthKeys;
  issueAccessToken: (p: Principal) => Promise<string>;
  issueRefreshToken: (userId: string) => Promise<IssuedRefreshToken>;
  /** Throws HttpError 401 for anything but a valid, unexpired access token of ours. */
  verifyAccessToken: (token: string) => Promise<Principal>;
  /**
   * Checks signature, audience and lifetime only. Whether the token is still live (not used, not revoked) is
   * the session store's answer (api/src/identity/sessions.ts), shared by every api process.
   */
  verifyRefreshToken: (token: string) => Promise<RefreshClaims>;
};

const unauthenticated = () => new HttpError(401, messages.unauthenticated);

/** Refresh tokens carry a distinct audience and type, so one can never pass for an access token. */
const refreshAudience = (audience: string) => `${audience}#refresh`;

/**
 * Access tokens already verified, by their exact text: the same bearer token comes with every request of a
 * session, and the signature check and claim parsing were the largest cost of a trivial signed-in request
 * (issue 12). An entry lives until the token's own expiry, never longer; only the signature check is skipped:
 * `authenticate` still asks the blocked-user check on every request, as before. Bounded crudely like the
 * blocked cache: when full it starts over (a few re-verifications).
 */
const VERIFIED_TOKEN_CACHE_LIMIT = 10_000;

/** Callers get their own copy: a route that changed its principal must not change the next request's. */
const copyOf = (p: Principal): Principal => ({ ...p, roles: [...p.roles], companyCodes: [...p.companyCodes] });

export function createAuth(config: AuthConfig, keys: AuthKeys): Auth {
  const verified = new Map<string, { principal: Principal; untilMs: number }>();
  return {
    config,
    keys,
    issueAccessToken: (p) =>
      new SignJWT({
        username: p.username,
        name: p.name,
        roles: p.roles,
        companyCodes: p.companyCodes,
        baId: p.baId,
        app: p.app,
        activeCompanyCode: p.activeCompanyCode,
        pwd: p.pwd,
        billHubOnly: p.billHubOnly,
      })
        .setProtectedHeader({ alg: TOKEN_ALG, kid: keys.kid, typ: ACCESS_TOKEN_TYPE })
        .setSubject(p.userId)
        .setIssuer(config.issuer)
        .setAudience(config.audience)
        .setIssuedAt()
        .setJti(randomUUID())
        .setExpirationTime(`${config.accessTokenTtlSeconds}s`)
        .sign(keys.privateKey),
    issueRefreshToken: async (userId) => {
      const jti = randomUUID();
      const issuedAt = Math.floor(Date.now() / 1000);
      const exp = issuedAt + config.refreshTokenTtlSeconds;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: TOKEN_ALG, kid: keys.kid, typ: REFRESH_TOKEN_TYPE })
        .setSubject(userId)
        .setIssuer(config.issuer)
        .setAudience(refreshAudience(config.audience))
        .setIssuedAt(issuedAt)
        .setJti(jti)
        .setExpirationTime(exp)
        .sign(keys.privateKey);
      return { token, jti, expiresAt: new Date(exp * 1000) };
    },
    verifyAccessToken: async (token) => {
      const cached = verified.get(token);
      if (cached && cached.untilMs > Date.now()) return copyOf(cached.principal);
      if (cached) verified.delete(token);
      try {
        const { payload } = await jwtVerify(token, keys.publicKey, {
          algorithms: [...ALLOWED_ALGS],
          issuer: config.issuer,
          audience: config.audience,
          typ: ACCESS_TOKEN_TYPE,
          requiredClaims: ['exp', 'sub', 'iat'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        });
        const claims = claimsSchema.parse(payload);
        const principal: Principal = {
          userId: claims.sub,
          username: claims.username,
          name: claims.name,
          roles: claims.roles,
          companyCodes: claims.companyCodes,
          baId: claims.baId,
          app: claims.app,
          activeCompanyCode: claims.activeCompanyCode,
          pwd: claims.pwd,
          billHubOnly: claims.billHubOnly,
        };
        // Until the moment jwtVerify itself would start refusing it (exp plus the clock tolerance).
        if (verified.size >= VERIFIED_TOKEN_CACHE_LIMIT) verified.clear();
        verified.set(token, { principal, untilMs: ((payload.exp as number) + CLOCK_TOLERANCE_SECONDS) * 1000 });
        return copyOf(principal);
      } catch {
        throw unauthenticated();
      }
    },
    verifyRefreshToken: async (token) => {
      try {
        const { payload } = await jwtVerify(token, keys.publicKey, {
          algorithms: [...ALLOWED_ALGS],
          issuer: config.issuer,
          audience: refreshAudience(config.audience),
          typ: REFRESH_TOKEN_TYPE,
          requiredClaims: ['exp', 'sub', 'jti'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        });
        return refreshClaimsSchema.parse(payload);
      } catch {
        throw unauthenticated();
      }
    },
  };
}

/**
 * Whether the user behind a still-valid access token has been blocked since it was issued. Access tokens
 * live 15 minutes and a block must not wait for them: the status is looked up, cached per user for `ttlMs`
 * (default 5 s) so a busy client costs one query per few seconds. `forget` drops a user's entry, so the
 * process that blocks someone refuses their token at once; other api processes follow within the TTL.
 */
export type BlockedCheck = { isBlocked: (userId: string) => Promise<boolean>; forget: (userId: string) => void };

const BLOCKED_CACHE_LIMIT = 10_000;

export function createBlockedCheck(lookup: (userId: string) => Promise<boolean>, ttlMs = 5_000): BlockedCheck {
  const cache = new Map<string, { blocked: boolean; until: number }>();
  return {
    isBlocked: async (userId) => {
      const now = Date.now();
      const hit = cache.get(userId);
      if (hit && hit.until > now) return hit.blocked;
      const blocked = await lookup(userId);
      // A crude bound: entries are seconds old at most, so starting over costs only a few lookups.
      if (cache.size >= BLOCKED_CACHE_LIMIT) cache.clear();
      cache.set(userId, { blocked, until: now + ttlMs });
      return blocked;
    },
    forget: (userId) => {
      cache.delete(userId);
    },
  };
}

/** The refusal of a blocked user's still-unexpired access token (401: the client ends the session). */
export const BLOCKED_SESSION = 'Your account has been blocked. Please contact admin team for support';

/** Reads the bearer token, if any, once per request; `requireAuth` decides whether the route needs one. */
export function authenticate(auth: Auth, options: { blocked?: BlockedCheck } = {}): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    if (!header) return next();
    const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header);
    try {
      if (!match?.[1]) throw unauthenticated();
      const principal = await auth.verifyAccessToken(match[1]);
      if (await options.blocked?.isBlocked(principal.userId)) throw new HttpError(401, BLOCKED_SESSION);
      res.locals['principal'] = principal;
    } catch (err) {
      res.locals['authError'] = err;
    }
    next();
  };
}

export type AccessRule = {
  /** Roles allowed on this route; the caller needs at least one. Omitted = any signed-in user. */
  roles?: readonly Role[];
  /** The application the route belongs to. */
  app?: Application;
  /**
   * Open to a session that must change its password first (GET /api/me, change-password, logout). Every
   * other route refuses such a session with 403, here and nowhere else.
   */
  allowPasswordChange?: boolean;
  /**
   * Part of the Bill-Hub area: open to Bill-Hub-only users (spec 000 §2: a Bill-Hub-only BA goes to the bill
   * page). Every other route refuses them with 403; routes open to change-required sessions (their own
   * account) stay open to them.
   */
  billHub?: boolean;
};

/** What a route declares about its callers; the route-access test reads it off the first handler. */
export type RouteAccess = 'public' | AccessRule;
export type AccessDeclaringHandler = RequestHandler & { access: RouteAccess };

/** Declares a route open to anyone, signed in or not (sign-in, registration, the company list, ...). */
export function publicRoute(): AccessDeclaringHandler {
  return Object.assign((_req: Request, _res: Response, next: NextFunction) => next(), { access: 'public' as const });
}

/** Declares who may call a route: 401 without a valid session, 403 for the wrong application or roles. */
export function requireAuth(rule: AccessRule = {}): AccessDeclaringHandler {
  return Object.assign(guard(rule), { access: rule });
}

function guard(rule: AccessRule): RequestHandler {
  return (_req, res, next) => {
    const principal = res.locals['principal'] as Principal | undefined;
    if (!principal) return next(res.locals['authError'] ?? unauthenticated());
    if (principal.pwd !== 'ok' && !rule.allowPasswordChange) return next(new HttpError(403, PASSWORD_CHANGE_REQUIRED));
    if (principal.billHubOnly && !rule.billHub && !rule.allowPasswordChange) return next(new HttpError(403, messages.forbidden));
    if (rule.app && principal.app !== rule.app) return next(new HttpError(403, messages.forbidden));
    if (rule.roles && !principal.roles.some((r) => rule.roles?.includes(r)))
      return next(new HttpError(403, messages.forbidden));
    next();
  };
}

/** The caller of a route guarded by `requireAuth`. */
export function principalOf(res: Response): Principal {
  const principal = res.locals['principal'] as Principal | undefined;
  if (!principal) throw unauthenticated();
  return principal;
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function setRefreshCookie(res: Response, auth: Auth, token: string, app: Application): void {
  res.cookie(refreshCookieName(app), token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: auth.config.secureCookies ?? false,
    path: REFRESH_COOKIE_PATH,
    maxAge: auth.config.refreshTokenTtlSeconds * 1000,
  });
}

export function clearRefreshCookie(res: Response, auth: Auth, app: Application): void {
  res.clearCookie(refreshCookieName(app), {
    httpOnly: true,
    sameSite: 'strict',
    secure: auth.config.secureCookies ?? false,
    path: REFRESH_COOKIE_PATH,
  });
}
