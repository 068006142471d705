import type { PoolClient } from 'pg';
import { REGISTRATION_EVENT_TYPES, type RegistrationEvent } from '../../../domain/src/registration/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';

/**
 * Self-registrations as a read model (`registrations`), for the duplicate-vendor check of issue 8: a mobile
 * number or e-mail id already used by a registration still waiting for its codes is a match too. One row per
 * registration, moved by its own stream's events, guarded by stream version.
 */
const KNOWN: ReadonlySet<string> = new Set(REGISTRATION_EVENT_TYPES);

const schema = (t: TableNames): string => {
  const r = t('registrations');
  return `
CREATE TABLE IF NOT EXISTS ${r} (
  id text NOT NULL,
  mobile_no text NOT NULL,
  email text NOT NULL,
  company_code text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'completed', 'expired')),
  ba_id text,
  started_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  version integer NOT NULL,
  CONSTRAINT ${r}_pkey PRIMARY KEY (id)
);
CREATE INDEX IF NOT EXISTS ${r}_pending_mobile_idx ON ${r} (mobile_no) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS ${r}_pending_email_idx ON ${r} (email) WHERE status = 'pending';`;
};

async function apply(client: PoolClient, events: readonly StoredEvent[], t: TableNames): Promise<void> {
  const table = t('registrations');
  for (const stored of events) {
    if (!KNOWN.has(stored.type) || !stored.streamId.startsWith('registration-')) continue;
    const event = { type: stored.type, data: stored.data } as RegistrationEvent;
    switch (event.type) {
      case 'RegistrationStarted': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${table} (id, mobile_no, email, company_code, status, started_at, expires_at, version)
           VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [d.registrationId, d.mobileNo, d.email, d.companyCode, stored.metadata.at, d.expiresAt, stored.version],
        );
        break;
      }
      case 'RegistrationCompleted':
        await client.query(`UPDATE ${table} SET status = 'completed', ba_id = $2, version = $3 WHERE id = $1 AND version < $3`, [
          event.data.registrationId,
          event.data.baId,
          stored.version,
        ]);
        break;
      case 'RegistrationExpired':
        await client.query(`UPDATE ${table} SET status = 'expired', version = $2 WHERE id = $1 AND version < $2`, [
          event.data.registrationId,
          stored.version,
        ]);
        break;
    }
  }
}

export const registrationsProjection: Projection = {
  name: 'registrations',
  tables: ['registrations'],
  schema,
  apply,
};
