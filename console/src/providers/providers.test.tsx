import { installFetch, requests, type FakeReply } from '../testing/fakeFetch';
import type { Me } from '../shared/types';

/**
 * The real auth provider, http client and data provider against a fake fetch. Each test loads the modules
 * afresh: the access token lives in module memory, as it does in a freshly loaded page.
 */
type Modules = {
  auth: typeof import('./authProvider');
  http: typeof import('./httpClient');
  data: typeof import('./dataProvider');
};
function freshPage(): Modules {
  let modules: Modules | undefined;
  jest.isolateModules(() => {
    modules = {
      auth: require('./authProvider'),
      http: require('./httpClient'),
      data: require('./dataProvider'),
    };
  });
  return modules!;
}

const staff: Me = {
  id: 'u-proc',
  username: 'procurement@demo.test',
  name: 'Priya Procurement',
  roles: ['MLL Procurement'],
  companyCodes: ['1000'],
  baId: null,
  application: 'console',
};
const baAdmin: Me = {
  ...staff,
  id: 'u-ba',
  username: 'ba.admin@demo.test',
  name: 'BA Admin',
  roles: ['BA Admin'],
  baId: 'ba-1',
  application: 'portal',
};
const auditor: Me = { ...staff, id: 'u-aud', name: 'Ann Auditor', roles: ['Auditor'] };

const SESSION_TIMED_OUT = 'Session Timed out.Please login again';
const unauthorized: FakeReply = { status: 401, body: { status: 401, message: SESSION_TIMED_OUT } };
const paths = (mock: jest.Mock) => requests(mock).map((r) => `${r.method} ${r.url.pathname}`);

jest.setTimeout(30_000);

/** Tests that set up their own session share one load of the modules (loading react-admin costs seconds). */
let page: Modules;
beforeAll(() => {
  page = freshPage();
});
afterEach(() => page.http.sessionStore.set(null));

describe('authProvider', () => {
  it("restores the session after a reload with one refresh call for react-admin's questions", async () => {
    const { auth, http } = freshPage();
    const fetch = installFetch((url) => {
      if (url.pathname === '/api/auth/refresh') return { body: { accessToken: 'tok-1', user: staff } };
      if (url.pathname === '/api/me') return { body: staff };
      return undefined;
    });
    const [, roles, identity] = await Promise.all([
      auth.authProvider.checkAuth(),
      auth.authProvider.getPermissions(),
      auth.authProvider.getIdentity(),
    ]);
    expect(roles).toEqual(['MLL Procurement']);
    expect(identity).toMatchObject({ id: 'u-proc', fullName: 'Priya Procurement', companyCodes: ['1000'] });

    await http.httpClient('/api/me');
    expect(paths(fetch)).toEqual(['POST /api/auth/refresh', 'GET /api/me']);
    expect(requests(fetch)[1]!.headers.get('Authorization')).toBe('Bearer tok-1');
  });

  it('sends a signed-out visitor to the login page quietly, asking the API once', async () => {
    const { auth } = freshPage();
    const fetch = installFetch(() => unauthorized);
    // message: false keeps react-admin from showing an error for an ordinary signed-out visit.
    await expect(auth.authProvider.checkAuth()).rejects.toEqual({ message: false });
    expect(await auth.authProvider.getPermissions()).toEqual([]);
    expect(paths(fetch)).toEqual(['POST /api/auth/refresh']);
  });

  it("refuses a BA with the spec's code-101 message and ends the session it just opened", async () => {
    const { auth, http } = freshPage();
    const fetch = installFetch((url) =>
      url.pathname === '/api/auth/login'
        ? { body: { accessToken: 'tok-ba', user: baAdmin } }
        : { status: 204 },
    );
    const login = auth.authProvider.login({ username: 'ba.admin@demo.test', password: 'Demo@2026' });
    await expect(login).rejects.toThrow(
      "You don't have access to this application. Please contact admin team for support",
    );
    expect(paths(fetch)).toEqual(['POST /api/auth/login', 'POST /api/auth/logout']);
    expect(http.sessionStore.get()).toBeNull();
  });

  it('lets staff and auditors in and shows the API message for bad credentials', async () => {
    const { auth, http } = freshPage();
    installFetch((url, init) => {
      const { username } = JSON.parse(String(init.body)) as { username: string };
      if (url.pathname !== '/api/auth/login') return undefined;
      if (username === 'auditor@demo.test') return { body: { accessToken: 'tok-aud', user: auditor } };
      return { status: 401, body: { status: 401, message: 'Invalid username or password' } };
    });
    await expect(auth.authProvider.login({ username: 'nobody@demo.test', password: 'x' })).rejects.toThrow(
      'Invalid username or password',
    );
    await auth.authProvider.login({ username: 'auditor@demo.test', password: 'Demo@2026' });
    expect(http.sessionStore.get()?.accessToken).toBe('tok-aud');
    expect(await auth.authProvider.getPermissions()).toEqual(['Auditor']);
  });

  it('ends the session with "Session Timed out.Please login again" on a 401', async () => {
    const { auth } = page;
    await expect(auth.authProvider.checkError({ status: 401 })).rejects.toThrow(SESSION_TIMED_OUT);
    await expect(auth.authProvider.checkError({ status: 403 })).resolves.toBeUndefined();
  });
});

describe('httpClient', () => {
  it('renews an expired access token once and retries the request', async () => {
    const { http } = page;
    http.sessionStore.set({ accessToken: 'expired', user: staff });
    const fetch = installFetch((url, init) => {
      if (url.pathname === '/api/auth/refresh') return { body: { accessToken: 'fresh', user: staff } };
      const renewed = init.headers.get('Authorization') === 'Bearer fresh';
      return renewed ? { body: [], headers: { 'Content-Range': 'tasks */0' } } : unauthorized;
    });
    const { json } = await http.httpClient('/api/tasks');
    expect(json).toEqual([]);
    expect(paths(fetch)).toEqual(['GET /api/tasks', 'POST /api/auth/refresh', 'GET /api/tasks']);
  });

  it('lets the 401 through when the refresh cookie is gone too', async () => {
    const { http } = page;
    http.sessionStore.set({ accessToken: 'expired', user: staff });
    installFetch(() => unauthorized);
    await expect(http.httpClient('/api/tasks')).rejects.toMatchObject({ status: 401 });
  });

  it('turns a problem body into the dialog text: message first, then each field error', () => {
    const { http } = page;
    const error = Object.assign(new Error('Invalid list filter'), {
      status: 400,
      body: { message: 'Invalid list filter', errors: { 'filter.stage': 'Stage must be 1 or 2' } },
    });
    expect(http.errorText(error)).toBe('Invalid list filter\nfilter.stage: Stage must be 1 or 2');
  });
});

describe('dataProvider commands', () => {
  it.each(['approve', 'reject'] as const)('%s posts the decision with its Idempotency-Key', async (verb) => {
    const { data, http } = page;
    http.sessionStore.set({ accessToken: 'tok', user: staff });
    const fetch = installFetch(() => ({ body: { id: 'ba-1', status: 'inprogress', stage: 2 } }));
    const params = { stage: 1 as const, remarks: 'Looks fine', idempotencyKey: 'key-123' };
    const result = await data.dataProvider[verb]('ba-1', params);
    expect(result.data).toMatchObject({ id: 'ba-1', stage: 2 });
    const [request] = requests(fetch);
    expect(`${request!.method} ${request!.url.pathname}`).toBe(`POST /api/business-associates/ba-1/${verb}`);
    expect(request!.headers.get('Idempotency-Key')).toBe('key-123');
    expect(request!.headers.get('Authorization')).toBe('Bearer tok');
    expect(JSON.parse(String(request!.body))).toEqual({ stage: 1, remarks: 'Looks fine' });
  });

  it('reads the badge counts, the activity log and the event history', async () => {
    const { data } = page;
    const fetch = installFetch((url) => {
      if (url.pathname === '/api/ba-counts') return { body: { all: 3 } };
      return { body: [{ id: 1 }], headers: { 'Content-Range': 'x 0-0/1' } };
    });
    expect(await data.dataProvider.getCounts()).toEqual({ all: 3 });
    expect(await data.dataProvider.getActivityLog('ba-1')).toEqual([{ id: 1 }]);
    expect(await data.dataProvider.getEventHistory('ba-1')).toEqual([{ id: 1 }]);
    expect(paths(fetch)).toEqual([
      'GET /api/ba-counts',
      'GET /api/business-associates/ba-1/activity-log',
      'GET /api/business-associates/ba-1/events',
    ]);
    expect(requests(fetch)[1]!.url.searchParams.get('range')).toBe('[0,99]');
  });
});
