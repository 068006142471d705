import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import os from 'node:os';
import { HttpError } from '../http/problem';
import { createSemaphore, SemaphoreFull } from './semaphore';

/**
 * Password hashes: scrypt from node:crypto with a random 16-byte salt, stored as
 * `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` so the cost can be raised without breaking old hashes (each hash
 * verifies at the cost it names). Hashes are never logged, returned by the API or written to events: they live
 * in the `credentials` table (store/credentials.ts).
 */
const KEY_LENGTH = 64;

/** OWASP Password Storage Cheat Sheet (2024/25): scrypt N=2^17, r=8, p=1 (128 MiB per hash). */
export const PASSWORD_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
type Cost = { N: number; r: number; p: number };

// scrypt needs about 128·N·r·p bytes; twice that leaves OpenSSL its headroom. A stored hash naming more than
// 512 MiB (or a nonsensical cost) is treated as malformed: a bad row must not exhaust memory.
const memoryOf = (c: Cost): number => 128 * c.N * c.r * c.p;
const MAX_STORED_MEMORY = 512 * 1024 * 1024;
const isSaneCost = (c: Cost): boolean =>
  Number.isInteger(c.N) && c.N >= 1024 && (c.N & (c.N - 1)) === 0 && Number.isInteger(c.r) && c.r >= 1 && c.r <= 32 &&
  Number.isInteger(c.p) && c.p >= 1 && c.p <= 16 && memoryOf(c) <= MAX_STORED_MEMORY;

/**
 * At most one hash per core at once in this process (2 on the reference machines), and never more than 3 so
 * one of libuv's 4 threads stays free for file and DNS work; a few more wait; beyond that a sign-in is
 * answered 503 at once. Each hash holds 128 MiB and a thread for about half a second: unbounded, a flood of
 * sign-ins would take every thread and the memory and starve every other request. The queue bound keeps the
 * wait of an admitted request to seconds.
 */
export const HASH_CONCURRENCY = Math.max(1, Math.min(os.availableParallelism(), 3));
export const HASH_QUEUE_LIMIT = 8 * HASH_CONCURRENCY;
export const hashingSlots = createSemaphore({ limit: HASH_CONCURRENCY, maxQueue: HASH_QUEUE_LIMIT });

export const hashingBusyMessage = 'Sign-in is busy at the moment. Please try again in a few seconds';
const BUSY_RETRY_AFTER_SECONDS = 5;

const derive = async (password: string, salt: Buffer, cost: Cost): Promise<Buffer> => {
  try {
    return await hashingSlots.run(
      () =>
        new Promise<Buffer>((resolve, reject) => {
          const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 2 * memoryOf(cost) };
          scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
        }),
    );
  } catch (err) {
    if (err instanceof SemaphoreFull)
      throw new HttpError(503, hashingBusyMessage, undefined, { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) });
    throw err;
  }
};

export async function hashPassword(password: string, cost: Cost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

type Parsed = { cost: Cost; salt: Buffer; expected: Buffer };

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N = 0, r = 0, p = 0] = parts.slice(1, 4).map(Number);
  const cost = { N, r, p };
  if (!isSaneCost(cost)) return null;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (salt.length === 0 || expected.length !== KEY_LENGTH) return null;
  return { cost, salt, expected };
}

/** Constant-time comparison; a malformed stored hash simply never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.cost);
  return timingSafeEqual(actual, parsed.expected);
}

/** A well-formed hash made at a lower cost than today's: worth re-hashing once its password is known. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return parsed !== null && memoryOf(parsed.cost) < memoryOf(PASSWORD_COST);
}

/**
 * A well-formed hash of a random password at today's cost: sign-in compares against it when the username is
 * unknown (or has no password yet), so that takes as long as a wrong password and response times do not
 * reveal who has an account.
 */
let decoy: Promise<string> | null = null;
export const decoyHash = (): Promise<string> => {
  decoy ??= hashPassword(randomBytes(18).toString('base64')).catch((err: unknown) => {
    decoy = null;
    throw err;
  });
  return decoy;
};
