import { randomBytes } from 'node:crypto';
import pg from 'pg';

pg.types.setTypeParser(20, (v) => Number(v));

export type TestDatabase = { url: string; pool: pg.Pool; drop: () => Promise<void> };

const adminUrl = (): string => {
  const url = process.env.TEST_DATABASE_ADMIN_URL;
  if (!url) throw new Error('TEST_DATABASE_ADMIN_URL is not set: run integration tests through jest (global setup)');
  return url;
};

/** A fresh database with the full schema, cloned from the template global setup prepared. */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const template = process.env.TEST_DATABASE_TEMPLATE;
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
  }
  return {
    url,
    pool,
    drop: async () => {
      // pool.end() resolves before its sockets close; the forced DROP may then terminate one, and an
      // unhandled pool 'error' would fail a suite whose tests all passed.
      pool.on('error', () => undefined);
      await pool.end().catch(() => undefined);
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
