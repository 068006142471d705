import { Client } from '@temporalio/client';
import { builtFrontEnd } from '../../platform/src/build/front-ends';
import { runService, stopSignal } from '../../platform/src/process/run-service';
import { connectTemporal } from '../../platform/src/temporal/connect';
import { openBlobStore } from '../../platform/src/files';
import { createHttpCrm } from '../../platform/src/crm/http-crm';
import { createApp } from './app';
import { loadOrCreateAuthKeys } from './http/auth';
import { loadOrCreateCaptchaKey } from './identity/captcha';

/** The api process: connections, then listen until SIGTERM/SIGINT. The supervisor prints the URLs. */
runService('api', { poolSize: 20 }, async ({ config, db, store, log, onClose }) => {
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
  log(`listening on ${config.http.host}:${config.http.port}`);

  await stopSignal();
  await Promise.all(shutdown.map((close) => close()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
