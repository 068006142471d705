import { rmSync } from 'node:fs';

import pg from 'pg';

export default async function globalTeardown(): Promise<void> {
  // The template lives on a server we may not own (TEST_DATABASE_ADMIN_URL): leave nothing behind.
  if (process.env.TEST_DATABASE_ADMIN_URL && process.env.TEST_DATABASE_TEMPLATE) {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
    await admin
      .connect()
      .then(() => admin.query(`drop database if exists ${process.env.TEST_DATABASE_TEMPLATE} with (force)`))
      .catch(() => undefined)
      .finally(() => admin.end().catch(() => undefined));
  }
  const handles = (globalThis as { __baPortalServices?: { stop: () => Promise<void> }[] }).__baPortalServices ?? [];
  await Promise.allSettled(handles.reverse().map((h) => h.stop()));
  if (process.env.TEST_WORK_DIR) rmSync(process.env.TEST_WORK_DIR, { recursive: true, force: true });
}
