import request from 'supertest';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import { userDecider, userIdForUsername, userStreamId } from '../../../domain/src/identity/users';
import { waitForProjections } from '../../../projections/src/runner';
import { DEMO_BAS, DEMO_PASSWORD, seedDemo } from '../../../scripts/seed';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { testCredential } from './testing';

/**
 * Post-login routing (Me.home, spec 000 §2) and the active company code narrowing the BA list (spec 000 §6),
 * on the demo data the seed creates through the workflows (BAs in every status, in both company codes).
 */
jest.setTimeout(180_000);

let h: ApiHarness;
const ba = (key: string) => {
  const found = DEMO_BAS.find((b) => b.key === key);
  if (!found) throw new Error(key);
  return found;
};
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  h = await startApiHarness('api-identity-me');
  await seedDemo({ pool: h.db.pool, store: h.store, temporal: h.temporal, taskQueue: h.taskQueue, blobStore: h.blobStore });
});

afterAll(async () => {
  await h?.stop();
});

describe('Me.home: where each user lands after signing in', () => {
  it('staff go to the console', async () => {
    const { user } = await h.signIn('procurement@demo.test');
    expect(user).toMatchObject({ application: 'console', baStatus: null, home: '/console', firstLogin: false, passwordExpired: false });
  });

  it('a BA not yet verified goes to its onboarding status', async () => {
    const { user } = await h.signIn(ba('sahyadri').admin.username);
    expect(user).toMatchObject({ application: 'portal', baId: ba('sahyadri').baId, baStatus: 'pending', home: '/onboard/status' });
    const rejected = await h.signIn(ba('sabarmati').admin.username);
    expect(rejected.user).toMatchObject({ baStatus: 'rejected', home: '/onboard/status' });
  });

  it('a verified BA goes home', async () => {
    const { user, accessToken } = await h.signIn(ba('coromandel').admin.username);
    expect(user).toMatchObject({ baStatus: 'verified', home: '/home' });
    // GET /api/me answers the same.
    const me = await request(h.app).get('/api/me').set(bearer(accessToken));
    expect(me.body).toEqual(user);
  });

  it('a Bill-Hub-only BA user goes to the Bill-Hub area', async () => {
    const username = 'billhub.only@demo.test';
    const userId = userIdForUsername(username);
    const result = await handleCommand(
      h.store,
      userStreamId(userId),
      userDecider,
      {
        type: 'RegisterUser',
        userId,
        username,
        name: 'Bill Hub Clerk',
        credentialId: await testCredential(h.db.pool, userId, DEMO_PASSWORD),
        roles: ['BA User'],
        applications: [{ appId: 'BillHub', roleName: 'BA User' }],
        companyCodes: [ba('coromandel').companyCode],
        baId: ba('coromandel').baId,
      },
      {
        commandId: `test:${username}`,
        actor: { userId: 'test', role: 'system' },
        at: new Date().toISOString(),
        companyCode: null,
        correlationId: 'test',
        causationId: null,
        workflowId: null,
        requestId: null,
      },
    );
    await waitForProjections(h.db.pool, result.lastGlobalPosition, { timeoutMs: 10_000 });
    expect((await h.signIn(username)).user).toMatchObject({ baStatus: 'verified', home: '/bill-hub' });
  });
});

describe('the active company code narrows the BA list', () => {
  const idsOf = async (token: string) => {
    const res = await request(h.app).get('/api/business-associates').query({ range: '[0,99]' }).set(bearer(token));
    expect(res.status).toBe(200);
    return (res.body as { id: string; companyCode: string }[]).map((r) => r.companyCode);
  };
  const count = (code: string) => DEMO_BAS.filter((b) => b.companyCode === code).length;

  it('All shows every code the user holds; one code shows only that code; refresh keeps the choice', async () => {
    const session = await h.signIn('engagement@demo.test');
    expect(session.user).toMatchObject({ companyCodes: ['1000', '2000'], activeCompanyCode: 'All' });
    expect((await idsOf(session.accessToken)).length).toBe(count('1000') + count('2000'));

    const chosen = await request(h.app).put('/api/me/active-company').set(bearer(session.accessToken)).send({ companyCode: '2000' });
    expect(chosen.status).toBe(200);
    const codes = await idsOf(chosen.body.accessToken);
    expect(codes).toHaveLength(count('2000'));
    expect(new Set(codes)).toEqual(new Set(['2000']));

    // A refreshed session carries the stored choice.
    const refreshed = await request(h.app).post('/api/auth/refresh').set('Cookie', session.cookie);
    expect(refreshed.body.user.activeCompanyCode).toBe('2000');
    expect(await idsOf(refreshed.body.accessToken)).toHaveLength(count('2000'));

    const all = await request(h.app).put('/api/me/active-company').set(bearer(refreshed.body.accessToken)).send({ companyCode: 'All' });
    expect((await idsOf(all.body.accessToken)).length).toBe(count('1000') + count('2000'));
  });

  it('the sidebar counts follow the active code too', async () => {
    const session = await h.signIn('engagement@demo.test');
    const counts = async (token: string) =>
      (await request(h.app).get('/api/ba-counts').set(bearer(token))).body as { all: number };
    expect((await counts(session.accessToken)).all).toBe(count('1000') + count('2000'));
    const chosen = await request(h.app).put('/api/me/active-company').set(bearer(session.accessToken)).send({ companyCode: '1000' });
    expect((await counts(chosen.body.accessToken)).all).toBe(count('1000'));
    await request(h.app).put('/api/me/active-company').set(bearer(chosen.body.accessToken)).send({ companyCode: 'All' });
  });

  it('a code the user does not hold is refused, and never widens the list', async () => {
    const { accessToken } = await h.signIn('procurement@demo.test');
    const res = await request(h.app).put('/api/me/active-company').set(bearer(accessToken)).send({ companyCode: '2000' });
    expect(res.status).toBe(400);
    expect(new Set(await idsOf(accessToken))).toEqual(new Set(['1000']));
  });

  it('a BA sees its own BA whatever it chooses', async () => {
    const { accessToken } = await h.signIn(ba('hooghly').admin.username);
    const chosen = await request(h.app).put('/api/me/active-company').set(bearer(accessToken)).send({ companyCode: '2000' });
    expect(chosen.status).toBe(200);
    const res = await request(h.app).get('/api/business-associates').set(bearer(chosen.body.accessToken));
    expect(res.body.map((r: { id: string }) => r.id)).toEqual([ba('hooghly').baId]);
  });
});
