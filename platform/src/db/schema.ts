import type pg from 'pg';
import { ensureEventStoreSchema } from '../event-store/schema';
import { ensureProjectionsSchema } from '../../../projections/src/schema';
import { ensureIdentityStoreSchema } from '../../../api/src/identity/store/schema';
import { ensureIdempotencySchema } from '../../../api/src/http/idempotency';
import { ensureMassUploadProgressSchema } from '../../../api/src/mass-upload/progress';
import { ensureMastersSchema } from '../../../api/src/masters/keys';
import { ensurePanClaimsSchema } from '../../../api/src/onboarding/pan-claims';
import { ensureOutboxSchema } from '../notifications/schema';
import { ensureDemoSeedSchema } from './demo-seed-state';
import { ensureNotificationReadStateSchema } from '../../../projections/src/notifications/read-state';

/** Arbitrary constant: serialises schema creation between processes starting at the same time. */
const SCHEMA_LOCK = 7_340_031;

/** Creates every table the system needs, idempotently: the event store first, then the read models. */
export async function applySchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    await ensureEventStoreSchema(client);
    await ensureProjectionsSchema(client);
    await ensureIdentityStoreSchema(client);
    await ensureOutboxSchema(client);
    await ensureDemoSeedSchema(client);
    // Created here, by the owner: the application role may not create tables (EVENT_STORE=kurrentdb's
    // subscriptions keep their positions in it). Loaded lazily: only this table needs that module.
    const { ensureKurrentDbCheckpointSchema } = await import('../event-store/kurrentdb');
    await ensureKurrentDbCheckpointSchema(client);
    await ensureIdempotencySchema(client);
    // Where each mass upload's recording stands, read by every api process (api/src/mass-upload/progress.ts).
    await ensureMassUploadProgressSchema(client);
    // Master items' unique-key claims and the id sequence of new items (api/src/masters/keys.ts).
    await ensureMastersSchema(client);
    // Who holds which PAN under which company code (api/src/onboarding/pan-claims.ts).
    await ensurePanClaimsSchema(client);
    // What users have read of their notifications: operational, beside the projection (never rebuilt).
    await ensureNotificationReadStateSchema(client);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => undefined);
    client.release();
  }
}
