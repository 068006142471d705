import type pg from 'pg';

/** Channel the outbox notifies when rows are added (at commit, so a woken worker sees them). */
export const OUTBOX_CHANNEL = 'outbox';

/**
 * The outbox: every e-mail and SMS, written in the transaction of the change that causes it and delivered
 * afterwards by the worker. It is operational state, not history: nothing here is needed to replay events.
 * Idempotent DDL, applied with the rest of the schema at start-up (under the schema lock).
 */
export async function ensureOutboxSchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  await db.query(OUTBOX_SQL);
}

const OUTBOX_SQL = /* sql */ `
create table if not exists outbox (
  id uuid primary key,
  -- insertion order: breaks ties between messages written at the same instant (newest first in the dev list)
  seq bigint generated always as identity,
  channel text not null check (channel in ('email', 'sms')),
  recipient text not null,
  template text not null,
  subject text,
  body text not null,
  created_at timestamptz not null default clock_timestamp(),
  attempts int not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at timestamptz,
  failed_at timestamptz,
  last_error text,
  -- set when a message may be written twice for one cause (a retried activity): the second is dropped
  dedupe_key text unique,
  check ((channel = 'sms') = (subject is null))
);
-- The delivery poll: what is still to send, soonest first. Small, since delivered rows leave it.
create index if not exists outbox_due_idx on outbox (next_attempt_at) where delivered_at is null and failed_at is null;
-- The dev outbox: one recipient's messages, newest first (e-mail addresses compare case-insensitively).
create index if not exists outbox_recipient_idx on outbox (lower(recipient), created_at desc, seq desc);
create index if not exists outbox_created_idx on outbox (created_at desc, seq desc);

-- NOTIFY is transactional: the worker is woken when the writing transaction commits, never before, and
-- not at all when it rolls back. One notification per statement; PostgreSQL folds repeats within a transaction.
create or replace function outbox_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('${OUTBOX_CHANNEL}', '');
  return null;
end
$$;
create or replace trigger outbox_notify after insert on outbox for each statement execute function outbox_notify();
`;
