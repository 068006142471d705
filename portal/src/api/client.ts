import { v4 as uuidv4 } from 'uuid';
import type {
  AppAccess,
  BaUser,
  BillHubUser,
  BusinessAssociate,
  City,
  CompanyDetails,
  Me,
  OtpChallenge,
  OtpResent,
  RegistrationStarted,
  Service,
  SessionResponse,
  State,
} from '../../../api/src/contract';

/**
 * The portal's typed client for the API (/work/brief/API.md). The access token lives only in memory; a page
 * load restores it through POST /api/auth/refresh, which reads the httpOnly refresh cookie. Errors arrive as
 * application/problem+json and leave here as `ApiError`, with the spec 000 §8 texts where the server says
 * nothing useful.
 */

// The API's own response shapes (api/src/contract.ts): type-only, so no server code reaches the bundle.
export type {
  AppAccess,
  AppId,
  BaStatus,
  BaUser,
  BillHubUser,
  BusinessAssociate,
  Me,
  OtpChallenge,
  OtpResent,
  RegistrationStarted,
} from '../../../api/src/contract';

/** The session the portal keeps in memory: the login answer without its lifetime. */
export type Session = Pick<SessionResponse, 'accessToken' | 'user'>;

/** The reference lists as the forms use them. */
export type StateOption = Pick<State, 'id' | 'name'>;
export type CityOption = Pick<City, 'id' | 'name' | 'stateId'>;
export type ServiceOption = Pick<Service, 'id' | 'name'>;
/** GET /api/companies (public: the register tab lists them before sign-in). */
export type CompanyOption = { id: string; companyCode: string; name: string };
/** GET /api/departments (the Departments master), reduced to what the select needs. */
export type DepartmentOption = { id: string; name: string };

/** GET /api/auth/reset-tokens/:token: whose link it is and why it was sent. */
export type ResetToken = { userId: string; username: string; purpose: 'reset' | 'invitation' };
/** A server's confirmation text (forgot/reset password). */
export type Confirmation = { message: string };

export type NewPassword = { newPassword: string; confirmPassword: string };
export type RegistrationCodes = NewPassword & { smsOtp: string; emailOtp: string };
/** POST/PUT /api/ba-users. */
export type BaUserInput = {
  name: string;
  emailId: string;
  mobileNo: string;
  department: string | null;
  appAccess: AppAccess[];
};
/** POST /api/bill-hub-users. */
export type BillHubUserInput = { stateId: number; name: string; emailId: string; mobileNo: string };

/** Spec 000 §8 texts, with the catalogue's codes where it gives them. */
export const errorTexts = {
  noResponse: 'Unexpected error occured', // code 1
  emptyBody: 'Error work not defined', // code 2
  ourEnd: 'There was a problem at our end', // code 3
  sessionTimedOut: 'Session Timed out.Please login again',
  noAccess: "You don't have access to this application. Please contact admin team for support", // code 101
} as const;

export class ApiError extends Error {
  readonly status: number;
  /** `{ field: message }` from a 400/422 problem; empty when the server sent none. */
  readonly fieldErrors: Record<string, string>;
  /** The spec's numeric code (1, 2, 3, 101) when the error is one of its catalogue entries. */
  readonly code: number | undefined;
  /** The problem body's other members (captchaRequired, attemptsLeft). */
  readonly details: Readonly<Record<string, unknown>>;
  /** Seconds from a 429's Retry-After header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    message: string,
    fieldErrors: Record<string, string> = {},
    code?: number,
    extra: { details?: Record<string, unknown>; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.code = code;
    this.details = extra.details ?? {};
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }

  /** Login answers carry it from the 3rd failed sign-in on (400 and 401). */
  get captchaRequired(): boolean {
    return this.details['captchaRequired'] === true;
  }

  /** Wrong-code answers say how many tries remain. */
  get attemptsLeft(): number | undefined {
    const n = this.details['attemptsLeft'];
    return typeof n === 'number' ? n : undefined;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** A message fit for the error dialog, whatever was thrown. */
export const messageOf = (e: unknown): string =>
  e instanceof ApiError ? e.message : e instanceof Error && e.message ? e.message : errorTexts.ourEnd;

export type ApiClientOptions = {
  /** Injected in tests; defaults to the browser's fetch. */
  fetch?: typeof fetch;
  /** Origin + prefix of the API; '' means same origin. */
  baseUrl?: string;
};

type Listener = () => void;

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Sent as Idempotency-Key; a retry of the same action (after a token refresh) reuses it. */
  idempotencyKey?: string;
  /** Calls made with the session (everything but login/refresh/logout). */
  authenticated?: boolean;
};

/** Sort is left to the server's default (its sortable fields differ per resource); the UI sorts by name. */
const listQuery = (filter: Record<string, unknown>, range: [number, number]) =>
  `?${new URLSearchParams({ filter: JSON.stringify(filter), range: JSON.stringify(range) }).toString()}`;

const byName = <T extends { name: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => a.name.localeCompare(b.name));

/** The API caps list pages at 100 rows (api/src/http/simple-rest.ts); reference lists are smaller. */
const REFERENCE_RANGE: [number, number] = [0, 99];

export const newIdempotencyKey = (): string => uuidv4();

/** Retry-After in seconds (the API sends delta-seconds); undefined when absent or unreadable. */
function retryAfterOf(response: Response): number | undefined {
  // Test doubles may answer without headers.
  const value = (response.headers as Headers | undefined)?.get?.('Retry-After');
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

/**
 * The contract says only "departments": take a list of names or of {id?, name} rows, whichever the server
 * sends, so the select does not depend on the row shape.
 */
function toDepartments(body: unknown): DepartmentOption[] {
  if (!Array.isArray(body)) return [];
  const out: DepartmentOption[] = [];
  for (const item of body) {
    if (typeof item === 'string') out.push({ id: item, name: item });
    else if (typeof item === 'object' && item !== null) {
      const { id, name } = item as { id?: unknown; name?: unknown };
      if (typeof name === 'string') out.push({ id: id === undefined ? name : String(id), name });
    }
  }
  return out;
}

export function createApiClient(options: ApiClientOptions = {}) {
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const baseUrl = options.baseUrl ?? '';
  let accessToken: string | null = null;
  let refreshing: Promise<Session | null> | null = null;
  const expiredListeners = new Set<Listener>();

  async function errorFrom(response: Response): Promise<ApiError> {
    const retryAfterSeconds = retryAfterOf(response);
    const text = await response.text().catch(() => '');
    if (text.trim() === '')
      return new ApiError(response.status, errorTexts.emptyBody, {}, 2, { retryAfterSeconds });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new ApiError(response.status, errorTexts.ourEnd, {}, 3);
    }
    const problem = (typeof body === 'object' && body !== null ? body : {}) as {
      message?: unknown;
      errors?: unknown;
    };
    const errors: Record<string, string> = {};
    if (typeof problem.errors === 'object' && problem.errors !== null) {
      for (const [k, v] of Object.entries(problem.errors)) if (typeof v === 'string') errors[k] = v;
    }
    const serverMessage =
      typeof problem.message === 'string' && problem.message.trim() !== '' ? problem.message : null;
    const extra = { details: problem as Record<string, unknown>, retryAfterSeconds };
    if (serverMessage !== null) return new ApiError(response.status, serverMessage, errors, undefined, extra);
    if (response.status === 401)
      return new ApiError(401, errorTexts.sessionTimedOut, errors, undefined, extra);
    return new ApiError(response.status, errorTexts.ourEnd, errors, 3, extra);
  }

  async function send(path: string, opts: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    // A FormData body (uploads) sets its own multipart Content-Type with the boundary.
    const multipart = typeof FormData !== 'undefined' && opts.body instanceof FormData;
    if (opts.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
    if (opts.authenticated && accessToken) headers['Authorization'] = `Bearer ${accessToken}`;
    try {
      return await doFetch(`${baseUrl}${path}`, {
        method: opts.method ?? 'GET',
        headers,
        body: opts.body === undefined ? undefined : multipart ? (opts.body as FormData) : JSON.stringify(opts.body),
        credentials: 'same-origin',
      });
    } catch {
      throw new ApiError(0, errorTexts.noResponse, {}, 1);
    }
  }

  function sessionExpired(): never {
    accessToken = null;
    for (const l of expiredListeners) l();
    throw new ApiError(401, errorTexts.sessionTimedOut);
  }

  /**
   * An authenticated request answered as it came, whatever its status (a 401 refreshes the access token once
   * and retries with the same key): for answers whose headers or error body the caller reads itself.
   */
  async function rawCall(path: string, opts: Omit<RequestOptions, 'authenticated'> = {}): Promise<Response> {
    const request = { ...opts, authenticated: true };
    let response = await send(path, request);
    if (response.status === 401) {
      const renewed = await refresh().catch(() => null);
      if (!renewed) sessionExpired();
      response = await send(path, request);
      if (response.status === 401) sessionExpired();
    }
    return response;
  }

  /** An authenticated request; a refusal leaves as an ApiError. */
  async function authorized(path: string, opts: Omit<RequestOptions, 'authenticated'>): Promise<Response> {
    const response = await rawCall(path, opts);
    if (!response.ok) throw await errorFrom(response);
    return response;
  }

  async function call<T>(path: string, opts: Omit<RequestOptions, 'authenticated'> = {}): Promise<T> {
    const response = await authorized(path, opts);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  /**
   * A file the session may read (annexure preview and download), as a Blob typed by the server's Content-Type.
   * A plain link or iframe src could not send the Authorization header, so files come through here.
   */
  const fileCall = async (path: string): Promise<Blob> => (await authorized(path, {})).blob();

  /**
   * A long-lived stream with the session (notifications/api.ts: Server-Sent Events read with fetch, so the token
   * travels in the Authorization header, never in a URL where access logs keep it); a 401 refreshes once.
   */
  async function streamCall(path: string, signal: AbortSignal): Promise<Response> {
    const open = () =>
      doFetch(`${baseUrl}${path}`, {
        headers: { Accept: 'text/event-stream', ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}) },
        credentials: 'same-origin',
        cache: 'no-store',
        signal,
      });
    let response = await open();
    if (response.status === 401) {
      const renewed = await refresh().catch(() => null);
      if (!renewed) sessionExpired();
      response = await open();
      if (response.status === 401) sessionExpired();
    }
    if (!response.ok) throw await errorFrom(response);
    return response;
  }

  /** A call made without the session (sign-in, registration, password reset). */
  async function publicCall<T>(path: string, opts: Omit<RequestOptions, 'authenticated'> = {}): Promise<T> {
    const response = await send(path, opts);
    if (!response.ok) throw await errorFrom(response);
    return (await response.json()) as T;
  }

  /** Every answer that carries a session replaces the access token held here. */
  function adopt<T extends Session>(session: T): T {
    accessToken = session.accessToken;
    return session;
  }

  const sessionCall = async (path: string, body?: unknown): Promise<Session> =>
    adopt(await publicCall<Session>(path, { method: 'POST', body }));

  /**
   * Restores or renews the session from the refresh cookie; null when there is none. Concurrent callers share
   * one request: the API rotates the refresh token, so a second request with the old cookie would fail.
   */
  function refresh(): Promise<Session | null> {
    refreshing ??= sessionCall('/api/auth/refresh?app=portal')
      .catch((e: unknown) => {
        if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
          accessToken = null;
          return null;
        }
        throw e;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  return {
    /** Step 1 of sign-in: the password was right when this answers; the OTP went out by SMS and e-mail. */
    login: (username: string, password: string, captcha?: string): Promise<OtpChallenge> =>
      publicCall<OtpChallenge>('/api/auth/login', {
        method: 'POST',
        body: captcha ? { username, password, captcha } : { username, password },
      }),
    /** Step 2: the code from the SMS or e-mail; the answer is the session. */
    verifyLoginOtp: (challengeId: string, otp: string): Promise<Session> =>
      sessionCall('/api/auth/login/verify-otp', { challengeId, otp }),
    resendLoginOtp: (challengeId: string): Promise<OtpResent> =>
      publicCall<OtpResent>('/api/auth/login/resend-otp', { method: 'POST', body: { challengeId } }),
    refresh,
    /** A call without the session, for a capability's own small API module (contact-change/api.ts). */
    publicCall,
    /** A call with the session, for a capability's own small API module (annexures/api.ts). */
    call,
    /** A file's bytes with the session (annexures/api.ts). */
    fileCall,
    /** The raw answer with the session (rfp/api.ts: Content-Range of a page, an upload's error workbook). */
    rawCall,
    /** The ApiError a refused answer stands for (with rawCall). */
    errorOf: errorFrom,
    /** An event stream with the session (notifications/api.ts). */
    streamCall,
    companies: (): Promise<CompanyOption[]> =>
      publicCall<CompanyOption[]>(`/api/companies${listQuery({}, REFERENCE_RANGE)}`),
    register: (body: { mobileNo: string; email: string; companyCode: string }): Promise<RegistrationStarted> =>
      publicCall<RegistrationStarted>('/api/registrations', { method: 'POST', body }),
    verifyRegistration: (id: string, body: RegistrationCodes): Promise<Session> =>
      sessionCall(`/api/registrations/${encodeURIComponent(id)}/verify`, body),
    resendRegistration: (id: string): Promise<OtpResent> =>
      publicCall<OtpResent>(`/api/registrations/${encodeURIComponent(id)}/resend`, {
        method: 'POST',
        body: {},
      }),
    forgotPassword: (email: string): Promise<Confirmation> =>
      publicCall<Confirmation>('/api/auth/forgot-password', { method: 'POST', body: { email } }),
    resetToken: (token: string): Promise<ResetToken> =>
      publicCall<ResetToken>(`/api/auth/reset-tokens/${encodeURIComponent(token)}`),
    resetPassword: (token: string, body: NewPassword): Promise<Confirmation> =>
      publicCall<Confirmation>('/api/auth/reset-password', { method: 'POST', body: { token, ...body } }),
    /** Signed in; every other session of the user ends, this one carries on with the new token. */
    changePassword: async (
      body: NewPassword & { oldPassword: string },
    ): Promise<Session & Confirmation> =>
      adopt(await call<Session & Confirmation>('/api/auth/change-password', { method: 'POST', body })),
    setActiveCompany: async (companyCode: string): Promise<Session> =>
      adopt(await call<Session>('/api/me/active-company', { method: 'PUT', body: { companyCode } })),
    async logout(): Promise<void> {
      accessToken = null;
      // Best effort: the session is over in this tab whatever the server says.
      await send('/api/auth/logout?app=portal', { method: 'POST' }).catch(() => undefined);
    },
    /** Forgets the access token without touching the cookie (e.g. a staff session found on the portal). */
    forget(): void {
      accessToken = null;
    },
    hasSession: (): boolean => accessToken !== null,
    /** Called when an authenticated call meets a 401 that a refresh cannot cure. */
    onSessionExpired(listener: Listener): () => void {
      expiredListeners.add(listener);
      return () => expiredListeners.delete(listener);
    },
    me: (): Promise<Me> => call<Me>('/api/me'),
    getBa: (baId: string): Promise<BusinessAssociate> =>
      call<BusinessAssociate>(`/api/business-associates/${encodeURIComponent(baId)}`),
    saveDetails: (
      baId: string,
      details: CompanyDetails,
      idempotencyKey: string = newIdempotencyKey(),
    ): Promise<BusinessAssociate> =>
      call<BusinessAssociate>(`/api/business-associates/${encodeURIComponent(baId)}/details`, {
        method: 'POST',
        body: details,
        idempotencyKey,
      }),
    submit: (baId: string, idempotencyKey: string = newIdempotencyKey()): Promise<BusinessAssociate> =>
      call<BusinessAssociate>(`/api/business-associates/${encodeURIComponent(baId)}/submit`, {
        method: 'POST',
        body: {},
        idempotencyKey,
      }),
    states: async (): Promise<StateOption[]> =>
      byName(await call<StateOption[]>(`/api/states${listQuery({}, REFERENCE_RANGE)}`)),
    cities: async (stateId: number): Promise<CityOption[]> =>
      byName(await call<CityOption[]>(`/api/cities${listQuery({ stateId }, REFERENCE_RANGE)}`)),
    services: async (): Promise<ServiceOption[]> =>
      byName(await call<ServiceOption[]>(`/api/services${listQuery({}, REFERENCE_RANGE)}`)),

    // BA users and child bill-hub users (BA Admin only). A BA has a handful: one page of 100 holds them all.
    baUsers: (): Promise<BaUser[]> => call<BaUser[]>(`/api/ba-users${listQuery({}, REFERENCE_RANGE)}`),
    createBaUser: (body: BaUserInput): Promise<BaUser> =>
      call<BaUser>('/api/ba-users', { method: 'POST', body, idempotencyKey: newIdempotencyKey() }),
    updateBaUser: (id: string, body: BaUserInput): Promise<BaUser> =>
      call<BaUser>(`/api/ba-users/${encodeURIComponent(id)}`, { method: 'PUT', body }),
    setBaUserBlocked: (id: string, blocked: boolean): Promise<BaUser> =>
      call<BaUser>(`/api/ba-users/${encodeURIComponent(id)}/${blocked ? 'block' : 'unblock'}`, {
        method: 'POST',
        body: {},
      }),
    departments: async (): Promise<DepartmentOption[]> =>
      toDepartments(await call<unknown>(`/api/departments${listQuery({}, REFERENCE_RANGE)}`)),
    billHubUsers: (): Promise<BillHubUser[]> =>
      call<BillHubUser[]>(`/api/bill-hub-users${listQuery({}, REFERENCE_RANGE)}`),
    createBillHubUser: (body: BillHubUserInput): Promise<BillHubUser> =>
      call<BillHubUser>('/api/bill-hub-users', { method: 'POST', body, idempotencyKey: newIdempotencyKey() }),
    setBillHubUserBlocked: (id: string, blocked: boolean): Promise<BillHubUser> =>
      call<BillHubUser>(`/api/bill-hub-users/${encodeURIComponent(id)}/${blocked ? 'block' : 'unblock'}`, {
        method: 'POST',
        body: {},
      }),
    /** Starts the e-mail/mobile change of a user: the server e-mails the user a link. */
    requestContactChange: (userId: string): Promise<{ id: string; expiresAt: string }> =>
      call<{ id: string; expiresAt: string }>('/api/contact-changes', { method: 'POST', body: { userId } }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
