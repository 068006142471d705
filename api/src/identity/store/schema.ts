import type pg from 'pg';

/**
 * Operational identity state that is not history: codes in flight, failed sign-ins, sign-in attempt counters,
 * refresh tokens, one-time links, spent captchas, a user's chosen company code, and the password hashes
 * (`credentials`, which events only name). Kept in PostgreSQL (not in process memory) so every api process
 * agrees; never rebuilt from events, and nothing here is needed to replay a user's history.
 * Idempotent DDL, applied with the rest of the schema at start-up.
 */
export async function ensureIdentityStoreSchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  await db.query(IDENTITY_STORE_SQL);
  await db.query(MOVE_HASHES_OUT_OF_USERS_SQL);
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
-- When the session (the family) began: no refresh extends it past SESSION_MAX_AGE. Null on rows written
-- before the column existed (their created_at stands in).
alter table refresh_tokens add column if not exists family_started_at timestamptz;
create index if not exists refresh_tokens_expires_idx on refresh_tokens (expires_at);

-- Password hashes (never in events): a row per password a user has set, named by a credential id that the
-- user's events carry. Written before the event; the read model's credential_id (from the newest event) says
-- which row is the password, so a row whose event never got appended never becomes one.
create table if not exists credentials (
  credential_id text primary key,
  user_id text not null,
  hash text not null,
  created_at timestamptz not null default now()
);
create index if not exists credentials_user_idx on credentials (user_id, created_at desc);

-- Sign-in attempts per client address and overall, counted in fixed windows shared by every api process.
create table if not exists sign_in_attempts (
  scope text not null,
  window_start timestamptz not null,
  attempts int not null,
  primary key (scope, window_start)
);
create index if not exists sign_in_attempts_window_idx on sign_in_attempts (window_start);

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

/**
 * Once, on a database made before the credentials table (issue 6): the users read model still holds hashes
 * (password_hash, password_history). Each goes into `credentials` under its legacy credential id (the one the
 * users projection derives from an old event's hash: projections/src/identity/legacy-credentials.ts), the read
 * model keeps only the ids, and the hash columns are dropped. Runs after the projections' schema (applySchema),
 * in the same advisory lock; a database without those columns skips it.
 */
const LEGACY_ID = (col: string) => `'legacy-' || encode(sha256(convert_to(${col}, 'UTF8')), 'hex')`;
const MOVE_HASHES_OUT_OF_USERS_SQL = /* sql */ `
do $$
begin
  if exists (select 1 from information_schema.columns
              where table_schema = current_schema() and table_name = 'users' and column_name = 'password_hash') then
    insert into credentials (credential_id, user_id, hash, created_at)
      select ${LEGACY_ID('h.hash')}, u.id, h.hash, u.created_at - make_interval(secs => h.n)
        from users u
        cross join lateral unnest(array_prepend(u.password_hash, coalesce(u.password_history, '{}'))) with ordinality as h(hash, n)
       where h.hash is not null and h.hash <> ''
      on conflict (credential_id) do nothing;
    update users set
      credential_id = ${LEGACY_ID('password_hash')},
      credential_history = array(select ${LEGACY_ID('x.hash')} from unnest(coalesce(password_history, '{}')) with ordinality as x(hash, n)
                                  where x.hash <> '' order by x.n)
     where password_hash is not null and password_hash <> '';
    alter table users drop column password_hash;
    alter table users drop column if exists password_history;
  end if;
end $$;
`;
