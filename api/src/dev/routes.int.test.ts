import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Express } from 'express';
import request from 'supertest';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { enqueueMessages, type OutboxMessage } from '../../../platform/src/notifications/outbox';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { createApp } from '../app';
import { generateAuthKeys, type AuthKeys } from '../http/auth';

/** The dev outbox through the real app: mounted under /api and, for the page, before the portal's fallback. */
let db: TestDatabase;
let portalDir: string;
let keys: AuthKeys;
const apps = new Map<boolean | undefined, Express>();

/** The whole app, as server.ts builds it, with the dev outbox on, off or not mentioned. */
const app = (devOutbox: boolean | undefined): Express => {
  const existing = apps.get(devOutbox);
  if (existing) return existing;
  const created = createApp({
    pool: db.pool,
    store: createPostgresEventStore(db.pool),
    // Not reached by these routes.
    temporal: {} as Client,
    taskQueue: 'unused',
    auth: { keys, config: { issuer: 'test', audience: 'test-api', accessTokenTtlSeconds: 900, refreshTokenTtlSeconds: 3600 } },
    staticDirs: { portal: portalDir },
    ...(devOutbox === undefined ? {} : { devOutbox }),
    log: () => undefined,
  });
  apps.set(devOutbox, created);
  return created;
};

const code = (channel: 'email' | 'sms', to: string, value: string): OutboxMessage => ({
  channel,
  to,
  template: 'login-otp',
  params: { name: 'Gita <Rao>', code: value, minutes: '10' },
});

beforeAll(async () => {
  db = await createTestDatabase();
  keys = await generateAuthKeys();
  portalDir = mkdtempSync(path.join(os.tmpdir(), 'portal-'));
  writeFileSync(path.join(portalDir, 'index.html'), '<!doctype html><title>portal</title>');
  // Oldest first.
  await enqueueMessages(db.pool, [code('email', 'Gita@Demo.test', '111111')]);
  await enqueueMessages(db.pool, [code('sms', '9876543210', '222222')]);
  await enqueueMessages(db.pool, [code('email', 'ravi@demo.test', '333333')]);
  await enqueueMessages(db.pool, [code('email', 'gita@demo.test', '444444')]);
});
afterAll(async () => {
  await db.drop();
});

describe('dev outbox, switched off (DEV_OUTBOX unset)', () => {
  it.each([undefined, false])('answers 404 on the API and the page (devOutbox %s)', async (devOutbox) => {
    const a = app(devOutbox);
    const list = await request(a).get('/api/dev/outbox');
    expect(list.status).toBe(404);
    expect(list.body).toEqual(expect.objectContaining({ message: 'Not found' }));
    // Not the portal's index.html either.
    const page = await request(a).get('/dev/outbox');
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('<title>portal</title>');
  });
});

describe('dev outbox, switched on', () => {
  it('lists every message newest first, without sign-in, as a simple-rest list', async () => {
    const res = await request(app(true)).get('/api/dev/outbox');

    expect(res.status).toBe(200);
    expect(res.headers['content-range']).toBe('outbox 0-3/4');
    expect(res.headers['cache-control']).toBe('no-store');
    const items = res.body as Record<string, unknown>[];
    expect(items.map((i) => /\d{6}/.exec(String(i.text))?.[0])).toEqual(['444444', '333333', '222222', '111111']);
    expect(items[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      to: 'gita@demo.test',
      channel: 'email',
      subject: 'Your BA Portal sign-in code',
      text: expect.stringContaining('Your BA Portal sign-in code is 444444.'),
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(items[2]).toEqual(expect.objectContaining({ to: '9876543210', channel: 'sms', subject: null }));
  });

  it('filters by e-mail address (any case) or mobile number, and pages with range', async () => {
    const a = app(true);
    const gita = await request(a).get('/api/dev/outbox').query({ filter: JSON.stringify({ to: 'GITA@demo.test' }) });
    expect(gita.status).toBe(200);
    expect(gita.headers['content-range']).toBe('outbox 0-1/2');
    expect((gita.body as { text: string }[]).map((i) => /\d{6}/.exec(i.text)?.[0])).toEqual(['444444', '111111']);

    const mobile = await request(a).get('/api/dev/outbox').query({ filter: JSON.stringify({ to: '9876543210' }) });
    expect((mobile.body as { channel: string }[]).map((i) => i.channel)).toEqual(['sms']);

    const nobody = await request(a).get('/api/dev/outbox').query({ filter: JSON.stringify({ to: 'nobody@demo.test' }) });
    expect(nobody.headers['content-range']).toBe('outbox */0');
    expect(nobody.body).toEqual([]);

    const page = await request(a).get('/api/dev/outbox').query({ range: '[1,2]' });
    expect(page.headers['content-range']).toBe('outbox 1-2/4');
    expect((page.body as unknown[]).length).toBe(2);
  });

  it('refuses an unknown filter like every other list', async () => {
    const res = await request(app(true)).get('/api/dev/outbox').query({ filter: JSON.stringify({ recipient: 'x' }) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ 'filter.recipient': 'Unknown filter' });
  });

  it('shows the page, newest first, filtered by "to", with the text escaped', async () => {
    const a = app(true);
    const res = await request(a).get('/dev/outbox');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain('<meta http-equiv="refresh" content="5">');
    expect(res.text.indexOf('444444')).toBeLessThan(res.text.indexOf('111111'));
    // The name "Gita <Rao>" is shown, never interpreted.
    expect(res.text).toContain('Hello Gita &lt;Rao&gt;,');
    expect(res.text).not.toContain('<Rao>');

    const filtered = await request(a).get('/dev/outbox').query({ to: '9876543210' });
    expect(filtered.text).toContain('222222');
    expect(filtered.text).not.toContain('444444');
    expect(filtered.text).toContain('value="9876543210"');
  });
});
