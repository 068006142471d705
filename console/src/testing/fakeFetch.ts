/**
 * A stand-in for the browser's fetch in jsdom (which has none): routes requests to a handler and answers
 * with a Response-like object, so the real providers (ra-data-simple-rest, httpClient, authProvider) run
 * unchanged in UI tests.
 */
export type FakeReply = { status?: number; body?: unknown; headers?: Record<string, string> };
export type FakeRoute = (url: URL, init: RequestInit & { headers: Headers }) => FakeReply | undefined;

export function installFetch(route: FakeRoute) {
  const mock = jest.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://console.test');
    const headers = new Headers(init.headers ?? undefined);
    const notFound: FakeReply = { status: 404, body: { status: 404, message: 'Not found' } };
    const reply = route(url, { ...init, headers }) ?? notFound;
    const status = reply.status ?? 200;
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return {
      status,
      statusText: String(status),
      ok: status >= 200 && status < 300,
      headers: new Headers(reply.headers ?? {}),
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
    };
  });
  (globalThis as { fetch?: unknown }).fetch = mock;
  return mock;
}

/** The requests a fetch mock received, as URL + headers, for assertions. */
export const requests = (mock: jest.Mock) =>
  mock.mock.calls.map(([input, init]: [string, RequestInit | undefined]) => ({
    url: new URL(input, 'http://console.test'),
    method: init?.method ?? 'GET',
    headers: new Headers(init?.headers ?? undefined),
    body: init?.body,
  }));
