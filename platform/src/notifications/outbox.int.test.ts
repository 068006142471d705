import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { enqueueMessages, listOutbox, type OutboxMessage } from './outbox';
import { OUTBOX_CHANNEL } from './schema';
import { TemplateError } from './templates';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});
beforeEach(async () => {
  await db.pool.query('DELETE FROM outbox');
});

const loginCode = (to: string, code = '482913'): OutboxMessage => ({
  channel: 'email',
  to,
  template: 'login-otp',
  params: { name: 'Gita Rao', code, minutes: '10' },
});
const smsCode = (to: string, code = '482913'): OutboxMessage => ({
  channel: 'sms',
  to,
  template: 'login-otp',
  params: { name: 'Gita Rao', code, minutes: '10' },
});

const rows = async () =>
  (await db.pool.query('SELECT channel, recipient, template, subject, body, attempts, delivered_at FROM outbox ORDER BY seq')).rows;

/** Runs `work` in a transaction on its own client and commits or rolls back. */
async function inTransaction(end: 'COMMIT' | 'ROLLBACK', work: (client: pg.PoolClient) => Promise<unknown>): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query(end);
  } finally {
    client.release();
  }
}

/** A LISTEN connection counting the outbox's notifications. */
async function listen(): Promise<{ count: () => number; close: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  let n = 0;
  client.on('notification', (msg) => {
    if (msg.channel === OUTBOX_CHANNEL) n += 1;
  });
  await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
  return { count: () => n, close: () => client.end() };
}

const settle = () => new Promise((r) => setTimeout(r, 150));

describe('enqueueMessages', () => {
  it('stores each message rendered from its template, waiting for delivery', async () => {
    const ids = await enqueueMessages(db.pool, [loginCode('gita@demo.test'), smsCode('9876543210')]);

    expect(ids).toHaveLength(2);
    expect(await rows()).toEqual([
      expect.objectContaining({
        channel: 'email',
        recipient: 'gita@demo.test',
        template: 'login-otp',
        subject: 'Your BA Portal sign-in code',
        body: expect.stringContaining('Your BA Portal sign-in code is 482913. It is valid for 10 minutes.'),
        attempts: 0,
        delivered_at: null,
      }),
      expect.objectContaining({
        channel: 'sms',
        recipient: '9876543210',
        subject: null,
        body: '482913 is your BA Portal sign-in code. It is valid for 10 minutes. Do not share it with anyone.',
      }),
    ]);
  });

  it('commits with the caller’s transaction and notifies the delivery loop at commit', async () => {
    const listener = await listen();
    try {
      await inTransaction('COMMIT', async (client) => {
        await enqueueMessages(client, [loginCode('gita@demo.test')]);
        await settle();
        // Not before the commit: a woken worker would find nothing yet.
        expect(listener.count()).toBe(0);
      });
      await settle();
      expect(listener.count()).toBe(1);
      expect(await rows()).toHaveLength(1);
    } finally {
      await listener.close();
    }
  });

  it('leaves nothing, and wakes nobody, when the caller’s transaction rolls back', async () => {
    const listener = await listen();
    try {
      await inTransaction('ROLLBACK', async (client) => {
        await enqueueMessages(client, [loginCode('gita@demo.test'), smsCode('9876543210')]);
      });
      await settle();
      expect(await rows()).toEqual([]);
      expect(listener.count()).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it('refuses a message it cannot render, writing none of the batch', async () => {
    const broken: OutboxMessage = { channel: 'email', to: 'gita@demo.test', template: 'login-otp', params: { name: 'Gita', minutes: '10' } };
    await expect(enqueueMessages(db.pool, [loginCode('gita@demo.test'), broken])).rejects.toThrow(TemplateError);
    await expect(enqueueMessages(db.pool, [loginCode('not-an-address')])).rejects.toThrow(
      'not a valid e-mail address',
    );
    await expect(enqueueMessages(db.pool, [smsCode('98765 abc')])).rejects.toThrow('not a valid mobile number');
    expect(await rows()).toEqual([]);
  });

  it('writes a message once per dedupe key, so a retried cause does not send it twice', async () => {
    const first = await enqueueMessages(db.pool, [loginCode('gita@demo.test'), smsCode('9876543210')], { dedupeKey: 'activity-42' });
    const again = await enqueueMessages(db.pool, [loginCode('gita@demo.test'), smsCode('9876543210')], { dedupeKey: 'activity-42' });
    const other = await enqueueMessages(db.pool, [loginCode('gita@demo.test')], { dedupeKey: 'activity-43' });

    expect(first).toHaveLength(2);
    expect(again).toEqual([]);
    expect(other).toHaveLength(1);
    expect(await rows()).toHaveLength(3);
  });

  it('does nothing for an empty list', async () => {
    expect(await enqueueMessages(db.pool, [])).toEqual([]);
  });
});

describe('listOutbox', () => {
  it('lists newest first, filters by recipient (e-mail case-insensitively) and counts the total', async () => {
    await enqueueMessages(db.pool, [loginCode('Gita@Demo.test', '111111')]);
    await enqueueMessages(db.pool, [smsCode('9876543210', '222222')]);
    await enqueueMessages(db.pool, [loginCode('ravi@demo.test', '333333')]);
    await enqueueMessages(db.pool, [loginCode('gita@demo.test', '444444')]);

    const all = await listOutbox(db.pool);
    expect(all.total).toBe(4);
    expect(all.rows.map((r) => /\d{6}/.exec(r.text)?.[0])).toEqual(['444444', '333333', '222222', '111111']);
    expect(all.rows[0]).toEqual(
      expect.objectContaining({ to: 'gita@demo.test', channel: 'email', status: 'pending', attempts: 0, lastError: null }),
    );
    expect(all.rows[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

    const gita = await listOutbox(db.pool, { to: 'GITA@demo.test' });
    expect(gita.total).toBe(2);
    expect(gita.rows.map((r) => r.to)).toEqual(['gita@demo.test', 'Gita@Demo.test']);

    const mobile = await listOutbox(db.pool, { to: '9876543210' });
    expect(mobile.rows.map((r) => [r.channel, r.subject])).toEqual([['sms', null]]);

    const page = await listOutbox(db.pool, { range: { offset: 1, limit: 2 } });
    expect(page.total).toBe(4);
    expect(page.rows.map((r) => /\d{6}/.exec(r.text)?.[0])).toEqual(['333333', '222222']);

    const past = await listOutbox(db.pool, { range: { offset: 10, limit: 5 } });
    expect(past).toEqual({ rows: [], total: 4 });

    const oldest = await listOutbox(db.pool, { sort: { field: 'createdAt', order: 'ASC' }, range: { offset: 0, limit: 1 } });
    expect(oldest.rows[0]?.text).toContain('111111');
  });
});
