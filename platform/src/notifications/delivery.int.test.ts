import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { createDelivery, NO_TRANSPORT, type Delivery, type DeliveryOptions, type EmailTransport, type SmsTransport } from './delivery';
import { enqueueMessages, type OutboxMessage } from './outbox';
import { createSmsGateway } from './sms';
import { createSmtpTransport } from './smtp';

let db: TestDatabase;
const running: Delivery[] = [];
let logs: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});
beforeEach(async () => {
  logs = [];
  await db.pool.query('DELETE FROM outbox');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});

function delivery(options: Partial<DeliveryOptions> = {}): Delivery {
  const d = createDelivery({ pool: db.pool, email: null, sms: null, log: (line) => logs.push(line), pollMs: 60_000, ...options });
  running.push(d);
  return d;
}

const email = (to: string, code: string): OutboxMessage => ({
  channel: 'email',
  to,
  template: 'login-otp',
  params: { name: 'Gita Rao', code, minutes: '10' },
});
const sms = (to: string, code: string): OutboxMessage => ({
  channel: 'sms',
  to,
  template: 'registration-otp',
  params: { code, minutes: '10' },
});

type Row = {
  id: string;
  attempts: number;
  delivered: boolean;
  failed: boolean;
  last_error: string | null;
  retry_in_ms: number;
};
const state = async (id: string): Promise<Row> =>
  (
    await db.pool.query<Row>(
      `SELECT id, attempts, delivered_at IS NOT NULL AS delivered, failed_at IS NOT NULL AS failed, last_error,
              (extract(epoch FROM next_attempt_at - now()) * 1000)::float8 AS retry_in_ms
         FROM outbox WHERE id = $1`,
      [id],
    )
  ).rows[0] as Row;

/** Makes every waiting message due now, instead of waiting out its backoff. */
const makeDue = () => db.pool.query('UPDATE outbox SET next_attempt_at = now() WHERE delivered_at IS NULL');

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP server on a free loopback port, keeping what it receives. */
async function smtpListener(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An HTTP SMS gateway on a free loopback port: answers `status()` and keeps each request's URL. */
async function smsGateway(status: () => number = () => 200): Promise<{ urlTemplate: string; requests: URL[]; close: () => Promise<void> }> {
  const requests: URL[] = [];
  const server = http.createServer((req, res) => {
    requests.push(new URL(req.url ?? '/', 'http://gateway'));
    const code = status();
    res.writeHead(code, { 'content-type': 'text/plain' }).end(code < 300 ? 'queued' : 'gateway says no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    urlTemplate: `http://127.0.0.1:${port}/send?apikey=K1&to={to}&text={text}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('delivery of e-mail through SMTP', () => {
  it('sends the message to a real SMTP server and marks it delivered', async () => {
    const smtp = await smtpListener();
    const transport = createSmtpTransport({ url: smtp.url });
    try {
      const [id] = await enqueueMessages(db.pool, [email('gita@demo.test', '482913')]);

      const pass = await delivery({ email: transport }).deliverDue();

      expect(pass).toEqual({ delivered: 1, retried: 0, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0] as Received;
      expect(mail.to).toEqual(['gita@demo.test']);
      expect(mail.from).toBe('no-reply@ba-portal.local');
      expect(mail.raw).toMatch(/^From: BA Portal <no-reply@ba-portal\.local>$/m);
      expect(mail.raw).toMatch(/^Subject: Your BA Portal sign-in code$/m);
      expect(mail.raw).toContain('482913');
      expect(await state(id as string)).toEqual(expect.objectContaining({ attempts: 1, delivered: true, failed: false, last_error: null }));
    } finally {
      transport.close();
      await smtp.close();
    }
  });

  it('is woken by the commit of a new message, without waiting for the poll', async () => {
    const smtp = await smtpListener();
    const transport = createSmtpTransport({ url: smtp.url, from: 'Vendor Desk <desk@example.com>' });
    try {
      await delivery({ email: transport, pollMs: 60_000 }).start();
      const started = Date.now();
      await enqueueMessages(db.pool, [email('ravi@demo.test', '135790')]);

      await until(async () => smtp.received.length === 1, 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(smtp.received[0]?.raw).toMatch(/^From: Vendor Desk <desk@example\.com>$/m);
    } finally {
      transport.close();
      await smtp.close();
    }
  });

  it('retries when the SMTP server is down, and succeeds once it is back', async () => {
    const smtp = await smtpListener();
    const url = smtp.url;
    await smtp.close();
    const transport = createSmtpTransport({ url });
    try {
      const [id] = await enqueueMessages(db.pool, [email('gita@demo.test', '246810')]);
      const d = delivery({ email: transport, backoff: { baseMs: 60_000, maxMs: 600_000 } });

      expect(await d.deliverDue()).toEqual({ delivered: 0, retried: 1, failed: 0 });
      const failed = await state(id as string);
      expect(failed).toEqual(expect.objectContaining({ attempts: 1, delivered: false, failed: false }));
      expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(failed.retry_in_ms).toBeGreaterThan(55_000);
    } finally {
      transport.close();
    }
  });
});

describe('delivery of SMS through the HTTP gateway', () => {
  it('calls the gateway URL with the number and the text encoded, and marks the message delivered', async () => {
    const gateway = await smsGateway();
    try {
      const [id] = await enqueueMessages(db.pool, [sms('9876543210', '4821')]);

      const pass = await delivery({ sms: createSmsGateway({ urlTemplate: gateway.urlTemplate }) }).deliverDue();

      expect(pass).toEqual({ delivered: 1, retried: 0, failed: 0 });
      expect(gateway.requests).toHaveLength(1);
      const request = gateway.requests[0] as URL;
      expect(request.pathname).toBe('/send');
      expect(request.searchParams.get('apikey')).toBe('K1');
      expect(request.searchParams.get('to')).toBe('9876543210');
      expect(request.searchParams.get('text')).toBe(
        '4821 is your BA Portal registration code. It is valid for 10 minutes. Do not share it with anyone.',
      );
      expect(await state(id as string)).toEqual(expect.objectContaining({ delivered: true, last_error: null }));
    } finally {
      await gateway.close();
    }
  });

  it('takes an answer other than 2xx as a failure and retries it', async () => {
    let answer = 503;
    const gateway = await smsGateway(() => answer);
    try {
      const [id] = await enqueueMessages(db.pool, [sms('9876543210', '1357')]);
      const d = delivery({ sms: createSmsGateway({ urlTemplate: gateway.urlTemplate }), backoff: { baseMs: 1_000, maxMs: 10_000 } });

      expect(await d.deliverDue()).toEqual({ delivered: 0, retried: 1, failed: 0 });
      expect(await state(id as string)).toEqual(
        expect.objectContaining({ attempts: 1, delivered: false, last_error: 'SMS gateway answered 503: gateway says no' }),
      );

      answer = 200;
      await makeDue();
      expect(await d.deliverDue()).toEqual({ delivered: 1, retried: 0, failed: 0 });
      expect(await state(id as string)).toEqual(expect.objectContaining({ attempts: 2, delivered: true, last_error: null }));
      expect(gateway.requests).toHaveLength(2);
    } finally {
      await gateway.close();
    }
  });
});

describe('failures', () => {
  it('retries a failing transport with exponential backoff, never throwing, and gives up after maxAttempts', async () => {
    const broken: EmailTransport = {
      send: () => {
        throw new Error('mail server on fire');
      },
    };
    const [id] = await enqueueMessages(db.pool, [email('gita@demo.test', '111222')]);
    const d = delivery({ email: broken, maxAttempts: 4, backoff: { baseMs: 10_000, maxMs: 30_000 } });

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await expect(d.deliverDue()).resolves.toEqual({ delivered: 0, retried: 1, failed: 0 });
      const row = await state(id as string);
      expect(row).toEqual(expect.objectContaining({ attempts: attempt, delivered: false, failed: false, last_error: 'mail server on fire' }));
      delays.push(row.retry_in_ms);
      // Not due yet: another pass leaves it alone.
      expect(await d.deliverDue()).toEqual({ delivered: 0, retried: 0, failed: 0 });
      await makeDue();
    }
    // 10 s, 20 s, then capped at 30 s.
    expect(delays.map((ms) => Math.round(ms / 1000))).toEqual([10, 20, 30]);

    await expect(d.deliverDue()).resolves.toEqual({ delivered: 0, retried: 0, failed: 1 });
    expect(await state(id as string)).toEqual(expect.objectContaining({ attempts: 4, delivered: false, failed: true }));
    await makeDue();
    expect(await d.deliverDue()).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(logs).toEqual([
      expect.stringMatching(/e-mail message .* failed \(attempt 1 of 4\): mail server on fire; retrying in 10 s/),
      expect.stringMatching(/attempt 2 of 4/),
      expect.stringMatching(/attempt 3 of 4/),
      expect.stringMatching(/failed for good after 4 attempts: mail server on fire/),
    ]);
    // The log names the message, never its text (codes are read from the outbox, not from logs).
    expect(logs.join('\n')).not.toContain('111222');
  });

  it('counts a transport that does not answer as failed, and one message’s failure does not hold up the others', async () => {
    const hanging: SmsTransport = { send: ({ to }) => (to === '9000000001' ? new Promise<void>(() => undefined) : Promise.resolve()) };
    const [stuck, fine] = await enqueueMessages(db.pool, [sms('9000000001', '1111'), sms('9000000002', '2222')]);
    const d = delivery({ sms: hanging, sendTimeoutMs: 200 });

    expect(await d.deliverDue()).toEqual({ delivered: 1, retried: 1, failed: 0 });
    expect(await state(stuck as string)).toEqual(expect.objectContaining({ delivered: false, last_error: 'no answer within 200 ms' }));
    expect(await state(fine as string)).toEqual(expect.objectContaining({ delivered: true }));
  });

  it('keeps running after a failure: the loop delivers what comes next', async () => {
    let fail = true;
    const sent: string[] = [];
    const flaky: EmailTransport = {
      send: async ({ to }) => {
        if (fail) throw new Error('temporary');
        sent.push(to);
      },
    };
    const d = delivery({ email: flaky, pollMs: 100, backoff: { baseMs: 200, maxMs: 200 } });
    await d.start();
    await enqueueMessages(db.pool, [email('gita@demo.test', '999888')]);
    await until(async () => logs.some((l) => l.includes('temporary')));
    fail = false;
    await until(async () => sent.length === 1);
    await enqueueMessages(db.pool, [email('ravi@demo.test', '777666')]);
    await until(async () => sent.length === 2);
    expect(sent).toEqual(['gita@demo.test', 'ravi@demo.test']);
  });
});

describe('channels without a transport', () => {
  it('with the dev outbox on: counts the message as delivered and says why', async () => {
    const [id] = await enqueueMessages(db.pool, [sms('9876543210', '4321')]);
    expect(await delivery({ devOutbox: true }).deliverDue()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    expect(await state(id as string)).toEqual(expect.objectContaining({ delivered: true, last_error: NO_TRANSPORT }));
  });

  it('with the dev outbox off: leaves the message waiting and says so once at start', async () => {
    const sent: string[] = [];
    const [smsId, emailId] = await enqueueMessages(db.pool, [sms('9876543210', '4321'), email('gita@demo.test', '654321')]);
    const d = delivery({ email: { send: async ({ to }) => void sent.push(to) }, pollMs: 50 });
    await d.start();
    await until(async () => (await state(emailId as string)).delivered);
    await new Promise((r) => setTimeout(r, 200));

    expect(await state(smsId as string)).toEqual(expect.objectContaining({ attempts: 0, delivered: false, failed: false }));
    expect(sent).toEqual(['gita@demo.test']);
    expect(logs.filter((l) => l.includes('SMS'))).toEqual([
      'outbox: no SMS transport (SMS_GATEWAY_URL unset): SMS messages wait in the outbox until one is configured',
    ]);
  });
});

describe('several delivery loops', () => {
  it('never send one message twice', async () => {
    const sends = new Map<string, number>();
    const recording = (): SmsTransport => ({
      send: async ({ text }) => {
        await new Promise((r) => setTimeout(r, Math.random() * 5));
        sends.set(text, (sends.get(text) ?? 0) + 1);
      },
    });
    const count = 60;
    const messages = Array.from({ length: count }, (_, i) => sms('9876543210', String(1000 + i)));
    await enqueueMessages(db.pool, messages);

    // Passes racing each other directly, then running loops racing for what is written while they run.
    const a = delivery({ sms: recording(), batchSize: 3 });
    const b = delivery({ sms: recording(), batchSize: 4 });
    const [pa, pb] = await Promise.all([a.deliverDue(), b.deliverDue()]);
    expect(pa.delivered + pb.delivered).toBe(count);

    const c = delivery({ sms: recording(), batchSize: 2, pollMs: 20 });
    const e = delivery({ sms: recording(), batchSize: 2, pollMs: 20 });
    await Promise.all([c.start(), e.start()]);
    await enqueueMessages(db.pool, Array.from({ length: count }, (_, i) => sms('9876543210', String(5000 + i))));
    await until(async () => (await db.pool.query('SELECT 1 FROM outbox WHERE delivered_at IS NULL')).rowCount === 0);

    expect(sends.size).toBe(2 * count);
    expect([...sends.values()].every((n) => n === 1)).toBe(true);
    const { rows } = await db.pool.query<{ attempts: number }>('SELECT DISTINCT attempts FROM outbox');
    expect(rows).toEqual([{ attempts: 1 }]);
  });
});
