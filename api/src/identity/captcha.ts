import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Db } from '../../../projections/src/sql';

/**
 * The sign-in captcha (spec 000 §2: "After 3 failed logins a captcha is required"): ALTCHA, a proof of work
 * the browser solves in the background, self-hosted (no third party sees who signs in). A challenge is
 * signed with our HMAC key and carries its expiry, so the server keeps nothing per challenge; a solved one is
 * spent once (`captcha_spent`, keyed by the challenge's signature) so one solution cannot open many tries.
 */
export const CAPTCHA_ALGORITHM = 'SHA-256';
export const DEFAULT_CAPTCHA_TTL_MS = 10 * 60_000;

export type CaptchaOptions = {
  /** CAPTCHA_HMAC_KEY; generated once and kept beside the JWT key when not configured. */
  hmacKey: string;
  ttlMs?: number;
  /**
   * Work asked of the browser: the counter the solver must reach is drawn from this range (each step one
   * SHA-256). The default costs a browser well under a second; tests use a small range.
   */
  counterRange?: readonly [number, number];
};

export type Captcha = {
  /** A fresh challenge for the widget (`challengeurl`). */
  challenge: () => Promise<Challenge>;
  /** True once for a valid, unexpired solution of one of our challenges; false for anything else. */
  redeem: (db: Db, payload: unknown) => Promise<boolean>;
};

type DecodedPayload = { challenge: Challenge; solution: Solution };

/** The widget sends base64(JSON {challenge: {parameters, signature}, solution}); tests may send the object. */
function decode(payload: unknown): DecodedPayload | null {
  let value: unknown = payload;
  if (typeof payload === 'string') {
    if (payload.length > 4096) return null;
    try {
      value = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    } catch {
      return null;
    }
  }
  const p = value as Partial<DecodedPayload> | null;
  if (!p || typeof p !== 'object' || !p.challenge || !p.solution) return null;
  if (typeof p.challenge.signature !== 'string' || typeof p.challenge.parameters !== 'object') return null;
  if (typeof p.solution.counter !== 'number' || typeof p.solution.derivedKey !== 'string') return null;
  return p as DecodedPayload;
}

export function createCaptcha(options: CaptchaOptions): Captcha {
  const ttlMs = options.ttlMs ?? DEFAULT_CAPTCHA_TTL_MS;
  const [low, high] = options.counterRange ?? [5_000, 50_000];
  // Separate secrets for the challenge and for the expected key, both derived from the one configured key.
  const signatureSecret = `${options.hmacKey}:challenge`;
  const keySecret = `${options.hmacKey}:key`;

  return {
    challenge: () =>
      createChallenge({
        algorithm: CAPTCHA_ALGORITHM,
        cost: 1,
        // Deterministic mode: we pick the answer, sign its key, and verify without redoing the work.
        counter: randomInt(low, high + 1),
        deriveKey,
        expiresAt: new Date(Date.now() + ttlMs),
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySecret,
      }),
    redeem: async (db, payload) => {
      const decoded = decode(payload);
      if (!decoded) return false;
      let verified = false;
      try {
        const result = await verifySolution({
          challenge: decoded.challenge,
          solution: decoded.solution,
          deriveKey,
          hmacSignatureSecret: signatureSecret,
          hmacKeySignatureSecret: keySecret,
        });
        verified = result.verified;
      } catch {
        verified = false;
      }
      if (!verified) return false;
      const expiresAt = new Date(((decoded.challenge.parameters.expiresAt ?? 0) * 1000) || Date.now() + ttlMs);
      // Spent once: the insert of the challenge's signature succeeds for exactly one request.
      const spent = await db.query(
        `WITH purge AS (DELETE FROM captcha_spent WHERE expires_at < now() - interval '1 minute')
         INSERT INTO captcha_spent (signature, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING signature`,
        [decoded.challenge.signature, expiresAt],
      );
      return spent.rowCount === 1;
    },
  };
}

const KEY_FILE = 'captcha-hmac.key';

/**
 * The HMAC key from CAPTCHA_HMAC_KEY, else the one kept in `keyDir` (generated on first start, written 0600
 * and put in place with link(2) so concurrent starts agree on one key, as the JWT key is).
 */
export function loadOrCreateCaptchaKey(keyDir: string, configured?: string | null): string {
  if (configured) return configured;
  const file = path.join(keyDir, KEY_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(keyDir, { recursive: true, mode: 0o700 });
  const tmp = path.join(keyDir, `.${KEY_FILE}.${process.pid}.${randomUUID()}`);
  writeFileSync(tmp, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  return readFileSync(file, 'utf8').trim();
}
