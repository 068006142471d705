import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, workflowBundle } from '../../../tests/support/temporal';
import { createActivities } from '../worker';

export type TestWorker = {
  db: TestDatabase;
  store: EventStore;
  client: Client;
  /** Shuts the worker down (waiting for its run to end), closes both connections and drops the database. */
  stop: () => Promise<void>;
};

/**
 * What a workflow integration test file runs against (in its `beforeAll`): a fresh database and its event
 * store, a worker with every workflow and activity polling `taskQueue` (give each file its own,
 * `uniqueTaskQueue`) on the Temporal server global setup started, and a client. One worker for the whole
 * file: creating one per test would cost more than the tests themselves. `withPool` gives the activities the
 * database for the operational tables (the contact change's sessions and outbox). What was started before a
 * failing step is stopped again before the error is thrown.
 */
export async function startTestWorker(taskQueue: string, options: { withPool?: boolean } = {}): Promise<TestWorker> {
  let db: TestDatabase | undefined;
  let nativeConnection: NativeConnection | undefined;
  let connection: Connection | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  const stop = async () => {
    worker?.shutdown();
    await running;
    await connection?.close();
    await nativeConnection?.close();
    await db?.drop();
  };
  try {
    db = await createTestDatabase();
    const store = createPostgresEventStore(db.pool);
    nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
    worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: workflowBundle(),
      activities: createActivities(options.withPool ? { store, pool: db.pool } : { store }),
    });
    running = worker.run();
    connection = await Connection.connect({ address: temporalAddress() });
    return { db, store, client: new Client({ connection }), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
