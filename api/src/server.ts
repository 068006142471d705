import cluster from 'node:cluster';
import { Client } from '@temporalio/client';
import { builtFrontEnd } from '../../platform/src/build/front-ends';
import { loadConfig } from '../../platform/src/config';
import { runClustered } from '../../platform/src/process/cluster';
import { runService, stopSignal, type Service } from '../../platform/src/process/run-service';
import { connectTemporal } from '../../platform/src/temporal/connect';
import { openBlobStore } from '../../platform/src/files';
import { createHttpCrm } from '../../platform/src/crm/http-crm';
import { createApp } from './app';
import { loadOrCreateAuthKeys } from './http/auth';
import { loadOrCreateCaptchaKey } from './identity/captcha';

/**
 * PostgreSQL connections all api processes together may hold: 20 each up to three processes, fewer each
 * beyond (at least 4), so many cores never exhaust max_connections (embedded: 200; a stock server: 100) next
 * to the worker (10) and the projector (4).
 */
const API_CONNECTION_BUDGET = 60;
export const apiPoolSize = (processes: number): number =>
  Math.max(4, Math.min(20, Math.floor(API_CONNECTION_BUDGET / processes)));

/** API_PROCESSES; an unreadable configuration is left for runService to report, in the one process. */
function apiProcesses(): number {
  try {
    return loadConfig().http.processes;
  } catch {
    return 1;
  }
}

const processes = apiProcesses();

/**
 * API_PROCESSES api processes behind one port (platform/src/process/cluster.ts). The primary creates the
 * signing and captcha keys before forking, so two workers can never start with different keys.
 */
runClustered({
  name: 'api',
  processes,
  prepare: async () => {
    const config = loadConfig();
    await loadOrCreateAuthKeys(config.auth.keyDir);
    loadOrCreateCaptchaKey(config.auth.keyDir, config.identity.captchaHmacKey);
  },
  worker: () => runService('api', { poolSize: apiPoolSize(processes) }, serveApi),
});

/** One api process: connections, then listen until SIGTERM/SIGINT. The supervisor prints the URLs. */
async function serveApi({ config, db, store, log, onClose }: Service): Promise<void> {
  // mTLS when TEMPORAL_TLS_DIR is set (design.md §12); plaintext to the local dev server otherwise.
  const connection = await connectTemporal(config);
  onClose(() => connection.close());
  const temporal = new Client({ connection, namespace: config.temporal.namespace });
  const keys = await loadOrCreateAuthKeys(config.auth.keyDir);
  // Uploaded files: the FILES_DIR folder (created here) or the S3 bucket (FILE_STORE).
  const blobStore = await openBlobStore(config.files);
  onClose(() => blobStore.close());

  // The CRM of the RFP wizard's opportunity lookup (CRM_URL, else the sandbox `npm start` runs). Without a key
  // (production, CRM_API_KEY unset) the api still starts: only the lookup answers 503, and the log says why.
  const { url: crmUrl, apiKey: crmKey, timeoutMs: crmTimeoutMs } = config.crm;
  const crm = crmKey === null ? null : createHttpCrm({ url: crmUrl, apiKey: crmKey, timeoutMs: crmTimeoutMs });
  if (!crm) log('CRM_API_KEY is not set: opportunity lookups answer 503 until it is');

  // Open event streams (notification bells) never end by themselves: closed before the server closes.
  const shutdown: (() => Promise<void>)[] = [];
  const app = createApp({
    pool: db.pool,
    store,
    temporal,
    taskQueue: config.temporal.taskQueue,
    blobStore,
    uploadMaxBytes: config.files.maxBytes,
    crm,
    auth: {
      keys,
      config: {
        issuer: config.auth.issuer,
        audience: config.auth.audience,
        accessTokenTtlSeconds: config.auth.accessTokenTtlSeconds,
        refreshTokenTtlSeconds: config.auth.refreshTokenTtlSeconds,
        // PUBLIC_URL is https: the refresh cookie never travels over plain http.
        secureCookies: config.http.secure,
      },
    },
    publicUrl: config.http.publicUrl,
    secure: config.http.secure,
    trustProxy: config.http.trustProxy,
    identity: {
      otpTtlMs: config.identity.otpTtlMs,
      passwordMaxAgeMs: config.identity.passwordMaxAgeMs,
      sessionMaxAgeSeconds: config.auth.sessionMaxAgeSeconds,
      // CAPTCHA_HMAC_KEY, else a key generated once beside the JWT key (every api process shares it).
      captchaHmacKey: loadOrCreateCaptchaKey(config.auth.keyDir, config.identity.captchaHmacKey),
    },
    staticDirs: { console: builtFrontEnd('console'), portal: builtFrontEnd('portal') },
    devOutbox: config.notifications.devOutbox,
    contactChange: { ttlMs: config.identity.contactChangeTtlMs },
    help: config.help,
    registration: { ttlMs: config.identity.registrationTtlMs },
    commandTimeoutMs: config.commands.timeoutMs,
    seedDemo: config.seedDemo,
    // Read-only use: the anchors' public key and file (the projector holds the private key and writes).
    audit: { keyDir: config.audit.keyDir, anchorFile: config.audit.anchorFile },
    log,
    onShutdown: (close) => shutdown.push(close),
  });

  const server = app.listen(config.http.port, config.http.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  log(`listening on ${config.http.host}:${config.http.port}${cluster.isWorker ? ` (process ${process.pid})` : ''}`);

  await stopSignal();
  await Promise.all(shutdown.map((close) => close()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
