import { Router, type Request } from 'express';
import { z } from 'zod';
import { userRefusals } from '../../../domain/src/identity/users';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors, fields, messages as fieldMessages } from '../../../domain/src/validation/fields';
import { findUserById, findUserByUsername } from '../../../projections/src/identity/users.queries';
import type { Db } from '../../../projections/src/sql';
import type { OtpChallenge, OtpResent } from '../contract';
import { applicationFor, publicRoute } from '../http/auth';
import { HttpError } from '../http/problem';
import { DEFAULT_OTP_TTL_MS, floodKey, invalid, type IdentityDeps } from './deps';
import { passwordMatches } from './passwords';
import { startSession } from './sessions';
import { issueOtp, otpFailure, resendOtp, verifyOtp } from './store/otp';
import { admitSignIn, DEFAULT_SIGN_IN_LIMITS } from './store/sign-in-limits';

/**
 * Sign-in (spec 000 §4 "Login"): username and password, then a 6-digit code sent by SMS and e-mail, then the
 * session. Demo accounts take the same path (their codes are in the dev outbox).
 */
export const identityMessages = {
  badCredentials: 'Invalid username or password',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a minute and try again',
  /** The overall limit: many addresses at once (a flood), not this visitor's doing. */
  busy: 'Too many people are signing in right now. Please try again in a minute',
  /** Spec 000 §8, code 101: signing in to the application the user's roles do not open. */
  noAccess: "You don't have access to this application. Please contact admin team for support",
  captchaRequired: 'Please complete the captcha to sign in',
  blocked: userRefusals.blocked,
} as const;

/** Spec 000 §9: "Captcha after 3 failed logins". */
export const CAPTCHA_AFTER_FAILURES = 3;

// Sign-in fields only need to be present (spec 000 §5: "Login password: must only be non-empty").
const loginBody = z.object({
  username: z.string({ error: fieldMessages.required }).trim().min(1, { error: fieldMessages.required }).max(260),
  password: z.string({ error: fieldMessages.required }).min(1, { error: fieldMessages.required }).max(1024),
  // The ALTCHA widget's payload (base64 JSON); an object is accepted too (API clients, tests).
  captcha: z.union([z.string().max(4096), z.record(z.string(), z.unknown())]).nullish(),
});

const verifyBody = z.object({
  challengeId: z.string({ error: fieldMessages.required }).min(1, { error: fieldMessages.required }).max(100),
  otp: fields.otp,
});

const resendBody = z.object({
  challengeId: z.string({ error: fieldMessages.required }).min(1, { error: fieldMessages.required }).max(100),
});

/** '******3210': enough for the user to recognise the number, not enough to learn it. */
export const maskMobile = (mobile: string): string => `${'*'.repeat(Math.max(0, mobile.length - 4))}${mobile.slice(-4)}`;

/** 'g***@demo.test'. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

// Failed sign-ins per username, in PostgreSQL so every api process counts the same (spec: "the stored
// loginFailed count"). Unknown usernames are counted too: the answer must not tell them apart.
async function failuresOf(db: Db, username: string): Promise<number> {
  const { rows } = await db.query<{ failures: number }>('SELECT failures FROM login_failures WHERE username = $1', [username]);
  return rows[0]?.failures ?? 0;
}

async function recordFailure(db: Db, username: string): Promise<number> {
  const { rows } = await db.query<{ failures: number }>(
    `INSERT INTO login_failures (username, failures, last_failed_at) VALUES ($1, 1, now())
     ON CONFLICT (username) DO UPDATE SET failures = login_failures.failures + 1, last_failed_at = now()
     RETURNING failures`,
    [username],
  );
  return rows[0]?.failures ?? 1;
}

export async function clearLoginFailures(db: Db, username: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE username = $1', [username.trim().toLowerCase()]);
}

/** `?app=console|portal`: the application the sign-in page belongs to (optional). */
function parseApp(req: Request): 'console' | 'portal' | undefined {
  const app = req.query.app;
  if (app === undefined) return undefined;
  if (app === 'console' || app === 'portal') return app;
  throw new DomainError('validation', 'Unknown application', { app: 'Unknown application' });
}

function parse<T extends z.ZodType>(schema: T, req: Request, message?: string): z.output<T> {
  const parsed = schema.safeParse(req.body ?? {});
  if (!parsed.success) throw invalid(fieldErrors(parsed.error), message);
  return parsed.data;
}

export function loginRoutes(deps: IdentityDeps): Router {
  const { pool, captcha, loginLimiter } = deps;
  const otpTtlMs = deps.otpTtlMs ?? DEFAULT_OTP_TTL_MS;
  const router = Router();

  router.get('/auth/captcha', publicRoute(), async (_req, res) => {
    res.json(await captcha.challenge());
  });

  router.post('/auth/login', publicRoute(), async (req, res) => {
    const parsed = loginBody.safeParse(req.body ?? {});
    if (!parsed.success)
      throw new DomainError('validation', 'Please enter your username and password', fieldErrors(parsed.error));
    const username = parsed.data.username.toLowerCase();
    const limit = loginLimiter.hit(floodKey(req, username));
    if (!limit.allowed) {
      const headers = { 'Retry-After': String(limit.retryAfterSeconds) };
      throw new HttpError(429, identityMessages.tooManyAttempts, undefined, headers);
    }
    // Per client address (req.ip: the proxy's X-Forwarded-For only under TRUST_PROXY) and overall, shared by
    // every api process: guessing across usernames, and floods from many addresses, stop before the hasher.
    const admitted = await admitSignIn(pool, req.ip ?? '', deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS);
    if (!admitted.allowed) {
      const headers = { 'Retry-After': String(admitted.retryAfterSeconds) };
      const message = admitted.scope === 'overall' ? identityMessages.busy : identityMessages.tooManyAttempts;
      throw new HttpError(429, message, undefined, headers);
    }

    // From the third failure on, no password is even checked without a solved captcha.
    if ((await failuresOf(pool, username)) >= CAPTCHA_AFTER_FAILURES) {
      const solved = parsed.data.captcha ? await captcha.redeem(pool, parsed.data.captcha) : false;
      if (!solved) throw new HttpError(400, identityMessages.captchaRequired, undefined, undefined, { captchaRequired: true });
    }

    const user = await findUserByUsername(pool, username);
    // Same work whether or not the user exists (a decoy hash), so timing does not reveal who has an account.
    const ok = await passwordMatches(pool, user, parsed.data.password);
    if (!user || !ok) {
      const failures = await recordFailure(pool, username);
      throw new HttpError(401, identityMessages.badCredentials, undefined, undefined, {
        captchaRequired: failures >= CAPTCHA_AFTER_FAILURES,
      });
    }
    await clearLoginFailures(pool, username);
    // Only someone who knows the password learns that the account is blocked.
    if (user.status === 'blocked') throw new HttpError(403, identityMessages.blocked);

    const issued = await issueOtp(pool, {
      purpose: 'login',
      subject: user.id,
      channels: { email: user.username, ...(user.mobileNo ? { sms: user.mobileNo } : {}) },
      digits: 6,
      ttlMs: otpTtlMs,
      template: 'login-otp',
      params: { name: user.name },
    });
    res.json({
      otpRequired: true,
      challengeId: issued.challengeId,
      expiresInSeconds: issued.expiresInSeconds,
      resendAfterSeconds: issued.resendAfterSeconds,
      sentTo: { mobile: user.mobileNo ? maskMobile(user.mobileNo) : null, email: maskEmail(user.username) },
    } satisfies OtpChallenge);
  });

  router.post('/auth/login/verify-otp', publicRoute(), async (req, res) => {
    const { challengeId, otp } = parse(verifyBody, req);
    const app = parseApp(req);
    // The code from the SMS or the one from the e-mail, whichever the user has: one try either way.
    const check = await verifyOtp(pool, challengeId, 'login', { sms: otp, email: otp }, { anyChannel: true });
    if (!check.ok) throw otpFailure(check);
    const user = await findUserById(pool, check.subject);
    if (!user) throw otpFailure('not_found');
    if (user.status === 'blocked') throw new HttpError(403, identityMessages.blocked);
    // A BA signing in on the console (or staff on the portal, when it says so) gets no session there: opening
    // one and then logging it out again would clear the cookie of whoever is signed in to that application.
    if (app && applicationFor(user.roles) !== app) throw new HttpError(403, identityMessages.noAccess);
    await startSession(res, deps, user);
  });

  router.post('/auth/login/resend-otp', publicRoute(), async (req, res) => {
    const { challengeId } = parse(resendBody, req);
    const sent = await resendOtp(pool, challengeId, 'login');
    res.json({ expiresInSeconds: sent.expiresInSeconds, resendAfterSeconds: sent.resendAfterSeconds } satisfies OtpResent);
  });

  return router;
}

