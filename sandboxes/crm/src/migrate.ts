import { loadConfig } from '../../../platform/src/config';
import { openDatabase } from '../../../platform/src/db/connect';
import { ensureCrmSandboxSchema } from './store';

/**
 * `tsx sandboxes/crm/src/migrate.ts`: as the owner (DATABASE_OWNER_URL, like `npm run db:migrate`), creates the
 * sandbox CRM's schema `crm_sandbox` if missing, seeds its opportunities and lets the application role
 * (DATABASE_APP_ROLE) use it, so the sandbox process can run as that role. docker-compose's one-shot `migrate`
 * runs it; `npm start` does the same itself. Idempotent.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = (line: string) => console.log(`[crm-sandbox migrate] ${line}`);
  const owner = await openDatabase(config, { mode: 'owner', applySchema: false, poolSize: 1, log });
  try {
    await ensureCrmSandboxSchema(owner.pool, { appRole: config.database.appRole });
    log(`schema crm_sandbox ready for ${config.database.appRole}`);
  } finally {
    await owner.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
