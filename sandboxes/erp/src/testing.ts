import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { ErpPort, ErpVendor } from '../../../domain/src/erp/port';
import { createHttpErp, type HttpErp } from '../../../platform/src/erp/http-erp';
import { createErpSandbox } from './app';
import { describeFaults, type FaultSettings } from './faults';
import { ensureErpSandboxSchema } from './store';

export type StartedErpSandbox = {
  /** Base URL of the sandbox (http://127.0.0.1:<port>), for ERP_URL or createHttpErp. */
  url: string;
  apiKey: string;
  /** The production HTTP adapter pointed at this sandbox (ERP_TIMEOUT = `timeoutMs`). */
  erp: ErpPort & Pick<HttpErp, 'vendor' | 'listVendors'>;
  /** Changes the faults (a partial update, like `PUT /_sandbox/faults`); `{}` changes nothing. */
  setFaults(faults: FaultSettings): ReturnType<typeof describeFaults>;
  /** Ends every fault (`DELETE /_sandbox/faults`). */
  resetFaults(): void;
  /** How long requests accepted from now on stay pending (the background tick keeps its start-up pace). */
  setProcessingMs(ms: number): void;
  /** Every vendor the sandbox holds (due requests processed first), by vendor code. */
  vendors(): Promise<ErpVendor[]>;
  /** How many requests the sandbox holds (one per idempotency key). */
  requestCount(): Promise<number>;
  stop(): Promise<void>;
};

/**
 * The sandbox ERP in-process, on a free port, in the `erp_sandbox` schema of the given database (created when
 * missing: pass the owner's URL, e.g. createTestDatabase()'s `url`, not its `appUrl`). For integration tests:
 *
 *   const erp = await startErpSandbox({ databaseUrl: db.url, processingMs: 100 });
 *   … createActivities({ …, erp: erp.erp }) …; erp.setFaults({ errorRate: 1 }); … await erp.stop();
 */
export async function startErpSandbox(options: {
  databaseUrl: string;
  /** How long a request stays pending (default 100 ms here; the process's default is 1500 ms). */
  processingMs?: number;
  faults?: FaultSettings;
  /** The adapter's per-call timeout (default 2000 ms): a `timeoutRate` hang ends after it. */
  timeoutMs?: number;
  apiKey?: string;
}): Promise<StartedErpSandbox> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 5 });
  pool.on('error', () => undefined);
  try {
    await ensureErpSandboxSchema(pool);
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
  const apiKey = options.apiKey ?? randomBytes(16).toString('hex');
  const sandbox = createErpSandbox({ pool, apiKey, processingMs: options.processingMs ?? 100, faults: options.faults });
  const server = sandbox.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  sandbox.start();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const erp = createHttpErp({ url, apiKey, timeoutMs: options.timeoutMs ?? 2000 });
  let stopped = false;
  return {
    url,
    apiKey,
    erp,
    setFaults: (faults) => describeFaults(sandbox.setFaults(faults)),
    resetFaults: () => sandbox.resetFaults(),
    setProcessingMs: (ms) => sandbox.setProcessingMs(ms),
    vendors: async () => (await sandbox.store.list({ page: 1, perPage: 1_000_000 })).vendors,
    requestCount: async () => {
      const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from erp_sandbox.requests');
      return rows[0]?.n ?? 0;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await sandbox.stop();
      // Hung answers (timeoutRate) keep their sockets open: end them with the server.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end().catch(() => undefined);
    },
  };
}
