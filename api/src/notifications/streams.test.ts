import type { Request, Response } from 'express';
import type { Pool } from 'pg';
import { createNotificationStreams } from './streams';

describe('notification streams', () => {
  it('refuses a stream opened after close() without touching the database (a late browser reconnect at shutdown)', async () => {
    const pool = new Proxy({} as Pool, {
      get: () => {
        throw new Error('the database was used');
      },
    });
    const streams = createNotificationStreams({ pool, log: () => undefined });
    await streams.close();
    const answered: { status?: number; body?: unknown } = {};
    const res = {
      status(code: number) {
        answered.status = code;
        return this;
      },
      json(body: unknown) {
        answered.body = body;
        return this;
      },
    } as unknown as Response;
    await streams.open({} as Request, res, { userId: 'u-1', expiresAt: Date.now() + 60_000 });
    expect(answered).toEqual({ status: 503, body: { message: 'The server is stopping' } });
    expect(streams.size()).toBe(0);
  });
});
