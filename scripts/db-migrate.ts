import { ConfigError, loadConfig } from '../platform/src/config';
import { migrateDatabase } from '../platform/src/db/connect';

/**
 * `npm run db:migrate`: as the owner (DATABASE_OWNER_URL, else DATABASE_URL, else the embedded server's
 * superuser), applies the schema and creates or updates the application role (DATABASE_APP_ROLE, with
 * DATABASE_APP_PASSWORD when set) and its grants (platform/src/db/roles.ts). Idempotent: run it before
 * starting the api, worker and projector after every deployment (docker-compose's `migrate` service).
 */
async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 2;
    }
    throw e;
  }
  const log = (line: string) => console.log(`[db:migrate] ${line}`);
  const started = Date.now();
  const { embedded } = await migrateDatabase(config, { log });
  await embedded?.stop();
  log(
    `schema and grants applied in ${Date.now() - started} ms; the application connects as ` +
      `${config.database.appRole} (DATABASE_URL)`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
