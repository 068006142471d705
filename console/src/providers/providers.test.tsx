import { installFetch, requests, type FakeReply } from '../testing/fakeFetch';
import { me } from '../testing/identity';
import type { Me, OtpChallenge } from '../shared/types';

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

const staff: Me = me({ id: 'u-proc', name: 'Priya Procurement' });
const baAdmin: Me = me({
  id: 'u-ba',
  username: 'ba.admin@demo.test',
  name: 'BA Admin',
  roles: ['BA Admin'],
  baId: 'ba-1',
  application: 'portal',
});
const auditor: Me = me({ id: 'u-aud', name: 'Ann Auditor', roles: ['Auditor'] });
const challenge: OtpChallenge = {
  otpRequired: true,
  challengeId: 'ch-1',
  expiresInSeconds: 600,
  resendAfterSeconds: 30,
  sentTo: { mobile: '******1234', email: 'p***@demo.test' },
};

const SESSION_TIMED_OUT = 'Session Timed out.Please login again';
const unauthorized: FakeReply = { status: 401, body: { status: 401, message: SESSION_TIMED_OUT } };
const paths = (mock: jest.Mock) => requests(mock).map((r) => `${r.method} ${r.url.pathname}`);


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

  it('signs in in two steps: the password brings the OTP challenge, the code brings the session', async () => {
    const { auth, http } = freshPage();
    const fetch = installFetch((url) => {
      if (url.pathname === '/api/auth/login') return { body: challenge };
      if (url.pathname === '/api/auth/login/verify-otp') return { body: { accessToken: 'tok-1', expiresIn: 900, user: staff } };
      return undefined;
    });
    const sent = await auth.authProvider.startLogin({ username: ' procurement@demo.test ', password: 'Demo@2026' });
    expect(sent).toEqual(challenge);
    expect(http.sessionStore.get()).toBeNull();
    await expect(auth.authProvider.login({ challengeId: 'ch-1', otp: '123456' })).resolves.toBeUndefined();
    expect(http.sessionStore.get()?.accessToken).toBe('tok-1');
    const bodies = requests(fetch).map((r) => JSON.parse(String(r.body)) as unknown);
    expect(bodies).toEqual([
      { username: 'procurement@demo.test', password: 'Demo@2026' },
      { challengeId: 'ch-1', otp: '123456' },
    ]);
  });

  it("signs in with app=console: the API refuses a BA with the spec's code-101 message, and nothing is logged out", async () => {
    const { auth, http } = freshPage();
    const noAccess = "You don't have access to this application. Please contact admin team for support";
    const fetch = installFetch(() => ({ status: 403, body: { status: 403, message: noAccess } }));
    const login = auth.authProvider.login({ challengeId: 'ch-1', otp: '123456' });
    await expect(login).rejects.toThrow(noAccess);
    // No logout: it would end the staff session whose cookie this browser holds.
    expect(paths(fetch)).toEqual(['POST /api/auth/login/verify-otp']);
    expect(requests(fetch)[0]?.url.searchParams.get('app')).toBe('console');
    expect(http.sessionStore.get()).toBeNull();
  });

  it('should an API answer a BA session anyway, ends that session under its own application, not the console', async () => {
    const { auth, http } = freshPage();
    const fetch = installFetch((url) =>
      url.pathname === '/api/auth/login/verify-otp'
        ? { body: { accessToken: 'tok-ba', expiresIn: 900, user: baAdmin } }
        : { status: 204 },
    );
    const login = auth.authProvider.login({ challengeId: 'ch-1', otp: '123456' });
    await expect(login).rejects.toThrow(
      "You don't have access to this application. Please contact admin team for support",
    );
    expect(paths(fetch)).toEqual(['POST /api/auth/login/verify-otp', 'POST /api/auth/logout']);
    expect(requests(fetch)[1]?.url.searchParams.get('app')).toBe('portal');
    expect(http.sessionStore.get()).toBeNull();
  });

  it('carries what the API says about a refusal: captcha, attempts left, the wait before a resend', async () => {
    const { auth } = freshPage();
    installFetch((url) => {
      if (url.pathname === '/api/auth/login')
        return { status: 401, body: { status: 401, message: 'Invalid username or password', captchaRequired: true } };
      if (url.pathname === '/api/auth/login/verify-otp')
        return { status: 400, body: { status: 400, message: 'Invalid OTP', errors: { otp: 'Invalid OTP' }, attemptsLeft: 3 } };
      return { status: 429, body: { status: 429, message: 'Please wait before asking for a new code' }, headers: { 'Retry-After': '17' } };
    });
    await expect(auth.authProvider.startLogin({ username: 'x@demo.test', password: 'x' })).rejects.toMatchObject({
      message: 'Invalid username or password',
      status: 401,
      captchaRequired: true,
    });
    await expect(auth.authProvider.login({ challengeId: 'ch-1', otp: '000000' })).rejects.toMatchObject({
      message: 'Invalid OTP',
      attemptsLeft: 3,
    });
    await expect(auth.authProvider.resendLoginOtp('ch-1')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 17 });
  });

  it('sends a solved captcha along and lets auditors in', async () => {
    const { auth, http } = freshPage();
    const fetch = installFetch((url) => {
      if (url.pathname === '/api/auth/login') return { body: challenge };
      if (url.pathname === '/api/auth/login/verify-otp') return { body: { accessToken: 'tok-aud', expiresIn: 900, user: auditor } };
      return undefined;
    });
    await auth.authProvider.startLogin({ username: 'auditor@demo.test', password: 'Demo@2026', captcha: 'solved-payload' });
    expect(JSON.parse(String(requests(fetch)[0]!.body))).toMatchObject({ captcha: 'solved-payload' });
    await auth.authProvider.login({ challengeId: 'ch-1', otp: '123456' });
    expect(http.sessionStore.get()?.accessToken).toBe('tok-aud');
    expect(await auth.authProvider.getPermissions()).toEqual(['Auditor']);
  });

  it('sends a first sign-in to the password change and keeps the new session it answers with', async () => {
    const { auth, http } = freshPage();
    const fresh = me({ firstLogin: true, home: '/change-password' });
    installFetch((url) => {
      if (url.pathname === '/api/auth/login/verify-otp') return { body: { accessToken: 'tok-1', expiresIn: 900, user: fresh } };
      if (url.pathname === '/api/auth/change-password')
        return { body: { accessToken: 'tok-2', expiresIn: 900, user: me(), message: 'Password changed successfully' } };
      return undefined;
    });
    await expect(auth.authProvider.login({ challengeId: 'ch-1', otp: '123456' })).resolves.toEqual({
      redirectTo: '/change-password',
    });
    expect(await auth.authProvider.getIdentity()).toMatchObject({ mustChangePassword: true });
    const params = { oldPassword: 'Demo@2026', newPassword: 'Better@2026', confirmPassword: 'Better@2026' };
    await expect(auth.authProvider.changePassword(params)).resolves.toBe('Password changed successfully');
    expect(http.sessionStore.get()?.accessToken).toBe('tok-2');
    expect(await auth.authProvider.getIdentity()).toMatchObject({ mustChangePassword: false });
  });

  it('switches the active company code with the new access token the API answers with', async () => {
    const { auth, http } = freshPage();
    http.sessionStore.set({ accessToken: 'tok-all', user: me({ companyCodes: ['1000', '2000'] }) });
    const fetch = installFetch(() => ({
      body: { accessToken: 'tok-1000', expiresIn: 900, user: me({ companyCodes: ['1000', '2000'], activeCompanyCode: '1000' }) },
    }));
    await auth.authProvider.setActiveCompany('1000');
    const [request] = requests(fetch);
    expect(`${request!.method} ${request!.url.pathname}`).toBe('PUT /api/me/active-company');
    expect(request!.headers.get('Authorization')).toBe('Bearer tok-all');
    expect(JSON.parse(String(request!.body))).toEqual({ companyCode: '1000' });
    expect(http.sessionStore.get()?.accessToken).toBe('tok-1000');
    expect(await auth.authProvider.getIdentity()).toMatchObject({ activeCompanyCode: '1000' });
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

  it.each(['block', 'unblock'] as const)('%ss a user with the reason', async (verb) => {
    const { data, http } = page;
    http.sessionStore.set({ accessToken: 'tok', user: staff });
    const fetch = installFetch(() => ({ body: { id: 'u-9', status: verb === 'block' ? 'blocked' : 'active' } }));
    const method = verb === 'block' ? data.dataProvider.blockUser : data.dataProvider.unblockUser;
    const result = await method('u-9', { reason: 'Left the company' });
    expect(result.data).toMatchObject({ id: 'u-9' });
    const [request] = requests(fetch);
    expect(`${request!.method} ${request!.url.pathname}`).toBe(`POST /api/users/u-9/${verb}`);
    expect(JSON.parse(String(request!.body))).toEqual({ reason: 'Left the company' });
  });
});
