import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import type { EventStore } from '../../domain/src/event-store/port';
import { loadConfig, temporalAddress } from '../../platform/src/config';
import { openDatabase } from '../../platform/src/db/connect';
import { openEventStore } from '../../platform/src/event-store/open';
import { bundleWorkflows } from './bundle';
import { createOnboardingActivities } from './onboarding/activities';

export type CreateWorkerOptions = {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  store: EventStore;
  /** A prebuilt bundle (tests, bench); without it workflows.ts is bundled here on start (seconds). */
  workflowBundle?: WorkflowBundleOption;
};

/** Every activity of every lifecycle, built from their dependencies. */
export const createActivities = ({ store }: { store: EventStore }) => ({
  ...createOnboardingActivities({ store }),
});

/** A worker for every workflow and activity of the system on one task queue. */
export async function createWorker({
  connection,
  namespace,
  taskQueue,
  store,
  workflowBundle,
}: CreateWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowBundle: workflowBundle ?? (await bundleWorkflows()),
    activities: createActivities({ store }),
  });
}

/** Temporal may still be starting (docker-compose, the supervisor): retry the connection for a while. */
async function connectWithRetry(address: string, timeoutMs: number): Promise<NativeConnection> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await NativeConnection.connect({ address });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * The worker process (`tsx workflows/src/worker.ts`). SIGTERM/SIGINT: the SDK's runtime (default
 * shutdownSignals) asks the worker to stop polling and finish in-flight tasks, `run()` then resolves and we
 * close the connection and the database.
 */
export async function main(): Promise<void> {
  const config = loadConfig();
  const address = temporalAddress(config);
  const db = await openDatabase(config, { log: (line) => console.log(`[worker] ${line}`) });
  const store = await openEventStore(config, db.pool);
  const connection = await connectWithRetry(address, 30_000);
  try {
    const worker = await createWorker({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      store,
    });
    const { taskQueue, namespace } = config.temporal;
    console.log(`[worker] polling ${taskQueue} on ${address} (namespace ${namespace})`);
    await worker.run();
  } finally {
    await connection.close();
    await store.close();
    await db.close();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('[worker] stopped:', error);
      process.exit(1);
    },
  );
}
