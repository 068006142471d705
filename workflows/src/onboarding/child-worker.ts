import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import pg from 'pg';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createHttpErp } from '../../../platform/src/erp/http-erp';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createWorker } from '../worker';

/**
 * A worker in its own process, for worker-kill.int.test.ts: the test SIGKILLs it mid-lifecycle, which an
 * in-process worker cannot simulate. Run with `node --import tsx` (not the tsx CLI, which would put a
 * second process between the test and the worker and swallow the kill).
 *
 * Env: TEMPORAL_ADDRESS, TASK_QUEUE, DATABASE_URL, WORKFLOW_BUNDLE (path of a prebuilt bundle), and
 * optionally HANG_AFTER_APPEND=<event type>: after appending such an event, print `appended <type>` and
 * never answer, so the kill lands while the activity is in flight and its write is already committed; and
 * ERP_URL (+ ERP_API_KEY) for the lifecycles that call the ERP. Started by workflows/src/testing/child-worker-process.ts.
 */
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

function hangingAfter(store: EventStore, type: string): EventStore {
  return {
    ...store,
    appendToStream: async (streamId, events, options) => {
      const result = await store.appendToStream(streamId, events, options);
      if (events.some((e) => e.type === type)) {
        console.log(`appended ${type}`);
        await new Promise(() => undefined);
      }
      return result;
    },
  };
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 4 });
  const base = createPostgresEventStore(pool);
  const hang = process.env.HANG_AFTER_APPEND;
  const store = hang ? hangingAfter(base, hang) : base;
  const connection = await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') });
  const worker = await createWorker({
    connection,
    namespace: 'default',
    taskQueue: env('TASK_QUEUE'),
    store,
    pool,
    workflowBundle: { codePath: env('WORKFLOW_BUNDLE') },
    ...(process.env.ERP_URL ? { erp: createHttpErp({ url: process.env.ERP_URL, apiKey: process.env.ERP_API_KEY ?? '', timeoutMs: 5_000 }) } : {}),
  });
  const running = worker.run();
  console.log('ready');
  await running;
  await connection.close();
  await pool.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
