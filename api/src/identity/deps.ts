import type { Request } from 'express';
import type { EventStore } from '../../../domain/src/event-store/port';
import { DomainError } from '../../../domain/src/shared/errors';
import type { RateLimiter } from '../http/rate-limit';
import type { Captcha } from './captcha';
import type { SessionDeps } from './sessions';
import type { SignInLimits } from './store/sign-in-limits';

/** What the sign-in, session and password routes need (built once in api/src/app.ts). */
export type IdentityDeps = SessionDeps & {
  store: EventStore;
  /** Flood guard per username (or e-mail) and client address, in memory: 429 beyond it. */
  loginLimiter: RateLimiter;
  /** Sign-in attempts per client address and overall, in PostgreSQL (default 30 and 300 a minute). */
  signInLimits?: SignInLimits;
  captcha: Captcha;
  /** PUBLIC_URL: the links in e-mails point here. */
  publicUrl: string;
  /** OTP_TTL (default 10 min). */
  otpTtlMs?: number;
  /** Lifetime of a password-reset link (default 30 min). */
  resetTtlMs?: number;
  projectionWaitMs?: number;
};

export const DEFAULT_OTP_TTL_MS = 10 * 60_000;
export const DEFAULT_RESET_TTL_MS = 30 * 60_000;

/** Zod's first message per field as a 400, with the first field's message on top (what a client shows). */
export function invalid(errors: Record<string, string>, fallback = 'Please correct the highlighted fields'): DomainError {
  return new DomainError('validation', Object.values(errors)[0] ?? fallback, errors);
}

/** The key the flood guard counts under: what is being guessed at, and from where. */
export const floodKey = (req: Request, what: string): string => `${what.trim().toLowerCase()}|${req.ip ?? ''}`;

/** The identity settings createApp takes (from config: OTP_TTL, PASSWORD_MAX_AGE, CAPTCHA_HMAC_KEY, ...). */
export type IdentityOptions = {
  otpTtlMs?: number;
  passwordMaxAgeMs?: number;
  resetTtlMs?: number;
  /** SESSION_MAX_AGE in seconds: no refresh extends a session past this since its sign-in (default 12 h). */
  sessionMaxAgeSeconds?: number;
  /** Sign-in attempts per client address and overall a window (default 30 and 300 a minute). */
  signInLimits?: Partial<SignInLimits>;
  /** Without it a random key per process (tests); server.ts passes the configured or stored one. */
  captchaHmacKey?: string;
  captchaTtlMs?: number;
  /** The captcha's work range (tests make it small). */
  captchaCounterRange?: readonly [number, number];
};
