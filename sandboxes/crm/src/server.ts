import { ConfigError, crmApiKey, loadConfig } from '../../../platform/src/config';
import { openDatabase } from '../../../platform/src/db/connect';
import { stopSignal } from '../../../platform/src/process/run-service';
import { createCrmSandbox } from './app';
import { ensureCrmSandboxSchema } from './store';

/**
 * The sandbox CRM process (`tsx sandboxes/crm/src/server.ts`; `npm start` runs it unless CRM_URL is set, and
 * docker-compose as `crm-sandbox`). Listens on CRM_SANDBOX_HOST:CRM_SANDBOX_PORT, answers the CRM contract
 * with the bearer key CRM_API_KEY, keeps its opportunities in the schema `crm_sandbox` of DATABASE_URL's
 * database (created if missing, when this connection may; the supervisor prepares it as the owner), starts
 * with the faults CRM_SANDBOX_* and stops on SIGTERM/SIGINT.
 */
const log = (line: string) => console.log(`[crm-sandbox] ${line}`);

async function main(): Promise<void> {
  const config = loadConfig();
  const apiKey = crmApiKey(config);
  const { host, port, faults } = config.crm.sandbox;
  const db = await openDatabase(config, { mode: 'app', poolSize: 5, log });
  try {
    await ensureCrmSandboxSchema(db.pool);
    const sandbox = createCrmSandbox({
      pool: db.pool,
      apiKey,
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
    const active = Object.entries(faults).filter(([, v]) => v > 0);
    log(
      `listening on http://${host}:${port} (seeded opportunities` +
        `${active.length ? `; faults ${active.map(([k, v]) => `${k}=${v}`).join(', ')}` : ''})`,
    );
    const signal = await stopSignal();
    log(`${signal}: stopping`);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  } finally {
    await db.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const reason = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    console.error(`[crm-sandbox] stopped: ${reason}`);
    process.exit(1);
  },
);
