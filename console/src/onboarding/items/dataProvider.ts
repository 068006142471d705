import { HttpError, type Identifier } from 'react-admin';
import { API_URL, httpClient, refreshSession, sessionStore } from '../../providers/httpClient';
import type { ActivityEntry } from '../../shared/types';
import type { ActivityLogQuery, BaItemPath, BaItemRows } from './types';

/**
 * The BA page's calls beyond react-admin's CRUD (issue 8): the BA's item reads, the item commands (review,
 * staff concession upload), file downloads and the paged activity log. Spread into the console's data provider
 * like the audit and masters calls, so tests replace them the same way.
 */
export type ItemDataProvider = {
  /** GET /api/business-associates/:id/<path>: one of the BA's item reads. */
  getBaItems<P extends BaItemPath>(baId: Identifier, path: P): Promise<BaItemRows[P]>;
  /**
   * POST /api/business-associates/:id/<path> with a JSON body (an item command: approve, reject, …). The
   * Idempotency-Key is chosen once per user action. Answers the API's JSON (the item's row, maybe a message).
   */
  baCommand(baId: Identifier, path: string, body: unknown, idempotencyKey: string): Promise<Record<string, unknown>>;
  /** POST multipart (a concession certificate uploaded by staff on the BA's behalf). */
  baUpload(baId: Identifier, path: string, form: FormData, idempotencyKey: string): Promise<Record<string, unknown>>;
  /** GET a stored file (…/documents/:docId/file, …/concessions/:id/file) as a Blob, with the bearer token. */
  getBaFile(baId: Identifier, path: string): Promise<Blob>;
  /** GET …/activity-log, newest first, one page with the filters; `total` from Content-Range. */
  getActivityLogPage(baId: Identifier, query: ActivityLogQuery): Promise<{ data: ActivityEntry[]; total: number }>;
};

export const baPath = (id: Identifier) => `${API_URL}/business-associates/${encodeURIComponent(String(id))}`;

/** Content-Range: activity-log 0-9/42 → 42; the page length when the header is missing. */
const totalOf = (headers: Headers, fallback: number): number => {
  const total = Number(headers.get('Content-Range')?.split('/').pop());
  return Number.isFinite(total) ? total : fallback;
};

/** fetch with the in-memory token and one refresh on 401: files are not JSON, so httpClient cannot read them. */
async function authorisedFetch(url: string): Promise<Response> {
  const attempt = () => {
    const headers = new Headers();
    const session = sessionStore.get();
    if (session) headers.set('Authorization', `Bearer ${session.accessToken}`);
    return fetch(url, { headers, credentials: 'same-origin' });
  };
  let res = await attempt();
  if (res.status === 401 && (await refreshSession())) res = await attempt();
  return res;
}

/** Drops empty filter values so the API sees only what the user set. */
const compact = (filter: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== null && v !== ''));

export const itemMethods: ItemDataProvider = {
  getBaItems: async (baId, path) => {
    const query = path === 'vertical-mapping' ? '' : `?${new URLSearchParams({ range: '[0,99]' })}`;
    return (await httpClient(`${baPath(baId)}/${path}${query}`)).json as never;
  },
  baCommand: async (baId, path, body, idempotencyKey) => {
    const { json } = await httpClient(`${baPath(baId)}/${path}`, {
      method: 'POST',
      body: JSON.stringify(body ?? {}),
      headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
    });
    return (json ?? {}) as Record<string, unknown>;
  },
  baUpload: async (baId, path, form, idempotencyKey) => {
    const { json } = await httpClient(`${baPath(baId)}/${path}`, {
      method: 'POST',
      body: form,
      headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
    });
    return (json ?? {}) as Record<string, unknown>;
  },
  getBaFile: async (baId, path) => {
    const res = await authorisedFetch(`${baPath(baId)}/${path}`);
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      throw new HttpError(body?.message || 'The file could not be opened', res.status, body);
    }
    return res.blob();
  },
  getActivityLogPage: async (baId, { filter, page, perPage }) => {
    const query = new URLSearchParams({
      filter: JSON.stringify(compact(filter)),
      sort: JSON.stringify(['id', 'DESC']),
      range: JSON.stringify([page * perPage, page * perPage + perPage - 1]),
    });
    const { json, headers } = await httpClient(`${baPath(baId)}/activity-log?${query}`);
    const data = Array.isArray(json) ? (json as ActivityEntry[]) : [];
    return { data, total: totalOf(headers, data.length) };
  },
};
