import net from 'node:net';
import pg from 'pg';
import { loadConfig, type Config } from '../config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { applySchema } from './schema';

// bigint columns (global positions) fit a JS number for any realistic store; parse them as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

export type Database = {
  url: string;
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
 * Opens PostgreSQL: DATABASE_URL when set, otherwise the embedded server under .data/ (started here unless
 * another process of ours already runs it), with the schema applied. Used by the supervisor, the api,
 * worker and projector processes and every `npm run` script.
 */
export async function openDatabase(
  config: Config = loadConfig(),
  options: { poolSize?: number; log?: (line: string) => void; applySchema?: boolean } = {},
): Promise<Database> {
  let url = config.database.url;
  let embedded: EmbeddedPostgres | null = null;
  if (!url) {
    const { port, dataDir, database } = config.database.embedded;
    if (!(await portOpen(port))) {
      options.log?.(`starting embedded PostgreSQL on 127.0.0.1:${port} (data in ${dataDir})`);
      embedded = await startEmbeddedPostgres({ dataDir, port });
    }
    await ensureDatabaseExists(`postgres://postgres@127.0.0.1:${port}/postgres`, database);
    url = `postgres://postgres@127.0.0.1:${port}/${database}`;
  }
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  pool.on('error', (e) => options.log?.(`idle PostgreSQL connection error: ${e.message}`));
  if (options.applySchema !== false) await applySchema(pool);
  return {
    url,
    pool,
    embedded,
    close: async () => {
      await pool.end();
      await embedded?.stop();
    },
  };
}
