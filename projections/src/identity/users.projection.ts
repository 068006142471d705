import type { PoolClient } from 'pg';
import type { UserRegistered } from '../../../domain/src/identity/users';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';

/**
 * The `users` read model the API signs people in against. Built only from user events; the password hash is
 * kept here (and in the event) because sign-in must compare against it, and is never sent to a client.
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
    CREATE INDEX IF NOT EXISTS ${t('users')}_ba_id_idx ON ${t('users')} (ba_id) WHERE ba_id IS NOT NULL;
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    for (const event of events) {
      if (event.type !== 'UserRegistered') continue;
      const data = (event as StoredEvent<'UserRegistered', UserRegistered['data']>).data;
      // ON CONFLICT DO NOTHING on any key: applying a page twice is harmless, and a (decider-prevented)
      // duplicate username must never stall the projector.
      await client.query(
        `INSERT INTO ${t('users')}
           (id, username, name, password_hash, roles, company_codes, ba_id, created_at, stream_version, global_position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT DO NOTHING`,
        [
          data.userId,
          data.username,
          data.name,
          data.passwordHash,
          data.roles,
          data.companyCodes,
          data.baId,
          event.metadata.at,
          event.version,
          event.globalPosition,
        ],
      );
    }
  },
};
