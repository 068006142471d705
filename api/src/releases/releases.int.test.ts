import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { releaseMessages } from '../../../domain/src/releases/fields';
import { messages } from '../../../domain/src/validation/fields';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';
import { releaseRouteMessages } from './routes';

/**
 * Release notes over HTTP: public reading (What's New per class, the release page), MLL-ADMIN writes with
 * the spec's messages, uniqueness per version and device, withdrawal, and GET /api/help.
 */
jest.setTimeout(120_000);

const HELP = { userManualUrl: 'https://portal.example.test/user-manual.pdf', supportEmail: 'help@portal.example.test' };
const portalDir = mkdtempSync(path.join(tmpdir(), 'portal-'));
writeFileSync(path.join(portalDir, 'index.html'), '<!doctype html><title>BA Portal</title>');

let h: ApiHarness;
let admin: { Authorization: string };
let procurement: { Authorization: string };
let ba: { Authorization: string };

beforeAll(async () => {
  h = await startApiHarness('api-releases', { help: HELP, staticDirs: { portal: portalDir } });
  admin = (await sessionOf(h, await addUser(h, { email: 'admin@releases.test', name: 'Anil Admin', roles: ['MLL-ADMIN'] }))).auth;
  procurement = (await sessionOf(h, await addUser(h, { email: 'proc@releases.test', roles: ['MLL Procurement'] }))).auth;
  ba = (await sessionOf(h, await addUser(h, { email: 'ba@releases.test', roles: ['BA Admin'], baId: 'ba-releases' }))).auth;
});

afterAll(async () => {
  await h?.stop();
});

const release = (over: Record<string, unknown> = {}) => ({
  versionReleased: '1.4.0',
  deviceType: 'web',
  featureClass: 'ba',
  releasedOn: '2026-03-05',
  newFeatures: [{ featureDesc: 'PO annexures on the home page', releasedOn: '2026-03-05' }],
  bugFixes: [{ featureDesc: 'City list loads for every state' }],
  ...over,
});

const eventCount = async () => Number((await h.db.pool.query(`SELECT count(*) AS n FROM events WHERE stream_id LIKE 'release-%'`)).rows[0].n);
const list = (query = '', auth: Record<string, string> = {}) => request(h.app).get(`/api/releases${query}`).set(auth);
const ids = (res: request.Response) => (res.body as { id: string }[]).map((r) => r.id);

describe('publishing a release (MLL-ADMIN)', () => {
  it('refuses anyone but MLL-ADMIN: 401 without a session, 403 for other staff and BAs', async () => {
    expect((await request(h.app).post('/api/releases').send(release())).status).toBe(401);
    expect((await request(h.app).post('/api/releases').set(procurement).send(release())).status).toBe(403);
    expect((await request(h.app).post('/api/releases').set(ba).send(release())).status).toBe(403);
    expect((await request(h.app).put('/api/releases/1.4.0-web').set(ba).send(release())).status).toBe(403);
    expect((await request(h.app).post('/api/releases/1.4.0-web/withdraw').set(procurement)).status).toBe(403);
    expect(await eventCount()).toBe(0);
  });

  it('publishes, and the release is readable at once without sign-in; an entry without a date takes the release date', async () => {
    const res = await request(h.app).post('/api/releases').set(admin).send(release());
    expect(res.status).toBe(201);
    const expected = {
      id: '1.4.0-web',
      versionReleased: '1.4.0',
      deviceType: 'web',
      featureClass: 'ba',
      releasedOn: '2026-03-05',
      newFeatures: [{ featureDesc: 'PO annexures on the home page', releasedOn: '2026-03-05' }],
      bugFixes: [{ featureDesc: 'City list loads for every state', releasedOn: '2026-03-05' }],
    };
    expect(res.body).toEqual(expected);
    expect((await request(h.app).get('/api/releases/1.4.0/web')).body).toEqual(expected);
    expect((await request(h.app).get('/api/releases/1.4.0-web')).body).toEqual(expected);
    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expected]);
    expect(listed.headers['content-range']).toBe('releases 0-0/1');

    const [event] = (await h.db.pool.query(`SELECT type, data, metadata FROM events WHERE stream_id = 'release-1.4.0-web'`)).rows;
    expect(event.type).toBe('ReleasePublished');
    expect(event.metadata.actor).toMatchObject({ role: 'MLL-ADMIN', name: 'Anil Admin' });
  });

  it('refuses the same version for the same device again (409), and writes nothing', async () => {
    const before = await eventCount();
    const res = await request(h.app).post('/api/releases').set(admin).send(release({ featureClass: 'all' }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A release 1.4.0 for Web already exists');
    expect(await eventCount()).toBe(before);
    // The same version for another device is another release.
    expect((await request(h.app).post('/api/releases').set(admin).send(release({ deviceType: 'android' }))).status).toBe(201);
  });

  it('answers a retried request (same Idempotency-Key) with the first result, appending nothing twice', async () => {
    const body = release({ versionReleased: '1.4.1', deviceType: 'ios' });
    const first = await request(h.app).post('/api/releases').set(admin).set('Idempotency-Key', 'rel-141-ios').send(body);
    const before = await eventCount();
    const again = await request(h.app).post('/api/releases').set(admin).set('Idempotency-Key', 'rel-141-ios').send(body);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await eventCount()).toBe(before);
  });

  it('says what is wrong with each field (400), and writes nothing', async () => {
    const before = await eventCount();
    const res = await request(h.app)
      .post('/api/releases')
      .set(admin)
      .send(
        release({
          versionReleased: 'v1.5',
          deviceType: 'windows',
          featureClass: 'staff',
          releasedOn: '2026-02-30',
          newFeatures: [{ featureDesc: '' }, { featureDesc: '=cmd()' }],
          bugFixes: [{ featureDesc: 'x'.repeat(261) }],
        }),
      );
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.message).toBe(releaseMessages.invalid);
    expect(res.body.errors).toEqual({
      versionReleased: releaseMessages.version,
      deviceType: releaseMessages.deviceType,
      featureClass: releaseMessages.featureClass,
      releasedOn: releaseMessages.date,
      'newFeatures.0.featureDesc': releaseMessages.description,
      'newFeatures.1.featureDesc': messages.leadingCharacter,
      'bugFixes.0.featureDesc': messages.tooLong,
    });
    const empty = await request(h.app).post('/api/releases').set(admin).send(release({ versionReleased: '1.5.0', newFeatures: [], bugFixes: [] }));
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ newFeatures: releaseMessages.nothingListed });
    expect(await eventCount()).toBe(before);
  });
});

describe('reading releases', () => {
  beforeAll(async () => {
    for (const r of [
      release({ versionReleased: '1.3.0', deviceType: 'web', featureClass: 'all', releasedOn: '2026-02-01' }),
      release({ versionReleased: '1.10.0', deviceType: 'web', featureClass: 'all', releasedOn: '2026-04-01' }),
    ])
      expect((await request(h.app).post('/api/releases').set(admin).send(r)).status).toBe(201);
  });

  it('lists newest first; a BA sees the releases for BAs and for all, ?featureClass= narrows to a class of user', async () => {
    // Same date: the higher version first.
    const everyone = ['1.10.0-web', '1.4.1-ios', '1.4.0-android', '1.4.0-web', '1.3.0-web'];
    expect(ids(await list())).toEqual(everyone);
    expect(ids(await list('', ba))).toEqual(everyone);
    expect(ids(await list('', admin))).toEqual(everyone);
    // What a BA's What's New asks for, and what the console's asks for.
    expect(ids(await list('?featureClass=ba', ba))).toEqual(everyone);
    expect(ids(await list('?featureClass=all'))).toEqual(['1.10.0-web', '1.3.0-web']);
    expect(ids(await list(`?filter=${encodeURIComponent('{"audience":"all"}')}`, admin))).toEqual(['1.10.0-web', '1.3.0-web']);
    // The console's class filter is exact.
    expect(ids(await list(`?filter=${encodeURIComponent('{"featureClass":"ba"}')}`, admin))).toEqual([
      '1.4.1-ios',
      '1.4.0-android',
      '1.4.0-web',
    ]);
    const bad = await list('?featureClass=staff');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(releaseRouteMessages.audience);
  });

  it('pages and sorts as ra-data-simple-rest asks', async () => {
    const res = await list(`?sort=${encodeURIComponent('["versionReleased","ASC"]')}&range=${encodeURIComponent('[0,1]')}`, admin);
    expect(ids(res)).toEqual(['1.3.0-web', '1.4.0-android']);
    expect(res.headers['content-range']).toBe('releases 0-1/5');
  });

  it('answers 404 "Release not found" for an unknown release, a malformed one too', async () => {
    for (const url of ['/api/releases/9.9.9/web', '/api/releases/1.4.0/windows', '/api/releases/abc/web', '/api/releases/nope']) {
      const res = await request(h.app).get(url);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Release not found');
    }
  });

  it('serves the portal for the public release page, without a session', async () => {
    const res = await request(h.app).get('/newFeaturesList/1.4.0/web');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>BA Portal</title>');
  });
});

describe('editing and withdrawing', () => {
  it('edits the content; the version and device type stay as they are', async () => {
    const res = await request(h.app)
      .put('/api/releases/1.4.0-android')
      .set(admin)
      .send(release({ deviceType: 'android', featureClass: 'all', bugFixes: [{ featureDesc: 'Faster sign-in', releasedOn: '2026-03-06' }] }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ featureClass: 'all', bugFixes: [{ featureDesc: 'Faster sign-in', releasedOn: '2026-03-06' }] });
    const { rows } = await h.db.pool.query(`SELECT data FROM events WHERE stream_id = 'release-1.4.0-android' AND type = 'ReleaseChanged'`);
    expect(rows[0].data.before).toEqual({ featureClass: 'ba', bugFixes: [{ featureDesc: 'City list loads for every state', releasedOn: '2026-03-05' }] });

    const renamed = await request(h.app).put('/api/releases/1.4.0-android').set(admin).send(release({ versionReleased: '1.4.2', deviceType: 'android' }));
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toBe(releaseMessages.identityFixed);
    const invalid = await request(h.app).put('/api/releases/1.4.0-android').set(admin).send(release({ deviceType: 'android', releasedOn: 'soon' }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({ releasedOn: releaseMessages.date });
    expect((await request(h.app).put('/api/releases/7.0.0-web').set(admin).send(release({ versionReleased: '7.0.0' }))).status).toBe(404);
  });

  it('withdraws: gone from the lists and its page; it may then be published again', async () => {
    const res = await request(h.app).post('/api/releases/1.4.1-ios/withdraw').set(admin).send({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: '1.4.1-ios', message: releaseRouteMessages.withdrawn });
    expect(ids(await list())).not.toContain('1.4.1-ios');
    expect((await request(h.app).get('/api/releases/1.4.1/ios')).status).toBe(404);
    expect((await request(h.app).post('/api/releases/1.4.1-ios/withdraw').set(admin).send({})).status).toBe(404);

    const again = await request(h.app).post('/api/releases').set(admin).send(release({ versionReleased: '1.4.1', deviceType: 'ios', featureClass: 'all' }));
    expect(again.status).toBe(201);
    expect((await request(h.app).get('/api/releases/1.4.1/ios')).body.featureClass).toBe('all');
  });
});

describe('GET /api/help', () => {
  it('answers the configured user manual and support mailbox, without a session', async () => {
    const res = await request(h.app).get('/api/help');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(HELP);
  });
});
