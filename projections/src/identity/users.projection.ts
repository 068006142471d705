import type { PoolClient } from 'pg';
import { defaultAccess } from '../../../domain/src/identity/applications';
import { PASSWORD_HISTORY_LENGTH, type UserEvent } from '../../../domain/src/identity/users';
import { isBaRole } from '../../../domain/src/identity/roles';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';
import { credentialOf } from './legacy-credentials';

/**
 * The `users` read model the API signs people in against and lists users from. Built only from user events.
 * It holds no password hash: `credential_id` names the user's current row of the `credentials` table (the
 * one the newest password event named) and `credential_history` the last five, newest first, for the "not one
 * of your last five" rule.
 *
 * Events written before issue 6 carry the hash itself: each such hash is put into `credentials` under its
 * legacy id (idempotent), so a rebuild from old events, or a database filled from another event store, still
 * signs those users in.
 */
async function keepLegacyHash(client: PoolClient, userId: string, data: { credentialId?: string | null; passwordHash?: string }, at: string) {
  const credentialId = credentialOf(data);
  if (data.credentialId || !data.passwordHash || !credentialId) return;
  await client.query(
    'INSERT INTO credentials (credential_id, user_id, hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (credential_id) DO NOTHING',
    [credentialId, userId, data.passwordHash, at],
  );
}

export const usersProjection: Projection = {
  name: 'users',
  tables: ['users'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('users')} (
      id text PRIMARY KEY,
      username text NOT NULL UNIQUE,
      name text NOT NULL,
      roles text[] NOT NULL,
      company_codes text[] NOT NULL,
      ba_id text,
      created_at timestamptz NOT NULL,
      stream_version integer NOT NULL,
      global_position bigint NOT NULL
    );
    -- Added with the identity capability; ADD COLUMN keeps data folders made before it usable.
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS mobile_no text;
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS department text;
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'staff';
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS status text NOT NULL DEFAULT 'active';
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS applications jsonb NOT NULL DEFAULT '[]';
    -- Issue 6: credential ids instead of hashes (a database made before moves its hashes once: see
    -- api/src/identity/store/schema.ts, which then drops password_hash and password_history).
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS credential_id text;
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS credential_history text[] NOT NULL DEFAULT '{}';
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS password_changed_at timestamptz;
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS must_change_password boolean NOT NULL DEFAULT false;
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS blocked_reason text;
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS updated_at timestamptz;
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS bill_hub_state_id integer;
    CREATE INDEX IF NOT EXISTS ${t('users')}_ba_id_idx ON ${t('users')} (ba_id) WHERE ba_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ${t('users')}_mobile_idx ON ${t('users')} (mobile_no) WHERE mobile_no IS NOT NULL;
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const users = t('users');
    for (const stored of events) {
      if (!stored.streamId.startsWith('user-')) continue;
      const event = { type: stored.type, data: stored.data } as UserEvent;
      const at = stored.metadata.at;
      // Every statement is guarded on the stream version, so a page applied twice changes nothing.
      const guard = `id = $1 AND stream_version < ${Number(stored.version)}`;
      const moved = [stored.version, stored.globalPosition, at];
      switch (event.type) {
        case 'UserRegistered': {
          const d = event.data;
          await keepLegacyHash(client, d.userId, d, at);
          // ON CONFLICT DO NOTHING on any key: applying a page twice is harmless, and a duplicate username
          // (the API checks before it registers) must never stall the projector.
          await client.query(
            `INSERT INTO ${users}
               (id, username, name, credential_id, roles, company_codes, ba_id, created_at, stream_version,
                global_position, mobile_no, department, kind, status, applications, credential_history,
                password_changed_at, must_change_password, updated_at, bill_hub_state_id)
             VALUES ($1, $2, $3, $4::text, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'active', $14,
                     CASE WHEN $4::text IS NULL THEN '{}'::text[] ELSE ARRAY[$4::text] END, $8, $15, $8, $16)
             ON CONFLICT DO NOTHING`,
            [
              d.userId,
              d.username,
              d.name,
              credentialOf(d),
              d.roles,
              d.companyCodes,
              d.baId,
              at,
              stored.version,
              stored.globalPosition,
              d.mobileNo ?? null,
              d.department ?? null,
              d.roles.some(isBaRole) ? 'ba' : 'staff',
              JSON.stringify(d.applications ?? defaultAccess(d.roles)),
              d.mustChangePassword ?? false,
              d.billHubStateId ?? null,
            ],
          );
          break;
        }
        case 'UserPasswordChanged':
          await keepLegacyHash(client, event.data.userId, event.data, at);
          await client.query(
            `UPDATE ${users} SET credential_id = $4::text,
               credential_history = (ARRAY[$4::text] || array_remove(credential_history, $4::text))[1:${PASSWORD_HISTORY_LENGTH}],
               password_changed_at = $5, must_change_password = false,
               stream_version = $2, global_position = $3, updated_at = $5
             WHERE ${guard}`,
            [event.data.userId, ...moved.slice(0, 2), credentialOf(event.data), at],
          );
          break;
        case 'UserBlocked':
        case 'UserUnblocked':
          await client.query(
            `UPDATE ${users} SET status = $4, blocked_reason = $5, stream_version = $2, global_position = $3,
               updated_at = $6 WHERE ${guard}`,
            [
              event.data.userId,
              ...moved.slice(0, 2),
              event.type === 'UserBlocked' ? 'blocked' : 'active',
              event.type === 'UserBlocked' ? event.data.reason : null,
              at,
            ],
          );
          break;
        case 'UserUpdated': {
          const d = event.data;
          await client.query(
            `UPDATE ${users} SET name = $4, mobile_no = $5, department = $6, applications = $7, roles = $8,
               company_codes = $9, stream_version = $2, global_position = $3, updated_at = $10 WHERE ${guard}`,
            [d.userId, ...moved.slice(0, 2), d.name, d.mobileNo, d.department, JSON.stringify(d.applications), d.roles, d.companyCodes, at],
          );
          break;
        }
        case 'UserContactChanged':
          await client.query(
            `UPDATE ${users} SET username = $4, mobile_no = $5, stream_version = $2, global_position = $3,
               updated_at = $6 WHERE ${guard}`,
            [event.data.userId, ...moved.slice(0, 2), event.data.newEmail, event.data.newMobile, at],
          );
          break;
        default:
          // Unknown event types are ignored: a projection never throws on what it does not know.
          break;
      }
    }
  },
};
