import { Client, Connection } from '@temporalio/client';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, uniqueTaskQueue } from '../../../tests/support/temporal';
import { childWorkers, type ChildWorkers } from './child-worker-process';

export type WorkerKillSuite = { taskQueue: string; db: TestDatabase; client: Client; workers: ChildWorkers };

/**
 * The set-up every killed-worker test shares: its own database, a Temporal client, and child worker processes on
 * a task queue of its own (so SIGKILL hits a real process), torn down after the file. `around` adds what a test
 * needs between the database and the workers (the sandbox ERP) and takes it down before the database goes.
 * The fields are filled in beforeAll: read them inside tests.
 */
export function workerKillSuite(name: string, around: { setUp?: (db: TestDatabase) => Promise<void>; tearDown?: () => Promise<void> } = {}): WorkerKillSuite {
  const suite = { taskQueue: uniqueTaskQueue(name) } as WorkerKillSuite;
  let connection: Connection | undefined;
  beforeAll(async () => {
    suite.db = await createTestDatabase({ poolSize: 2 });
    await around.setUp?.(suite.db);
    connection = await Connection.connect({ address: temporalAddress() });
    suite.client = new Client({ connection });
    suite.workers = childWorkers(suite.taskQueue, suite.db.appUrl);
  });
  afterAll(async () => {
    suite.workers?.stopAll();
    await connection?.close();
    await around.tearDown?.();
    await suite.db?.drop();
  });
  return suite;
}
