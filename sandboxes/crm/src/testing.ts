import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { CrmPort } from '../../../domain/src/crm/port';
import { createHttpCrm } from '../../../platform/src/crm/http-crm';
import { createCrmSandbox } from './app';
import { describeFaults, type FaultSettings } from './faults';
import { ensureCrmSandboxSchema } from './store';

export type StartedCrmSandbox = {
  /** Base URL of the sandbox (http://127.0.0.1:<port>), for CRM_URL or createHttpCrm. */
  url: string;
  apiKey: string;
  /** The production HTTP adapter pointed at this sandbox (CRM_TIMEOUT = `timeoutMs`). */
  crm: CrmPort;
  /** Changes the faults (a partial update, like `PUT /_sandbox/faults`); `{}` changes nothing. */
  setFaults(faults: FaultSettings): ReturnType<typeof describeFaults>;
  /** Ends every fault (`DELETE /_sandbox/faults`). */
  resetFaults(): void;
  stop(): Promise<void>;
};

/**
 * The sandbox CRM in-process, on a free port, in the `crm_sandbox` schema of the given database (created and
 * seeded when missing: pass the owner's URL, e.g. createTestDatabase()'s `url`, not its `appUrl`). For
 * integration tests:
 *
 *   const crm = await startCrmSandbox({ databaseUrl: db.url });
 *   … createApp({ …, crm: crm.crm }) …; crm.setFaults({ downFor: 60_000 }); … await crm.stop();
 */
export async function startCrmSandbox(options: {
  databaseUrl: string;
  faults?: FaultSettings;
  /** The adapter's per-call timeout (default 2000 ms): a `timeoutRate` hang ends after it. */
  timeoutMs?: number;
  apiKey?: string;
}): Promise<StartedCrmSandbox> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 3 });
  pool.on('error', () => undefined);
  try {
    await ensureCrmSandboxSchema(pool);
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
  const apiKey = options.apiKey ?? randomBytes(16).toString('hex');
  const sandbox = createCrmSandbox({ pool, apiKey, faults: options.faults });
  const server = sandbox.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let stopped = false;
  return {
    url,
    apiKey,
    crm: createHttpCrm({ url, apiKey, timeoutMs: options.timeoutMs ?? 2000 }),
    setFaults: (faults) => describeFaults(sandbox.setFaults(faults)),
    resetFaults: () => sandbox.resetFaults(),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      // Hung answers (timeoutRate) keep their sockets open: end them with the server.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end().catch(() => undefined);
    },
  };
}
