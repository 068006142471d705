import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, workflowBundle } from '../../../tests/support/temporal';
import { masterLookup } from '../shared/master-references';
import { createActivities } from '../worker';

export type TestWorker = {
  db: TestDatabase;
  store: EventStore;
  client: Client;
  /** Shuts the worker down (waiting for its run to end), closes both connections and drops the database. */
  stop: () => Promise<void>;
  /** Shuts the worker down only: the queue has no poller until `resumeWorker` (a worker outage). */
  pauseWorker: () => Promise<void>;
  /** A new worker on the same queue, with the same activities. */
  resumeWorker: () => Promise<void>;
};

export type Activities = ReturnType<typeof createActivities>;

/**
 * What a workflow integration test file runs against (in its `beforeAll`): a fresh database and its event
 * store, a worker with every workflow and activity polling `taskQueue` (give each file its own,
 * `uniqueTaskQueue`) on the Temporal server global setup started, and a client. One worker for the whole
 * file: creating one per test would cost more than the tests themselves. `withPool` gives the activities the
 * database for the operational tables (the contact change's sessions and outbox). What was started before a
 * failing step is stopped again before the error is thrown.
 */
export async function startTestWorker(
  taskQueue: string,
  options: {
    withPool?: boolean;
    /** Replaces some activities (a test injects a failing one), given the real ones to delegate to. */
    activities?: (real: Activities) => Partial<Activities>;
  } = {},
): Promise<TestWorker> {
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
    // As in production, the worker's code connects as the least-privileged application role.
    const store = createPostgresEventStore(db.appPool);
    nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
    // The masters (company codes, cities) always come from the database: decisions resolve them there.
    const masters = masterLookup(db.appPool);
    const real = createActivities(options.withPool ? { store, pool: db.appPool, masters } : { store, masters });
    const activities = { ...real, ...options.activities?.(real) };
    const native = nativeConnection;
    const launch = async () => {
      worker = await Worker.create({ connection: native, taskQueue, workflowBundle: workflowBundle(), activities });
      running = worker.run();
    };
    const pauseWorker = async () => {
      worker?.shutdown();
      await running;
      worker = undefined;
      running = undefined;
    };
    await launch();
    connection = await Connection.connect({ address: temporalAddress() });
    return { db, store, client: new Client({ connection }), stop, pauseWorker, resumeWorker: launch };
  } catch (error) {
    await stop();
    throw error;
  }
}
