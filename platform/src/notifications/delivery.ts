import type { Pool } from 'pg';
import { createNotificationListener } from '../db/listener';
import type { Channel } from './templates';
import { OUTBOX_CHANNEL } from './schema';

/**
 * The delivery loop: takes due messages from the outbox, hands them to the transport of their channel and
 * records the outcome. Runs in the worker process; several may run against one database.
 *
 * - Claiming is one statement (`FOR UPDATE SKIP LOCKED`) that also pushes the row's next attempt a lease
 *   ahead, so two loops never take the same message, and no transaction stays open while a mail server is slow.
 * - Delivery is at least once: a process that dies between sending and recording sends that message again
 *   when its lease runs out.
 * - A failure is retried with exponential backoff; after `maxAttempts` the message is marked failed and left
 *   for an operator. Nothing here ever throws into the code that wrote the message: that code has committed.
 */
export type EmailTransport = {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
};
export type SmsTransport = {
  send(message: { to: string; text: string }): Promise<void>;
};

export type DeliveryOptions = {
  pool: Pool;
  email: EmailTransport | null;
  sms: SmsTransport | null;
  log: (line: string) => void;
  /**
   * Development (DEV_OUTBOX=true): a message whose channel has no transport counts as delivered, since the
   * dev outbox shows it. Otherwise it waits in the outbox until a transport is configured.
   */
  devOutbox?: boolean;
  /** Fallback poll interval: NOTIFY wakes the loop at once, polling covers a lost notification. */
  pollMs?: number;
  /** Attempts before a message is marked failed (default 8). */
  maxAttempts?: number;
  /** Messages claimed at a time (default 10). */
  batchSize?: number;
  /** Retry delay after the n-th failure: baseMs · 2^(n-1), at most maxMs (defaults 10 s, 10 min). */
  backoff?: { baseMs: number; maxMs: number };
  /** A send that takes longer counts as failed (default 30 s). Must stay well below `leaseMs`. */
  sendTimeoutMs?: number;
  /** How long a claimed message is hidden from other loops (default 5 min). */
  leaseMs?: number;
};

export type DeliveryPass = { delivered: number; retried: number; failed: number };

export type Delivery = {
  start(): Promise<void>;
  /** Stops claiming, waits for the messages in flight to be recorded, closes the listener. */
  stop(): Promise<void>;
  /** Delivers everything due now, batch by batch (one pass at a time per loop). */
  deliverDue(): Promise<DeliveryPass>;
};

export const NO_TRANSPORT = 'no transport configured (kept in the dev outbox)';
/** Lets operators (and tests) find the listener connection in pg_stat_activity. */
export const OUTBOX_LISTENER_APPLICATION_NAME = 'outbox-listener';

const CHANNEL_NAMES: Record<Channel, string> = { email: 'e-mail', sms: 'SMS' };
const TRANSPORT_VARIABLES: Record<Channel, string> = { email: 'SMTP_URL', sms: 'SMS_GATEWAY_URL' };

type Claimed = { id: string; channel: Channel; recipient: string; subject: string | null; body: string; attempts: number };

export const retryDelayMs = (attempts: number, backoff: { baseMs: number; maxMs: number }): number =>
  Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(Math.max(attempts, 1) - 1, 20));

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 1000);

async function withTimeout<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    // `then` also turns a transport that throws synchronously into a rejected promise.
    return await Promise.race([Promise.resolve().then(work), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function createDelivery(options: DeliveryOptions): Delivery {
  const { pool, log } = options;
  const transports: Record<Channel, EmailTransport | SmsTransport | null> = { email: options.email, sms: options.sms };
  const devOutbox = options.devOutbox ?? false;
  const pollMs = options.pollMs ?? 5000;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 8);
  const batchSize = Math.max(1, options.batchSize ?? 10);
  const backoff = options.backoff ?? { baseMs: 10_000, maxMs: 600_000 };
  const sendTimeoutMs = options.sendTimeoutMs ?? 30_000;
  const leaseMs = Math.max(options.leaseMs ?? 300_000, sendTimeoutMs * 2);
  // Without a transport and without the dev outbox a channel's messages are left waiting, not claimed.
  const channels = (['email', 'sms'] as const).filter((c) => transports[c] !== null || devOutbox);

  let running = false;
  // Set by stop(): a pass in progress finishes its batch and leaves the rest for the next process.
  let stopping = false;
  let loopDone: Promise<void> = Promise.resolve();
  let woken = false;
  let wakeSleeper: (() => void) | null = null;
  let exclusive: Promise<unknown> = Promise.resolve();

  const wake = () => {
    woken = true;
    wakeSleeper?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = null;
        resolve();
      }
      wakeSleeper = done;
    });

  async function claim(): Promise<Claimed[]> {
    if (channels.length === 0) return [];
    const { rows } = await pool.query<Claimed>(
      `WITH due AS MATERIALIZED (
         SELECT id FROM outbox
          WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now() AND channel = ANY($1::text[])
          ORDER BY next_attempt_at, seq
          LIMIT $2
          FOR UPDATE SKIP LOCKED)
       UPDATE outbox o
          SET attempts = o.attempts + 1, next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
         FROM due WHERE o.id = due.id
       RETURNING o.id, o.channel, o.recipient, o.subject, o.body, o.attempts`,
      [channels, batchSize, leaseMs],
    );
    return rows;
  }

  /** Sends one message and records the outcome; throws only when the outcome cannot be recorded. */
  async function deliver(message: Claimed): Promise<keyof DeliveryPass> {
    const transport = transports[message.channel];
    try {
      if (transport === null) {
        await pool.query('UPDATE outbox SET delivered_at = now(), last_error = $2 WHERE id = $1', [message.id, NO_TRANSPORT]);
        return 'delivered';
      }
      await withTimeout(
        () =>
          message.channel === 'email'
            ? (transport as EmailTransport).send({ to: message.recipient, subject: message.subject ?? '', text: message.body })
            : (transport as SmsTransport).send({ to: message.recipient, text: message.body }),
        sendTimeoutMs,
      );
    } catch (error) {
      const reason = describe(error);
      const final = message.attempts >= maxAttempts;
      const delay = retryDelayMs(message.attempts, backoff);
      await pool.query(
        `UPDATE outbox SET last_error = $2, failed_at = CASE WHEN $3 THEN now() END,
                next_attempt_at = now() + make_interval(secs => $4::double precision / 1000)
          WHERE id = $1`,
        [message.id, reason, final, delay],
      );
      const what = `${CHANNEL_NAMES[message.channel]} message ${message.id}`;
      log(
        final
          ? `outbox: ${what} failed for good after ${message.attempts} attempts: ${reason}`
          : `outbox: ${what} failed (attempt ${message.attempts} of ${maxAttempts}): ${reason}; retrying in ${Math.round(delay / 1000)} s`,
      );
      return final ? 'failed' : 'retried';
    }
    await pool.query('UPDATE outbox SET delivered_at = now(), last_error = NULL WHERE id = $1', [message.id]);
    return 'delivered';
  }

  async function pass(): Promise<DeliveryPass> {
    const result: DeliveryPass = { delivered: 0, retried: 0, failed: 0 };
    for (;;) {
      const batch = await claim();
      const outcomes = await Promise.allSettled(batch.map(deliver));
      for (const outcome of outcomes) if (outcome.status === 'fulfilled') result[outcome.value] += 1;
      // Every send of the batch has finished; a lost database connection is the loop's to report.
      const broken = outcomes.find((o) => o.status === 'rejected');
      if (broken) throw broken.reason;
      if (batch.length < batchSize || stopping) return result;
    }
  }

  function deliverDue(): Promise<DeliveryPass> {
    const run = exclusive.then(pass);
    exclusive = run.catch(() => undefined);
    return run;
  }

  /** Milliseconds until the next message of a claimable channel is due, or null when none waits. */
  async function untilNextDue(): Promise<number | null> {
    if (channels.length === 0) return null;
    const { rows } = await pool.query<{ ms: number | null }>(
      `SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS ms FROM outbox
        WHERE delivered_at IS NULL AND failed_at IS NULL AND channel = ANY($1::text[])`,
      [channels],
    );
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? null : Math.max(0, Number(ms));
  }

  const listener = createNotificationListener({
    pool,
    channel: OUTBOX_CHANNEL,
    applicationName: OUTBOX_LISTENER_APPLICATION_NAME,
    // Also after each (re)connect: notifications sent while nobody listened are gone, look for their messages.
    onNotify: wake,
    running: () => running,
    onLost: (reason) => log(`outbox: LISTEN connection lost (${reason}); reconnecting (polling meanwhile)`),
  });

  async function loop(): Promise<void> {
    let failures = 0;
    while (running) {
      woken = false;
      let wait = pollMs;
      try {
        await deliverDue();
        failures = 0;
        const next = await untilNextDue();
        // A floor, so a row another loop is claiming right now does not make this one spin.
        if (next !== null) wait = Math.min(wait, Math.max(next, 50));
      } catch (e) {
        failures += 1;
        wait = Math.min(60_000, 500 * 2 ** Math.min(failures - 1, 10));
        log(`outbox: delivery pass failed (${describe(e)}); retrying in ${wait} ms`);
      }
      await sleep(wait);
    }
  }

  return {
    async start() {
      if (running) return;
      running = true;
      stopping = false;
      for (const channel of ['email', 'sms'] as const) {
        if (transports[channel] !== null) continue;
        log(
          devOutbox
            ? `outbox: no ${CHANNEL_NAMES[channel]} transport (${TRANSPORT_VARIABLES[channel]} unset): ${CHANNEL_NAMES[channel]} messages are only kept in the dev outbox`
            : `outbox: no ${CHANNEL_NAMES[channel]} transport (${TRANSPORT_VARIABLES[channel]} unset): ${CHANNEL_NAMES[channel]} messages wait in the outbox until one is configured`,
        );
      }
      await listener.connect();
      loopDone = loop();
    },
    async stop() {
      if (!running) return;
      running = false;
      stopping = true;
      wakeSleeper?.();
      await loopDone;
      await exclusive;
      stopping = false;
      await listener.close();
    },
    deliverDue,
  };
}
