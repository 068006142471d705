import request from 'supertest';
import { userIdForUsername } from '../../../domain/src/identity/users';
import { findUserById, type UserRecord } from '../../../projections/src/identity/users.queries';
import { BLOCKED_SESSION, refreshCookieName } from '../http/auth';
import { peekOneTimeToken } from '../identity/store/one-time-tokens';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { accountMessages } from './accounts';
import { usersMessages } from './routes';
import { addBa, addUser, lastMessage, nextMobile, sessionOf, TEST_PASSWORD, type TestBa } from './testing';

/**
 * Staff users over HTTP (MLL-ADMIN only): who may call, the invitation, validation, uniqueness, company-code
 * scoping, and what a block does to the blocked user's sessions and sign-in.
 */
jest.setTimeout(120_000);

const PUBLIC_URL = 'https://portal.example.test';
let h: ApiHarness;
let admin: UserRecord;
let adminAuth: { Authorization: string };
let ba: TestBa;
const as = async (user: UserRecord) => (await sessionOf(h, user)).auth;

beforeAll(async () => {
  h = await startApiHarness('api-users', { publicUrl: PUBLIC_URL });
  admin = await addUser(h, {
    email: 'admin@users.test',
    name: 'Anil Admin',
    applications: [{ appId: 'onboard', roleName: 'MLL-ADMIN' }],
    companyCodes: ['1000'],
  });
  adminAuth = await as(admin);
  ba = await addBa(h, 'users');
});

afterAll(async () => {
  await h?.stop();
});

const newUser = (over: Record<string, unknown> = {}) => ({
  name: 'Priya Sharma',
  emailId: `priya.${Math.random().toString(36).slice(2, 8)}@users.test`,
  mobileNo: nextMobile(),
  applications: [
    { appId: 'onboard', roleName: 'MLL Procurement' },
    { appId: 'RFP', roleName: 'MLL Procurement' },
  ],
  companyCodes: ['1000'],
  ...over,
});

describe('who may manage staff users', () => {
  it('answers 401 without a session and 403 to anyone but MLL-ADMIN', async () => {
    expect((await request(h.app).get('/api/users')).status).toBe(401);
    const procurement = await addUser(h, { email: 'procurement@users.test', roles: ['MLL Procurement'] });
    for (const caller of [procurement, ba.admin]) {
      const auth = await as(caller);
      expect((await request(h.app).get('/api/users').set(auth)).status).toBe(403);
      expect((await request(h.app).post('/api/users').set(auth).send(newUser())).status).toBe(403);
      expect((await request(h.app).get(`/api/users/${admin.id}`).set(auth)).status).toBe(403);
    }
  });
});

describe('POST /api/users', () => {
  it('creates a staff user who must choose a password through the invitation link (72 h, the reset page)', async () => {
    const body = newUser({ emailId: 'Meera.Iyer@Users.Test' });
    const res = await request(h.app).post('/api/users').set(adminAuth).send(body);

    expect(res.status).toBe(201);
    const id = userIdForUsername('meera.iyer@users.test');
    expect(res.body).toEqual({
      id,
      name: 'Priya Sharma',
      emailId: 'meera.iyer@users.test',
      mobileNo: body.mobileNo,
      roles: ['MLL Procurement'],
      applications: body.applications,
      companyCodes: ['1000'],
      status: 'active',
      kind: 'staff',
      createdAt: expect.any(String),
    });
    const stored = await findUserById(h.db.pool, id);
    expect(stored).toMatchObject({ mustChangePassword: true, department: null, baId: null });

    const mail = await lastMessage(h, 'meera.iyer@users.test', 'invitation');
    expect(mail?.body).toContain('Priya Sharma');
    expect(mail?.body).toContain('72 hours');
    const token = new RegExp(`${PUBLIC_URL}/reset-password/([A-Za-z0-9_-]+)`).exec(mail?.body ?? '')?.[1];
    expect(token).toBeDefined();
    expect(await peekOneTimeToken(h.db.pool, token ?? '')).toEqual({ userId: id, purpose: 'invitation' });
    // Nobody knows the first password: the account opens only through the link.
    const login = await request(h.app).post('/api/auth/login').send({ username: 'meera.iyer@users.test', password: TEST_PASSWORD });
    expect(login.status).toBe(401);
  });

  it('refuses missing and malformed fields with the spec messages', async () => {
    const res = await request(h.app).post('/api/users').set(adminAuth).send({});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(accountMessages.invalid);
    expect(res.body.errors).toMatchObject({
      name: 'This field is required',
      emailId: 'This field is required',
      mobileNo: 'This field is required',
      applications: usersMessages.applicationRequired,
      companyCodes: usersMessages.companyCodeRequired,
    });
    const bad = await request(h.app)
      .post('/api/users')
      .set(adminAuth)
      .send(newUser({ name: 'R2D2', emailId: 'not-an-email', mobileNo: '12345', applications: [{ appId: 'Payroll', roleName: 'Boss' }] }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      name: 'Only letters, hyphen, dot and space are allowed',
      emailId: 'Please enter a valid email id',
      mobileNo: 'Please enter a valid 10-digit mobile number starting with 6, 7, 8 or 9',
      'applications.0.appId': usersMessages.unknownApplication,
      'applications.0.roleName': usersMessages.unknownRole,
    });
  });

  it('gives staff roles only: a BA role is refused with 400', async () => {
    const res = await request(h.app)
      .post('/api/users')
      .set(adminAuth)
      .send(newUser({ applications: [{ appId: 'onboard', roleName: 'BA Admin' }] }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ 'applications.0.roleName': usersMessages.staffRolesOnly });
  });

  it('creates auditors too', async () => {
    const res = await request(h.app)
      .post('/api/users')
      .set(adminAuth)
      .send(newUser({ applications: [{ appId: 'onboard', roleName: 'Auditor' }] }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ roles: ['Auditor'], kind: 'staff' });
  });

  it('gives only company codes the admin holds (403 otherwise)', async () => {
    const res = await request(h.app).post('/api/users').set(adminAuth).send(newUser({ companyCodes: ['1000', '2000'] }));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(usersMessages.foreignCompanyCode);
  });

  it('refuses an e-mail id or mobile number another user has (409), whatever the case of the address', async () => {
    const taken = await addUser(h, { email: 'taken@users.test', roles: ['MLL Legal'] });
    for (const clash of [{ emailId: 'TAKEN@users.test' }, { mobileNo: taken.mobileNo }, { mobileNo: ba.admin.mobileNo }]) {
      const res = await request(h.app).post('/api/users').set(adminAuth).send(newUser(clash));
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('This e-mail id or mobile number is already in use');
    }
  });

  it('lets only one of two simultaneous requests with the same mobile number through', async () => {
    const mobileNo = nextMobile();
    const results = await Promise.all([
      request(h.app).post('/api/users').set(adminAuth).send(newUser({ mobileNo })),
      request(h.app).post('/api/users').set(adminAuth).send(newUser({ mobileNo })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('GET /api/users', () => {
  it('lists staff and auditors of the admin’s company codes, not BA users or other codes', async () => {
    const other = await addUser(h, { email: 'other.code@users.test', roles: ['MLL Commercial'], companyCodes: ['2000'] });
    const both = await addUser(h, { email: 'both.codes@users.test', roles: ['BA Engagement Manager'], companyCodes: ['1000', '2000'] });
    const res = await request(h.app).get('/api/users').query({ range: '[0,99]' }).set(adminAuth);
    expect(res.status).toBe(200);
    const ids = res.body.map((u: { id: string }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([admin.id, both.id]));
    expect(ids).not.toContain(other.id);
    expect(ids).not.toContain(ba.admin.id);
    expect(res.body.every((u: { kind: string }) => u.kind === 'staff')).toBe(true);
    expect(res.headers['content-range']).toMatch(/^users 0-\d+\/\d+$/);
    // Never a password hash.
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/i);

    const bas = await request(h.app).get('/api/users').query({ filter: '{"kind":"ba"}' }).set(adminAuth);
    expect(bas.body.map((u: { id: string }) => u.id)).toEqual([ba.admin.id]);
    const other2000 = await request(h.app).get('/api/users').query({ filter: '{"companyCode":"2000"}' }).set(adminAuth);
    expect(other2000.body).toEqual([]);
  });

  it('filters by text, role, application and status, and sorts by whitelisted fields', async () => {
    await addUser(h, { email: 'zara.legal@users.test', name: 'Zara Legal', roles: ['MLL Legal'] });
    const byQ = await request(h.app).get('/api/users').query({ filter: '{"q":"zara"}' }).set(adminAuth);
    expect(byQ.body.map((u: { emailId: string }) => u.emailId)).toEqual(['zara.legal@users.test']);
    const byRole = await request(h.app).get('/api/users').query({ filter: '{"role":"MLL-ADMIN"}' }).set(adminAuth);
    expect(byRole.body.map((u: { id: string }) => u.id)).toEqual([admin.id]);
    const byApp = await request(h.app).get('/api/users').query({ filter: '{"appId":"RFP"}', range: '[0,99]' }).set(adminAuth);
    expect(byApp.body.every((u: { applications: { appId: string }[] }) => u.applications.some((a) => a.appId === 'RFP'))).toBe(true);
    const sorted = await request(h.app).get('/api/users').query({ sort: '["emailId","DESC"]', range: '[0,99]' }).set(adminAuth);
    const emails = sorted.body.map((u: { emailId: string }) => u.emailId);
    expect(emails).toEqual([...emails].sort().reverse());
    const bad = await request(h.app).get('/api/users').query({ sort: '["password_hash","ASC"]' }).set(adminAuth);
    expect(bad.status).toBe(400);
    const unknown = await request(h.app).get('/api/users').query({ filter: '{"baId":"x"}' }).set(adminAuth);
    expect(unknown.status).toBe(400);
  });

  it('reads one user of the admin’s codes; another code’s user is 404', async () => {
    const other = await addUser(h, { email: 'only.2000@users.test', roles: ['MLL Commercial'], companyCodes: ['2000'] });
    expect((await request(h.app).get(`/api/users/${admin.id}`).set(adminAuth)).body).toMatchObject({ id: admin.id, name: 'Anil Admin' });
    expect((await request(h.app).get(`/api/users/${other.id}`).set(adminAuth)).status).toBe(404);
    expect((await request(h.app).get('/api/users/no-such-user').set(adminAuth)).status).toBe(404);
  });
});

describe('PUT /api/users/:id', () => {
  it('changes name, mobile, roles per application and the admin’s codes; codes it does not hold stay', async () => {
    const user = await addUser(h, { email: 'edit.me@users.test', roles: ['MLL Operations'], companyCodes: ['1000', '2000'] });
    const mobileNo = nextMobile();
    const res = await request(h.app)
      .put(`/api/users/${user.id}`)
      .set(adminAuth)
      // react-admin sends the whole record back: unknown keys and the unchanged e-mail id are fine.
      .send({
        id: user.id,
        status: 'active',
        kind: 'staff',
        emailId: user.username,
        name: 'Edited Name',
        mobileNo,
        applications: [{ appId: 'SAP', roleName: 'MDM' }],
        companyCodes: ['1000'],
      });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Edited Name', mobileNo, roles: ['MDM'], applications: [{ appId: 'SAP', roleName: 'MDM' }] });
    expect(res.body.companyCodes.sort()).toEqual(['1000', '2000']);
  });

  it('refuses another code (403), an e-mail change (422), a taken mobile (409), a BA user (422), losing one’s admin role (422)', async () => {
    const user = await addUser(h, { email: 'edit.refusals@users.test', roles: ['MLL Operations'] });
    const base = {
      name: 'X Y',
      mobileNo: user.mobileNo,
      applications: [{ appId: 'onboard', roleName: 'MLL Operations' }],
      companyCodes: ['1000'],
    };
    const put = (id: string, body: object) => request(h.app).put(`/api/users/${id}`).set(adminAuth).send(body);

    expect((await put(user.id, { ...base, companyCodes: ['1000', '2000'] })).status).toBe(403);
    const email = await put(user.id, { ...base, emailId: 'someone.else@users.test' });
    expect(email.status).toBe(422);
    const mobile = await put(user.id, { ...base, mobileNo: admin.mobileNo });
    expect(mobile.status).toBe(409);
    expect(mobile.body.message).toBe(accountMessages.contactInUse);
    expect((await put(ba.admin.id, base)).status).toBe(422);
    const self = await put(admin.id, { ...base, mobileNo: admin.mobileNo });
    expect(self.status).toBe(422);
    expect(self.body.message).toBe(usersMessages.ownAdminRole);
    expect((await put(user.id, { ...base, name: '' })).status).toBe(400);
  });
});

describe('blocking a user', () => {
  it('needs a reason, and an admin cannot block itself', async () => {
    const user = await addUser(h, { email: 'needs.reason@users.test', roles: ['MLL Accounts'] });
    const noReason = await request(h.app).post(`/api/users/${user.id}/block`).set(adminAuth).send({});
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toEqual({ reason: usersMessages.reasonRequired });
    const self = await request(h.app).post(`/api/users/${admin.id}/block`).set(adminAuth).send({ reason: 'testing' });
    expect(self.status).toBe(422);
    expect(self.body.message).toBe('You cannot block yourself');
  });

  it('ends the user’s sessions, refuses their token and their sign-in, tells them by e-mail; unblock restores sign-in', async () => {
    // Given a signed-in user whose session still refreshes
    const user = await addUser(h, { email: 'to.block@users.test', name: 'Deepak Joshi', roles: ['MLL Operations'] });
    const session = await sessionOf(h, user);
    const refreshed = await request(h.app).post('/api/auth/refresh?app=console').set('Cookie', session.cookie);
    expect(refreshed.status).toBe(200);
    const cookie =
      ([] as string[])
        .concat(refreshed.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith(`${refreshCookieName('console')}=`))
        ?.split(';')[0] ?? '';
    expect((await request(h.app).get('/api/me').set(session.auth)).status).toBe(200);

    // When the admin blocks them
    const blocked = await request(h.app).post(`/api/users/${user.id}/block`).set(adminAuth).send({ reason: 'Left the company' });

    // Then the row says so, the refresh cookie is dead, the unexpired access token is refused and sign-in is 403
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ id: user.id, status: 'blocked' });
    expect((await request(h.app).post('/api/auth/refresh?app=console').set('Cookie', cookie)).status).toBe(401);
    const me = await request(h.app).get('/api/me').set(session.auth);
    expect(me.status).toBe(401);
    expect(me.body.message).toBe(BLOCKED_SESSION);
    const login = await request(h.app).post('/api/auth/login').send({ username: 'to.block@users.test', password: TEST_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.message).toBe('Your account has been blocked. Please contact admin team for support');
    expect((await lastMessage(h, 'to.block@users.test', 'user-blocked'))?.body).toContain('Deepak Joshi');
    expect((await request(h.app).post(`/api/users/${user.id}/block`).set(adminAuth).send({ reason: 'again' })).status).toBe(422);
    const filtered = await request(h.app).get('/api/users').query({ filter: '{"status":"blocked"}' }).set(adminAuth);
    expect(filtered.body.map((u: { id: string }) => u.id)).toEqual([user.id]);

    // And unblocking lets them sign in again
    const unblocked = await request(h.app).post(`/api/users/${user.id}/unblock`).set(adminAuth).send({ reason: 'Rejoined' });
    expect(unblocked.body).toMatchObject({ status: 'active' });
    const again = await request(h.app).post('/api/auth/login').send({ username: 'to.block@users.test', password: TEST_PASSWORD });
    expect(again.status).toBe(200);
    expect((await request(h.app).post(`/api/users/${user.id}/unblock`).set(adminAuth).send({ reason: 'again' })).status).toBe(422);
  });

  it('cannot reach a user of another company code', async () => {
    const other = await addUser(h, { email: 'block.other@users.test', roles: ['MLL Legal'], companyCodes: ['2000'] });
    expect((await request(h.app).post(`/api/users/${other.id}/block`).set(adminAuth).send({ reason: 'x' })).status).toBe(404);
    expect((await findUserById(h.db.pool, other.id))?.status).toBe('active');
  });
});
