import { fetchUtils, HttpError } from 'react-admin';
import type { Session } from '../shared/types';

/**
 * The console's only door to the API. The access token lives in memory only (never in storage a script
 * could read); the refresh token is an httpOnly cookie scoped to /api/auth that the browser sends itself.
 */
export const API_URL = '/api';

let session: Session | null = null;

export const sessionStore = {
  get: (): Session | null => session,
  set: (next: Session | null): void => {
    session = next;
  },
};

let refreshing: Promise<Session | null> | null = null;

/**
 * Asks the API for a new access token with the refresh cookie. Single-flight: a page that fires five
 * requests with an expired token makes one refresh call (the API rotates the cookie, so a second parallel
 * refresh would present an already-revoked token).
 */
export function refreshSession(): Promise<Session | null> {
  refreshing ??= (async () => {
    try {
      const res = await fetch(`${API_URL}/auth/refresh?app=console`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      });
      if (!res.ok) return null;
      const body = (await res.json()) as Session;
      session = { accessToken: body.accessToken, user: body.user };
      return session;
    } catch {
      return null;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** What fetchUtils.fetchJson resolves to. */
export type HttpResponse = { status: number; headers: Headers; body: string; json: any };

function withAuth(options: fetchUtils.Options): fetchUtils.Options {
  const headers = new Headers(options.headers ?? undefined);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (session) headers.set('Authorization', `Bearer ${session.accessToken}`);
  return { ...options, headers, credentials: 'same-origin' };
}

/** Spec 000 §8, code 1: the request got no answer at all. */
export const NO_RESPONSE_MESSAGE = 'Unexpected error occured';

/**
 * fetchJson with the bearer token. A 401 on an ordinary call usually means the short-lived access token
 * expired: refresh once and retry; only when that fails does the 401 reach react-admin, which logs out.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}): Promise<HttpResponse> {
  try {
    return await fetchUtils.fetchJson(url, withAuth(options));
  } catch (error) {
    if (error instanceof HttpError && error.status === 401 && !url.startsWith(`${API_URL}/auth/`)) {
      const renewed = await refreshSession();
      if (renewed) return fetchUtils.fetchJson(url, withAuth(options));
    }
    if (error instanceof TypeError) throw new HttpError(NO_RESPONSE_MESSAGE, 0, null);
    throw error;
  }
}

/**
 * The text to show for a failed request: the API's message, then each field error on its own line (the
 * error dialog preserves whitespace, spec 000 §2 "Shared interface behaviour").
 */
export function errorText(error: unknown): string {
  if (error instanceof HttpError || (error instanceof Error && 'body' in error)) {
    const body = (error as HttpError).body as { message?: unknown; errors?: Record<string, unknown> } | null;
    const message = typeof body?.message === 'string' && body.message ? body.message : error.message;
    const fieldLines = Object.entries(body?.errors ?? {}).map(([field, text]) => `${field}: ${String(text)}`);
    return [message, ...fieldLines].join('\n');
  }
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'There was a problem at our end';
}
