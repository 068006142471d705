import { HttpError } from 'react-admin';
import { NO_RESPONSE_MESSAGE, refreshSession, sessionStore } from '../providers/httpClient';

/**
 * fetch with the in-memory access token and one refresh on 401, for what httpClient (JSON only) cannot do:
 * multipart bodies and binary answers (templates, error workbooks). Shared by the SAP area's folders.
 */
export async function authorisedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const attempt = () => {
    const headers = new Headers(init.headers ?? undefined);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    const session = sessionStore.get();
    if (session) headers.set('Authorization', `Bearer ${session.accessToken}`);
    return fetch(url, { ...init, headers, credentials: 'same-origin' });
  };
  try {
    let res = await attempt();
    if (res.status === 401 && (await refreshSession())) res = await attempt();
    return res;
  } catch (error) {
    if (error instanceof TypeError) throw new HttpError(NO_RESPONSE_MESSAGE, 0, null);
    throw error;
  }
}

/** Spec 000 §8 "Binary error bodies are decoded as JSON first": the API's message, else the status text. */
export async function failure(res: Response): Promise<HttpError> {
  const text = await res.text().catch(() => '');
  let body: { message?: string } | null = null;
  try {
    body = text ? (JSON.parse(text) as { message?: string }) : null;
  } catch {
    body = null;
  }
  const fallback = res.status === 401 ? 'Session Timed out.Please login again' : 'There was a problem at our end';
  return new HttpError(body?.message || fallback, res.status, body);
}

/** The answer as JSON (an empty body as {}). */
export async function jsonOf<T>(res: Response): Promise<T> {
  const text = await res.text().catch(() => '');
  return (text ? JSON.parse(text) : {}) as T;
}

export const fileNameOf = (res: Response, fallback: string): string =>
  /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallback;

/** GET a file (a template, an attachment) as a Blob with its name from Content-Disposition. */
export async function downloadFile(url: string, fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
  const res = await authorisedFetch(url, { headers: { Accept: '*/*' } });
  if (!res.ok) throw await failure(res);
  return { blob: await res.blob(), fileName: fileNameOf(res, fallbackName) };
}
