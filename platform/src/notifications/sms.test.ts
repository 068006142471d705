import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSmsGateway, smsGatewayUrl } from './sms';
import { retryDelayMs } from './delivery';

describe('smsGatewayUrl', () => {
  it('puts the number and the text into the template, URL-encoded', () => {
    expect(smsGatewayUrl('https://sms.example.com/send?to={to}&msg={text}', '+919876543210', 'Code 1234 & more {to}')).toBe(
      'https://sms.example.com/send?to=%2B919876543210&msg=Code%201234%20%26%20more%20%7Bto%7D',
    );
  });

  it('fills a placeholder wherever it appears, also in the path', () => {
    expect(smsGatewayUrl('http://gw/{to}/{text}?copy={to}', '9876543210', 'a/b')).toBe('http://gw/9876543210/a%2Fb?copy=9876543210');
  });
});

describe('retryDelayMs', () => {
  it('doubles from the base and stops at the cap', () => {
    const backoff = { baseMs: 10_000, maxMs: 600_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 30].map((n) => retryDelayMs(n, backoff))).toEqual([
      10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000, 600_000,
    ]);
  });
});

describe('createSmsGateway', () => {
  let server: http.Server;
  let base: string;
  let behaviour: (res: http.ServerResponse) => void = (res) => res.end('ok');
  const methods: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      methods.push(req.method ?? '');
      behaviour(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends with GET by default and accepts any 2xx', async () => {
    behaviour = (res) => res.writeHead(202).end('accepted');
    await expect(createSmsGateway({ urlTemplate: `${base}/send?to={to}&text={text}` }).send({ to: '9876543210', text: 'hi' })).resolves.toBeUndefined();
    expect(methods.at(-1)).toBe('GET');
    await createSmsGateway({ urlTemplate: `${base}/send?to={to}&text={text}`, method: 'POST' }).send({ to: '9876543210', text: 'hi' });
    expect(methods.at(-1)).toBe('POST');
  });

  it('fails on a non-2xx answer with its status and a short body', async () => {
    behaviour = (res) => res.writeHead(401).end('bad\n  api key');
    await expect(createSmsGateway({ urlTemplate: `${base}/send?key=SECRET&to={to}&text={text}` }).send({ to: '1', text: 'x' })).rejects.toThrow(
      'SMS gateway answered 401: bad api key',
    );
  });

  it('fails when the gateway does not answer in time', async () => {
    behaviour = () => undefined;
    await expect(createSmsGateway({ urlTemplate: `${base}/send?to={to}&text={text}`, timeoutMs: 100 }).send({ to: '1', text: 'x' })).rejects.toThrow(
      'SMS gateway unreachable: no answer within 100 ms',
    );
  });

  it('fails on an unreachable gateway without repeating its URL (which holds the API key)', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await createSmsGateway({ urlTemplate: `http://127.0.0.1:${port}/send?key=SECRET&to={to}&text={text}` })
      .send({ to: '1', text: 'x' })
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('SMS gateway unreachable: ECONNREFUSED');
    expect((error as Error).message).not.toContain('SECRET');
  });
});
