import type pg from 'pg';
import type { Config } from '../config';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from './postgres';

/** The configured adapter: PostgreSQL by default, KurrentDB when EVENT_STORE=kurrentdb. */
export async function openEventStore(config: Config, pool: pg.Pool): Promise<EventStore> {
  if (config.eventStore.kind === 'kurrentdb') {
    const { createKurrentDbEventStore } = await import('./kurrentdb');
    return createKurrentDbEventStore(config.eventStore.url, { checkpointPool: pool });
  }
  return createPostgresEventStore(pool);
}
