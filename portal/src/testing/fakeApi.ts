import {
  CITIES,
  SERVICES,
  STATES,
  cityById,
  serviceById,
  stateById,
} from '../../../domain/src/masters/catalog';
import type { CompanyDetails } from '../../../domain/src/onboarding/details';
import type { BusinessAssociate, Me } from '../api/client';

/**
 * A test double for the HTTP API (the shapes of /work/brief/API.md), given to the real client as its fetch.
 * It keeps one BA in memory and records every request, so UI tests check what the portal sent.
 */
export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
};

export type FakeReply = { status: number; body?: unknown };

export type FakeApiOptions = {
  /** A session the refresh cookie restores on load; null = not signed in. */
  session?: Me | null;
  /** Accounts that may log in, by username; password is always Demo@2026. */
  accounts?: Me[];
  ba?: Partial<BusinessAssociate>;
  /** Answers a request before the fake's own routes do (to inject failures). */
  intercept?: (req: RecordedRequest) => FakeReply | undefined;
};

export const PASSWORD = 'Demo@2026';
const TIMED_OUT = 'Session Timed out.Please login again';

export const baUser: Me = {
  id: 'u-ba',
  username: 'ba.admin@demo.test',
  name: 'Asha Rao',
  roles: ['BA Admin'],
  companyCodes: ['1000'],
  baId: 'ba-1',
  application: 'portal',
};

export const staffUser: Me = {
  id: 'u-proc',
  username: 'procurement@demo.test',
  name: 'Priya Procurement',
  roles: ['MLL Procurement'],
  companyCodes: ['1000'],
  baId: null,
  application: 'console',
};

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
    cityName: cityById(details?.cityId)?.name ?? null,
    stateId: details?.stateId ?? null,
    stateName: stateById(details?.stateId)?.name ?? null,
    serviceId: details?.serviceId ?? null,
    serviceName: serviceById(details?.serviceId)?.name ?? null,
    submission: 0,
    remarks: null,
    welcomeMessage: null,
    overdue: false,
    createdAt: '2026-03-02T05:30:00.000Z',
    submittedAt: null,
    updatedAt: '2026-03-04T09:00:00.000Z',
    details,
    ...overrides,
  };
}

const reply = (status: number, body?: unknown): Response => {
  const text = body === undefined ? '' : JSON.stringify(body);
  // The client reads only these members; jsdom has no Response of its own.
  return {
    status,
    ok: status >= 200 && status < 300,
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  } as unknown as Response;
};

const problem = (status: number, message: string, errors?: Record<string, string>) => ({
  type: 'about:blank',
  title: 'Error',
  status,
  message,
  ...(errors ? { errors } : {}),
});

export function fakeApi(options: FakeApiOptions = {}) {
  const accounts = options.accounts ?? [baUser, staffUser];
  let session: Me | null = options.session === undefined ? null : options.session;
  let ba = baRow(options.ba);
  const requests: RecordedRequest[] = [];

  const route = (req: RecordedRequest): FakeReply => {
    const { method, path } = req;
    if (method === 'POST' && path === '/api/auth/refresh')
      return session
        ? { status: 200, body: { accessToken: 'token-2', user: session } }
        : { status: 401, body: problem(401, TIMED_OUT) };
    if (method === 'POST' && path === '/api/auth/login') {
      const { username, password } = req.body as { username: string; password: string };
      const user = accounts.find((a) => a.username === username);
      if (!user || password !== PASSWORD)
        return { status: 401, body: problem(401, 'Invalid username or password') };
      session = user;
      return { status: 200, body: { accessToken: 'token-1', user } };
    }
    if (method === 'POST' && path === '/api/auth/logout') {
      session = null;
      return { status: 204 };
    }
    if (!req.headers['Authorization']) return { status: 401, body: problem(401, TIMED_OUT) };
    if (method === 'GET' && path === '/api/me') return { status: 200, body: session };
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
    if (method === 'GET' && path === '/api/states') return { status: 200, body: STATES };
    if (method === 'GET' && path === '/api/services') return { status: 200, body: SERVICES };
    if (method === 'GET' && path === '/api/cities') {
      const filter = JSON.parse(req.query.get('filter') ?? '{}') as { stateId?: number };
      const cities = CITIES.filter((c) => filter.stateId === undefined || c.stateId === filter.stateId);
      return { status: 200, body: cities };
    }
    return { status: 404, body: problem(404, 'Not found') };
  };

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://portal.test');
    const req: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(req);
    const answer = options.intercept?.(req) ?? route(req);
    return reply(answer.status, answer.body);
  };

  return {
    fetch: fetch as typeof globalThis.fetch,
    requests,
    /** Requests to one path (and method), in order. */
    sent: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    get ba() {
      return ba;
    },
  };
}

export type FakeApi = ReturnType<typeof fakeApi>;
