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

/** HMAC keys: long enough to be secret; derived or generated (and kept) by their users when unset. */
const hmacKey = z.string().min(32, { error: 'at least 32 characters of secret' });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: port.default(3000),
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
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
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
});

export type Config = {
  env: 'development' | 'test' | 'production';
  dataDir: string;
  http: { host: string; port: number; publicUrl: string };
  database: { url: string | null; embedded: { dataDir: string; port: number; database: string } };
  eventStore: { kind: 'postgres' } | { kind: 'kurrentdb'; url: string };
  temporal: {
    address: string | null;
    namespace: string;
    taskQueue: string;
    dev: { port: number; uiPort: number; dbFile: string; cliPath: string | null };
  };
  review: { slaMs: number };
  auth: {
    issuer: string;
    audience: string;
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
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
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Values an error message must not repeat: keys whole, URLs without their password and query (API keys). */
const SECRET_VARIABLES = new Set(['CAPTCHA_HMAC_KEY']);
const URL_VARIABLES = new Set(['DATABASE_URL', 'SMTP_URL', 'SMS_GATEWAY_URL']);

function shown(name: string, value: string | undefined): string {
  if (value === undefined) return 'undefined';
  if (SECRET_VARIABLES.has(name)) return `a value of ${value.length} characters`;
  if (URL_VARIABLES.has(name)) return JSON.stringify(value.replace(/(\/\/[^/:@?#]*):[^@]*@/, '$1:***@').replace(/\?.*$/, '?…'));
  return JSON.stringify(value);
}

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
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    dataDir,
    http: { host: e.HOST, port: e.PORT, publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}` },
    database: {
      url: e.DATABASE_URL ?? null,
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
    },
    review: { slaMs: e.REVIEW_SLA },
    auth: {
      issuer: e.JWT_ISSUER,
      audience: e.JWT_AUDIENCE,
      accessTokenTtlSeconds: Math.round(e.ACCESS_TOKEN_TTL / 1000),
      refreshTokenTtlSeconds: Math.round(e.REFRESH_TOKEN_TTL / 1000),
      keyDir: path.resolve(e.JWT_KEY_DIR ?? path.join(dataDir, 'keys')),
    },
    seedDemo: e.SEED_DEMO === 'true',
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
  };
}

/** Resolved address of Temporal: the configured cluster, or the dev server the supervisor starts. */
export const temporalAddress = (config: Config): string => config.temporal.address ?? `127.0.0.1:${config.temporal.dev.port}`;
