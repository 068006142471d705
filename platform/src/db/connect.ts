import net from 'node:net';
import pg from 'pg';
import { loadConfig, type Config } from '../config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { appConnectionProblems, appRoleUrl, ensureRoles } from './roles';
import { applySchema } from './schema';

// bigint columns (global positions) fit a JS number for any realistic store; parse them as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

export type Database = {
  /** The URL this process connected with (do not log it: it may hold a password). */
  url: string;
  /** The application role's URL: what the supervisor hands its children. Equal to `url` in app mode. */
  appUrl: string;
  mode: DatabaseMode;
  pool: pg.Pool;
  /** The embedded server, when this process started it. */
  embedded: EmbeddedPostgres | null;
  close: () => Promise<void>;
};

const portOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export async function ensureDatabaseExists(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`create database "${database}"`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created concurrently by another process
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * Who a process connects as (design.md §12, platform/src/db/roles.ts):
 * - 'owner': runs DDL. Applies the schema and the application role's grants. The supervisor (when it has
 *   owner rights), `npm run db:migrate`, `projections:rebuild`. Connects with DATABASE_OWNER_URL, else
 *   DATABASE_URL, else the embedded server's superuser `postgres`.
 * - 'app': the api, worker, projector, seed and read-only tools. Connects with DATABASE_URL, else as the
 *   application role on the embedded server; runs no DDL. A connection that turns out to be a superuser or
 *   the tables' owner is refused in production and warned about otherwise.
 */
export type DatabaseMode = 'owner' | 'app';

export type OpenOptions = {
  mode?: DatabaseMode;
  poolSize?: number;
  log?: (line: string) => void;
  /** Owner mode only: false skips the schema and grants (default true). */
  applySchema?: boolean;
  /** Connect here instead of the configured URL (the supervisor: the app URL its migration answered). */
  url?: string;
};

const embeddedUrl = (port: number, database: string, user: string) =>
  `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`;

/**
 * The application role's URL for a database the owner reaches at `ownerUrl` (owner mode's `appUrl`):
 * DATABASE_URL when the owner has a URL of its own, else the owner's URL with the application role's name.
 */
function appUrlFor(config: Config, ownerUrl: string): string {
  if (config.database.url && config.database.ownerUrl) return config.database.url;
  return appRoleUrl(ownerUrl, config.database.appRole, config.database.appPassword);
}

/**
 * Opens PostgreSQL: DATABASE_URL (or DATABASE_OWNER_URL in owner mode) when set, otherwise the embedded
 * server under .data/ (started here unless another process of ours already runs it). Owner mode applies the
 * schema and the grants; app mode checks it is not connected with more rights than it needs.
 */
export async function openDatabase(config: Config = loadConfig(), options: OpenOptions = {}): Promise<Database> {
  const mode = options.mode ?? 'app';
  let url = options.url ?? (mode === 'owner' ? (config.database.ownerUrl ?? config.database.url) : config.database.url);
  let embedded: EmbeddedPostgres | null = null;
  if (!url) {
    const { port, dataDir, database } = config.database.embedded;
    if (!(await portOpen(port))) {
      options.log?.(`starting embedded PostgreSQL on 127.0.0.1:${port} (data in ${dataDir})`);
      embedded = await startEmbeddedPostgres({ dataDir, port });
    }
    if (mode === 'owner') await ensureDatabaseExists(embeddedUrl(port, 'postgres', 'postgres'), database);
    // Development only: the embedded cluster trusts every local connection (pg_hba trust on 127.0.0.1), so
    // the owner is the cluster's superuser and the application role needs no password.
    url = embeddedUrl(port, database, mode === 'owner' ? 'postgres' : config.database.appRole);
  }
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  pool.on('error', (e) => options.log?.(`idle PostgreSQL connection error: ${e.message}`));
  const close = async () => {
    await pool.end();
    await embedded?.stop();
  };
  try {
    if (mode === 'owner' && options.applySchema !== false) {
      await applySchema(pool);
      await ensureRoles(pool, {
        appRole: config.database.appRole,
        appPassword: config.database.appPassword,
        log: options.log,
      });
    }
    if (mode === 'app') await checkAppConnection(pool, config, options.log ?? ((line) => console.warn(line)));
  } catch (e) {
    await close().catch(() => undefined);
    throw explainConnectError(e, config, mode);
  }
  return { url, appUrl: mode === 'owner' ? appUrlFor(config, url) : url, mode, pool, embedded, close };
}

/**
 * `npm run db:migrate` and the supervisor's first step: as the owner, applies the schema and the application
 * role's grants, then lets go of the owner's connection. Answers the application role's URL, and the embedded
 * server when it was started here (the caller stops it).
 */
export async function migrateDatabase(
  config: Config,
  options: { log?: (line: string) => void } = {},
): Promise<{ appUrl: string; embedded: EmbeddedPostgres | null }> {
  const owner = await openDatabase(config, { mode: 'owner', poolSize: 2, log: options.log });
  await owner.pool.end();
  return { appUrl: owner.appUrl, embedded: owner.embedded };
}

/** Refuses (production) or warns about (otherwise) an application connection with more rights than it needs. */
async function checkAppConnection(pool: pg.Pool, config: Config, log: (line: string) => void): Promise<void> {
  const { role, problems } = await appConnectionProblems(pool);
  if (problems.length === 0) return;
  const source = config.database.url ? 'DATABASE_URL' : 'the embedded database';
  const message =
    `${source} connects as ${role}, ${problems.join(' and ')}: the application must connect as its own ` +
    `least-privileged role (DATABASE_APP_ROLE=${config.database.appRole}, created by \`npm run db:migrate\`), ` +
    'so that its credentials cannot change or remove stored events';
  if (config.env === 'production') throw new Error(`Refusing to start: ${message}`);
  log(`warning: ${message} (allowed outside production only)`);
}

/** A missing application role or schema, said in terms of what to run; other errors as they are. */
function explainConnectError(e: unknown, config: Config, mode: DatabaseMode): unknown {
  const code = (e as { code?: string }).code;
  if (mode === 'app' && code === '28000' && /role .* does not exist/.test((e as Error).message)) {
    return new Error(
      `The application role does not exist on this server (${config.database.url ? 'DATABASE_URL' : 'the embedded database'}): ` +
        'run `npm run db:migrate` (or `npm start`, which migrates the embedded database) first',
    );
  }
  if (mode === 'owner' && code === '42501') {
    return new Error(
      `The database connection lacks the owner's rights (${config.database.ownerUrl ? 'DATABASE_OWNER_URL' : 'DATABASE_URL'}) ` +
        `to apply the schema and grants: set DATABASE_OWNER_URL to the owner's connection (${(e as Error).message})`,
    );
  }
  return e;
}
