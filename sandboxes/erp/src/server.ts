import { ConfigError, erpApiKey, loadConfig } from '../../../platform/src/config';
import { openDatabase } from '../../../platform/src/db/connect';
import { stopSignal } from '../../../platform/src/process/run-service';
import { createErpSandbox } from './app';
import { ensureErpSandboxSchema } from './store';

/**
 * The sandbox ERP process (`tsx sandboxes/erp/src/server.ts`; `npm start` runs it unless ERP_URL is set, and
 * docker-compose as `erp-sandbox`). Listens on ERP_SANDBOX_HOST:ERP_SANDBOX_PORT, answers the ERP contract
 * with the bearer key ERP_API_KEY, keeps its vendor master in the schema `erp_sandbox` of DATABASE_URL's
 * database (created if missing, when this connection may; the supervisor prepares it as the owner), starts
 * with the faults ERP_SANDBOX_* and stops on SIGTERM/SIGINT.
 */
const log = (line: string) => console.log(`[erp-sandbox] ${line}`);

async function main(): Promise<void> {
  const config = loadConfig();
  const apiKey = erpApiKey(config);
  const { host, port, processingMs, faults } = config.erp.sandbox;
  const db = await openDatabase(config, { mode: 'app', poolSize: 5, log });
  try {
    await ensureErpSandboxSchema(db.pool);
    const sandbox = createErpSandbox({
      pool: db.pool,
      apiKey,
      processingMs,
      faults: {
        latencyMs: faults.latencyMs,
        errorRate: faults.errorRate,
        timeoutRate: faults.timeoutRate,
        ...(faults.downForMs > 0 ? { downFor: faults.downForMs } : {}),
      },
      log,
    });
    const server = sandbox.app.listen(port, host);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    sandbox.start();
    const active = Object.entries(faults).filter(([, v]) => v > 0);
    log(
      `listening on http://${host}:${port} (requests pending ${processingMs} ms` +
        `${active.length ? `; faults ${active.map(([k, v]) => `${k}=${v}`).join(', ')}` : ''})`,
    );
    const signal = await stopSignal();
    log(`${signal}: stopping`);
    await sandbox.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  } finally {
    await db.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[erp-sandbox] stopped: ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
