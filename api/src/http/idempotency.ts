import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type pg from 'pg';
import { DomainError } from '../../../domain/src/shared/errors';

/*
 * An Idempotency-Key is bound to the request it first came with (issue 6). The key becomes the workflow
 * update id, and Temporal answers a repeated update id with the earlier result whatever the new arguments;
 * so before a command is sent, the key is recorded with a fingerprint of its request (method, path, body),
 * and the same key with a different request is refused (422) instead of being answered with the earlier
 * result. Operational state (not events): rows older than a day are pruned, by then no client retries.
 */

export const IDEMPOTENCY_SCHEMA_SQL = /* sql */ `
create table if not exists idempotency_keys (
  principal text not null,
  key text not null,
  fingerprint text not null,
  created_at timestamptz not null default now(),
  primary key (principal, key)
);
create index if not exists idempotency_keys_created_at on idempotency_keys (created_at);`;

export async function ensureIdempotencySchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  await db.query(IDEMPOTENCY_SCHEMA_SQL);
}

export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for a different request';

/** How long a key stays bound to its request. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** Pruning runs at most this often per process, on the way of a command. */
const PRUNE_EVERY_MS = 10 * 60_000;

/** JSON with object keys sorted at every level, so the same body always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** sha256 of the request as the client sent it: method, path (with its ids), canonical body. */
export function requestFingerprint(req: Request): string {
  const path = req.originalUrl.split('?')[0] ?? '';
  return createHash('sha256')
    .update(`${req.method}\n${path}\n${canonicalJson(req.body ?? {})}`)
    .digest('hex');
}

let lastPrune = 0;

/**
 * Records that `principal` used `key` for the request `fingerprint`; refuses (422) the key if it is already
 * bound to another request. A key bound more than a day ago is free again.
 */
export async function bindIdempotencyKey(pool: pg.Pool, principal: string, key: string, fingerprint: string): Promise<void> {
  if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
    lastPrune = Date.now();
    await pool.query(`delete from idempotency_keys where created_at < now() - make_interval(hours => $1)`, [
      IDEMPOTENCY_KEY_TTL_HOURS,
    ]);
  }
  const inserted = await pool.query(
    `insert into idempotency_keys (principal, key, fingerprint) values ($1, $2, $3) on conflict do nothing`,
    [principal, key, fingerprint],
  );
  if (inserted.rowCount === 1) return;
  // Taken: the same request again is fine; an expired binding is taken over; anything else is refused.
  const { rows } = await pool.query<{ fingerprint: string; expired: boolean }>(
    `select fingerprint, created_at < now() - make_interval(hours => $3) as expired
       from idempotency_keys where principal = $1 and key = $2`,
    [principal, key, IDEMPOTENCY_KEY_TTL_HOURS],
  );
  const bound = rows[0];
  if (!bound || bound.fingerprint === fingerprint) return;
  if (bound.expired) {
    await pool.query(
      `update idempotency_keys set fingerprint = $3, created_at = now() where principal = $1 and key = $2`,
      [principal, key, fingerprint],
    );
    return;
  }
  throw new DomainError('rule', IDEMPOTENCY_KEY_REUSED, { 'Idempotency-Key': IDEMPOTENCY_KEY_REUSED });
}
