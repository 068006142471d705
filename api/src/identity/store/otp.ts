import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { enqueueMessages, type TemplateName } from '../../../../platform/src/notifications/outbox';
import { HttpError } from '../../http/problem';

/**
 * One-time codes sent by SMS and/or e-mail (sign-in, registration, contact change). A challenge holds one code
 * per channel, stored only as a salted hash; the plain code leaves in the outbox message written in the same
 * transaction, so a code is never issued without its message or sent without being stored.
 *
 * Rules (issue 5): single use, valid for `ttlMs`, at most 5 wrong tries, resent at most once per 30 s and at
 * most 5 times. A resend replaces the codes (the old ones stop working) and restarts the lifetime.
 */
export type OtpChannel = 'sms' | 'email';
export type OtpPurpose = 'login' | 'registration' | 'contact-change';

export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_INTERVAL_SECONDS = 30;
export const OTP_MAX_RESENDS = 5;

export const otpMessages = {
  wrong: 'Invalid OTP',
  expired: 'OTP has expired. Please request a new one',
  used: 'This OTP has already been used',
  locked: 'Too many wrong attempts. Please request a new OTP',
  notFound: 'This verification request was not found. Please start again',
  resendTooSoon: (seconds: number) => `Please wait ${seconds} seconds before requesting a new OTP`,
  resendLimit: 'OTP resend limit reached. Please start again',
} as const;

export type IssueOtp = {
  purpose: OtpPurpose;
  /** What the codes prove control of: a user id, a registration id, a contact-change id. */
  subject: string;
  /** Where each code goes; a channel left out gets no code. */
  channels: Partial<Record<OtpChannel, string>>;
  digits: 4 | 6;
  ttlMs: number;
  template: TemplateName;
  /** Template parameters besides `code` and `minutes` (never a secret: they are kept for resends). */
  params?: Record<string, string>;
};

export type OtpIssued = { challengeId: string; expiresInSeconds: number; resendAfterSeconds: number };

export type OtpCheck =
  | { ok: true; subject: string }
  | { ok: false; reason: 'wrong'; attemptsLeft: number }
  | { ok: false; reason: 'expired' | 'used' | 'locked' | 'not_found' };

type Db = Pool | PoolClient;

const newCode = (digits: number): string => String(randomInt(0, 10 ** digits)).padStart(digits, '0');
const hashCode = (challengeId: string, channel: OtpChannel, code: string): string =>
  createHash('sha256').update(`${challengeId}:${channel}:${code}`).digest('hex');

const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

async function inTransaction<T>(pool: Db, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = 'release' in pool ? pool : await pool.connect();
  const own = client !== pool;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    if (own) client.release();
  }
}

/** New codes for every channel of a challenge, with their hashes and the outbox messages carrying them. */
function codesFor(id: string, channels: Partial<Record<OtpChannel, string>>, digits: number, template: TemplateName, params: Record<string, string>, ttlMs: number) {
  const hashes: Partial<Record<OtpChannel, string>> = {};
  const messages = [];
  const minutes = String(Math.max(1, Math.round(ttlMs / 60_000)));
  for (const channel of ['sms', 'email'] as const) {
    const to = channels[channel];
    if (!to) continue;
    const code = newCode(digits);
    hashes[channel] = hashCode(id, channel, code);
    messages.push({ channel, to, template, params: { ...params, code, minutes } });
  }
  return { hashes, messages };
}

export async function issueOtp(pool: Db, issue: IssueOtp): Promise<OtpIssued> {
  const id = randomUUID();
  const { hashes, messages } = codesFor(id, issue.channels, issue.digits, issue.template, issue.params ?? {}, issue.ttlMs);
  if (messages.length === 0) throw new Error('issueOtp: no channel to send a code to');
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO otp_challenges (id, purpose, subject, code_hashes, recipients, template, params, digits, ttl_ms,
         expires_at, max_attempts, last_sent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::int, now() + make_interval(secs => $9::int / 1000.0), $10, now())`,
      [id, issue.purpose, issue.subject, hashes, issue.channels, issue.template, issue.params ?? {}, issue.digits, issue.ttlMs, OTP_MAX_ATTEMPTS],
    );
    await enqueueMessages(client, messages);
  });
  return { challengeId: id, expiresInSeconds: Math.round(issue.ttlMs / 1000), resendAfterSeconds: OTP_RESEND_INTERVAL_SECONDS };
}

type ChallengeRow = {
  subject: string;
  purpose: string;
  code_hashes: Partial<Record<OtpChannel, string>>;
  attempts: number;
  max_attempts: number;
  consumed: boolean;
  expired: boolean;
};

const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** Why a challenge cannot be answered now, or null when it can. */
async function unusable(pool: Db, id: string, purpose: OtpPurpose): Promise<Exclude<OtpCheck, { ok: true } | { reason: 'wrong' }>['reason'] | null> {
  if (!isUuid(id)) return 'not_found';
  const { rows } = await pool.query<ChallengeRow>(
    `SELECT subject, purpose, attempts, max_attempts, consumed_at IS NOT NULL AS consumed, expires_at <= now() AS expired
       FROM otp_challenges WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row || row.purpose !== purpose) return 'not_found';
  if (row.consumed) return 'used';
  if (row.attempts >= row.max_attempts) return 'locked';
  if (row.expired) return 'expired';
  return null;
}

/**
 * Checks the codes given for every channel of the challenge. Each call counts as one try, taken atomically
 * before the comparison, so parallel guesses cannot exceed the limit; a correct answer consumes the challenge
 * (a double click gets 'used', never a second success).
 *
 * `anyChannel`: one code proves the challenge when it matches the code of ANY of its channels (sign-in: the
 * user types the code from the SMS or from the e-mail, whichever arrived), still as one try.
 */
export async function verifyOtp(
  pool: Db,
  challengeId: string,
  purpose: OtpPurpose,
  codes: Partial<Record<OtpChannel, string>>,
  options: { anyChannel?: boolean } = {},
): Promise<OtpCheck> {
  const reason = await unusable(pool, challengeId, purpose);
  if (reason) return { ok: false, reason };
  const { rows } = await pool.query<ChallengeRow>(
    `UPDATE otp_challenges SET attempts = attempts + 1
      WHERE id = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > now() AND attempts < max_attempts
      RETURNING subject, purpose, code_hashes, attempts, max_attempts, false AS consumed, false AS expired`,
    [challengeId, purpose],
  );
  const row = rows[0];
  if (!row) return { ok: false, reason: (await unusable(pool, challengeId, purpose)) ?? 'expired' };
  const channels = Object.keys(row.code_hashes) as OtpChannel[];
  const matches = (channel: OtpChannel) => {
    const given = codes[channel];
    const stored = row.code_hashes[channel];
    return typeof given === 'string' && stored !== undefined && sameHash(hashCode(challengeId, channel, given.trim()), stored);
  };
  const accepted = options.anyChannel ? channels.some(matches) : channels.every(matches);
  if (!accepted) {
    const attemptsLeft = row.max_attempts - row.attempts;
    return attemptsLeft > 0 ? { ok: false, reason: 'wrong', attemptsLeft } : { ok: false, reason: 'locked' };
  }
  const consumed = await pool.query(
    'UPDATE otp_challenges SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id',
    [challengeId],
  );
  return consumed.rowCount === 1 ? { ok: true, subject: row.subject } : { ok: false, reason: 'used' };
}

/** Sends new codes for the challenge (same channels and recipients); 429 with Retry-After inside 30 s. */
export async function resendOtp(pool: Db, challengeId: string, purpose: OtpPurpose): Promise<OtpIssued> {
  if (!isUuid(challengeId)) throw otpFailure('not_found');
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{
      recipients: Partial<Record<OtpChannel, string>>;
      template: TemplateName;
      params: Record<string, string>;
      digits: number;
      ttl_ms: number;
      resend_count: number;
      consumed: boolean;
      wait_seconds: number;
    }>(
      `SELECT recipients, template, params, digits, ttl_ms, resend_count, consumed_at IS NOT NULL AS consumed,
              ceil(extract(epoch FROM last_sent_at + make_interval(secs => ${OTP_RESEND_INTERVAL_SECONDS}) - now()))::int AS wait_seconds
         FROM otp_challenges WHERE id = $1 AND purpose = $2 FOR UPDATE`,
      [challengeId, purpose],
    );
    const row = rows[0];
    if (!row) throw otpFailure('not_found');
    if (row.consumed) throw otpFailure('used');
    if (row.wait_seconds > 0) {
      throw new HttpError(429, otpMessages.resendTooSoon(row.wait_seconds), undefined, { 'Retry-After': String(row.wait_seconds) });
    }
    if (row.resend_count >= OTP_MAX_RESENDS) throw new HttpError(429, otpMessages.resendLimit);
    const { hashes, messages } = codesFor(challengeId, row.recipients, row.digits, row.template, row.params, row.ttl_ms);
    await client.query(
      `UPDATE otp_challenges SET code_hashes = $2, resend_count = resend_count + 1, attempts = 0, last_sent_at = now(),
         expires_at = now() + make_interval(secs => ttl_ms::double precision / 1000) WHERE id = $1`,
      [challengeId, hashes],
    );
    await enqueueMessages(client, messages);
    return { challengeId, expiresInSeconds: Math.round(row.ttl_ms / 1000), resendAfterSeconds: OTP_RESEND_INTERVAL_SECONDS };
  });
}

/** The HTTP answer for a failed check: 400 for a wrong code (with tries left), 410 when the challenge is spent. */
export function otpFailure(check: Exclude<OtpCheck, { ok: true }> | 'not_found' | 'used'): HttpError {
  const c = typeof check === 'string' ? ({ ok: false, reason: check } as const) : check;
  switch (c.reason) {
    case 'wrong':
      return new HttpError(400, otpMessages.wrong, { otp: otpMessages.wrong }, undefined, { attemptsLeft: c.attemptsLeft });
    case 'expired':
      return new HttpError(410, otpMessages.expired);
    case 'used':
      return new HttpError(410, otpMessages.used);
    case 'locked':
      return new HttpError(410, otpMessages.locked);
    case 'not_found':
      return new HttpError(404, otpMessages.notFound);
    default: {
      const never: never = c;
      return never;
    }
  }
}
