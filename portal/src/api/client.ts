import { v4 as uuidv4 } from 'uuid';
import type {
  BusinessAssociate,
  City,
  CompanyDetails,
  Me,
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
export type { BaStatus, BusinessAssociate, Me } from '../../../api/src/contract';

/** The session the portal keeps in memory: the login answer without its lifetime. */
export type Session = Pick<SessionResponse, 'accessToken' | 'user'>;

/** The reference lists as the forms use them. */
export type StateOption = Pick<State, 'id' | 'name'>;
export type CityOption = Pick<City, 'id' | 'name' | 'stateId'>;
export type ServiceOption = Pick<Service, 'id' | 'name'>;

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

  constructor(status: number, message: string, fieldErrors: Record<string, string> = {}, code?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.code = code;
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
  method?: 'GET' | 'POST';
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

export function createApiClient(options: ApiClientOptions = {}) {
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const baseUrl = options.baseUrl ?? '';
  let accessToken: string | null = null;
  let refreshing: Promise<Session | null> | null = null;
  const expiredListeners = new Set<Listener>();

  async function errorFrom(response: Response): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    if (text.trim() === '') return new ApiError(response.status, errorTexts.emptyBody, {}, 2);
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
    if (serverMessage !== null) return new ApiError(response.status, serverMessage, errors);
    if (response.status === 401) return new ApiError(401, errorTexts.sessionTimedOut, errors);
    return new ApiError(response.status, errorTexts.ourEnd, errors, 3);
  }

  async function send(path: string, opts: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
    if (opts.authenticated && accessToken) headers['Authorization'] = `Bearer ${accessToken}`;
    try {
      return await doFetch(`${baseUrl}${path}`, {
        method: opts.method ?? 'GET',
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
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

  /** An authenticated call; on 401 it refreshes the access token once and retries with the same key. */
  async function call<T>(path: string, opts: Omit<RequestOptions, 'authenticated'> = {}): Promise<T> {
    const request = { ...opts, authenticated: true };
    let response = await send(path, request);
    if (response.status === 401) {
      const renewed = await refresh().catch(() => null);
      if (!renewed) sessionExpired();
      response = await send(path, request);
      if (response.status === 401) sessionExpired();
    }
    if (!response.ok) throw await errorFrom(response);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  async function sessionCall(path: string, body?: unknown): Promise<Session> {
    const response = await send(path, { method: 'POST', body });
    if (!response.ok) throw await errorFrom(response);
    const session = (await response.json()) as Session;
    accessToken = session.accessToken;
    return session;
  }

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
    login: (username: string, password: string): Promise<Session> =>
      sessionCall('/api/auth/login', { username, password }),
    refresh,
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
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
