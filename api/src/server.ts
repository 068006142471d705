import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, temporalAddress } from '../../platform/src/config';
import { openDatabase } from '../../platform/src/db/connect';
import { openEventStore } from '../../platform/src/event-store/open';
import { createApp } from './app';
import { loadOrCreateAuthKeys } from './http/auth';

/** The api process: configuration, connections, then listen. The supervisor prints the URLs. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = (line: string) => console.log(`[api] ${line}`);
  const db = await openDatabase(config, { log, poolSize: 20 });
  const store = await openEventStore(config, db.pool);
  const connection = await Connection.connect({ address: temporalAddress(config) });
  const temporal = new Client({ connection, namespace: config.temporal.namespace });
  const keys = await loadOrCreateAuthKeys(config.auth.keyDir);
  const dist = path.resolve(__dirname, '..', '..', 'dist');
  const dir = (name: string) => (existsSync(path.join(dist, name, 'index.html')) ? path.join(dist, name) : undefined);

  const app = createApp({
    pool: db.pool,
    store,
    temporal,
    taskQueue: config.temporal.taskQueue,
    auth: {
      keys,
      config: {
        issuer: config.auth.issuer,
        audience: config.auth.audience,
        accessTokenTtlSeconds: config.auth.accessTokenTtlSeconds,
        refreshTokenTtlSeconds: config.auth.refreshTokenTtlSeconds,
        secureCookies: config.http.publicUrl.startsWith('https:'),
      },
    },
    staticDirs: { console: dir('console'), portal: dir('portal') },
    log,
  });

  const server = app.listen(config.http.port, config.http.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  log(`listening on ${config.http.host}:${config.http.port}`);

  const stop = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await connection.close();
    await store.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
