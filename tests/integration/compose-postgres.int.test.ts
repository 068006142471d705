import { execFileSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../platform/src/config';
import { migrateDatabase, openDatabase } from '../../platform/src/db/connect';

/**
 * docker-compose's PostgreSQL set-up, run for real against the test cluster (Docker is not available here):
 * the init script the postgres container runs on first start (docker/postgres-init/10-roles.sh), then the
 * `migrate` service's `npm run db:migrate` as the owner it created, then an app process as the application
 * role, under NODE_ENV=production (where a connection with too many rights is refused).
 */
const admin = new URL(process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://unset');
const urlFor = (user: string, password: string, database: string) => {
  const url = new URL(admin.toString());
  url.username = user;
  url.password = password;
  url.pathname = `/${database}`;
  return url.toString();
};

const OWNER_PASSWORD = 'owner-0123456789abcdef';
const APP_PASSWORD = 'app-0123456789abcdef';
const TEMPORAL_PASSWORD = 'temporal-0123456789abcdef';

const composeEnv = () => ({
  NODE_ENV: 'production',
  DATABASE_OWNER_URL: urlFor('ba_portal_owner', OWNER_PASSWORD, 'ba_portal'),
  DATABASE_URL: urlFor('ba_portal_app', APP_PASSWORD, 'ba_portal'),
  DATABASE_APP_ROLE: 'ba_portal_app',
  DATABASE_APP_PASSWORD: APP_PASSWORD,
});

async function asAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

beforeAll(() => {
  execFileSync('sh', [path.resolve(__dirname, '..', '..', 'docker', 'postgres-init', '10-roles.sh')], {
    env: {
      ...process.env,
      PGHOST: admin.hostname,
      PGPORT: admin.port,
      PGPASSWORD: decodeURIComponent(admin.password),
      POSTGRES_USER: decodeURIComponent(admin.username),
      DATABASE_OWNER_PASSWORD: OWNER_PASSWORD,
      TEMPORAL_DB_PASSWORD: TEMPORAL_PASSWORD,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
});

afterAll(async () => {
  await asAdmin(async (client) => {
    for (const db of ['ba_portal', 'temporal']) await client.query(`drop database if exists ${db} with (force)`);
    for (const role of ['ba_portal_app', 'ba_portal_owner', 'temporal']) await client.query(`drop role if exists ${role}`);
  });
});

test('the init script makes an owner and a Temporal role without superuser rights', async () => {
  const { rows } = await asAdmin((client) =>
    client.query<{ rolname: string; rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean }>(
      `select rolname, rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname in ('ba_portal_owner', 'temporal') order by rolname`,
    ),
  );
  expect(rows).toEqual([
    { rolname: 'ba_portal_owner', rolsuper: false, rolcreaterole: true, rolcreatedb: false },
    { rolname: 'temporal', rolsuper: false, rolcreaterole: false, rolcreatedb: true },
  ]);
});

test('migrate as that owner, then the app connects as the application role, accepted under production', async () => {
  const config = loadConfig(composeEnv());
  await migrateDatabase(config, { log: () => undefined });
  // App mode refuses (in production) a connection that is superuser, owner, or may change stored events.
  const app = await openDatabase(config, { mode: 'app', log: () => undefined });
  try {
    const { rows } = await app.pool.query<{ user: string }>('select current_user as user');
    expect(rows[0]?.user).toBe('ba_portal_app');
    await expect(app.pool.query('update events set type = type')).rejects.toThrow(/permission denied/);
  } finally {
    await app.close();
  }
  // Running it again (every deployment does) changes nothing and succeeds.
  await migrateDatabase(config, { log: () => undefined });
});

test("Temporal's role cannot even connect to the application's database", async () => {
  const client = new pg.Client({ connectionString: urlFor('temporal', TEMPORAL_PASSWORD, 'ba_portal') });
  await expect(client.connect()).rejects.toThrow(/permission denied for database/);
  await client.end().catch(() => undefined);
});
