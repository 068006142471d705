import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../platform/src/db/embedded-postgres';
import { ensureRoles } from '../../platform/src/db/roles';
import { applySchema } from '../../platform/src/db/schema';
import { loadReferenceDataInto } from './reference-data';
import { findTemporalCli, freePort, startTemporalDevServer } from '../../platform/src/temporal/cli';
import { TEST_APP_ROLE } from './postgres';

/**
 * Starts the real parts once per jest run (design.md §8): an embedded PostgreSQL holding a template
 * database with the full schema, the Temporal dev server (in memory), and the workflow bundle. Test files
 * reach them through the TEST_* variables set here, which jest's workers inherit.
 * TEST_DATABASE_ADMIN_URL / TEST_TEMPORAL_ADDRESS may point at servers started elsewhere instead.
 */
type Handles = { stop: () => Promise<void> };
/**
 * Test files that run whole lifecycles with the demo data claim a namespace each: the demo BAs have fixed ids,
 * so their workflow ids would otherwise collide across test databases sharing this one server. A claim lasts the
 * run (tests/support/temporal.ts), so there must be one per such file, with room to grow: 40 ran out when Bill-Hub
 * added its suites.
 */
const TEST_NAMESPACES = Array.from({ length: 100 }, (_, i) => `test-${i + 1}`);
const handles: Handles[] = [];
(globalThis as { __baPortalServices?: Handles[] }).__baPortalServices = handles;

/** Jest's global config does not carry --selectProjects, so read it from the command line (same process). */
function selectedProjects(argv: readonly string[]): string[] | null {
  const at = argv.findIndex((a) => a === '--selectProjects' || a.startsWith('--selectProjects='));
  if (at < 0) return null;
  const inline = argv[at]?.split('=')[1];
  if (inline) return inline.split(',');
  const names: string[] = [];
  for (const a of argv.slice(at + 1)) {
    if (a.startsWith('-')) break;
    names.push(a);
  }
  return names;
}

const wanted = (selected: string[] | null): boolean =>
  selected === null || selected.some((p) => p === 'integration' || p === 'e2e');

export default async function globalSetup(): Promise<void> {
  if (!wanted(selectedProjects(process.argv))) return;
  const started = Date.now();
  const work = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-test-'));
  // PostgreSQL runs as the postgres user when we are root: it must be able to enter this folder.
  chmodSync(work, 0o755);
  process.env.TEST_WORK_DIR = work;

  const temporalReady = (async () => {
    if (process.env.TEST_TEMPORAL_ADDRESS) return;
    const cliPath = findTemporalCli({ configuredPath: process.env.TEMPORAL_CLI_PATH, log: console.log });
    const server = await startTemporalDevServer({ cliPath, port: await freePort(), namespaces: TEST_NAMESPACES });
    handles.push(server);
    process.env.TEST_TEMPORAL_ADDRESS = server.address;
    process.env.TEST_TEMPORAL_NAMESPACES = TEST_NAMESPACES.join(',');
  })();

  const bundleReady = (async () => {
    const { bundleWorkflowCode } = await import('@temporalio/worker');
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows/src/workflows'),
      logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} } as never,
    });
    const file = path.join(work, 'workflow-bundle.js');
    writeFileSync(file, code);
    process.env.TEST_WORKFLOW_BUNDLE = file;
  })();

  if (!process.env.TEST_DATABASE_ADMIN_URL) {
    // Durability is not under test here (the crash test runs its own server): trade it for speed.
    const server = await startEmbeddedPostgres({
      dataDir: path.join(work, 'postgres'),
      port: await freePort(),
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: 300 },
    });
    handles.push(server);
    process.env.TEST_DATABASE_ADMIN_URL = server.url('postgres');
  }
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  const empty = `ba_template_empty_${process.pid}`;
  const template = `ba_template_${process.pid}`;
  const urlOf = (database: string) => (process.env.TEST_DATABASE_ADMIN_URL ?? '').replace(/\/[^/]*$/, `/${database}`);
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`drop database if exists ${empty}`);
  await admin.query(`create database ${empty}`);
  const pool = new pg.Pool({ connectionString: urlOf(empty), max: 2 });
  await applySchema(pool);
  // The application role is cluster-wide, its grants live in the template: every test database cloned from
  // it lets the code under test connect as that role (tests/support/postgres.ts appPool), as in production.
  process.env.TEST_DATABASE_APP_ROLE ??= TEST_APP_ROLE;
  process.env.TEST_DATABASE_APP_PASSWORD ??= randomBytes(18).toString('base64url');
  await ensureRoles(pool, { appRole: process.env.TEST_DATABASE_APP_ROLE, appPassword: process.env.TEST_DATABASE_APP_PASSWORD });
  await pool.end();
  // Every installation starts with the reference data (npm start loads it before anything else runs), so the
  // default template holds it too, read models included; `createTestDatabase({ empty: true })` clones the
  // template without it.
  await admin.query(`create database ${template} template ${empty}`);
  await admin.end();
  await loadReferenceDataInto(urlOf(template));
  process.env.TEST_DATABASE_EMPTY_TEMPLATE = empty;
  process.env.TEST_DATABASE_TEMPLATE = template;

  await Promise.all([temporalReady, bundleReady]);
  console.log(`\n[global-setup] PostgreSQL, Temporal and the workflow bundle ready in ${Date.now() - started} ms`);
}
