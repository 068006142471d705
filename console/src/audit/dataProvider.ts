import { HttpError, type Identifier } from 'react-admin';
import { API_URL, httpClient, refreshSession, sessionStore } from '../providers/httpClient';
import type { AuditExportFormat, BaAsOf, ChainVerification } from './types';

/**
 * The auditors' calls beyond ra-data-simple-rest's reads (the search is a plain list: resource
 * `audit/activity`). Spread into the console's data provider.
 */
export type AuditDataProvider = {
  /** GET /api/business-associates/:id/as-of?at=ISO. */
  getBaAsOf(baId: Identifier, at: string): Promise<BaAsOf>;
  /** POST /api/audit/verify. */
  verifyChain(): Promise<ChainVerification>;
  /** GET /api/business-associates/:id/audit-export?format=…: the file and the name the API gives it. */
  getAuditExport(baId: Identifier, format: AuditExportFormat): Promise<{ blob: Blob; fileName: string }>;
};

const baPath = (id: Identifier) => `${API_URL}/business-associates/${encodeURIComponent(String(id))}`;

/**
 * A file download with the in-memory access token: httpClient parses JSON, so this is a plain fetch with the
 * same token and the same one refresh on 401. An error answer becomes react-admin's HttpError with the
 * API's message, as every other call's.
 */
async function fetchFile(url: string, fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
  const attempt = () => {
    const session = sessionStore.get();
    const headers = new Headers();
    if (session) headers.set('Authorization', `Bearer ${session.accessToken}`);
    return fetch(url, { headers, credentials: 'same-origin' });
  };
  let res = await attempt();
  if (res.status === 401 && (await refreshSession())) res = await attempt();
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new HttpError(body?.message ?? res.statusText, res.status, body);
  }
  const named = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  return { blob: await res.blob(), fileName: named ?? fallbackName };
}

export const auditMethods: AuditDataProvider = {
  getBaAsOf: async (baId, at) =>
    (await httpClient(`${baPath(baId)}/as-of?${new URLSearchParams({ at })}`)).json as BaAsOf,
  verifyChain: async () => (await httpClient(`${API_URL}/audit/verify`, { method: 'POST', body: '{}' })).json as ChainVerification,
  getAuditExport: (baId, format) =>
    fetchFile(`${baPath(baId)}/audit-export?${new URLSearchParams({ format })}`, `BA-${String(baId)}-audit.${format}`),
};
