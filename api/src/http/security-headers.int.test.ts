import { Client, Connection } from '@temporalio/client';
import type { Express } from 'express';
import request from 'supertest';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { claimNamespace, temporalAddress, uniqueTaskQueue } from '../../../tests/support/temporal';
import { createApp, type AppDeps } from '../app';
import { TEST_AUTH_CONFIG } from '../testing/harness';
import { generateAuthKeys } from './auth';

/**
 * createApp wires the settings server.ts passes from the configuration: `secure` (PUBLIC_URL is https) turns
 * HSTS on, `trustProxy` (TRUST_PROXY) reaches Express. Whatever the route, API or error, the headers are there.
 */
let db: TestDatabase;
let connection: Connection;
let base: Omit<AppDeps, 'secure' | 'trustProxy'>;

beforeAll(async () => {
  db = await createTestDatabase();
  connection = await Connection.connect({ address: temporalAddress() });
  base = {
    pool: db.appPool,
    store: createPostgresEventStore(db.appPool),
    temporal: new Client({ connection, namespace: claimNamespace() }),
    taskQueue: uniqueTaskQueue('security-headers'),
    auth: { config: TEST_AUTH_CONFIG, keys: await generateAuthKeys() },
    log: () => undefined,
  };
});

afterAll(async () => {
  await connection?.close();
  await db?.drop();
});

const headersOf = async (app: Express, path: string, status = 200) => {
  const res = await request(app).get(path);
  expect(res.status).toBe(status);
  return res.headers;
};

test('behind https (PUBLIC_URL https): HSTS on API answers and errors alike, beside the CSP', async () => {
  const app = createApp({ ...base, secure: true });
  for (const path of ['/api/companies', '/api/no-such-route']) {
    const headers = await headersOf(app, path, path === '/api/companies' ? 200 : 404);
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  }
});

test('over plain http (the default): no HSTS, the other headers as ever', async () => {
  const headers = await headersOf(createApp(base), '/api/no-such-route', 404);
  expect(headers['strict-transport-security']).toBeUndefined();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
});

test('TRUST_PROXY reaches Express; without it X-Forwarded-For is not believed', () => {
  expect(createApp(base).get('trust proxy')).toBe(false);
  expect(createApp({ ...base, trustProxy: 'loopback' }).get('trust proxy')).toBe('loopback');
  expect(createApp({ ...base, trustProxy: 1 }).get('trust proxy')).toBe(1);
});
