import type pg from 'pg';

/**
 * Operational identity state that is not history: codes in flight, failed sign-ins, refresh tokens, one-time
 * links, spent captchas and a user's chosen company code. Kept in PostgreSQL (not in process memory) so every
 * api process agrees; never rebuilt from events, and nothing here is needed to replay a user's history.
 * Idempotent DDL, applied with the rest of the schema at start-up.
 */
export async function ensureIdentityStoreSchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  await db.query(IDENTITY_STORE_SQL);
}

const IDENTITY_STORE_SQL = /* sql */ `
create table if not exists otp_challenges (
  id uuid primary key,
  purpose text not null,
  subject text not null,
  -- one hash per channel ({"sms": "...", "email": "..."}); the plain codes exist only in the outbox message
  code_hashes jsonb not null,
  recipients jsonb not null,
  template text not null,
  params jsonb not null,
  digits int not null,
  ttl_ms int not null,
  expires_at timestamptz not null,
  attempts int not null default 0,
  max_attempts int not null default 5,
  resend_count int not null default 0,
  last_sent_at timestamptz not null,
  consumed_at timestamptz,
  created_at timestamptz not null default now()
);
create index if not exists otp_challenges_subject_idx on otp_challenges (purpose, subject);

create table if not exists login_failures (
  username text primary key,
  failures int not null,
  last_failed_at timestamptz not null
);

create table if not exists refresh_tokens (
  jti text primary key,
  family_id text not null,
  user_id text not null,
  app text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index if not exists refresh_tokens_user_idx on refresh_tokens (user_id) where revoked_at is null;
create index if not exists refresh_tokens_family_idx on refresh_tokens (family_id);

create table if not exists one_time_tokens (
  token_hash text primary key,
  purpose text not null,
  user_id text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index if not exists one_time_tokens_user_idx on one_time_tokens (user_id, purpose) where used_at is null;

create table if not exists captcha_spent (
  signature text primary key,
  expires_at timestamptz not null
);

create table if not exists user_settings (
  user_id text primary key,
  active_company_code text not null
);

-- The newest contact change started for a user: starting another cancels this one (only the latest link works).
create table if not exists contact_change_latest (
  user_id text primary key,
  change_id text not null,
  started_at timestamptz not null default now()
);
`;
