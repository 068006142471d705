import { rmSync } from 'node:fs';

import pg from 'pg';

export default async function globalTeardown(): Promise<void> {
  // The template lives on a server we may not own (TEST_DATABASE_ADMIN_URL): leave nothing behind.
  const templates = [process.env.TEST_DATABASE_TEMPLATE, process.env.TEST_DATABASE_EMPTY_TEMPLATE].filter(Boolean);
  if (process.env.TEST_DATABASE_ADMIN_URL && templates.length > 0) {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
    await admin
      .connect()
      .then(async () => {
        for (const t of templates) await admin.query(`drop database if exists ${t} with (force)`);
      })
      .catch(() => undefined)
      .finally(() => admin.end().catch(() => undefined));
  }
  const handles = (globalThis as { __baPortalServices?: { stop: () => Promise<void> }[] }).__baPortalServices ?? [];
  await Promise.allSettled(handles.reverse().map((h) => h.stop()));
  if (process.env.TEST_WORK_DIR) rmSync(process.env.TEST_WORK_DIR, { recursive: true, force: true });
}
