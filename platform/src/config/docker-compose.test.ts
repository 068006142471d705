import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '.';
import { createDeploymentCertificates } from '../tls/certificates';

/**
 * docker-compose.yml cannot run on the build machines (no Docker engine), so its promises are checked here
 * (design.md §12): only the api is published, the stores sit on an internal network, Temporal requires
 * client certificates, KurrentDB runs secure, the processes connect to PostgreSQL as the application role
 * after a one-shot migration as the owner, and each app service's environment passes our own configuration.
 */
// js-yaml is already in node_modules (through jest's coverage tooling); no package is added for this test.
const yaml = require('js-yaml') as { load: (text: string) => unknown };

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  networks?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
};
type Compose = { services: Record<string, Service>; networks: Record<string, { internal?: boolean } | null> };

const root = path.resolve(__dirname, '..', '..', '..');
const source = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const compose = yaml.load(source) as Compose;
const services = compose.services;
/** The file without its comments (which may name what must not be configured). */
const configured = JSON.stringify(compose);
const service = (name: string): Service => {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

/** What an operator puts in .env (docker-compose.yml's header). */
const DOT_ENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'pg-superuser-0123456789abcdef',
  DATABASE_OWNER_PASSWORD: 'owner-0123456789abcdef',
  DATABASE_APP_PASSWORD: 'app-0123456789abcdef',
  TEMPORAL_DB_PASSWORD: 'temporal-0123456789abcdef',
  KURRENTDB_ADMIN_PASSWORD: 'kurrent-admin-0123456789',
  KURRENTDB_OPS_PASSWORD: 'kurrent-ops-0123456789',
  MINIO_ROOT_PASSWORD: 'minio-root-0123456789abcdef',
  S3_ACCESS_KEY_ID: 'ba-portal-api',
  S3_SECRET_ACCESS_KEY: 'files-0123456789abcdef',
  ERP_API_KEY: 'erp-key-0123456789abcdef',
  CRM_API_KEY: 'crm-key-0123456789abcdef',
  PUBLIC_URL: 'https://portal.example.com',
};

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error} (refusing an unset one, as compose does). */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    const set = vars[name];
    if (set !== undefined && set !== '') return set;
    if (op === '-') return arg ?? '';
    if (op === '?') throw new Error(`compose would stop: ${arg}`);
    return '';
  });
}

const envOf = (name: string, vars = DOT_ENV): Record<string, string> =>
  Object.fromEntries(Object.entries(service(name).environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars)]));

const APP_SERVICES = ['api', 'worker', 'projector', 'migrate'];
const STORES = ['postgres', 'temporal', 'kurrentdb', 'minio'];

test('only the api publishes a port; the Temporal UI is opt-in and bound to the host loopback', () => {
  const published = Object.entries(services)
    .filter(([, s]) => (s.ports ?? []).length > 0)
    .map(([name]) => name)
    .sort();
  expect(published).toEqual(['api', 'temporal-ui']);
  const ui = service('temporal-ui');
  expect(ui.profiles).toEqual(['ops']);
  for (const port of ui.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  for (const name of STORES) expect(service(name).ports).toBeUndefined();
});

test('the stores and every app service share an internal network; only services that must leave it are elsewhere too', () => {
  expect(compose.networks.backend?.internal).toBe(true);
  for (const name of [...STORES, ...APP_SERVICES, 'temporal-ui']) expect(service(name).networks).toContain('backend');
  // The stores and what needs no way out are on the internal network alone.
  for (const name of [...STORES, 'projector', 'migrate', 'minio-init']) expect(service(name).networks).toEqual(['backend']);
  // api: to publish its port; worker: outbound mail and SMS; the UI: to publish on loopback.
  for (const name of ['api', 'worker', 'temporal-ui']) expect(service(name).networks).toEqual(['backend', 'edge']);
  expect(compose.networks.edge?.internal).toBeFalsy();
});

test('nothing runs insecure: no --insecure, no tls=false, KurrentDB on certificates, its clients verifying them', () => {
  expect(configured).not.toMatch(/--insecure/);
  expect(configured).not.toMatch(/tls=false/i);
  expect(configured).not.toMatch(/INSECURE":"true/i);
  const kurrent = envOf('kurrentdb');
  expect(kurrent.KURRENTDB_INSECURE).toBe('false');
  expect(kurrent.KURRENTDB_CERTIFICATE_FILE).toBeTruthy();
  expect(kurrent.KURRENTDB_CERTIFICATE_PRIVATE_KEY_FILE).toBeTruthy();
  expect(kurrent.KURRENTDB_TRUSTED_ROOT_CERTIFICATES_PATH).toBeTruthy();
  expect(kurrent.KURRENTDB_DEFAULT_ADMIN_PASSWORD).toBe(DOT_ENV.KURRENTDB_ADMIN_PASSWORD);
  for (const name of APP_SERVICES) {
    const url = new URL(envOf(name).KURRENTDB_URL ?? '');
    expect(url.searchParams.get('tls')).toBe('true');
    expect(url.searchParams.get('tlsCAFile')).toBeTruthy();
  }
});

test('Temporal requires client certificates; api and worker present theirs, the projector and migrate get none', () => {
  const temporal = envOf('temporal');
  expect(temporal.TEMPORAL_TLS_REQUIRE_CLIENT_AUTH).toBe('true');
  for (const key of ['SERVER_CA_CERT', 'FRONTEND_CERT', 'FRONTEND_KEY', 'CLIENT1_CA_CERT', 'SERVER_CERT', 'SERVER_KEY']) {
    expect(temporal[`TEMPORAL_TLS_${key}`]).toMatch(/^\/run\/certs\/temporal\//);
  }
  expect(temporal.TEMPORAL_TLS_FRONTEND_SERVER_NAME).toBe('temporal');
  for (const name of ['api', 'worker']) {
    const env = envOf(name);
    expect(env.TEMPORAL_TLS_DIR).toBe('/run/certs/temporal');
    expect(env.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(service(name).volumes).toContain('${CERTS_DIR:-./certs}/temporal-client:/run/certs/temporal:ro');
  }
  for (const name of ['projector', 'migrate']) {
    expect(envOf(name).TEMPORAL_TLS_DIR).toBeUndefined();
    expect((service(name).volumes ?? []).join(' ')).not.toMatch(/temporal/);
  }
});

test('every certificate file the services are told to read is one the documented generator makes', () => {
  const certs = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-compose-certs-'));
  try {
    createDeploymentCertificates(certs);
    for (const [name, s] of Object.entries(services)) {
      const env = envOf(name, { ...DOT_ENV, KURRENTDB_ADMIN_PASSWORD: 'x' });
      const mounts = (s.volumes ?? [])
        .filter((v) => v.startsWith('${CERTS_DIR'))
        .map((v) => {
          const [host = '', target = ''] = interpolate(v, { CERTS_DIR: certs }).split(':');
          return { host, target };
        });
      const hostPath = (file: string): string | null => {
        const mount = mounts.find((m) => file === m.target || file.startsWith(`${m.target}/`));
        return mount ? path.join(mount.host, path.relative(mount.target, file)) : null;
      };
      const files = Object.values(env).filter((v) => v.startsWith('/run/certs/'));
      const fromUrl = env.KURRENTDB_URL ? new URL(env.KURRENTDB_URL).searchParams.get('tlsCAFile') : null;
      if (fromUrl && name !== 'migrate') files.push(fromUrl);
      if (env.TEMPORAL_TLS_DIR) files.push(...['ca.pem', 'client.pem', 'client.key'].map((f) => `${env.TEMPORAL_TLS_DIR}/${f}`));
      for (const file of files) {
        const onHost = hostPath(file);
        expect({ service: name, file, mounted: onHost !== null }).toEqual({ service: name, file, mounted: true });
        expect({ service: name, file, exists: existsSync(onHost ?? '') }).toEqual({ service: name, file, exists: true });
      }
    }
    // The CA keys are mounted nowhere.
    expect(configured).not.toMatch(/ca-keys/);
  } finally {
    rmSync(certs, { recursive: true, force: true });
  }
});

test('the app services connect as the application role, after a one-shot migration as the owner', () => {
  for (const name of ['api', 'worker', 'projector']) {
    const env = envOf(name);
    const url = new URL(env.DATABASE_URL ?? '');
    expect(url.username).toBe('ba_portal_app');
    expect(env.DATABASE_APP_ROLE).toBe('ba_portal_app');
    // No owner or superuser credential reaches a long-running process.
    expect(env.DATABASE_OWNER_URL).toBeUndefined();
    for (const secret of [DOT_ENV.DATABASE_OWNER_PASSWORD, DOT_ENV.POSTGRES_PASSWORD, DOT_ENV.TEMPORAL_DB_PASSWORD]) {
      expect(JSON.stringify(env)).not.toContain(secret);
    }
    expect(service(name).depends_on).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
  }
  const migrate = service('migrate');
  expect(migrate.command).toEqual([
    'sh',
    '-c',
    'npm run db:migrate && npm run reference-data && node --import tsx sandboxes/erp/src/migrate.ts && node --import tsx sandboxes/crm/src/migrate.ts',
  ]);
  const env = envOf('migrate');
  expect(new URL(env.DATABASE_OWNER_URL ?? '').username).toBe('ba_portal_owner');
  expect(env.DATABASE_APP_PASSWORD).toBe(DOT_ENV.DATABASE_APP_PASSWORD);
  expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  // The owner and Temporal's role come from the postgres init script; Temporal never uses the superuser.
  expect(service('postgres').volumes).toContain('./docker/postgres-init:/docker-entrypoint-initdb.d:ro');
  expect(envOf('temporal').POSTGRES_USER).toBe('temporal');
  for (const name of Object.keys(services).filter((n) => n !== 'postgres')) {
    expect(JSON.stringify(envOf(name))).not.toContain(DOT_ENV.POSTGRES_PASSWORD);
  }
});

test("each app service's environment passes the app's configuration: production, no demo seed, https, mTLS", () => {
  for (const name of APP_SERVICES) {
    const config = loadConfig(envOf(name));
    expect(config.env).toBe('production');
    expect(config.seedDemo).toBe(false);
    expect(config.notifications.devOutbox).toBe(false);
    expect(config.http.secure).toBe(true);
    expect(config.http.trustProxy).toBe(false);
    expect(config.database.url).toContain('@postgres:5432/ba_portal');
    expect(config.eventStore.kind).toBe('postgres');
    if (name === 'api' || name === 'worker') expect(config.temporal.tlsDir).toBe('/run/certs/temporal');
  }
  expect(loadConfig(envOf('migrate')).database.ownerUrl).toContain('ba_portal_owner');
  expect(loadConfig(envOf('api', { ...DOT_ENV, EVENT_STORE: 'kurrentdb' })).eventStore).toMatchObject({ kind: 'kurrentdb' });
  // Secrets are required: compose refuses to start without them rather than fall back to a known value.
  const { DATABASE_APP_PASSWORD: _omitted, ...withoutAppPassword } = DOT_ENV;
  expect(() => envOf('api', withoutAppPassword)).toThrow(/DATABASE_APP_PASSWORD/);
});

test('uploaded files go to MinIO on the internal network: bucket made at start, the api holding a key limited to it', () => {
  const minio = service('minio');
  expect(minio.ports).toBeUndefined();
  expect(envOf('minio').MINIO_ROOT_PASSWORD).toBe(DOT_ENV.MINIO_ROOT_PASSWORD);
  // The bucket, its policy and the api's user come from a one-shot job the api waits for.
  const init = service('minio-init');
  expect(init.depends_on).toEqual({ minio: { condition: 'service_healthy' } });
  expect(service('api').depends_on).toMatchObject({
    'minio-init': { condition: 'service_completed_successfully' },
    migrate: { condition: 'service_completed_successfully' },
  });
  const script = (init.command ?? []).join('\n');
  expect(script).toMatch(/mc mb --ignore-existing "local\/\$\$S3_BUCKET"/);
  expect(script).toMatch(/mc admin policy attach local ba-portal-files --user "\$\$S3_ACCESS_KEY_ID"/);
  // Read and write on its bucket only: the api can never delete a stored file.
  expect(script).toMatch(/arn:aws:s3:::'"\$\$S3_BUCKET"'\/\*/);
  expect(script).not.toMatch(/DeleteObject|s3:\*|"\*"/);

  const api = loadConfig(envOf('api'));
  expect(api.files).toMatchObject({
    kind: 's3',
    endpoint: 'http://minio:9000',
    bucket: envOf('minio-init').S3_BUCKET,
    accessKeyId: DOT_ENV.S3_ACCESS_KEY_ID,
    secretAccessKey: DOT_ENV.S3_SECRET_ACCESS_KEY,
  });
  // The root key stays with MinIO and its init job; only the api holds the files key.
  for (const name of Object.keys(services).filter((n) => n !== 'minio' && n !== 'minio-init'))
    expect(JSON.stringify(envOf(name))).not.toContain(DOT_ENV.MINIO_ROOT_PASSWORD);
  for (const name of ['worker', 'projector', 'migrate']) expect(envOf(name).S3_SECRET_ACCESS_KEY).toBeUndefined();
  const { S3_SECRET_ACCESS_KEY: _omitted, ...withoutFilesKey } = DOT_ENV;
  expect(() => envOf('api', withoutFilesKey)).toThrow(/S3_SECRET_ACCESS_KEY/);
});

test('the sandbox ERP: internal network only, app role, the key the worker presents; the worker defaults to it', () => {
  const sandbox = service('erp-sandbox');
  expect(sandbox.command).toEqual(['node', '--import', 'tsx', 'sandboxes/erp/src/server.ts']);
  expect(sandbox.profiles).toEqual(['app']);
  expect(sandbox.ports).toBeUndefined();
  expect(sandbox.networks).toEqual(['backend']);
  expect(sandbox.depends_on).toEqual({
    postgres: { condition: 'service_healthy' },
    migrate: { condition: 'service_completed_successfully' },
  });
  const env = envOf('erp-sandbox');
  expect(new URL(env.DATABASE_URL ?? '').username).toBe('ba_portal_app');
  for (const secret of [DOT_ENV.DATABASE_OWNER_PASSWORD, DOT_ENV.POSTGRES_PASSWORD, DOT_ENV.S3_SECRET_ACCESS_KEY]) {
    expect(JSON.stringify(env)).not.toContain(secret);
  }
  const erp = loadConfig(env).erp;
  expect(erp.sandbox).toMatchObject({ host: '0.0.0.0', port: 3100, processingMs: 1500 });
  expect(erp.apiKey).toBe(DOT_ENV.ERP_API_KEY);

  const worker = loadConfig(envOf('worker')).erp;
  expect(worker).toMatchObject({ url: 'http://erp-sandbox:3100', apiKey: DOT_ENV.ERP_API_KEY, timeoutMs: 10_000 });
  expect(loadConfig(envOf('worker', { ...DOT_ENV, ERP_URL: 'https://erp.example.com/api' })).erp.url).toBe('https://erp.example.com/api');
  // Only the worker talks to the ERP; the key is required, never a known default.
  for (const name of ['api', 'projector', 'migrate']) expect(envOf(name).ERP_API_KEY).toBeUndefined();
  const { ERP_API_KEY: _omitted, ...withoutErpKey } = DOT_ENV;
  expect(() => envOf('worker', withoutErpKey)).toThrow(/ERP_API_KEY/);
  expect(() => envOf('erp-sandbox', withoutErpKey)).toThrow(/ERP_API_KEY/);
});

test('the sandbox CRM: internal network only, app role, the key the api presents; the api defaults to it', () => {
  const sandbox = service('crm-sandbox');
  expect(sandbox.command).toEqual(['node', '--import', 'tsx', 'sandboxes/crm/src/server.ts']);
  expect(sandbox.profiles).toEqual(['app']);
  expect(sandbox.ports).toBeUndefined();
  expect(sandbox.networks).toEqual(['backend']);
  expect(sandbox.depends_on).toEqual({
    postgres: { condition: 'service_healthy' },
    migrate: { condition: 'service_completed_successfully' },
  });
  const env = envOf('crm-sandbox');
  expect(new URL(env.DATABASE_URL ?? '').username).toBe('ba_portal_app');
  for (const secret of [DOT_ENV.DATABASE_OWNER_PASSWORD, DOT_ENV.POSTGRES_PASSWORD, DOT_ENV.S3_SECRET_ACCESS_KEY, DOT_ENV.ERP_API_KEY]) {
    expect(JSON.stringify(env)).not.toContain(secret);
  }
  const crm = loadConfig(env).crm;
  expect(crm.sandbox).toMatchObject({ host: '0.0.0.0', port: 3101 });
  expect(crm.apiKey).toBe(DOT_ENV.CRM_API_KEY);

  // The api, not the worker, asks the CRM: staff wait on the lookup in the wizard.
  const api = loadConfig(envOf('api')).crm;
  expect(api).toMatchObject({ url: 'http://crm-sandbox:3101', external: true, apiKey: DOT_ENV.CRM_API_KEY, timeoutMs: 5_000 });
  expect(loadConfig(envOf('api', { ...DOT_ENV, CRM_URL: 'https://crm.example.com/api' })).crm.url).toBe('https://crm.example.com/api');
  for (const name of ['worker', 'projector', 'migrate', 'erp-sandbox']) expect(envOf(name).CRM_API_KEY).toBeUndefined();
  const { CRM_API_KEY: _omitted, ...withoutCrmKey } = DOT_ENV;
  expect(() => envOf('api', withoutCrmKey)).toThrow(/CRM_API_KEY/);
  expect(() => envOf('crm-sandbox', withoutCrmKey)).toThrow(/CRM_API_KEY/);
});
