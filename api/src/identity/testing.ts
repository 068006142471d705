import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Db } from '../../../projections/src/sql';
import { hashPassword } from './password';
import { saveCredential } from './store/credentials';

/**
 * Test-only helpers for accounts with a password. Hashing at the OWASP cost takes about half a second, so each
 * password is hashed once per test process and stored under a fresh credential id per user (the salt repeats
 * across test users, which matters to nobody).
 */
const hashes = new Map<string, Promise<string>>();

/** Stores `password` as a new credential of the user; answers the id a RegisterUser / ChangePassword carries. */
export async function testCredential(db: Db, userId: string, password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  const credentialId = randomUUID();
  await saveCredential(db, { credentialId, userId, hash: await hash });
  return credentialId;
}

/** A password hash as the API writes them: what must never appear in an event or a workflow history. */
export const SCRYPT_HASH = /scrypt\$/;

/** Every event in the store whose data holds a password hash (should be none written since issue 6). */
export async function eventsHoldingHashes(store: EventStore): Promise<StoredEvent[]> {
  const held: StoredEvent[] = [];
  let after = 0;
  for (;;) {
    const page = await store.readAll(after, 500);
    if (page.length === 0) return held;
    for (const e of page) if (SCRYPT_HASH.test(JSON.stringify(e.data))) held.push(e);
    after = page.at(-1)?.globalPosition ?? after;
  }
}

/** All the text a Temporal history carries (payloads are bytes): what a hash search must look through. */
export function historyText(history: unknown): string {
  const parts: string[] = [];
  const walk = (value: unknown): void => {
    if (value instanceof Uint8Array) parts.push(Buffer.from(value).toString('utf8'));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    else if (typeof value === 'string') parts.push(value);
  };
  walk(history);
  return parts.join('\n');
}
