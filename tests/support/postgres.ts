import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { appRoleUrl, ensureRoles } from '../../platform/src/db/roles';

pg.types.setTypeParser(20, (v) => Number(v));

/**
 * A test database. `pool`/`url` connect as the owner (a superuser): for tests that set up or inspect state
 * the application may not touch, or tamper as an attacker with owner rights would. `appPool`/`appUrl`
 * connect as the least-privileged application role (platform/src/db/roles.ts): what the code under test
 * (api, worker, projector, event store) must use, so every integration test proves its grants suffice.
 */
export type TestDatabase = {
  url: string;
  pool: pg.Pool;
  appUrl: string;
  appPool: pg.Pool;
  drop: () => Promise<void>;
};

/** Not the default DATABASE_APP_ROLE: a developer's server used for tests keeps its own role untouched. */
export const TEST_APP_ROLE = 'ba_portal_test_app';

const appRole = () => process.env.TEST_DATABASE_APP_ROLE ?? TEST_APP_ROLE;

const adminUrl = (): string => {
  const url = process.env.TEST_DATABASE_ADMIN_URL;
  if (!url) throw new Error('TEST_DATABASE_ADMIN_URL is not set: run integration tests through jest (global setup)');
  return url;
};

/**
 * A fresh database with the full schema, cloned from a template global setup prepared: by default holding the
 * reference data (its events and read models, as every installation starts), with `empty` holding nothing at
 * all (for tests about positions, empty stores or the reference-data loader itself).
 */
export async function createTestDatabase(options: { poolSize?: number; empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? process.env.TEST_DATABASE_EMPTY_TEMPLATE : process.env.TEST_DATABASE_TEMPLATE;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = adminUrl().replace(/\/[^/]*$/, `/${name}`);
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  if (!template) {
    const { applySchema } = await import('../../platform/src/db/schema');
    await applySchema(pool);
    await ensureRoles(pool, { appRole: appRole(), appPassword: process.env.TEST_DATABASE_APP_PASSWORD });
    if (!options.empty) await (await import('./reference-data')).loadReferenceDataInto(url);
  }
  const appUrl = appRoleUrl(url, appRole(), process.env.TEST_DATABASE_APP_PASSWORD ?? null);
  // Connects only when first used: a test that never runs application code opens no app connection.
  const appPool = new pg.Pool({ connectionString: appUrl, max: options.poolSize ?? 10 });
  return {
    url,
    pool,
    appUrl,
    appPool,
    drop: async () => {
      // pool.end() resolves before its sockets close; the forced DROP may then terminate one, and an
      // unhandled pool 'error' would fail a suite whose tests all passed.
      for (const p of [pool, appPool]) {
        p.on('error', () => undefined);
        await p.end().catch(() => undefined);
      }
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
