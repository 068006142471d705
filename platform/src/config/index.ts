import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Configuration is read once, validated with zod, and a missing or wrong value stops start-up with a
 * message naming the variable. Every variable has an embedded default so `npm start` works on a fresh clone.
 */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

const duration = z
  .string()
  .regex(/^\d+(ms|s|m|h|d)?$/, { error: 'a duration such as 500ms, 30s, 15m, 48h or 2d' })
  .transform((v) => {
    const match = /^(\d+)(ms|s|m|h|d)?$/.exec(v);
    const n = Number(match?.[1] ?? 0);
    const unit = (match?.[2] ?? 'ms') as keyof typeof UNIT_MS;
    return n * UNIT_MS[unit];
  });

const port = z.coerce.number({ error: 'a TCP port number' }).int().min(1).max(65535);

/** An absolute URL of one of the given schemes (zod's url() alone would take javascript: and the like). */
const urlOf = (schemes: readonly string[], error: string) =>
  z.string().refine(
    (v) => {
      try {
        const url = new URL(v);
        return schemes.includes(url.protocol) && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { error },
  );

/** docker-compose passes `${VAR:-}` as an empty string: for an optional setting that means "not set". */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** A share of calls, 0..1 (fault injection). */
const share = z.coerce.number({ error: 'a number between 0 and 1' }).min(0, { error: 'a number between 0 and 1' }).max(1, { error: 'a number between 0 and 1' });

/** The sandbox ERP's key when ERP_API_KEY is unset outside production (the sandbox and the worker share it). */
export const DEV_ERP_API_KEY = 'erp-sandbox-development-key';

/** The sandbox CRM's key when CRM_API_KEY is unset outside production (the sandbox and the api share it). */
export const DEV_CRM_API_KEY = 'crm-sandbox-development-key';

/** HMAC keys: long enough to be secret; derived or generated (and kept) by their users when unset. */
const hmacKey = z.string().min(32, { error: 'at least 32 characters of secret' });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: port.default(3000),
  // How many api processes share PORT (node:cluster); default: one per core, one under tests.
  API_PROCESSES: optional(z.coerce.number({ error: 'a whole number from 1 to 64' }).int().min(1).max(64)),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.url({ error: 'an absolute URL such as http://localhost:3000' }).optional(),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'a postgres:// connection URL' })
    .optional(),
  EMBEDDED_PG_PORT: port.default(54329),
  EMBEDDED_PG_DATABASE: z.string().regex(/^[a-z_][a-z0-9_]*$/).default('ba_portal'),
  EVENT_STORE: z.enum(['postgres', 'kurrentdb']).default('postgres'),
  KURRENTDB_URL: z.string().regex(/^(kurrentdb|esdb|kdb)(\+discover)?:\/\//, { error: 'a kurrentdb:// connection string' }).optional(),
  TEMPORAL_ADDRESS: z.string().regex(/^[^:\s]+:\d+$/, { error: 'host:port, e.g. 127.0.0.1:7233' }).optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('ba-portal'),
  TEMPORAL_DEV_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_CLI_PATH: z.string().optional(),
  REVIEW_SLA: duration.default(48 * 3_600_000),
  JWT_ISSUER: z.string().default('ba-portal'),
  JWT_AUDIENCE: z.string().default('ba-portal-api'),
  ACCESS_TOKEN_TTL: duration.default(15 * 60_000),
  REFRESH_TOKEN_TTL: duration.default(8 * 3_600_000),
  JWT_KEY_DIR: z.string().optional(),
  // No default here: see seedDemo below (true only for the embedded development database).
  SEED_DEMO: optional(z.enum(['true', 'false'])),
  DATABASE_OWNER_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, { error: 'a postgres:// connection URL' })),
  DATABASE_APP_ROLE: z.string().regex(/^[a-z_][a-z0-9_]*$/, { error: 'a lower-case PostgreSQL role name' }).default('ba_portal_app'),
  DATABASE_APP_PASSWORD: optional(z.string().min(16, { error: 'at least 16 characters' })),
  AUDIT_KEY_DIR: optional(z.string()),
  AUDIT_ANCHOR_FILE: optional(z.string()),
  AUDIT_ANCHOR_INTERVAL: duration.default(30_000),
  TEMPORAL_TLS_DIR: optional(z.string()),
  TEMPORAL_TLS_SERVER_NAME: optional(z.string()),
  COMMAND_TIMEOUT: duration.default(10_000),
  TRUST_PROXY: z
    .string()
    // true, false, a hop count, or a comma-separated list of names and addresses/subnets (Express's forms).
    .regex(/^(true|false|\d+|\s*(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)(\s*,\s*(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?))*\s*)$/, {
      error: 'false, true, a number of hops, or addresses/subnets such as loopback, 10.0.0.0/8',
    })
    .default('false'),
  SESSION_MAX_AGE: duration.default(12 * 3_600_000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  SMTP_URL: optional(urlOf(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example.com:465')),
  SMTP_FROM: z
    .string()
    .trim()
    .regex(/^[^@\s<>]+@[^@\s<>]+$|^[^<>]*<[^@\s<>]+@[^@\s<>]+>$/, { error: 'an e-mail address, optionally named: BA Portal <no-reply@example.com>' })
    .default('BA Portal <no-reply@ba-portal.local>'),
  SMS_GATEWAY_URL: optional(
    urlOf(['http:', 'https:'], 'an http(s) URL with {to} and {text}, e.g. https://sms.example.com/send?to={to}&text={text}').refine(
      (v) => v.includes('{to}') && v.includes('{text}'),
      { error: 'must contain both {to} and {text}' },
    ),
  ),
  DEV_OUTBOX: z.enum(['true', 'false']).default('false'),
  OTP_TTL: duration.default(10 * 60_000),
  REGISTRATION_TTL: duration.default(30 * 60_000),
  PASSWORD_MAX_AGE: duration.default(90 * 86_400_000),
  CONTACT_CHANGE_TTL: duration.default(24 * 3_600_000),
  CAPTCHA_HMAC_KEY: optional(hmacKey),
  FILE_STORE: z.enum(['fs', 's3']).default('fs'),
  FILES_DIR: optional(z.string()),
  S3_ENDPOINT: optional(urlOf(['http:', 'https:'], 'an http(s) URL such as http://minio:9000')),
  S3_BUCKET: optional(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'an S3 bucket name' })),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optional(z.string()),
  S3_SECRET_ACCESS_KEY: optional(z.string()),
  UPLOAD_MAX_BYTES: z.coerce.number({ error: 'a number of bytes' }).int().min(1024).default(25 * 1024 * 1024),
  USER_MANUAL_URL: optional(urlOf(['http:', 'https:'], 'an http(s) URL')),
  SUPPORT_EMAIL: z.email({ error: 'an e-mail address' }).default('ba-support@mll.example.in'),
  // The ERP (SAP) behind domain/src/erp/port.ts, and the sandbox ERP `npm start` runs when ERP_URL is unset.
  ERP_URL: optional(urlOf(['http:', 'https:'], 'an http(s) URL such as https://erp-gateway.example.com')),
  ERP_API_KEY: optional(z.string().min(16, { error: 'at least 16 characters' })),
  ERP_TIMEOUT: duration.default(10_000),
  ERP_SANDBOX_PORT: port.default(3100),
  ERP_SANDBOX_HOST: z.string().default('127.0.0.1'),
  ERP_SANDBOX_PROCESSING_MS: duration.default(1500),
  ERP_SANDBOX_LATENCY_MS: duration.default(0),
  ERP_SANDBOX_ERROR_RATE: optional(share).default(0),
  ERP_SANDBOX_TIMEOUT_RATE: optional(share).default(0),
  ERP_SANDBOX_DOWN_MS: duration.default(0),
  // The CRM behind domain/src/crm/port.ts (opportunity lookup), and the sandbox CRM `npm start` runs when
  // CRM_URL is unset. The api calls it while staff wait on the wizard: a shorter timeout than the ERP's.
  CRM_URL: optional(urlOf(['http:', 'https:'], 'an http(s) URL such as https://crm-gateway.example.com')),
  CRM_API_KEY: optional(z.string().min(16, { error: 'at least 16 characters' })),
  CRM_TIMEOUT: duration.default(5_000),
  CRM_SANDBOX_PORT: port.default(3101),
  CRM_SANDBOX_HOST: z.string().default('127.0.0.1'),
  CRM_SANDBOX_LATENCY_MS: duration.default(0),
  CRM_SANDBOX_ERROR_RATE: optional(share).default(0),
  CRM_SANDBOX_TIMEOUT_RATE: optional(share).default(0),
  CRM_SANDBOX_DOWN_MS: duration.default(0),
});

export type Config = {
  env: 'development' | 'test' | 'production';
  dataDir: string;
  http: {
    host: string;
    port: number;
    publicUrl: string;
    /** Express `trust proxy`: false, true, a hop count, or addresses/subnets. */
    trustProxy: boolean | number | string;
    /** PUBLIC_URL is https: cookies are Secure and HSTS is sent. */
    secure: boolean;
    /**
     * API_PROCESSES: api processes behind the one port (api/src/server.ts runs them as a node:cluster).
     * Default: the cores this process may use (os.availableParallelism), at most 16; 1 under NODE_ENV=test.
     */
    processes: number;
  };
  database: {
    /** The application role's connection (api, worker, projector). Null: the embedded server. */
    url: string | null;
    /** The owner's connection, used for DDL (schema, roles, grants). Null: same as url / embedded superuser. */
    ownerUrl: string | null;
    /** The least-privilege role the processes connect as (design.md §12). */
    appRole: string;
    /** Its password when the server asks for one (DATABASE_URL set-ups); null under trust auth. */
    appPassword: string | null;
    embedded: { dataDir: string; port: number; database: string };
  };
  audit: {
    /** Ed25519 key that signs chain anchors; never stored in the database. */
    keyDir: string;
    /** Append-only file of signed anchors (JSON lines), beside the data. */
    anchorFile: string;
    anchorIntervalMs: number;
  };
  commands: {
    /** How long an API request waits for a workflow to take a command before answering 503. */
    timeoutMs: number;
  };
  eventStore: { kind: 'postgres' } | { kind: 'kurrentdb'; url: string };
  temporal: {
    address: string | null;
    namespace: string;
    taskQueue: string;
    dev: { port: number; uiPort: number; dbFile: string; cliPath: string | null };
    /** Folder with ca.pem, client.pem and client.key for mTLS to a Temporal cluster; null: plaintext (dev server). */
    tlsDir: string | null;
    tlsServerName: string | null;
  };
  review: { slaMs: number };
  auth: {
    issuer: string;
    audience: string;
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
    /** Absolute lifetime of a session (a refresh-token family), however often it is refreshed. */
    sessionMaxAgeSeconds: number;
    keyDir: string;
  };
  seedDemo: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  notifications: {
    /** null: e-mails are not sent (they wait in the outbox, or only show in the dev outbox). */
    smtpUrl: string | null;
    smtpFrom: string;
    /** URL template with {to} and {text}; null: SMS are not sent. */
    smsGatewayUrl: string | null;
    /** Every message readable without sign-in at /api/dev/outbox and /dev/outbox (development only). */
    devOutbox: boolean;
  };
  identity: {
    otpTtlMs: number;
    registrationTtlMs: number;
    passwordMaxAgeMs: number;
    contactChangeTtlMs: number;
    /** null: the api generates one once and keeps it beside the JWT key. */
    captchaHmacKey: string | null;
  };
  /** Uploaded files (annexures, documents, invoices): platform/src/files. */
  files:
    | { kind: 'fs'; dir: string; maxBytes: number }
    | {
        kind: 's3';
        endpoint: string | null;
        bucket: string;
        region: string;
        accessKeyId: string | null;
        secretAccessKey: string | null;
        maxBytes: number;
      };
  /** The header's Help menu (spec 000 §2): the User Manual link and the support mailbox. */
  help: { userManualUrl: string; supportEmail: string };
  /** The ERP behind domain/src/erp/port.ts (platform/src/erp/http-erp.ts) and the sandbox ERP (sandboxes/erp). */
  erp: {
    /** ERP_URL, else the sandbox ERP that `npm start` runs (http://127.0.0.1:ERP_SANDBOX_PORT). */
    url: string;
    /** ERP_URL is set: `npm start` starts no sandbox. */
    external: boolean;
    /** Bearer key; the development key outside production, null in production when ERP_API_KEY is unset. */
    apiKey: string | null;
    /** Per call (connect to last byte): past it the call is an outage (ErpUnavailableError). */
    timeoutMs: number;
    sandbox: {
      host: string;
      port: number;
      /** How long a request stays pending before the sandbox decides it. */
      processingMs: number;
      faults: { latencyMs: number; errorRate: number; timeoutRate: number; downForMs: number };
    };
  };
  /** The CRM behind domain/src/crm/port.ts (platform/src/crm/http-crm.ts) and the sandbox CRM (sandboxes/crm). */
  crm: {
    /** CRM_URL, else the sandbox CRM that `npm start` runs (http://127.0.0.1:CRM_SANDBOX_PORT). */
    url: string;
    /** CRM_URL is set: `npm start` starts no sandbox. */
    external: boolean;
    /** Bearer key; the development key outside production, null in production when CRM_API_KEY is unset. */
    apiKey: string | null;
    /** Per call (connect to last byte): past it the lookup answers 503 (CrmUnavailableError). */
    timeoutMs: number;
    sandbox: {
      host: string;
      port: number;
      faults: { latencyMs: number; errorRate: number; timeoutRate: number; downForMs: number };
    };
  };
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Values an error message must not repeat: keys whole, URLs without their password and query (API keys). */
const SECRET_VARIABLES = new Set(['CAPTCHA_HMAC_KEY', 'DATABASE_APP_PASSWORD', 'S3_SECRET_ACCESS_KEY', 'ERP_API_KEY', 'CRM_API_KEY']);
const URL_VARIABLES = new Set(['DATABASE_URL', 'DATABASE_OWNER_URL', 'SMTP_URL', 'SMS_GATEWAY_URL', 'KURRENTDB_URL', 'ERP_URL', 'CRM_URL']);

function shown(name: string, value: string | undefined): string {
  if (value === undefined) return 'undefined';
  if (SECRET_VARIABLES.has(name)) return `a value of ${value.length} characters`;
  if (URL_VARIABLES.has(name)) return shownUrl(value);
  return JSON.stringify(value);
}

/**
 * Only scheme, host and port of a URL. User info, path and query may all hold secrets: a password (with an
 * unencoded '@' or '/', even), an API token given as the user name, an API key in an SMS gateway's path or
 * query. A value that is not a URL at all (a forgotten scheme: `user:password@host`) is not shown.
 */
function shownUrl(value: string): string {
  try {
    const url = new URL(value);
    const credentials = Boolean(url.username || url.password);
    // An '@' the parser did not take as the end of user info means a password with '/', '?' or '#' in it:
    // what it calls host and port may be part of that password.
    if (!url.host || (value.includes('@') && !credentials)) throw new Error('ambiguous');
    const rest = (url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '';
    return JSON.stringify(`${url.protocol}//${credentials ? '***@' : ''}${url.host}${rest ? '/…' : ''}`);
  } catch {
    return `a value of ${value.length} characters that is not a URL`;
  }
}

/** More api processes than this by default would only add connections and memory, not throughput. */
const MAX_DEFAULT_API_PROCESSES = 16;

/** One per core; one under tests, where several suites run side by side and each needs a single process. */
export const defaultApiProcesses = (nodeEnv: string): number =>
  nodeEnv === 'test' ? 1 : Math.min(MAX_DEFAULT_API_PROCESSES, os.availableParallelism());

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message} (got ${shown(String(i.path[0]), env[String(i.path[0])])})`),
    );
  }
  const e = parsed.data;
  if (e.EVENT_STORE === 'kurrentdb' && !e.KURRENTDB_URL)
    throw new ConfigError(['KURRENTDB_URL: required when EVENT_STORE=kurrentdb']);
  // The dev outbox shows every code and link to anyone who asks: never in production.
  if (e.DEV_OUTBOX === 'true' && e.NODE_ENV === 'production')
    throw new ConfigError(['DEV_OUTBOX: must not be true when NODE_ENV=production (it shows every code without sign-in)']);
  // The dev server is plaintext: TLS settings without a cluster to use them on are a mistake, not a choice.
  if (e.TEMPORAL_TLS_DIR && !e.TEMPORAL_ADDRESS)
    throw new ConfigError(['TEMPORAL_TLS_DIR: set TEMPORAL_ADDRESS too (the embedded dev server does not speak TLS)']);
  if (e.FILE_STORE === 's3' && !e.S3_BUCKET) throw new ConfigError(['S3_BUCKET: required when FILE_STORE=s3']);
  if (e.SEED_DEMO === 'true' && e.NODE_ENV === 'production')
    throw new ConfigError(['SEED_DEMO: must not be true when NODE_ENV=production (demo accounts share a published password)']);
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  return {
    env: e.NODE_ENV,
    dataDir,
    http: {
      host: e.HOST,
      port: e.PORT,
      publicUrl,
      trustProxy: parseTrustProxy(e.TRUST_PROXY),
      secure: publicUrl.startsWith('https:'),
      processes: e.API_PROCESSES ?? defaultApiProcesses(e.NODE_ENV),
    },
    database: {
      url: e.DATABASE_URL ?? null,
      ownerUrl: e.DATABASE_OWNER_URL ?? null,
      appRole: e.DATABASE_APP_ROLE,
      appPassword: e.DATABASE_APP_PASSWORD ?? null,
      embedded: { dataDir: path.join(dataDir, 'postgres'), port: e.EMBEDDED_PG_PORT, database: e.EMBEDDED_PG_DATABASE },
    },
    eventStore: e.EVENT_STORE === 'kurrentdb' ? { kind: 'kurrentdb', url: e.KURRENTDB_URL ?? '' } : { kind: 'postgres' },
    temporal: {
      address: e.TEMPORAL_ADDRESS ?? null,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      dev: {
        port: e.TEMPORAL_DEV_PORT,
        uiPort: e.TEMPORAL_UI_PORT,
        dbFile: path.join(dataDir, 'temporal.db'),
        cliPath: e.TEMPORAL_CLI_PATH ?? null,
      },
      tlsDir: e.TEMPORAL_TLS_DIR ? path.resolve(e.TEMPORAL_TLS_DIR) : null,
      tlsServerName: e.TEMPORAL_TLS_SERVER_NAME ?? null,
    },
    audit: {
      keyDir: path.resolve(e.AUDIT_KEY_DIR ?? path.join(dataDir, 'audit-keys')),
      anchorFile: path.resolve(e.AUDIT_ANCHOR_FILE ?? path.join(dataDir, 'audit-anchors.jsonl')),
      anchorIntervalMs: e.AUDIT_ANCHOR_INTERVAL,
    },
    commands: { timeoutMs: e.COMMAND_TIMEOUT },
    review: { slaMs: e.REVIEW_SLA },
    auth: {
      issuer: e.JWT_ISSUER,
      audience: e.JWT_AUDIENCE,
      accessTokenTtlSeconds: Math.round(e.ACCESS_TOKEN_TTL / 1000),
      refreshTokenTtlSeconds: Math.round(e.REFRESH_TOKEN_TTL / 1000),
      sessionMaxAgeSeconds: Math.round(e.SESSION_MAX_AGE / 1000),
      keyDir: path.resolve(e.JWT_KEY_DIR ?? path.join(dataDir, 'keys')),
    },
    // Demo data only ever goes into the embedded development database unless asked for explicitly, and
    // never in production (it creates accounts with a published password).
    seedDemo: e.NODE_ENV !== 'production' && (e.SEED_DEMO ? e.SEED_DEMO === 'true' : !e.DATABASE_URL),
    logLevel: e.LOG_LEVEL,
    notifications: {
      smtpUrl: e.SMTP_URL ?? null,
      smtpFrom: e.SMTP_FROM,
      smsGatewayUrl: e.SMS_GATEWAY_URL ?? null,
      devOutbox: e.DEV_OUTBOX === 'true',
    },
    identity: {
      otpTtlMs: e.OTP_TTL,
      registrationTtlMs: e.REGISTRATION_TTL,
      passwordMaxAgeMs: e.PASSWORD_MAX_AGE,
      contactChangeTtlMs: e.CONTACT_CHANGE_TTL,
      captchaHmacKey: e.CAPTCHA_HMAC_KEY ?? null,
    },
    files:
      e.FILE_STORE === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT ?? null,
            bucket: e.S3_BUCKET ?? '',
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID ?? null,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? null,
            maxBytes: e.UPLOAD_MAX_BYTES,
          }
        : { kind: 'fs', dir: path.resolve(e.FILES_DIR ?? path.join(dataDir, 'files')), maxBytes: e.UPLOAD_MAX_BYTES },
    help: {
      // The manual ships with the portal (portal/public/user-manual.pdf) unless the operator points elsewhere.
      userManualUrl: e.USER_MANUAL_URL ?? `${publicUrl}/user-manual.pdf`,
      supportEmail: e.SUPPORT_EMAIL,
    },
    erp: {
      url: e.ERP_URL ?? `http://127.0.0.1:${e.ERP_SANDBOX_PORT}`,
      external: e.ERP_URL !== undefined,
      // Production has no default key: whoever needs it (worker, sandbox) refuses to start without one.
      apiKey: e.ERP_API_KEY ?? (e.NODE_ENV === 'production' ? null : DEV_ERP_API_KEY),
      timeoutMs: e.ERP_TIMEOUT,
      sandbox: {
        host: e.ERP_SANDBOX_HOST,
        port: e.ERP_SANDBOX_PORT,
        processingMs: e.ERP_SANDBOX_PROCESSING_MS,
        faults: {
          latencyMs: e.ERP_SANDBOX_LATENCY_MS,
          errorRate: e.ERP_SANDBOX_ERROR_RATE,
          timeoutRate: e.ERP_SANDBOX_TIMEOUT_RATE,
          downForMs: e.ERP_SANDBOX_DOWN_MS,
        },
      },
    },
    crm: {
      url: e.CRM_URL ?? `http://127.0.0.1:${e.CRM_SANDBOX_PORT}`,
      external: e.CRM_URL !== undefined,
      // Production has no default key: the api and the sandbox refuse to start without one.
      apiKey: e.CRM_API_KEY ?? (e.NODE_ENV === 'production' ? null : DEV_CRM_API_KEY),
      timeoutMs: e.CRM_TIMEOUT,
      sandbox: {
        host: e.CRM_SANDBOX_HOST,
        port: e.CRM_SANDBOX_PORT,
        faults: {
          latencyMs: e.CRM_SANDBOX_LATENCY_MS,
          errorRate: e.CRM_SANDBOX_ERROR_RATE,
          timeoutRate: e.CRM_SANDBOX_TIMEOUT_RATE,
          downForMs: e.CRM_SANDBOX_DOWN_MS,
        },
      },
    },
  };
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** The ERP key, or the start-up refusal naming the variable (production without ERP_API_KEY). */
export function erpApiKey(config: Config): string {
  if (config.erp.apiKey === null) throw new ConfigError(['ERP_API_KEY: required when NODE_ENV=production (the bearer key of the ERP at ERP_URL)']);
  return config.erp.apiKey;
}

/** The CRM key, or the start-up refusal naming the variable (production without CRM_API_KEY). */
export function crmApiKey(config: Config): string {
  if (config.crm.apiKey === null) throw new ConfigError(['CRM_API_KEY: required when NODE_ENV=production (the bearer key of the CRM at CRM_URL)']);
  return config.crm.apiKey;
}

/** Resolved address of Temporal: the configured cluster, or the dev server the supervisor starts. */
export const temporalAddress = (config: Config): string => config.temporal.address ?? `127.0.0.1:${config.temporal.dev.port}`;
