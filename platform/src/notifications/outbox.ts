import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { renderTemplate, type Channel, type TemplateName } from './templates';

export type { Channel, TemplateName } from './templates';

/**
 * Writing messages. `enqueueMessages` takes whatever runs the caller's queries: pass the client of the
 * transaction that makes the change, and the message commits or rolls back with it. A message is never sent
 * from here: the delivery loop (delivery.ts) picks it up after the commit, so a slow or failing mail server
 * can neither block nor undo the business action.
 */
export type Db = Pick<Pool | PoolClient, 'query'>;

export type OutboxMessage = {
  channel: Channel;
  /** An e-mail address, or a mobile number for SMS. */
  to: string;
  template: TemplateName;
  params: Record<string, string>;
};

export type EnqueueOptions = {
  /**
   * Makes the write idempotent for a cause that may run twice (a retried workflow activity): message i of
   * the call is stored under `${dedupeKey}:${i}` and a second write with the same key is dropped.
   */
  dedupeKey?: string;
};

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+$/;
const MOBILE = /^\+?\d{6,15}$/;

/** A malformed message is a bug in the caller (its input was validated before): fail its transaction. */
function recipient(message: OutboxMessage): string {
  const to = typeof message.to === 'string' ? message.to.trim() : '';
  if (message.channel === 'email' && EMAIL.test(to)) return to;
  if (message.channel === 'sms' && MOBILE.test(to)) return to;
  if (message.channel !== 'email' && message.channel !== 'sms') throw new Error(`outbox: unknown channel "${String(message.channel)}"`);
  throw new Error(`outbox: "${String(message.to)}" is not a valid ${message.channel === 'email' ? 'e-mail address' : 'mobile number'}`);
}

/**
 * Renders each message from its template and stores it, in the caller's transaction when `db` is a client
 * inside one. Returns the ids of the rows written (a message dropped by its dedupe key has none). Throws for
 * an unknown template, a missing parameter or a malformed recipient: nothing is written then.
 */
export async function enqueueMessages(db: Db, messages: readonly OutboxMessage[], options: EnqueueOptions = {}): Promise<string[]> {
  if (messages.length === 0) return [];
  const rows = messages.map((message, i) => {
    const to = recipient(message);
    const { subject, text } = renderTemplate(message.template, message.params, message.channel);
    return {
      id: randomUUID(),
      channel: message.channel,
      to,
      template: message.template,
      subject,
      text,
      dedupeKey: options.dedupeKey === undefined ? null : `${options.dedupeKey}:${i}`,
    };
  });
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
  const { rows: written } = await db.query<{ id: string }>(
    `INSERT INTO outbox (id, channel, recipient, template, subject, body, dedupe_key)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
    [column('id'), column('channel'), column('to'), column('template'), column('subject'), column('text'), column('dedupeKey')],
  );
  return written.map((r) => r.id);
}

/** A message as the dev outbox shows it. */
export type OutboxItem = {
  id: string;
  to: string;
  channel: Channel;
  subject: string | null;
  text: string;
  /** ISO time the message was written. */
  createdAt: string;
};

/** Delivery state besides the message, for the dev page. */
export type OutboxEntry = OutboxItem & {
  template: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
};

export const OUTBOX_SORT_FIELDS = ['createdAt', 'to', 'channel'] as const;
export type OutboxSortField = (typeof OUTBOX_SORT_FIELDS)[number];

export type OutboxQuery = {
  /** Exact recipient; e-mail addresses compare case-insensitively. */
  to?: string;
  channel?: Channel;
  sort?: { field: OutboxSortField; order: 'ASC' | 'DESC' };
  range?: { offset: number; limit: number };
};

const SORT_SQL: Record<OutboxSortField, string> = {
  createdAt: 'created_at',
  to: 'lower(recipient)',
  channel: 'channel',
};

type EntryRow = {
  id: string;
  to: string;
  channel: Channel;
  subject: string | null;
  text: string;
  created_at: string;
  template: string;
  delivered: boolean;
  failed: boolean;
  attempts: number;
  last_error: string | null;
  total: number;
};

/** One page of messages (newest first unless asked otherwise) and the total matching the filter. */
export async function listOutbox(db: Db, query: OutboxQuery = {}): Promise<{ rows: OutboxEntry[]; total: number }> {
  const sort = query.sort ?? { field: 'createdAt', order: 'DESC' };
  const order = sort.order === 'ASC' ? 'ASC' : 'DESC';
  const range = query.range ?? { offset: 0, limit: 25 };
  const { rows } = await db.query<EntryRow>(
    `SELECT id, recipient AS "to", channel, subject, body AS text,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at, template,
            delivered_at IS NOT NULL AS delivered, failed_at IS NOT NULL AS failed, attempts, last_error,
            count(*) OVER () AS total
       FROM outbox
      WHERE ($1::text IS NULL OR lower(recipient) = lower($1)) AND ($2::text IS NULL OR channel = $2)
      ORDER BY ${SORT_SQL[sort.field] ?? 'created_at'} ${order}, seq ${order}
      OFFSET $3 LIMIT $4`,
    [query.to?.trim() ?? null, query.channel ?? null, range.offset, range.limit],
  );
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && range.offset > 0) {
    // Past the end the window function sees no row: count separately so Content-Range still gives the total.
    const counted = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM outbox WHERE ($1::text IS NULL OR lower(recipient) = lower($1)) AND ($2::text IS NULL OR channel = $2)`,
      [query.to?.trim() ?? null, query.channel ?? null],
    );
    total = Number(counted.rows[0]?.n ?? 0);
  }
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      to: r.to,
      channel: r.channel,
      subject: r.subject,
      text: r.text,
      createdAt: r.created_at,
      template: r.template,
      status: r.delivered ? 'delivered' : r.failed ? 'failed' : 'pending',
      attempts: r.attempts,
      lastError: r.last_error,
    })),
  };
}
