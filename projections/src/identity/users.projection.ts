import type { PoolClient } from 'pg';
import { defaultAccess } from '../../../domain/src/identity/applications';
import { PASSWORD_HISTORY_LENGTH, type UserEvent } from '../../../domain/src/identity/users';
import { isBaRole } from '../../../domain/src/identity/roles';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';

/**
 * The `users` read model the API signs people in against and lists users from. Built only from user events;
 * the password hashes are kept here (and in the events) because sign-in and the "not one of your last five"
 * rule must compare against them. They are never sent to a client.
 */
export const usersProjection: Projection = {
  name: 'users',
  tables: ['users'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('users')} (
      id text PRIMARY KEY,
      username text NOT NULL UNIQUE,
      name text NOT NULL,
      password_hash text NOT NULL,
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
    ALTER TABLE ${t('users')} ADD COLUMN IF NOT EXISTS password_history text[] NOT NULL DEFAULT '{}';
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
          // ON CONFLICT DO NOTHING on any key: applying a page twice is harmless, and a duplicate username
          // (the API checks before it registers) must never stall the projector.
          await client.query(
            `INSERT INTO ${users}
               (id, username, name, password_hash, roles, company_codes, ba_id, created_at, stream_version,
                global_position, mobile_no, department, kind, status, applications, password_history,
                password_changed_at, must_change_password, updated_at, bill_hub_state_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'active', $14, ARRAY[$4], $8, $15, $8, $16)
             ON CONFLICT DO NOTHING`,
            [
              d.userId,
              d.username,
              d.name,
              d.passwordHash,
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
          await client.query(
            `UPDATE ${users} SET password_hash = $4,
               password_history = (ARRAY[$4] || array_remove(password_history, $4))[1:${PASSWORD_HISTORY_LENGTH}],
               password_changed_at = $5, must_change_password = false,
               stream_version = $2, global_position = $3, updated_at = $5
             WHERE ${guard}`,
            [event.data.userId, ...moved.slice(0, 2), event.data.passwordHash, at],
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
