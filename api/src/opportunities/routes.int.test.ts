import express from 'express';
import request from 'supertest';
import { CRM_UNAVAILABLE_MESSAGE } from '../../../domain/src/crm/port';
import { ALL_ROLES, type Role } from '../../../domain/src/identity/roles';
import { SEED_OPPORTUNITIES } from '../../../sandboxes/crm/src/seed';
import { authenticate } from '../http/auth';
import { problemHandler } from '../http/problem';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf } from '../users/testing';
import { opportunityRoutes } from './routes';

/**
 * The opportunity lookup of the RFP wizard's step 1 through the api: the harness's app talks to its own sandbox
 * CRM (seeded), whose faults the tests switch on.
 */
jest.setTimeout(300_000);

type Auth = { Authorization: string };
let h: ApiHarness;
const sessions = new Map<Role, Auth>();
let baAdmin: Auth;
const procurement = () => sessions.get('MLL Procurement') ?? {};

/** The staff roles that use RFPs (spec 001 §6); every other role is refused. */
const RFP_STAFF_ROLES: Role[] = ['MLL Procurement', 'MLL-ADMIN', 'MLL Commercial', 'MLL Accounts', 'MLL Operations', 'MLL Legal'];

beforeAll(async () => {
  h = await startApiHarness('opportunities-api');
  for (const role of ALL_ROLES.filter((r) => r !== 'BA Admin' && r !== 'BA User')) {
    const email = `${role.replace(/[^A-Za-z]/g, '').toLowerCase()}@opportunities.test`;
    sessions.set(role, (await sessionOf(h, await addUser(h, { email, roles: [role] }))).auth);
  }
  const ba = await addBa(h, 'opportunities');
  baAdmin = (await sessionOf(h, ba.admin)).auth;
});

afterEach(() => h?.crmSandbox.resetFaults());

afterAll(async () => {
  await h?.stop();
});

describe('GET /api/opportunities/:id', () => {
  test('a seeded opportunity: every step-1 field the CRM fills, with its id for react-admin', async () => {
    const res = await request(h.app).get('/api/opportunities/OPP-2026-0007').set(procurement());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 'OPP-2026-0007',
      casshOppId: 'OPP-2026-0007',
      oppDescription: 'Steel coil movement from Jamshedpur to service centres in Chennai',
      rfpValue: '74500000',
      receiveDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      productDescription: 'Hot rolled and cold rolled coils',
      casshAccId: 'ACC-11590',
      customerName: 'Subarnarekha Steel Ltd',
      totalLogisticsSpent: '410000000',
      contactPerson: 'Amit Mahato',
      contactDetails: '9431055667 / amit.mahato@subarnasteel.example.in',
      customerAddress: 'Adityapur Industrial Area, Seraikela Kharsawan, Jharkhand 832109',
      customerReceiveDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      customerDueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      verticalName: 'Steel and Metals',
      sourceState: 'Jharkhand',
      destinationState: 'Tamil Nadu',
      serviceType: 'Transportation',
      subServiceType: 'FTL',
      sourceSystem: 'SCM',
    });
  });

  test('an unknown id is 404 with the CRM’s message, as it is', async () => {
    const res = await request(h.app).get('/api/opportunities/OPP-1999-0001').set(procurement());
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, message: 'Opportunity not found' });
  });

  test('?sourceSystem narrows the lookup: another system’s opportunity is 404 with the CRM’s message', async () => {
    expect((await request(h.app).get('/api/opportunities/OPP-2026-0015?sourceSystem=CASSH').set(procurement())).status).toBe(200);
    const res = await request(h.app).get('/api/opportunities/OPP-2026-0015?sourceSystem=SCM').set(procurement());
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Opportunity not found in source system SCM');
    const bad = await request(h.app).get('/api/opportunities/OPP-2026-0015?sourceSystem=S%20C%20M').set(procurement());
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ sourceSystem: 'Please choose a valid source system' });
  });

  test('an id longer than any opportunity id is refused before the CRM is asked', async () => {
    const res = await request(h.app).get(`/api/opportunities/${'9'.repeat(51)}`).set(procurement());
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ id: 'Please enter a valid opportunity id' });
  });
});

describe('GET /api/opportunities', () => {
  test('?q= by id prefix: a simple-rest list with Content-Range', async () => {
    const res = await request(h.app).get('/api/opportunities?q=OPP-2026-001').set(procurement());
    expect(res.status).toBe(200);
    expect(res.headers['content-range']).toBe('opportunities 0-5/6');
    expect((res.body as { id: string }[]).map((o) => o.id).sort()).toEqual([
      'OPP-2026-0010',
      'OPP-2026-0011',
      'OPP-2026-0012',
      'OPP-2026-0013',
      'OPP-2026-0014',
      'OPP-2026-0015',
    ]);
  });

  test('by customer name, through react-admin’s filter={"q":…} too', async () => {
    for (const url of ['/api/opportunities?q=kartly', `/api/opportunities?filter=${encodeURIComponent('{"q":"Kartly"}')}`]) {
      const res = await request(h.app).get(url).set(procurement());
      expect(res.status).toBe(200);
      expect((res.body as { customerName: string }[]).map((o) => o.customerName)).toEqual(['Kartly Retail Pvt Ltd', 'Kartly Retail Pvt Ltd']);
    }
  });

  test('no query lists all, newest receive date first, paged by range', async () => {
    const total = SEED_OPPORTUNITIES.length;
    const first = await request(h.app).get('/api/opportunities').set(procurement());
    expect(first.headers['content-range']).toBe(`opportunities 0-${total - 1}/${total}`);
    const received = (first.body as { receiveDate: string }[]).map((o) => o.receiveDate);
    expect(received).toEqual([...received].sort().reverse());
    const page = await request(h.app).get(`/api/opportunities?range=${encodeURIComponent('[5,9]')}`).set(procurement());
    expect(page.headers['content-range']).toBe(`opportunities 5-9/${total}`);
    expect((page.body as { id: string }[]).map((o) => o.id)).toEqual((first.body as { id: string }[]).slice(5, 10).map((o) => o.id));
  });

  test('a query over 100 characters is refused', async () => {
    const res = await request(h.app).get(`/api/opportunities?q=${'a'.repeat(101)}`).set(procurement());
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ q: 'Please enter at most 100 characters' });
  });
});

describe('the CRM down', () => {
  test('down, failing or not answering: 503 “The CRM is not available…” for lookup and search; back when it is', async () => {
    h.crmSandbox.setFaults({ downFor: 60_000 });
    for (const url of ['/api/opportunities/OPP-2026-0001', '/api/opportunities?q=OPP']) {
      const res = await request(h.app).get(url).set(procurement());
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(CRM_UNAVAILABLE_MESSAGE);
    }
    h.crmSandbox.setFaults({ downFor: 0, errorRate: 1 });
    expect((await request(h.app).get('/api/opportunities/OPP-2026-0001').set(procurement())).status).toBe(503);
    h.crmSandbox.resetFaults();
    expect((await request(h.app).get('/api/opportunities/OPP-2026-0001').set(procurement())).status).toBe(200);
  });

  test('no CRM configured: 503 with the same message, never a 500', async () => {
    const app = express();
    app.use(authenticate(h.auth));
    app.use(opportunityRoutes({ crm: null }));
    app.use(problemHandler());
    const res = await request(app).get('/opportunities/OPP-2026-0001').set(procurement());
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(CRM_UNAVAILABLE_MESSAGE);
  });
});

describe('who may look opportunities up', () => {
  test.each(RFP_STAFF_ROLES)('%s may', async (role) => {
    const auth = sessions.get(role) ?? {};
    expect((await request(h.app).get('/api/opportunities/OPP-2026-0001').set(auth)).status).toBe(200);
    expect((await request(h.app).get('/api/opportunities?q=OPP').set(auth)).status).toBe(200);
  });

  test('every other staff role, the auditor and BAs are refused with 403; no session is 401', async () => {
    const refused = [...sessions.entries()].filter(([role]) => !RFP_STAFF_ROLES.includes(role));
    expect(refused.map(([role]) => role).sort()).toEqual(['Auditor', 'BA Engagement Manager', 'IDT-Team', 'MDM', 'MLL Accounts_HEAD']);
    for (const [role, auth] of [...refused, ['BA Admin', baAdmin] as const]) {
      for (const url of ['/api/opportunities/OPP-2026-0001', '/api/opportunities?q=OPP']) {
        const res = await request(h.app).get(url).set(auth);
        expect({ role, url, status: res.status }).toEqual({ role, url, status: 403 });
      }
    }
    expect((await request(h.app).get('/api/opportunities/OPP-2026-0001')).status).toBe(401);
  });
});
