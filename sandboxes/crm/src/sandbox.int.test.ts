import { CrmUnavailableError, type Opportunity } from '../../../domain/src/crm/port';
import { SERVICES } from '../../../domain/src/masters/reference-data/services';
import { STATES } from '../../../domain/src/masters/reference-data/states';
import { VERTICALS } from '../../../domain/src/masters/reference-data/verticals';
import { patterns, safeText } from '../../../domain/src/validation/fields';
import { createHttpCrm } from '../../../platform/src/crm/http-crm';
import { createTestDatabase, TEST_APP_ROLE, type TestDatabase } from '../../../tests/support/postgres';
import { SEED_OPPORTUNITIES } from './seed';
import { ensureCrmSandboxSchema } from './store';
import { startCrmSandbox, type StartedCrmSandbox } from './testing';

let db: TestDatabase;
let sandbox: StartedCrmSandbox;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  sandbox = await startCrmSandbox({ databaseUrl: db.url });
});

afterEach(() => sandbox.resetFaults());

afterAll(async () => {
  await sandbox?.stop();
  await db?.drop();
});

const isoDay = (offsetDays: number) => {
  // The sandbox answers dates relative to today in India (UTC+05:30).
  const india = new Date(Date.now() + 330 * 60_000);
  india.setUTCDate(india.getUTCDate() + offsetDays);
  return india.toISOString().slice(0, 10);
};

describe('lookup by id', () => {
  test('a seeded opportunity comes back whole, its dates relative to today and in tender order', async () => {
    const found = await sandbox.crm.opportunity('OPP-2026-0001');
    expect(found).toEqual({
      status: 'success',
      message: 'Opportunity found',
      opportunity: {
        casshOppId: 'OPP-2026-0001',
        oppDescription: 'Inbound auto components milk run from Pune suppliers to the Chakan plant',
        rfpValue: '48500000',
        receiveDate: isoDay(-5),
        dueDate: isoDay(21),
        productDescription: 'Engine and chassis components in returnable bins',
        casshAccId: 'ACC-10231',
        customerName: 'Sahyadri Auto Components Pvt Ltd',
        totalLogisticsSpent: '125000000',
        contactPerson: 'Rakesh Kulkarni',
        contactDetails: '9820012345 / rakesh.kulkarni@sahyadriauto.example.in',
        customerAddress: 'Plot 14, MIDC Chakan Phase II, Pune, Maharashtra 410501',
        customerReceiveDate: isoDay(-7),
        customerDueDate: isoDay(28),
        verticalName: 'Automotive',
        sourceState: 'Maharashtra',
        destinationState: 'Maharashtra',
        serviceType: 'Transportation',
        subServiceType: 'Milk Run',
        sourceSystem: 'SCM',
      } satisfies Opportunity,
    });
  });

  test('ids are matched without regard to case or surrounding blanks; amounts keep their decimals', async () => {
    const found = await sandbox.crm.opportunity('  opp-2026-0003 ');
    expect(found).toMatchObject({ status: 'success', opportunity: { casshOppId: 'OPP-2026-0003', rfpValue: '36750000.50' } });
  });

  test('optional fields the CRM does not hold come back null', async () => {
    const found = await sandbox.crm.opportunity('OPP-2026-0006');
    expect(found).toMatchObject({
      status: 'success',
      opportunity: { productDescription: null, totalLogisticsSpent: null, contactPerson: null },
    });
  });

  test('an unknown id is a fail with the CRM’s message: 404 {status: fail, message} on the wire', async () => {
    expect(await sandbox.crm.opportunity('OPP-1999-9999')).toEqual({ status: 'fail', message: 'Opportunity not found' });
    const res = await fetch(`${sandbox.url}/crm/v1/opportunities/OPP-1999-9999`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'fail', message: 'Opportunity not found' });
  });

  test('a lookup narrowed to a source system finds only that system’s opportunities', async () => {
    expect(await sandbox.crm.opportunity('OPP-2026-0015', { sourceSystem: 'CASSH' })).toMatchObject({ status: 'success' });
    expect(await sandbox.crm.opportunity('OPP-2026-0015', { sourceSystem: 'SCM' })).toEqual({
      status: 'fail',
      message: 'Opportunity not found in source system SCM',
    });
    expect(await sandbox.crm.opportunity('OPP-2026-0001', { sourceSystem: 'scm' })).toMatchObject({ status: 'success' });
  });
});

describe('search', () => {
  test('by id prefix', async () => {
    const { opportunities, total } = await sandbox.crm.searchOpportunities('OPP-2026-001');
    expect(total).toBe(6);
    expect(opportunities.map((o) => o.casshOppId).sort()).toEqual([
      'OPP-2026-0010',
      'OPP-2026-0011',
      'OPP-2026-0012',
      'OPP-2026-0013',
      'OPP-2026-0014',
      'OPP-2026-0015',
    ]);
  });

  test('by part of the customer name, case-insensitive', async () => {
    const { opportunities } = await sandbox.crm.searchOpportunities('kartly');
    expect(opportunities.map((o) => o.casshOppId).sort()).toEqual(['OPP-2026-0005', 'OPP-2026-0006']);
  });

  test('an empty query lists every opportunity, newest receive date first; the limit caps the page, not the total', async () => {
    const all = await sandbox.crm.searchOpportunities('', { limit: 50 });
    expect(all.total).toBe(SEED_OPPORTUNITIES.length);
    const received = all.opportunities.map((o) => o.receiveDate);
    expect(received).toEqual([...received].sort().reverse());
    const page = await sandbox.crm.searchOpportunities('', { limit: 3 });
    expect(page.opportunities).toHaveLength(3);
    expect(page.total).toBe(SEED_OPPORTUNITIES.length);
  });

  test('LIKE wildcards in the query match themselves, not everything', async () => {
    expect(await sandbox.crm.searchOpportunities('%')).toEqual({ opportunities: [], total: 0 });
    expect(await sandbox.crm.searchOpportunities('OPP_2026')).toEqual({ opportunities: [], total: 0 });
  });

  test('a limit outside 1..50 is refused by the sandbox (the adapter never sends one)', async () => {
    const res = await fetch(`${sandbox.url}/crm/v1/opportunities?q=&limit=500`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'fail', message: expect.stringMatching(/^limit: /) });
  });
});

describe('the seeded opportunities', () => {
  test('at least 12, unique ids in the OPP-YYYY-NNNN form, across verticals, states and services', () => {
    expect(SEED_OPPORTUNITIES.length).toBeGreaterThanOrEqual(12);
    const ids = SEED_OPPORTUNITIES.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^OPP-\d{4}-\d{4}$/);
    expect(new Set(SEED_OPPORTUNITIES.map((o) => o.verticalName)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(SEED_OPPORTUNITIES.flatMap((o) => [o.sourceState, o.destinationState])).size).toBeGreaterThanOrEqual(8);
    expect(new Set(SEED_OPPORTUNITIES.map((o) => o.serviceType)).size).toBeGreaterThanOrEqual(4);
  });

  test('every one fills the wizard’s step 1 as the portal validates it: text rule, amounts, reference names, date order', async () => {
    const states = new Set(STATES.map((s) => s.name));
    const verticals = new Set(VERTICALS.map((v) => v.name));
    const services = new Set(SERVICES.map((s) => s.name));
    const { opportunities } = await sandbox.crm.searchOpportunities('', { limit: 50 });
    expect(opportunities).toHaveLength(SEED_OPPORTUNITIES.length);
    const problems: string[] = [];
    for (const o of opportunities) {
      for (const [field, value] of Object.entries(o)) {
        if (value !== null && !safeText().safeParse(value).success) problems.push(`${o.casshOppId}.${field}: text rule`);
      }
      for (const value of [o.rfpValue, o.totalLogisticsSpent]) if (value !== null && !patterns.amount.test(value)) problems.push(`${o.casshOppId}: amount ${value}`);
      if (!states.has(o.sourceState) || !states.has(o.destinationState)) problems.push(`${o.casshOppId}: state`);
      if (!verticals.has(o.verticalName)) problems.push(`${o.casshOppId}: vertical ${o.verticalName}`);
      if (!services.has(o.serviceType)) problems.push(`${o.casshOppId}: service ${o.serviceType}`);
      if (!(o.customerReceiveDate <= o.receiveDate && o.receiveDate < o.dueDate && o.dueDate <= o.customerDueDate)) problems.push(`${o.casshOppId}: dates`);
      // MLL's due date lies ahead: a demo RFP can be floated from any of them.
      if (o.dueDate <= isoDay(0)) problems.push(`${o.casshOppId}: due date not in the future`);
    }
    expect(problems).toEqual([]);
  });

  test('seeding again adds nothing and leaves an edited row as it is', async () => {
    await db.pool.query(`update crm_sandbox.opportunities set customer_name = 'Renamed Ltd' where opp_id = 'OPP-2026-0002'`);
    await ensureCrmSandboxSchema(db.pool);
    const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from crm_sandbox.opportunities');
    expect(rows[0]?.n).toBe(SEED_OPPORTUNITIES.length);
    expect(await sandbox.crm.opportunity('OPP-2026-0002')).toMatchObject({ opportunity: { customerName: 'Renamed Ltd' } });
    await db.pool.query(`update crm_sandbox.opportunities set customer_name = 'Narmada Motors Ltd' where opp_id = 'OPP-2026-0002'`);
  });
});

describe('access and faults', () => {
  test('every CRM route wants the bearer key; /health does not', async () => {
    expect((await fetch(`${sandbox.url}/health`)).status).toBe(200);
    expect((await fetch(`${sandbox.url}/crm/v1/opportunities/OPP-2026-0001`)).status).toBe(401);
    const wrongKey = createHttpCrm({ url: sandbox.url, apiKey: 'not-the-key', timeoutMs: 2000 });
    await expect(wrongKey.opportunity('OPP-2026-0001')).rejects.toThrow(/refused .*\(401\)/);
  });

  test('down, failing or hanging: the adapter reports the CRM unavailable; after the fault the lookup works again', async () => {
    sandbox.setFaults({ downFor: 60_000 });
    await expect(sandbox.crm.opportunity('OPP-2026-0001')).rejects.toThrow(CrmUnavailableError);
    await expect(sandbox.crm.searchOpportunities('OPP')).rejects.toThrow(/answered 503 .*down for maintenance/);
    sandbox.setFaults({ downFor: 0, errorRate: 1 });
    await expect(sandbox.crm.opportunity('OPP-2026-0001')).rejects.toThrow(/answered 500/);
    sandbox.setFaults({ errorRate: 0, timeoutRate: 1 });
    const impatient = createHttpCrm({ url: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: 300 });
    await expect(impatient.opportunity('OPP-2026-0001')).rejects.toThrow(/did not answer .* within 300 ms/);
    sandbox.resetFaults();
    expect(await sandbox.crm.opportunity('OPP-2026-0001')).toMatchObject({ status: 'success' });
  });

  test('the fault controls: a partial update, shown with the remaining downtime; unknown settings refused', async () => {
    const put = (body: unknown) =>
      fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const set = await put({ latencyMs: 10 });
    expect(await set.json()).toEqual({ latencyMs: 10, errorRate: 0, timeoutRate: 0, downFor: 0, downUntil: null });
    expect((await put({ rejectPans: ['X'] })).status).toBe(400);
  });
});

test('least privilege: the application role cannot create the schema, but runs the sandbox once the owner made it', async () => {
  const fresh = await createTestDatabase({ empty: true });
  try {
    await expect(startCrmSandbox({ databaseUrl: fresh.appUrl })).rejects.toThrow(/may not create it.*not `appUrl`/s);
    // What `npm start` and compose's migrate do as the owner before the sandbox process starts.
    await ensureCrmSandboxSchema(fresh.pool, { appRole: process.env.TEST_DATABASE_APP_ROLE ?? TEST_APP_ROLE });
    const asApp = await startCrmSandbox({ databaseUrl: fresh.appUrl });
    try {
      expect(await asApp.crm.opportunity('OPP-2026-0004')).toMatchObject({ status: 'success', opportunity: { customerName: 'Deccan Biologicals Pvt Ltd' } });
    } finally {
      await asApp.stop();
    }
  } finally {
    await fresh.drop();
  }
});
