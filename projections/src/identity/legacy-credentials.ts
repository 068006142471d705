import { createHash } from 'node:crypto';

/**
 * User events written before issue 6 carry the password hash itself (`passwordHash`); newer ones name a row of
 * the `credentials` table (`credentialId`). An old hash gets a credential id derived from it, the same here
 * (the users projection) and in SQL (the one-off move of the read model's hashes, api/src/identity/store/
 * schema.ts): `legacy-` + SHA-256 hex of the hash text. Deterministic, so replaying or rebuilding names the same
 * row every time.
 */
export const legacyCredentialId = (hash: string): string => `legacy-${createHash('sha256').update(hash, 'utf8').digest('hex')}`;

/** The credential an event names: its credentialId, else the legacy id of the hash it carries, else none. */
export function credentialOf(data: { credentialId?: string | null; passwordHash?: string }): string | null {
  if (data.credentialId) return data.credentialId;
  return data.passwordHash ? legacyCredentialId(data.passwordHash) : null;
}
