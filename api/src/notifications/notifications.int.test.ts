import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { UserRecord } from '../../../projections/src/identity/users.queries';
import { createAuth } from '../http/auth';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { approveAllItemsViaApi, completeOnboardingViaApi } from '../testing/onboarding';
import { DOCUMENT_TYPES } from '../../../domain/src/masters/reference-data/document-types';
import { addBa, addUser, details, sessionOf, type TestBa } from '../users/testing';
import { NOTIFICATION_PAGE_MAX } from './routes';

/**
 * The notifications centre over HTTP against the real stack: a BA's submission reaches the stage-1 reviewers
 * of its company code (list, unread count, and live over the event stream), its verification reaches the BA's
 * users, and nobody ever sees or marks another user's rows.
 */
jest.setTimeout(180_000);

const HEARTBEAT_MS = 300;

let h: ApiHarness;
let server: http.Server;
let base: string;
let reviewer: UserRecord; // MLL Procurement of 1000
let foreignReviewer: UserRecord; // MLL Procurement of 2000
let commercial: UserRecord; // MLL Commercial of 1000
let admin: UserRecord; // MLL-ADMIN of 1000 (blocks users)
let baA: TestBa;
let baUser: UserRecord; // BA User of baA
const auth: Record<string, Record<string, string>> = {};
const tokens: Record<string, string> = {};

type SseEvent = { event: string; data: unknown };

/** A raw HTTP reader of the event stream: what a browser's fetch would see, event by event. */
function openStream(token: string | null) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters: (() => void)[] = [];
  let status = 0;
  let contentType = '';
  let ended = false;
  const notify = () => waiters.splice(0).forEach((w) => w());
  let req: http.ClientRequest;
  const started = new Promise<void>((resolve, reject) => {
    req = http.get(
      `${base}/api/notifications/stream`,
      { headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) } },
      (res) => {
        status = res.statusCode ?? 0;
        contentType = String(res.headers['content-type'] ?? '');
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (block.startsWith(':')) comments.push(block.slice(1).trim());
            else {
              const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
              const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
              events.push({ event, data: JSON.parse(data) as unknown });
            }
          }
          notify();
        });
        res.on('end', () => {
          ended = true;
          notify();
        });
        resolve();
      },
    );
    req.on('error', (e) => (ended ? undefined : reject(e)));
  });
  const until = async (test: () => boolean, what: string, ms = 15_000) => {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events)}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  return {
    started,
    events,
    comments,
    status: () => status,
    contentType: () => contentType,
    ended: () => ended,
    until,
    close: () => {
      ended = true;
      req.destroy();
    },
  };
}

const get = (path: string, who: string) => request(h.app).get(path).set(auth[who] ?? {});
const post = (path: string, who: string) => request(h.app).post(path).set(auth[who] ?? {}).send({});

async function session(name: string, user: UserRecord) {
  const s = await sessionOf(h, user);
  auth[name] = s.auth;
  tokens[name] = s.token;
}

beforeAll(async () => {
  h = await startApiHarness('api-notifications', { notificationHeartbeatMs: HEARTBEAT_MS });
  server = h.app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  reviewer = await addUser(h, { email: 'procurement@notify.test', roles: ['MLL Procurement'], companyCodes: ['1000'] });
  foreignReviewer = await addUser(h, { email: 'procurement.2000@notify.test', roles: ['MLL Procurement'], companyCodes: ['2000'] });
  commercial = await addUser(h, { email: 'commercial@notify.test', roles: ['MLL Commercial'], companyCodes: ['1000'] });
  admin = await addUser(h, { email: 'admin@notify.test', roles: ['MLL-ADMIN'], companyCodes: ['1000'] });
  baA = await addBa(h, 'notify-a', { companyCode: '1000' });
  baUser = await addUser(h, { email: 'colleague@notify-a.test', roles: ['BA User'], baId: baA.baId });
  for (const [name, user] of [
    ['reviewer', reviewer],
    ['foreign', foreignReviewer],
    ['commercial', commercial],
    ['admin', admin],
    ['ba', baA.admin],
    ['baUser', baUser],
  ] as const)
    await session(name, user);
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await h?.stop();
});

/**
 * Issue 8: before stage 1 a reviewer approves each item (bank account, each mandatory document of the test
 * details' service, the vertical mapping), and the BA's users hear of each, newest first.
 */
const ITEM_REVIEW_KINDS = [
  'vertical-mapping.approved',
  ...DOCUMENT_TYPES.filter((t) => t.mandatoryServiceIds.includes(details().serviceId as number)).map(() => 'document.approved'),
  'bank-account.approved',
];
const BA_UNREAD = 2 + ITEM_REVIEW_KINDS.length;

describe('notifications', () => {
  it('starts at 0 and tells the stage-1 reviewers of the company code when a BA submits, live on the stream', async () => {
    expect((await get('/api/notifications/unread-count', 'reviewer').expect(200)).body).toEqual({ unread: 0 });
    const live = openStream(tokens['reviewer']!);
    const other = openStream(tokens['foreign']!);
    await Promise.all([live.started, other.started]);
    expect(live.status()).toBe(200);
    expect(live.contentType()).toMatch(/^text\/event-stream/);
    await live.until(() => live.events.length > 0, 'the first event');
    expect(live.events[0]).toEqual({ event: 'unread', data: { unread: 0 } });

    const admin = auth['ba']!;
    const base = `/api/business-associates/${baA.baId}`;
    expect((await request(h.app).post(`${base}/details`).set(admin).send(details({ companyName: 'Notify Roadways' }))).status).toBe(200);
    // Issue 8: every tab before the submission.
    await completeOnboardingViaApi(h, baA.baId, admin);
    expect((await request(h.app).post(`${base}/submit`).set(admin).send({})).status).toBe(200);

    await live.until(() => live.events.some((e) => e.event === 'notification'), 'the notification');
    const pushed = live.events.find((e) => e.event === 'notification')?.data as { item: { id: string }; unread: number };
    expect(pushed.unread).toBe(1);
    expect(pushed.item).toMatchObject({
      kind: 'onboarding.submitted',
      title: 'New BA submitted for review',
      body: 'Notify Roadways submitted its details for verification.',
      link: `/business-associates/${baA.baId}/show`,
      read: false,
    });

    const list = await get('/api/notifications', 'reviewer').expect(200);
    expect(list.body).toEqual([
      {
        id: pushed.item.id,
        kind: 'onboarding.submitted',
        title: 'New BA submitted for review',
        body: 'Notify Roadways submitted its details for verification.',
        link: `/business-associates/${baA.baId}/show`,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        read: false,
      },
    ]);
    expect(list.headers['content-range']).toBe('notifications 0-0/1');
    expect((await get('/api/notifications/unread-count', 'reviewer')).body).toEqual({ unread: 1 });
    // Another company code's reviewer, the stage-2 reviewer and the BA itself hear nothing.
    for (const who of ['foreign', 'commercial', 'ba'])
      expect((await get('/api/notifications', who).expect(200)).body).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(other.events).toEqual([{ event: 'unread', data: { unread: 0 } }]);
    live.close();
    other.close();
  });

  it('tells the BA’s users when it is verified', async () => {
    const admin = auth['admin']!;
    const base = `/api/business-associates/${baA.baId}`;
    // Issue 8: every item approved before stage 1.
    await approveAllItemsViaApi(h, baA.baId, admin);
    expect((await request(h.app).post(`${base}/approve`).set(admin).send({ stage: 1 })).status).toBe(200);
    expect((await get('/api/notifications', 'commercial').expect(200)).body.map((n: { kind: string }) => n.kind)).toEqual([
      'onboarding.stage-2',
    ]);
    expect((await request(h.app).post(`${base}/approve`).set(auth['commercial']!).send({ stage: 2 })).status).toBe(200);
    for (const who of ['ba', 'baUser']) {
      const kinds = (await get('/api/notifications', who).expect(200)).body.map((n: { kind: string }) => n.kind);
      expect(kinds).toEqual(['onboarding.verified', 'onboarding.stage-1-approved', ...ITEM_REVIEW_KINDS]);
    }
    expect((await get('/api/notifications/unread-count', 'ba')).body).toEqual({ unread: BA_UNREAD });
  });

  it('marks one read, then all, and never another user’s', async () => {
    const [newest, older] = (await get('/api/notifications', 'ba').expect(200)).body as { id: string }[];
    // Someone else's notification is as unknown as one that does not exist.
    expect((await post(`/api/notifications/${encodeURIComponent(older!.id)}/read`, 'reviewer')).status).toBe(404);
    expect((await post('/api/notifications/no-such-id/read', 'ba')).status).toBe(404);
    expect((await get('/api/notifications/unread-count', 'ba')).body).toEqual({ unread: BA_UNREAD });

    const marked = await post(`/api/notifications/${encodeURIComponent(older!.id)}/read`, 'ba').expect(200);
    expect(marked.body).toEqual({ id: older!.id, read: true, unread: BA_UNREAD - 1 });
    expect((await get('/api/notifications', 'ba')).body.map((n: { read: boolean }) => n.read)).toEqual([
      false,
      true,
      ...ITEM_REVIEW_KINDS.map(() => false),
    ]);
    // The colleague's copy of the same event is the colleague's own.
    expect((await get('/api/notifications/unread-count', 'baUser')).body).toEqual({ unread: BA_UNREAD });

    expect((await post('/api/notifications/read-all', 'ba').expect(200)).body).toEqual({ unread: 0 });
    const all = (await get('/api/notifications', 'ba')).body as { id: string; read: boolean }[];
    expect(all.slice(0, 2).map((n) => [n.id, n.read])).toEqual([
      [newest!.id, true],
      [older!.id, true],
    ]);
    expect(all).toHaveLength(BA_UNREAD);
    expect(all.every((n) => n.read)).toBe(true);
    expect((await get('/api/notifications/unread-count', 'baUser')).body).toEqual({ unread: BA_UNREAD });
  });

  it('pages like ra-data-simple-rest, newest first, at most 50 rows a page', async () => {
    const user = await addUser(h, { email: 'busy@notify.test', roles: ['MLL Procurement'] });
    await session('busy', user);
    await h.db.pool.query(
      `INSERT INTO notifications (id, user_id, kind, title, body, link, created_at, source_position)
       SELECT 'n' || i, $1, 'test', 'Title ' || i, 'Body', NULL, now(), 1000000 + i FROM generate_series(1, 60) i`,
      [user.id],
    );
    const first = await get(`/api/notifications?range=${encodeURIComponent('[0,9]')}`, 'busy').expect(200);
    expect(first.headers['content-range']).toBe('notifications 0-9/60');
    expect(first.body[0].title).toBe('Title 60');
    const second = await get(`/api/notifications?range=${encodeURIComponent('[10,19]')}`, 'busy').expect(200);
    expect(second.body.map((n: { title: string }) => n.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Title ${50 - i}`),
    );
    const capped = await get(`/api/notifications?range=${encodeURIComponent('[0,99]')}`, 'busy').expect(200);
    expect(capped.body).toHaveLength(NOTIFICATION_PAGE_MAX);
    expect(capped.headers['content-range']).toBe(`notifications 0-${NOTIFICATION_PAGE_MAX - 1}/60`);
    expect((await get(`/api/notifications?range=${encodeURIComponent('[5,2]')}`, 'busy')).status).toBe(400);
    expect((await get('/api/notifications?filter=%7B%22userId%22%3A%22x%22%7D', 'busy')).status).toBe(400);
    expect((await get('/api/notifications/unread-count', 'busy')).body).toEqual({ unread: 60 });
  });

  it('refuses the stream without a session and ends it with the token, at a block, and sends heartbeats', async () => {
    const anonymous = openStream(null);
    await anonymous.started;
    expect(anonymous.status()).toBe(401);
    anonymous.close();

    const live = openStream(tokens['commercial']!);
    await live.started;
    await live.until(() => live.comments.includes('heartbeat'), 'a heartbeat', 5_000);
    live.close();

    // A token that expires in a second: the stream ends when it does (the client reconnects with a new one).
    const principal = await h.auth.verifyAccessToken(tokens['foreign']!);
    const short = await createAuth({ ...h.authConfig, accessTokenTtlSeconds: 1 }, h.auth.keys).issueAccessToken(principal);
    const expiring = openStream(short);
    await expiring.started;
    expect(expiring.status()).toBe(200);
    await expiring.until(() => expiring.ended(), 'the end at expiry', 5_000);

    const doomed = await addUser(h, { email: 'doomed@notify.test', roles: ['MLL Procurement'] });
    await session('doomed', doomed);
    const blocked = openStream(tokens['doomed']!);
    await blocked.started;
    await blocked.until(() => blocked.events.length > 0, 'the first event');
    await request(h.app).post(`/api/users/${doomed.id}/block`).set(auth['admin']!).send({ reason: 'Left' }).expect(200);
    await blocked.until(() => blocked.ended(), 'the end at the block', 5_000);
  });
});
