import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErpUnavailableError } from '../../../domain/src/erp/port';
import { createHttpErp, ErpRequestError } from './http-erp';

/** A tiny ERP whose next answer each test chooses: status, body (raw text or JSON), or a hang. */
type Answer = { status: number; body?: unknown; raw?: string } | 'hang' | 'reset';
let answer: Answer = { status: 200, body: {} };
let seen: { method: string; url: string; authorization?: string; contentType?: string; body: string }[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
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
const erp = (timeoutMs = 5000) => createHttpErp({ url, apiKey: 'k-123', timeoutMs });
const op = { op: 'set-payment-terms', vendorCode: '1000000001', paymentTermsCode: 'Z030' } as const;

describe('requests the adapter sends', () => {
  test('submit: POST /erp/v1/requests with the bearer key and {idempotencyKey, operation}; answers the request id', async () => {
    answer = { status: 202, body: { requestId: 'r-1', state: 'pending' } };
    expect(await erp().submit('key-1', op)).toEqual({ requestId: 'r-1' });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/erp/v1/requests',
        authorization: 'Bearer k-123',
        contentType: 'application/json',
        body: JSON.stringify({ idempotencyKey: 'key-1', operation: op }),
      },
    ]);
    answer = { status: 200, body: { requestId: 'r-1', state: 'done', vendorCode: '1000000001' } };
    expect(await erp().submit('key-1', op)).toEqual({ requestId: 'r-1' });
  });

  test('status, vendorsByPan, vendor and listVendors: paths and query strings encoded', async () => {
    answer = { status: 200, body: { requestId: 'a/b', state: 'pending' } };
    await erp().status('a/b');
    answer = { status: 200, body: { vendors: [] } };
    await erp().vendorsByPan('ABCDE1234F');
    await erp().listVendors({ source: 'nucleus', page: 2, perPage: 10 });
    answer = { status: 404, body: { message: 'No vendor' } };
    await erp().vendor('10 00');
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /erp/v1/requests/a%2Fb',
      'GET /erp/v1/vendors?pan=ABCDE1234F',
      'GET /erp/v1/vendors?source=nucleus&page=2&perPage=10',
      'GET /erp/v1/vendors/10%2000',
    ]);
  });
});

describe('answers the adapter maps', () => {
  test.each([
    [{ state: 'pending' }, { requestId: 'r', state: 'pending' }],
    [{ state: 'done', vendorCode: '1000000007', message: 'Vendor created' }, { requestId: 'r', state: 'done', vendorCode: '1000000007', message: 'Vendor created' }],
    [{ state: 'rejected', message: 'Parent vendor 1 does not exist' }, { requestId: 'r', state: 'rejected', message: 'Parent vendor 1 does not exist' }],
  ])('status %j → %j', async (body, expected) => {
    answer = { status: 200, body: { requestId: 'r', ...body } };
    expect(await erp().status('r')).toEqual(expected);
  });

  test('vendor: 404 → null; vendors: the list as sent', async () => {
    answer = { status: 404, body: { message: 'No vendor 1' } };
    expect(await erp().vendor('1')).toBeNull();
    const v = { vendorCode: '1000000001', kind: 'parent', pan: 'ABCDE1234F' };
    answer = { status: 200, body: { vendors: [v] } };
    expect(await erp().vendorsByPan('ABCDE1234F')).toEqual([v]);
    answer = { status: 200, body: { vendors: [v], total: 41 } };
    expect(await erp().listVendors()).toEqual({ vendors: [v], total: 41 });
  });
});

describe('outages are ErpUnavailableError (retry with the same key); other refusals a plain error', () => {
  const outage = async (call: () => Promise<unknown>, message: RegExp) => {
    const error = await call().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ErpUnavailableError);
    expect((error as Error).message).toMatch(message);
  };

  test.each([500, 502, 503, 504, 429, 408])('HTTP %i', async (status) => {
    answer = { status, body: { message: 'busy right now' } };
    await outage(() => erp().submit('k', op), new RegExp(`${status}.*busy right now`));
  });

  test('a 5xx without JSON (a proxy page) keeps its text, shortened', async () => {
    answer = { status: 502, raw: '<html>Bad gateway</html>' };
    await outage(() => erp().status('r'), /502.*Bad gateway/);
  });

  test('no answer within timeoutMs', async () => {
    answer = 'hang';
    const started = Date.now();
    await outage(() => erp(300).submit('k', op), /did not answer .* within 300 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  test('connection reset', async () => {
    answer = 'reset';
    await outage(() => erp().vendorsByPan('ABCDE1234F'), /could not be reached/);
  });

  test('connection refused', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = createHttpErp({ url: `http://127.0.0.1:${port}`, apiKey: 'k', timeoutMs: 1000 });
    await outage(() => gone.submit('k', op), /could not be reached.*ECONNREFUSED/);
  });

  test('2xx without the JSON the contract promises', async () => {
    answer = { status: 200, raw: 'OK' };
    await outage(() => erp().submit('k', op), /no JSON/);
    answer = { status: 202, body: { state: 'pending' } };
    await outage(() => erp().submit('k', op), /without a request id/);
    answer = { status: 200, body: { requestId: 'r', state: 'lost' } };
    await outage(() => erp().status('r'), /unknown state "lost"/);
    answer = { status: 200, body: { requestId: 'r', state: 'done' } };
    await outage(() => erp().status('r'), /without a vendor code/);
    answer = { status: 200, body: {} };
    await outage(() => erp().vendorsByPan('ABCDE1234F'), /without vendors/);
  });

  test.each([
    [400, 'operation.vendorCode: Required'],
    [401, 'A valid API key is required'],
    [404, 'No request r'],
    [409, 'conflict'],
    [422, 'unprocessable'],
  ])('HTTP %i is a plain error with the body’s message, not an outage', async (status, message) => {
    answer = { status, body: { message } };
    const error = await erp()
      .status('r')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErpRequestError);
    expect(error).not.toBeInstanceOf(ErpUnavailableError);
    expect((error as ErpRequestError).status).toBe(status);
    expect((error as Error).message).toContain(message);
  });
});
