import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { createNotificationListener } from './listener';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('notification listener', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2, empty: true });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('a connect still in flight when close() is called schedules no reconnect and reports no loss', async () => {
    // Nothing listens on port 1: the connect fails after close() was called.
    const pool = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'nobody', database: 'none', max: 1 });
    const lost: string[] = [];
    const listener = createNotificationListener({
      pool,
      channel: 'nothing',
      applicationName: 'listener-test',
      onNotify: () => undefined,
      running: () => true,
      onLost: (reason) => lost.push(reason),
    });
    const connecting = listener.connect();
    await listener.close();
    await connecting;
    // Past the first backoff (250 ms): a reconnect would have been tried and reported by now.
    await settle(600);
    expect(lost).toEqual([]);
    await pool.end();
  });

  it('connects again after close(), and hears notifications then', async () => {
    const heard: (string | undefined)[] = [];
    const listener = createNotificationListener({
      pool: db.pool,
      channel: 'listener_test',
      applicationName: 'listener-test',
      onNotify: (payload) => heard.push(payload),
      running: () => true,
      onLost: () => undefined,
    });
    await listener.connect();
    await listener.close();
    await listener.connect();
    await db.pool.query(`select pg_notify('listener_test', 'hello')`);
    for (let i = 0; i < 50 && !heard.includes('hello'); i += 1) await settle(50);
    // Once after each connect (payload undefined), then the notification.
    expect(heard).toEqual([undefined, undefined, 'hello']);
    await listener.close();
  });
});
