import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CrmUnavailableError, type Opportunity } from '../../../domain/src/crm/port';
import { createHttpCrm, CrmRequestError } from './http-crm';

/** A tiny CRM whose next answer each test chooses: status, body (raw text or JSON), a hang or a reset. */
type Answer = { status: number; body?: unknown; raw?: string } | 'hang' | 'reset';
let answer: Answer = { status: 200, body: {} };
let seen: { method: string; url: string; authorization?: string }[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
      if (answer === 'hang') return;
      if (answer === 'reset') return void req.socket.destroy();
      const text = answer.raw ?? JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status, { 'content-type': answer.raw ? 'text/html' : 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
beforeEach(() => {
  seen = [];
  answer = { status: 200, body: {} };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// Generous: a loaded machine's first fetch takes a while; the timeout test sets its own.
const crm = (timeoutMs = 5000) => createHttpCrm({ url, apiKey: 'k-123', timeoutMs });

const opportunity: Opportunity = {
  casshOppId: 'OPP-2026-0001',
  oppDescription: 'Milk run',
  rfpValue: '48500000',
  receiveDate: '2026-11-20',
  dueDate: '2026-12-17',
  productDescription: 'Components',
  casshAccId: 'ACC-10231',
  customerName: 'Sahyadri Auto Components Pvt Ltd',
  totalLogisticsSpent: '125000000.50',
  contactPerson: 'Rakesh Kulkarni',
  contactDetails: '9820012345',
  customerAddress: 'Chakan, Pune',
  customerReceiveDate: '2026-11-18',
  customerDueDate: '2026-12-24',
  verticalName: 'Automotive',
  sourceState: 'Maharashtra',
  destinationState: 'Maharashtra',
  serviceType: 'Transportation',
  subServiceType: 'Milk Run',
  sourceSystem: 'SCM',
};

describe('requests the adapter sends', () => {
  test('lookup: GET /crm/v1/opportunities/:id with the bearer key, the id encoded, the source system when asked', async () => {
    answer = { status: 200, body: { status: 'success', message: 'Opportunity found', data: opportunity } };
    await crm().opportunity('OPP 1/2');
    await crm().opportunity('OPP-2026-0001', { sourceSystem: 'SCM' });
    expect(seen).toEqual([
      { method: 'GET', url: '/crm/v1/opportunities/OPP%201%2F2', authorization: 'Bearer k-123' },
      { method: 'GET', url: '/crm/v1/opportunities/OPP-2026-0001?sourceSystem=SCM', authorization: 'Bearer k-123' },
    ]);
  });

  test('search: q trimmed and encoded, limit 20 by default and held within 1..50', async () => {
    answer = { status: 200, body: { status: 'success', data: [], total: 0 } };
    await crm().searchOpportunities(' Kartly & Co ');
    await crm().searchOpportunities('', { limit: 500 });
    await crm().searchOpportunities('x', { limit: 0 });
    expect(seen.map((s) => s.url)).toEqual([
      '/crm/v1/opportunities?q=Kartly+%26+Co&limit=20',
      '/crm/v1/opportunities?q=&limit=50',
      '/crm/v1/opportunities?q=x&limit=1',
    ]);
  });
});

describe('answers the adapter maps', () => {
  test('success: the opportunity as sent; numbers become amount strings, a missing source system is SCM', async () => {
    answer = { status: 200, body: { status: 'success', message: 'Opportunity found', data: opportunity } };
    expect(await crm().opportunity('OPP-2026-0001')).toEqual({ status: 'success', message: 'Opportunity found', opportunity });
    const { sourceSystem: _omitted, ...withoutSystem } = opportunity;
    answer = { status: 200, body: { status: 'success', data: { ...withoutSystem, rfpValue: 1200, totalLogisticsSpent: null, extra: 'kept out' } } };
    expect(await crm().opportunity('OPP-2026-0001')).toEqual({
      status: 'success',
      message: '',
      opportunity: { ...opportunity, rfpValue: '1200', totalLogisticsSpent: null, sourceSystem: 'SCM' },
    });
  });

  test.each([
    [404, { status: 'fail', message: 'Opportunity not found' }, 'Opportunity not found'],
    [200, { status: 'fail', message: 'Opportunity is closed in CASSH' }, 'Opportunity is closed in CASSH'],
    [404, { status: 'fail' }, 'Opportunity not found'],
  ])('HTTP %i %j → a fail lookup with the CRM’s message (%s)', async (status, body, message) => {
    answer = { status, body };
    expect(await crm().opportunity('OPP-1999-0001')).toEqual({ status: 'fail', message });
  });

  test('search: the opportunities and the total as sent (the page size when no total)', async () => {
    answer = { status: 200, body: { status: 'success', data: [opportunity], total: 14 } };
    expect(await crm().searchOpportunities('OPP')).toEqual({ opportunities: [opportunity], total: 14 });
    answer = { status: 200, body: { status: 'success', data: [opportunity] } };
    expect(await crm().searchOpportunities('OPP')).toEqual({ opportunities: [opportunity], total: 1 });
  });
});

describe('outages are CrmUnavailableError (the api answers 503); other refusals a CrmRequestError', () => {
  const outage = async (call: () => Promise<unknown>, message: RegExp) => {
    const error = await call().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CrmUnavailableError);
    expect((error as Error).message).toMatch(message);
  };

  test.each([500, 502, 503, 504, 429, 408])('HTTP %i', async (status) => {
    answer = { status, body: { status: 'fail', message: 'busy right now' } };
    await outage(() => crm().opportunity('OPP-2026-0001'), new RegExp(`${status}.*busy right now`));
  });

  test('a 5xx without JSON (a proxy page) keeps its text, shortened', async () => {
    answer = { status: 502, raw: '<html>Bad gateway</html>' };
    await outage(() => crm().searchOpportunities('x'), /502.*Bad gateway/);
  });

  test('no answer within timeoutMs', async () => {
    answer = 'hang';
    const started = Date.now();
    await outage(() => crm(300).opportunity('OPP-2026-0001'), /did not answer .* within 300 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  test('connection reset', async () => {
    answer = 'reset';
    await outage(() => crm().opportunity('OPP-2026-0001'), /could not be reached/);
  });

  test('connection refused: nothing listens at CRM_URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = createHttpCrm({ url: `http://127.0.0.1:${port}`, apiKey: 'k', timeoutMs: 1000 });
    await outage(() => gone.opportunity('OPP-2026-0001'), /could not be reached.*ECONNREFUSED/);
  });

  test('2xx outside the contract', async () => {
    answer = { status: 200, raw: 'OK' };
    await outage(() => crm().opportunity('OPP-2026-0001'), /no JSON/);
    answer = { status: 200, body: { status: 'maybe' } };
    await outage(() => crm().opportunity('OPP-2026-0001'), /unknown status "maybe"/);
    answer = { status: 200, body: { status: 'success', data: { ...opportunity, dueDate: '17/12/2026', customerName: '' } } };
    await outage(() => crm().opportunity('OPP-2026-0001'), /outside the contract \(dueDate: a YYYY-MM-DD date; customerName: /);
    answer = { status: 200, body: { status: 'success' } };
    await outage(() => crm().searchOpportunities('x'), /without a list of opportunities/);
  });

  test.each([
    [400, 'limit: a whole number from 1 to 50'],
    [401, 'A valid API key is required'],
    [403, 'forbidden'],
    [404, 'Not found'],
  ])('HTTP %i without a fail status is a CrmRequestError with the body’s message, not an outage', async (status, message) => {
    answer = { status, body: { message } };
    const error = await crm()
      .opportunity('OPP-2026-0001')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmRequestError);
    expect(error).not.toBeInstanceOf(CrmUnavailableError);
    expect((error as CrmRequestError).status).toBe(status);
    expect((error as Error).message).toContain(message);
  });
});
