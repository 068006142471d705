import request from 'supertest';
import { userIdForUsername } from '../../../domain/src/identity/users';
import { DEPARTMENTS } from '../../../domain/src/masters/reference-data/departments';
import { findUserById, type UserRecord } from '../../../projections/src/identity/users.queries';
import { changeMasters, deactivate } from '../../../tests/support/masters';
import { BLOCKED_SESSION } from '../http/auth';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { accountMessages } from '../users/accounts';
import { emailChangeRefused } from '../users/fields';
import { addBa, addUser, lastMessage, nextMobile, sessionOf, type TestBa } from '../users/testing';
import { billHubMessages } from './bill-hub';
import { baUserMessages } from './common';
import { baUsersMessages } from './routes';

/**
 * A BA Admin's users over HTTP: BA users (verified BAs only, BA User role on a BA's applications, a department
 * from the list) and child Bill-Hub users (one per state of the BA), each visible to their own BA only.
 */
jest.setTimeout(120_000);

const PUBLIC_URL = 'https://portal.example.test';
let h: ApiHarness;
let a: TestBa;
let other: TestBa;
let pending: TestBa;
let adminA: { Authorization: string };
let adminOther: { Authorization: string };
const as = async (user: UserRecord) => (await sessionOf(h, user)).auth;

beforeAll(async () => {
  h = await startApiHarness('api-ba-users', { publicUrl: PUBLIC_URL });
  [a, other, pending] = [
    await addBa(h, 'alpha', { verified: true }),
    await addBa(h, 'other', { verified: true }),
    await addBa(h, 'pending'),
  ];
  adminA = await as(a.admin);
  adminOther = await as(other.admin);
});

afterAll(async () => {
  await h?.stop();
});

let n = 0;
const colleague = (over: Record<string, unknown> = {}) => ({
  name: 'Sneha Kulkarni',
  emailId: `sneha.${(n += 1)}@alpha.test`,
  mobileNo: nextMobile(),
  department: 'Operations',
  ...over,
});

describe('GET /api/departments', () => {
  it('lists the departments of the Departments master to a signed-in BA Admin', async () => {
    expect((await request(h.app).get('/api/departments')).status).toBe(401);
    const res = await request(h.app).get('/api/departments').set(adminA);
    expect(res.status).toBe(200);
    expect(res.body.map((d: { name: string }) => d.name).sort()).toEqual(DEPARTMENTS.map((d) => d.name).sort());
  });
});

describe('who may manage BA users', () => {
  it('is the BA Admin alone: 401 without a session, 403 for staff and BA users', async () => {
    const staff = await addUser(h, { email: 'admin@staff.test', roles: ['MLL-ADMIN'] });
    const baUser = await addUser(h, { email: 'user@alpha.test', roles: ['BA User'], baId: a.baId });
    for (const path of ['/api/ba-users', '/api/bill-hub-users']) {
      expect((await request(h.app).get(path)).status).toBe(401);
      for (const caller of [staff, baUser]) {
        const auth = await as(caller);
        expect((await request(h.app).get(path).set(auth)).status).toBe(403);
        expect((await request(h.app).post(path).set(auth).send(colleague())).status).toBe(403);
      }
    }
  });
});

describe('POST /api/ba-users', () => {
  it('adds a BA User of the admin’s BA and company codes, on onboarding unless told otherwise, with an invitation', async () => {
    const body = colleague({ emailId: 'Ravi.Ops@Alpha.test' });
    const res = await request(h.app).post('/api/ba-users').set(adminA).send(body);

    expect(res.status).toBe(201);
    const id = userIdForUsername('ravi.ops@alpha.test');
    expect(res.body).toEqual({
      id,
      baUserName: 'Sneha Kulkarni',
      emailId: 'ravi.ops@alpha.test',
      mobileNo: body.mobileNo,
      department: 'Operations',
      appAccess: [{ appId: 'onboard', roleName: 'BA User' }],
      baId: a.baId,
      status: 'Active',
    });
    expect(await findUserById(h.db.pool, id)).toMatchObject({
      kind: 'ba',
      roles: ['BA User'],
      companyCodes: [a.companyCode],
      mustChangePassword: true,
      billHubStateId: null,
    });
    const mail = await lastMessage(h, 'ravi.ops@alpha.test', 'invitation');
    expect(mail?.body).toMatch(new RegExp(`${PUBLIC_URL}/reset-password/[A-Za-z0-9_-]{20,}`));
  });

  it('gives the BA User role on the applications asked for, by department name or id', async () => {
    const res = await request(h.app)
      .post('/api/ba-users')
      .set(adminA)
      .send(colleague({ department: DEPARTMENTS[1]?.id, appAccess: [{ appId: 'RFP' }, { appId: 'BillHub', roleName: 'BA User' }] }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      department: DEPARTMENTS[1]?.name,
      appAccess: [
        { appId: 'RFP', roleName: 'BA User' },
        { appId: 'BillHub', roleName: 'BA User' },
      ],
    });
  });

  it('takes a department by any case of its name, refuses a deactivated one, and lets a user keep theirs', async () => {
    const keeper = await addUser(h, { email: 'keeper@alpha.test', roles: ['BA User'], baId: a.baId, department: 'Compliance' });
    const lower = await request(h.app).post('/api/ba-users').set(adminA).send(colleague({ department: 'finance' }));
    expect(lower.status).toBe(201);
    expect(lower.body.department).toBe('Finance');
    await changeMasters({ store: h.store, pool: h.db.pool }, [deactivate('departments', 7)]);
    const refused = await request(h.app).post('/api/ba-users').set(adminA).send(colleague({ department: 'Compliance' }));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ department: baUsersMessages.departmentRequired });
    const kept = await request(h.app)
      .put(`/api/ba-users/${keeper.id}`)
      .set(adminA)
      .send({ name: 'Keeper Renamed', mobileNo: keeper.mobileNo, department: 'Compliance' });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ baUserName: 'Keeper Renamed', department: 'Compliance' });
  });

  it('refuses another role, a company application, a department not in the list and bad fields (400)', async () => {
    const res = await request(h.app)
      .post('/api/ba-users')
      .set(adminA)
      .send(colleague({ department: 'Astrology', appAccess: [{ appId: 'SAP', roleName: 'BA Admin' }], mobileNo: '5000000000' }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      department: baUsersMessages.departmentRequired,
      'appAccess.0.appId': baUsersMessages.applicationNotForBa,
      'appAccess.0.roleName': baUsersMessages.baUserRoleOnly,
      mobileNo: 'Please enter a valid 10-digit mobile number starting with 6, 7, 8 or 9',
    });
    const empty = await request(h.app).post('/api/ba-users').set(adminA).send({});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['department', 'emailId', 'mobileNo', 'name']);
  });

  it('refuses an e-mail id or mobile number already in use (409)', async () => {
    for (const clash of [{ emailId: a.admin.username }, { mobileNo: other.admin.mobileNo }]) {
      const res = await request(h.app).post('/api/ba-users').set(adminA).send(colleague(clash));
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(accountMessages.contactInUse);
    }
  });

  it('waits for the BA to be verified (422)', async () => {
    const res = await request(h.app).post('/api/ba-users').set(await as(pending.admin)).send(colleague());
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(baUsersMessages.notVerified);
  });
});

describe('a BA’s users are its own', () => {
  it('lists the caller’s BA only and answers 404 for another BA’s user, on every route', async () => {
    const mine = await addUser(h, { email: 'mine@alpha.test', roles: ['BA User'], baId: a.baId, department: 'Fleet' });
    const listA = await request(h.app).get('/api/ba-users').query({ range: '[0,99]' }).set(adminA);
    expect(listA.status).toBe(200);
    expect(listA.body.every((u: { baId: string }) => u.baId === a.baId)).toBe(true);
    expect(listA.body.map((u: { id: string }) => u.id)).toEqual(expect.arrayContaining([a.admin.id, mine.id]));
    const listOther = await request(h.app).get('/api/ba-users').set(adminOther);
    expect(listOther.body.map((u: { id: string }) => u.id)).toEqual([other.admin.id]);

    const before = await h.store.headPosition();
    expect((await request(h.app).get(`/api/ba-users/${mine.id}`).set(adminOther)).status).toBe(404);
    expect((await request(h.app).put(`/api/ba-users/${mine.id}`).set(adminOther).send(colleague())).status).toBe(404);
    expect((await request(h.app).post(`/api/ba-users/${mine.id}/block`).set(adminOther)).status).toBe(404);
    expect((await request(h.app).post(`/api/ba-users/${mine.id}/unblock`).set(adminOther)).status).toBe(404);
    expect(await h.store.headPosition()).toBe(before);
    expect((await request(h.app).get(`/api/ba-users/${mine.id}`).set(adminA)).body).toMatchObject({ id: mine.id, department: 'Fleet' });
  });

  it('filters by text and status', async () => {
    await addUser(h, { email: 'quentin@alpha.test', name: 'Quentin Q', roles: ['BA User'], baId: a.baId });
    const res = await request(h.app).get('/api/ba-users').query({ filter: '{"q":"quentin"}' }).set(adminA);
    expect(res.body.map((u: { emailId: string }) => u.emailId)).toEqual(['quentin@alpha.test']);
    const blocked = await request(h.app).get('/api/ba-users').query({ filter: '{"status":"Blocked"}', range: '[0,99]' }).set(adminA);
    expect(blocked.body.every((u: { status: string }) => u.status === 'Blocked')).toBe(true);
  });
});

describe('PUT /api/ba-users/:id', () => {
  it('changes name, mobile, department and applications; not the e-mail id, nor the BA Admin', async () => {
    const user = await addUser(h, { email: 'edit@alpha.test', roles: ['BA User'], baId: a.baId, department: 'Sales' });
    const mobileNo = nextMobile();
    const res = await request(h.app)
      .put(`/api/ba-users/${user.id}`)
      .set(adminA)
      .send({
        id: user.id,
        baUserName: 'x',
        emailId: 'edit@alpha.test',
        name: 'Edited Colleague',
        mobileNo,
        department: 'IT',
        appAccess: [{ appId: 'Dashboard', roleName: 'BA User' }],
      });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      baUserName: 'Edited Colleague',
      mobileNo,
      department: 'IT',
      appAccess: [{ appId: 'Dashboard', roleName: 'BA User' }],
    });

    const email = await request(h.app).put(`/api/ba-users/${user.id}`).set(adminA).send(colleague({ emailId: 'new@alpha.test' }));
    expect(email.status).toBe(422);
    expect(email.body.message).toBe(emailChangeRefused);
    const own = await request(h.app).put(`/api/ba-users/${a.admin.id}`).set(adminA).send(colleague({ emailId: undefined }));
    expect(own.status).toBe(422);
    expect(own.body.message).toBe(baUserMessages.adminAccount);
    const taken = await request(h.app)
      .put(`/api/ba-users/${user.id}`)
      .set(adminA)
      .send(colleague({ emailId: undefined, mobileNo: other.admin.mobileNo }));
    expect(taken.status).toBe(409);
  });
});

describe('blocking a BA user', () => {
  it('takes the spec’s status (blocked = 0) or no body, refuses a mismatch, and ends the user’s access', async () => {
    const user = await addUser(h, { email: 'block@alpha.test', name: 'Blocked Colleague', roles: ['BA User'], baId: a.baId });
    const session = await sessionOf(h, user);

    const mismatch = await request(h.app).post(`/api/ba-users/${user.id}/block`).set(adminA).send({ status: 1 });
    expect(mismatch.status).toBe(400);
    const blocked = await request(h.app).post(`/api/ba-users/${user.id}/block`).set(adminA).send({ status: 0 });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ id: user.id, status: 'Blocked' });
    const me = await request(h.app).get('/api/me').set(session.auth);
    expect(me.status).toBe(401);
    expect(me.body.message).toBe(BLOCKED_SESSION);
    expect((await request(h.app).post('/api/auth/refresh?app=portal').set('Cookie', session.cookie)).status).toBe(401);
    expect((await lastMessage(h, 'block@alpha.test', 'user-blocked'))?.body).toContain('Blocked Colleague');

    const unblocked = await request(h.app).post(`/api/ba-users/${user.id}/unblock`).set(adminA);
    expect(unblocked.status).toBe(200);
    expect(unblocked.body).toMatchObject({ status: 'Active' });
    expect((await request(h.app).post(`/api/ba-users/${user.id}/unblock`).set(adminA).send({ status: '1' })).status).toBe(422);
  });

  it('a BA Admin cannot block itself', async () => {
    const res = await request(h.app).post(`/api/ba-users/${a.admin.id}/block`).set(adminA).send({ status: 0 });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('You cannot block yourself');
  });
});

describe('child Bill-Hub users', () => {
  const billHub = (over: Record<string, unknown> = {}) => ({
    stateId: 27,
    name: 'Billing Desk',
    emailId: `billing.${(n += 1)}@alpha.test`,
    mobileNo: nextMobile(),
    ...over,
  });

  it('adds a Bill-Hub-only user for a state, one per state and BA, with an invitation', async () => {
    const body = billHub({ stateId: 29 });
    const res = await request(h.app).post('/api/bill-hub-users').set(adminA).send(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: userIdForUsername(body.emailId),
      name: 'Billing Desk',
      emailId: body.emailId,
      mobileNo: body.mobileNo,
      stateId: 29,
      stateName: 'Karnataka',
      childCode: 'NA',
      Status: 'Active',
    });
    expect(await findUserById(h.db.pool, res.body.id)).toMatchObject({
      applications: [{ appId: 'BillHub', roleName: 'BA User' }],
      department: null,
      baId: a.baId,
      billHubStateId: 29,
      mustChangePassword: true,
    });
    expect(await lastMessage(h, body.emailId, 'invitation')).not.toBeNull();

    const again = await request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 29 }));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(billHubMessages.stateTaken);
    // Another BA has its own states.
    expect((await request(h.app).post('/api/bill-hub-users').set(adminOther).send(billHub({ stateId: 29 }))).status).toBe(201);
  });

  it('lets only one of two simultaneous requests take a state', async () => {
    const results = await Promise.all([
      request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 33 })),
      request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 33 })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('takes any active state of the States master, and refuses one deactivated there', async () => {
    // Telangana (36) was never in the old fixed catalogue.
    const telangana = await request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 36 }));
    expect(telangana.status).toBe(201);
    expect(telangana.body).toMatchObject({ stateId: 36, stateName: 'Telangana' });
    await changeMasters({ store: h.store, pool: h.db.pool }, [deactivate('states', 38)]);
    const ladakh = await request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 38 }));
    expect(ladakh.status).toBe(400);
    expect(ladakh.body.errors).toEqual({ stateId: billHubMessages.stateRequired });
  });

  it('refuses a state not in the catalogue and bad fields (400)', async () => {
    const res = await request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 99, emailId: 'x' }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ stateId: billHubMessages.stateRequired, emailId: 'Please enter a valid email id' });
  });

  it('keeps Bill-Hub users and BA users apart, each list of its own BA', async () => {
    const created = await request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 7 }));
    const id = created.body.id as string;
    const hub = await request(h.app).get('/api/bill-hub-users').query({ range: '[0,99]' }).set(adminA);
    expect(hub.body.map((u: { id: string }) => u.id)).toContain(id);
    expect(hub.body.every((u: { childCode: string }) => u.childCode === 'NA')).toBe(true);
    const colleagues = await request(h.app).get('/api/ba-users').query({ range: '[0,99]' }).set(adminA);
    expect(colleagues.body.map((u: { id: string }) => u.id)).not.toContain(id);
    expect((await request(h.app).get(`/api/ba-users/${id}`).set(adminA)).status).toBe(404);
    expect((await request(h.app).get(`/api/bill-hub-users/${id}`).set(adminA)).body).toMatchObject({ id, stateName: 'Delhi' });
    expect((await request(h.app).get(`/api/bill-hub-users/${id}`).set(adminOther)).status).toBe(404);
    expect((await request(h.app).get(`/api/bill-hub-users/${a.admin.id}`).set(adminA)).status).toBe(404);
    const otherList = await request(h.app).get('/api/bill-hub-users').set(adminOther);
    expect(otherList.body.map((u: { id: string }) => u.id)).not.toContain(id);
  });

  it('blocks and unblocks a Bill-Hub user; a blocked one still holds its state', async () => {
    const created = await request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 24 }));
    const id = created.body.id as string;
    expect((await request(h.app).post(`/api/bill-hub-users/${id}/block`).set(adminOther)).status).toBe(404);
    const blocked = await request(h.app).post(`/api/bill-hub-users/${id}/block`).set(adminA).send({ status: 0 });
    expect(blocked.body).toMatchObject({ id, Status: 'Blocked' });
    expect((await request(h.app).post('/api/bill-hub-users').set(adminA).send(billHub({ stateId: 24 }))).status).toBe(409);
    const unblocked = await request(h.app).post(`/api/bill-hub-users/${id}/unblock`).set(adminA);
    expect(unblocked.body).toMatchObject({ Status: 'Active' });
  });
});
