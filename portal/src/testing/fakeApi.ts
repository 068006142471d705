import { CITIES } from '../../../domain/src/masters/reference-data/cities';
import { COMPANIES } from '../../../domain/src/masters/reference-data/companies';
import { SERVICES } from '../../../domain/src/masters/reference-data/services';
import { STATES } from '../../../domain/src/masters/reference-data/states';
import type { CompanyDetails } from '../../../domain/src/onboarding/details';
import type { BaUser, BaUserInput, BillHubUser, BillHubUserInput, BusinessAssociate, Me } from '../api/client';

/**
 * A test double for the HTTP API (the shapes of /work/brief/identity-contract.md and api/src/contract.ts),
 * given to the real client as its fetch. It keeps one BA, its users and bill-hub users in memory and records
 * every request, so UI tests check what the portal sent.
 */
export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
};

/** The reference data, as the masters API answers it: the portal's selects see what a fresh installation holds. */
const asItems = <T extends { id: number | string }>(rows: readonly T[]) =>
  rows.map((r) => ({ ...r, status: 'active', updatedAt: '2026-03-01T00:00:00.000Z' }));
const nameOf = (rows: readonly { id: number | string; name: string }[], id: number | null | undefined) =>
  rows.find((r) => r.id === id)?.name;

export type FakeReply = { status: number; body?: unknown; headers?: Record<string, string> };

export type FakeApiOptions = {
  /** A session the refresh cookie restores on load; null = not signed in. */
  session?: Me | null;
  /** Accounts that may log in, by username; password is always Demo@2026, the OTP always 123456. */
  accounts?: Me[];
  ba?: Partial<BusinessAssociate>;
  baUsers?: BaUser[];
  billHubUsers?: BillHubUser[];
  /** Seconds before an OTP may be sent again (login and registration). */
  resendAfterSeconds?: number;
  /** Answers a request before the fake's own routes do (to inject failures). */
  intercept?: (req: RecordedRequest) => FakeReply | undefined;
};

export const PASSWORD = 'Demo@2026';
export const NEW_PASSWORD = 'Fresh@2026';
export const LOGIN_OTP = '123456';
export const REGISTRATION_SMS_OTP = '111111';
export const REGISTRATION_EMAIL_OTP = '222222';
export const VALID_RESET_TOKEN = 'reset-token-ok';
export const INVITATION_TOKEN = 'invite-token-ok';
export const DEPARTMENTS = ['Accounts', 'Operations', 'Sales'];
/** Failed sign-ins of one username after which the fake wants a captcha (spec 000 §2: 3). */
export const CAPTCHA_AFTER_FAILURES = 3;

const TIMED_OUT = 'Session Timed out.Please login again';
export const fakeTexts = {
  badCredentials: 'Invalid username or password',
  captchaRequired: 'Please complete the captcha to continue',
  invalidOtp: 'Invalid OTP',
  otpExpired: 'This OTP has expired. Please sign in again',
  resendTooSoon: 'Please wait before asking for another OTP',
  alreadyRegistered: 'This mobile number or e-mail id is already registered. Please sign in or use Forgot Password',
  resetLinkSent: 'Password Reset Link sent successfully !.',
  linkInvalid: 'This link is invalid or has expired',
  passwordChanged: 'Password changed successfully',
  wrongOldPassword: 'Your old password is not correct',
} as const;

const me = (overrides: Partial<Me> & Pick<Me, 'id' | 'username' | 'name'>): Me => ({
  emailId: overrides.username,
  mobileNo: '9876543210',
  roles: ['BA Admin'],
  applications: [{ appId: 'onboard', roleName: 'BA Admin' }],
  companyCodes: ['1000'],
  activeCompanyCode: '1000',
  baId: 'ba-1',
  baStatus: 'pending',
  application: 'portal',
  firstLogin: false,
  passwordExpired: false,
  status: 'active',
  home: '/onboard/status',
  ...overrides,
});

/** An unverified BA's admin: home is the onboarding status. */
export const baUser: Me = me({
  id: 'u-ba',
  username: 'ba.admin@demo.test',
  name: 'Asha Rao',
  applications: [
    { appId: 'onboard', roleName: 'BA Admin' },
    { appId: 'BillHub', roleName: 'BA Admin' },
  ],
});

/** The same admin once the BA is verified. */
export const verifiedBaAdmin: Me = { ...baUser, baStatus: 'verified', home: '/home' };

/** A colleague added by the admin (BA User). */
export const baColleague: Me = me({
  id: 'u-ba-2',
  username: 'ravi@demo.test',
  name: 'Ravi Kumar',
  roles: ['BA User'],
  applications: [{ appId: 'onboard', roleName: 'BA User' }],
  baStatus: 'verified',
  home: '/home',
});

/** A child Bill-Hub user: Bill-Hub and nothing else. */
export const billHubOnlyUser: Me = me({
  id: 'u-bh',
  username: 'billhub.mh@demo.test',
  name: 'Meera Patil',
  roles: ['BA User'],
  applications: [{ appId: 'BillHub', roleName: 'BA User' }],
  baStatus: 'verified',
  home: '/bill-hub',
});

export const staffUser: Me = me({
  id: 'u-proc',
  username: 'procurement@demo.test',
  name: 'Priya Procurement',
  roles: ['MLL Procurement'],
  applications: [{ appId: 'onboard', roleName: 'MLL Procurement' }],
  companyCodes: ['1000', '2000'],
  activeCompanyCode: 'All',
  baId: null,
  baStatus: null,
  application: 'console',
  home: '/console',
});

/** A BA admin signing in for the first time (invited): the password must change first. */
export const firstLoginUser: Me = me({
  id: 'u-first',
  username: 'first@demo.test',
  name: 'Farah Khan',
  firstLogin: true,
  home: '/change-password',
});

/** An account that holds no application at all. */
export const noAppUser: Me = me({
  id: 'u-none',
  username: 'nobody@demo.test',
  name: 'No Body',
  roles: [],
  applications: [],
  baId: null,
  baStatus: null,
  home: '/onboard/status',
});

export const completeDetails: CompanyDetails = {
  companyName: 'Sahyadri Roadways Pvt Ltd',
  panNumber: 'ABCDE1234F',
  contactPersonName: 'Asha Rao',
  cinNumber: null,
  serviceId: 1,
  stateId: 27,
  cityId: 2702,
  addressLine1: '12 MG Road',
  addressLine2: null,
  pinCode: '411001',
  companyLandline: null,
  contactPersonMobileNumber: '9876543210',
  ownFleet: 12,
  attachedFleet: null,
};

export function baRow(overrides: Partial<BusinessAssociate> = {}): BusinessAssociate {
  const details = overrides.details === undefined ? null : overrides.details;
  return {
    id: 'ba-1',
    companyCode: '1000',
    status: 'pending',
    stage: null,
    companyName: details?.companyName ?? null,
    panNumber: details?.panNumber ?? null,
    contactPersonName: details?.contactPersonName ?? null,
    contactPersonMobileNumber: details?.contactPersonMobileNumber ?? null,
    cityId: details?.cityId ?? null,
    cityName: nameOf(CITIES, details?.cityId) ?? null,
    stateId: details?.stateId ?? null,
    stateName: nameOf(STATES, details?.stateId) ?? null,
    serviceId: details?.serviceId ?? null,
    serviceName: nameOf(SERVICES, details?.serviceId) ?? null,
    submission: 0,
    remarks: null,
    welcomeMessage: null,
    overdue: false,
    registeredEmail: 'ba.admin@demo.test',
    registeredMobile: '9876543210',
    adminUserId: 'u-admin',
    documentsExpired: false,
    blocked: false,
    paymentsOnHold: false,
    mobileNo: details?.contactPersonMobileNumber ?? '9876543210',
    email: 'ba.admin@demo.test',
    createdAt: '2026-03-02T05:30:00.000Z',
    submittedAt: null,
    updatedAt: '2026-03-04T09:00:00.000Z',
    details,
    ...overrides,
  };
}

export const colleagueRow: BaUser = {
  id: 'u-ba-2',
  baUserName: 'Ravi Kumar',
  emailId: 'ravi@demo.test',
  mobileNo: '9812345678',
  department: 'Operations',
  appAccess: [
    { appId: 'onboard', roleName: 'BA User' },
    { appId: 'RFP', roleName: 'BA User' },
  ],
  baId: 'ba-1',
  status: 'Active',
};

export const billHubRow: BillHubUser = {
  id: 'u-bh',
  name: 'Meera Patil',
  emailId: 'billhub.mh@demo.test',
  mobileNo: '9822334455',
  stateId: 27,
  stateName: 'Maharashtra',
  childCode: 'NA',
  Status: 'Active',
};

const reply = (status: number, body?: unknown, headers: Record<string, string> = {}): Response => {
  const text = body === undefined ? '' : JSON.stringify(body);
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  // The client reads only these members; jsdom has no Response of its own.
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (name: string) => lower[name.toLowerCase()] ?? null },
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  } as unknown as Response;
};

export const problem = (
  status: number,
  message: string,
  errors?: Record<string, string>,
  extra: Record<string, unknown> = {},
) => ({
  type: 'about:blank',
  title: 'Error',
  status,
  message,
  ...(errors ? { errors } : {}),
  ...extra,
});

const mask = (mobile: string | null) => (mobile ? `******${mobile.slice(-4)}` : null);
const maskEmail = (email: string) => `${email[0] ?? ''}***@${email.split('@')[1] ?? ''}`;

export function fakeApi(options: FakeApiOptions = {}) {
  const accounts = [...(options.accounts ?? [baUser, staffUser])];
  const resendAfterSeconds = options.resendAfterSeconds ?? 30;
  let session: Me | null = options.session === undefined ? null : options.session;
  let ba = baRow(options.ba);
  let baUsers = [...(options.baUsers ?? [colleagueRow])];
  let billHubUsers = [...(options.billHubUsers ?? [billHubRow])];
  const failures = new Map<string, number>();
  let challenge: { id: string; user: Me; wrong: number } | null = null;
  let registration: { id: string; mobileNo: string; email: string; companyCode: string } | null = null;
  let tokens = 2;
  let ids = 0;
  const requests: RecordedRequest[] = [];

  /** A session answer: login's first token is token-1, refresh's token-2 (the client tests rely on both). */
  const sessionOf = (user: Me, accessToken = `token-${++tokens}`) => {
    session = user;
    return { accessToken, expiresIn: 900, user };
  };

  const route = (req: RecordedRequest): FakeReply => {
    const { method, path } = req;
    const body = (req.body ?? {}) as Record<string, unknown>;

    // Public: session, sign-in, registration, password reset, companies.
    if (method === 'POST' && path === '/api/auth/refresh')
      return session
        ? { status: 200, body: { accessToken: 'token-2', expiresIn: 900, user: session } }
        : { status: 401, body: problem(401, TIMED_OUT) };
    if (method === 'POST' && path === '/api/auth/login') {
      const username = String(body['username'] ?? '');
      const failed = failures.get(username) ?? 0;
      if (failed >= CAPTCHA_AFTER_FAILURES && !body['captcha'])
        return { status: 400, body: problem(400, fakeTexts.captchaRequired, undefined, { captchaRequired: true }) };
      const user = accounts.find((a) => a.username === username);
      if (!user || body['password'] !== PASSWORD) {
        failures.set(username, failed + 1);
        const captchaRequired = failed + 1 >= CAPTCHA_AFTER_FAILURES;
        return { status: 401, body: problem(401, fakeTexts.badCredentials, undefined, { captchaRequired }) };
      }
      failures.delete(username);
      challenge = { id: `ch-${++ids}`, user, wrong: 0 };
      return {
        status: 200,
        body: {
          otpRequired: true,
          challengeId: challenge.id,
          expiresInSeconds: 600,
          resendAfterSeconds,
          sentTo: { mobile: mask(user.mobileNo), email: maskEmail(user.emailId) },
        },
      };
    }
    if (method === 'POST' && path === '/api/auth/login/verify-otp') {
      if (!challenge || body['challengeId'] !== challenge.id || challenge.wrong >= 5)
        return { status: 410, body: problem(410, fakeTexts.otpExpired) };
      if (body['otp'] !== LOGIN_OTP) {
        challenge.wrong += 1;
        const attemptsLeft = 5 - challenge.wrong;
        return {
          status: 400,
          body: problem(400, fakeTexts.invalidOtp, { otp: fakeTexts.invalidOtp }, { attemptsLeft }),
        };
      }
      const { user } = challenge;
      challenge = null;
      return { status: 200, body: sessionOf(user, 'token-1') };
    }
    if (method === 'POST' && path === '/api/auth/login/resend-otp') {
      if (!challenge || body['challengeId'] !== challenge.id)
        return { status: 410, body: problem(410, fakeTexts.otpExpired) };
      return { status: 200, body: { expiresInSeconds: 600, resendAfterSeconds } };
    }
    if (method === 'POST' && path === '/api/auth/logout') {
      session = null;
      return { status: 204 };
    }
    if (method === 'GET' && path === '/api/companies')
      return { status: 200, body: asItems(COMPANIES) };
    if (method === 'POST' && path === '/api/registrations') {
      const email = String(body['email'] ?? '');
      const mobileNo = String(body['mobileNo'] ?? '');
      if (accounts.some((a) => a.emailId === email || a.mobileNo === mobileNo))
        return { status: 409, body: problem(409, fakeTexts.alreadyRegistered) };
      registration = { id: `reg-${++ids}`, email, mobileNo, companyCode: String(body['companyCode']) };
      return { status: 201, body: { id: registration.id, expiresInSeconds: 1800, resendAfterSeconds } };
    }
    const registrationPath = /^\/api\/registrations\/([^/]+)\/(verify|resend)$/.exec(path);
    if (method === 'POST' && registrationPath) {
      if (!registration || registration.id !== registrationPath[1])
        return { status: 410, body: problem(410, 'Your registration has expired. Please register again') };
      if (registrationPath[2] === 'resend')
        return { status: 200, body: { expiresInSeconds: 1800, resendAfterSeconds } };
      const errors: Record<string, string> = {};
      if (body['smsOtp'] !== REGISTRATION_SMS_OTP) errors['smsOtp'] = fakeTexts.invalidOtp;
      if (body['emailOtp'] !== REGISTRATION_EMAIL_OTP) errors['emailOtp'] = fakeTexts.invalidOtp;
      if (Object.keys(errors).length > 0)
        return { status: 400, body: problem(400, fakeTexts.invalidOtp, errors, { attemptsLeft: 4 }) };
      const user = me({
        id: 'u-new',
        username: registration.email,
        name: registration.email,
        mobileNo: registration.mobileNo,
        companyCodes: [registration.companyCode],
        activeCompanyCode: registration.companyCode,
      });
      accounts.push(user);
      registration = null;
      return { status: 200, body: sessionOf(user) };
    }
    if (method === 'POST' && path === '/api/auth/forgot-password')
      return { status: 200, body: { message: fakeTexts.resetLinkSent } };
    const resetToken = /^\/api\/auth\/reset-tokens\/([^/]+)$/.exec(path)?.[1];
    if (method === 'GET' && resetToken) {
      if (resetToken === VALID_RESET_TOKEN)
        return { status: 200, body: { userId: 'u-ba', username: baUser.username, purpose: 'reset' } };
      if (resetToken === INVITATION_TOKEN)
        return { status: 200, body: { userId: 'u-first', username: firstLoginUser.username, purpose: 'invitation' } };
      return { status: 410, body: problem(410, fakeTexts.linkInvalid) };
    }
    if (method === 'POST' && path === '/api/auth/reset-password')
      return { status: 200, body: { message: fakeTexts.passwordChanged } };

    // Signed in from here on.
    if (!req.headers['Authorization'] || !session) return { status: 401, body: problem(401, TIMED_OUT) };
    const user = session;
    if (method === 'GET' && path === '/api/me') return { status: 200, body: user };
    if (method === 'POST' && path === '/api/auth/change-password') {
      if (body['oldPassword'] !== PASSWORD)
        return {
          status: 400,
          body: problem(400, fakeTexts.wrongOldPassword, { oldPassword: fakeTexts.wrongOldPassword }),
        };
      const home = user.home === '/change-password' ? (user.baStatus === 'verified' ? '/home' : '/onboard/status') : user.home;
      const changed: Me = { ...user, firstLogin: false, passwordExpired: false, home };
      return { status: 200, body: { ...sessionOf(changed), message: fakeTexts.passwordChanged } };
    }
    if (method === 'PUT' && path === '/api/me/active-company')
      return { status: 200, body: sessionOf({ ...user, activeCompanyCode: String(body['companyCode']) }) };
    if (method === 'GET' && path === `/api/business-associates/${ba.id}`) return { status: 200, body: ba };
    if (method === 'POST' && path === `/api/business-associates/${ba.id}/details`) {
      const details = req.body as CompanyDetails;
      ba = baRow({ ...ba, details, companyName: details.companyName, updatedAt: '2026-03-05T10:00:00.000Z' });
      return { status: 200, body: ba };
    }
    if (method === 'POST' && path === `/api/business-associates/${ba.id}/submit`) {
      const submittedAt = '2026-03-05T10:00:01.000Z';
      const submission = ba.submission + 1;
      ba = { ...ba, status: 'inprogress', stage: 1, submission, remarks: null, submittedAt };
      return { status: 200, body: ba };
    }
    if (method === 'GET' && path === '/api/states') return { status: 200, body: asItems(STATES) };
    if (method === 'GET' && path === '/api/services') return { status: 200, body: asItems(SERVICES) };
    if (method === 'GET' && path === '/api/cities') {
      const filter = JSON.parse(req.query.get('filter') ?? '{}') as { stateId?: number };
      const cities = CITIES.filter((c) => filter.stateId === undefined || c.stateId === filter.stateId);
      return { status: 200, body: asItems(cities) };
    }

    // BA users and bill-hub users: the BA Admin's own BA only.
    if (method === 'GET' && path === '/api/departments')
      return { status: 200, body: DEPARTMENTS.map((name, i) => ({ id: i + 1, name })) };
    if (path.startsWith('/api/ba-users') || path.startsWith('/api/bill-hub-users') || path === '/api/contact-changes')
      if (!user.roles.includes('BA Admin')) return { status: 403, body: problem(403, 'Forbidden') };
    if (method === 'GET' && path === '/api/ba-users') return { status: 200, body: baUsers };
    if (method === 'POST' && path === '/api/ba-users') {
      const input = body as BaUserInput;
      if ([...baUsers, ...accounts.map((a) => ({ emailId: a.emailId }))].some((u) => u.emailId === input.emailId))
        return {
          status: 409,
          body: problem(409, 'This e-mail id is already registered', { emailId: 'This e-mail id is already registered' }),
        };
      const row: BaUser = {
        id: `u-${++ids}`,
        baUserName: input.name,
        emailId: input.emailId,
        mobileNo: input.mobileNo,
        department: input.department,
        appAccess: input.appAccess,
        baId: ba.id,
        status: 'Active',
      };
      baUsers = [...baUsers, row];
      return { status: 201, body: row };
    }
    const baUserPath = /^\/api\/ba-users\/([^/]+)(?:\/(block|unblock))?$/.exec(path);
    if (baUserPath) {
      const row = baUsers.find((u) => u.id === baUserPath[1]);
      if (!row) return { status: 404, body: problem(404, 'Not found') };
      let next: BaUser = row;
      if (method === 'PUT' && !baUserPath[2]) {
        const input = body as BaUserInput;
        next = { ...row, baUserName: input.name, department: input.department, appAccess: input.appAccess };
      } else if (method === 'POST' && baUserPath[2])
        next = { ...row, status: baUserPath[2] === 'block' ? 'Blocked' : 'Active' };
      else if (method !== 'GET') return { status: 404, body: problem(404, 'Not found') };
      baUsers = baUsers.map((u) => (u.id === row.id ? next : u));
      return { status: 200, body: next };
    }
    if (method === 'GET' && path === '/api/bill-hub-users') return { status: 200, body: billHubUsers };
    if (method === 'POST' && path === '/api/bill-hub-users') {
      const input = body as BillHubUserInput;
      const row: BillHubUser = {
        id: `u-${++ids}`,
        name: input.name,
        emailId: input.emailId,
        mobileNo: input.mobileNo,
        stateId: input.stateId,
        stateName: nameOf(STATES, input.stateId) ?? 'NA',
        childCode: 'NA',
        Status: 'Active',
      };
      billHubUsers = [...billHubUsers, row];
      return { status: 201, body: row };
    }
    const billHubPath = /^\/api\/bill-hub-users\/([^/]+)\/(block|unblock)$/.exec(path);
    if (method === 'POST' && billHubPath) {
      const row = billHubUsers.find((u) => u.id === billHubPath[1]);
      if (!row) return { status: 404, body: problem(404, 'Not found') };
      const next: BillHubUser = { ...row, Status: billHubPath[2] === 'block' ? 'Blocked' : 'Active' };
      billHubUsers = billHubUsers.map((u) => (u.id === row.id ? next : u));
      return { status: 200, body: next };
    }
    if (method === 'POST' && path === '/api/contact-changes')
      return { status: 201, body: { id: `cc-${++ids}`, expiresAt: '2026-03-06T10:00:00.000Z' } };
    return { status: 404, body: problem(404, 'Not found') };
  };

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://portal.test');
    const req: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      // Uploads stay FormData, so tests read their fields and file.
      body:
        typeof init?.body === 'string'
          ? (JSON.parse(init.body) as unknown)
          : init?.body instanceof FormData
            ? init.body
            : undefined,
    };
    requests.push(req);
    const answer = options.intercept?.(req) ?? route(req);
    return reply(answer.status, answer.body, answer.headers);
  };

  return {
    fetch: fetch as typeof globalThis.fetch,
    requests,
    /** Requests to one path (and method), in order. */
    sent: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    get ba() {
      return ba;
    },
    get baUsers() {
      return baUsers;
    },
    get billHubUsers() {
      return billHubUsers;
    },
  };
}

export type FakeApi = ReturnType<typeof fakeApi>;
