import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type NativeConnectionOptions, type WorkflowBundleOption } from '@temporalio/worker';
import type { Pool } from 'pg';
import type { ErpPort } from '../../domain/src/erp/port';
import type { EventStore } from '../../domain/src/event-store/port';
import { erpApiKey } from '../../platform/src/config';
import { createHttpErp } from '../../platform/src/erp/http-erp';
import { createConfiguredDelivery } from '../../platform/src/notifications';
import { runService } from '../../platform/src/process/run-service';
import { temporalConnectionOptions } from '../../platform/src/temporal/connect';
import { bundleWorkflows } from './bundle';
import { createBlockActivities } from './block/activities';
import { createContactChangeActivities } from './contact-change/activities';
import { createDocumentExpiryActivities } from './document-expiry/activities';
import { createInvoiceActivities } from './invoices/activities';
import { createMassUploadActivities } from './mass-upload/activities';
import { createMemoActivities } from './memos/activities';
import { createOnboardingActivities } from './onboarding/activities';
import { createRegistrationActivities } from './registration/activities';
import { createRfpActivities } from './rfp/activities';
import { createVendorCodeWorkbookActivities } from './vendor-code-workbook/activities';
import { createVendorCodeActivities } from './vendor-code/activities';
import { masterLookup, noMasterLookup, type MasterLookup } from './shared/master-references';

export type CreateWorkerOptions = {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  store: EventStore;
  /**
   * PostgreSQL for activities that write operational tables (a completed contact change ends the user's
   * sessions and writes the outbox). Without it, such an activity fails (and is retried) before it writes.
   */
  pool?: Pool;
  /** A prebuilt bundle (tests, bench); without it workflows.ts is bundled here on start (seconds). */
  workflowBundle?: WorkflowBundleOption;
  /**
   * The ERP (domain/src/erp/port.ts) for the activities that submit to it: the worker process builds the HTTP
   * adapter from ERP_URL/ERP_API_KEY/ERP_TIMEOUT; tests pass startErpSandbox's `erp` or createInMemoryErp().
   * Without it such an activity fails (and is retried).
   */
  erp?: ErpPort;
};

/**
 * Every activity of every lifecycle, built from their dependencies. Decisions that name master items (a
 * company, a city) resolve them through `masters`, by default from the pool's master_items. `temporal`: a
 * client for activities that send to another lifecycle (the document-expiry timers ask the onboarding
 * lifecycle to record a reminder); without it such an activity fails (and is retried).
 */
export const createActivities = ({
  store,
  pool,
  masters,
  temporal,
  erp,
}: {
  store: EventStore;
  pool?: Pool;
  masters?: MasterLookup;
  temporal?: Client;
  /** The ERP port for the ERP activities (vendor codes, blocks, mass uploads, workbooks): pass it on as `erp`. */
  erp?: ErpPort;
}) => {
  const lookup = masters ?? (pool ? masterLookup(pool) : noMasterLookup);
  return {
    ...createOnboardingActivities({ store, masters: lookup }),
    ...createContactChangeActivities({ store, pool }),
    ...createRegistrationActivities({ store, masters: lookup }),
    ...createBlockActivities({ store, masters: lookup, ...(pool ? { pool } : {}), ...(erp ? { erp } : {}) }),
    ...createDocumentExpiryActivities(temporal ? { temporal } : {}),
    ...createMassUploadActivities({ store, ...(erp ? { erp } : {}) }),
    ...createVendorCodeWorkbookActivities({ store, ...(erp ? { erp } : {}) }),
    ...createVendorCodeActivities({ store, masters: lookup, ...(erp ? { erp } : {}) }),
    ...createRfpActivities({ store, ...(pool ? { pool } : {}) }),
    // [issue 11: invoice activities]
    ...createInvoiceActivities({ store, ...(pool ? { pool } : {}), ...(erp ? { erp } : {}) }),
    // [issue 11: memo activities]
    ...createMemoActivities({ store, ...(pool ? { pool } : {}) }),
  };
};

/** A worker for every workflow and activity of the system on one task queue. */
export async function createWorker({
  connection,
  namespace,
  taskQueue,
  store,
  pool,
  workflowBundle,
  erp,
}: CreateWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowBundle: workflowBundle ?? (await bundleWorkflows()),
    // The worker's own connection serves the client too: updates to other lifecycles in the same namespace.
    activities: createActivities({ store, pool, temporal: new Client({ connection, namespace }), erp }),
  });
}

/** Temporal may still be starting (docker-compose, the supervisor): retry the connection for a while. */
async function connectWithRetry(options: NativeConnectionOptions, timeoutMs: number): Promise<NativeConnection> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await NativeConnection.connect(options);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * The worker process (`tsx workflows/src/worker.ts`). SIGTERM/SIGINT: the SDK's runtime (default
 * shutdownSignals) asks the worker to stop polling and finish in-flight tasks, `run()` then resolves and the
 * connection, the store and the database are closed.
 */
if (require.main === module) {
  runService('worker', {}, async ({ config, db, store, log, onClose }) => {
    // E-mails and SMS from the outbox go out from here; stopped (in-flight sends recorded) before the database closes.
    const delivery = createConfiguredDelivery({ pool: db.pool, notifications: config.notifications, log });
    await delivery.start();
    onClose(() => delivery.stop());
    // mTLS when TEMPORAL_TLS_DIR is set (design.md §12), read once: a bad folder stops the worker at once.
    const options = temporalConnectionOptions(config);
    const { address } = options;
    const connection = await connectWithRetry(options, 30_000);
    onClose(() => connection.close());
    const { taskQueue, namespace } = config.temporal;
    // The ERP behind the port: ERP_URL (default the sandbox ERP `npm start` runs), its bearer key, a timeout per call.
    const erp = createHttpErp({ url: config.erp.url, apiKey: erpApiKey(config), timeoutMs: config.erp.timeoutMs });
    const worker = await createWorker({ connection, namespace, taskQueue, store, pool: db.pool, erp });
    log(`polling ${taskQueue} on ${address} (namespace ${namespace})`);
    await worker.run();
  });
}
