import type { EventMetadata } from '../../../domain/src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';

/** What the PostgreSQL event-store tests share: their events' metadata and a database of their own. */

/** The metadata of the tests' events: a staff user of company 1000 at a fixed time. */
export const testMetadata: EventMetadata = {
  actor: { userId: 'u-1', role: 'MLL Procurement' },
  companyCode: '1000',
  correlationId: 'corr-1',
  causationId: null,
  workflowId: null,
  requestId: null,
  at: '2026-02-01T10:00:00.000Z',
};

/**
 * An empty database (the event store's schema only, 4 connections) made before the tests of the calling
 * `describe` and dropped after them; the answer reads it once they run.
 */
export function emptyTestDatabase(): () => TestDatabase {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 4, empty: true });
  });
  afterAll(async () => {
    await db?.drop();
  });
  return () => {
    if (!db) throw new Error('the test database is made in beforeAll: read it inside a test');
    return db;
  };
}
