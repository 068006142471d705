import { HttpError, type Identifier } from 'react-admin';
import { API_URL, httpClient, refreshSession, sessionStore } from '../providers/httpClient';
import type { MasterChange, MasterCount, MasterImportOutcome, MasterImportResult } from './types';

/**
 * The Masters calls beyond ra-data-simple-rest's CRUD (lists, reads, POST, PUT go through the generic
 * provider under the API's resource names). Spread into the console's data provider, like the audit calls.
 */
export type MasterDataProvider = {
  /** GET /api/masters/counts: active and inactive items per master (the Masters dashboard). */
  getMasterCounts(): Promise<MasterCount[]>;
  /** GET /api/<resource>/:id/events: who changed what and when, oldest first. */
  getMasterHistory(resource: string, id: Identifier): Promise<MasterChange[]>;
  /** GET /api/<resource>/export: the master as a workbook. */
  exportMaster(resource: string): Promise<{ blob: Blob; fileName: string }>;
  /** POST /api/<resource>/import (multipart `file`). */
  importMaster(resource: string, file: File): Promise<MasterImportOutcome>;
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const resourcePath = (resource: string) => `${API_URL}/${encodeURIComponent(resource)}`;

/**
 * fetch with the in-memory access token and one refresh on 401, for answers that are not JSON (workbooks)
 * or requests that are not (multipart); httpClient covers the JSON ones.
 */
async function authorisedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const attempt = () => {
    const headers = new Headers(init.headers ?? undefined);
    const session = sessionStore.get();
    if (session) headers.set('Authorization', `Bearer ${session.accessToken}`);
    return fetch(url, { ...init, headers, credentials: 'same-origin' });
  };
  let res = await attempt();
  if (res.status === 401 && (await refreshSession())) res = await attempt();
  return res;
}

/** An error answer as react-admin's HttpError with the API's message (problem+json), like every other call. */
async function failure(res: Response): Promise<HttpError> {
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  return new HttpError(body?.message || res.statusText || 'There was a problem at our end', res.status, body);
}

const fileNameOf = (res: Response, fallback: string): string =>
  /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallback;

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The counts answer as rows, whether the API sends a list of rows or an object keyed by master. */
export function toCounts(json: unknown): MasterCount[] {
  if (Array.isArray(json)) {
    return json.map((r: Record<string, unknown>) => ({
      master: String(r['master'] ?? r['resource'] ?? r['id']),
      active: count(r['active']),
      inactive: count(r['inactive']),
    }));
  }
  if (json && typeof json === 'object') {
    return Object.entries(json as Record<string, Record<string, unknown>>).map(([master, r]) => ({
      master,
      active: count(r?.['active']),
      inactive: count(r?.['inactive']),
    }));
  }
  return [];
}

type Actor = { userId?: string; name?: string; role?: string };

/** A stored event of the item's stream as GET /api/<resource>/:id/events answers it. */
type EventRow = {
  version?: number;
  eventId?: string;
  type: string;
  data?: Record<string, unknown> | null;
  actor?: Actor | null;
  /** When the change was decided (the command's time). */
  at?: string;
  recordedAt?: string;
  /** The raw stored form (actor and time inside the metadata), as the BA event history sends it. */
  metadata?: { actor?: Actor; at?: string } | null;
};

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A stored event of the item's stream as a row of the history table. */
export function toChange(row: EventRow, index: number): MasterChange {
  const data = record(row.data);
  const actor = row.actor ?? row.metadata?.actor;
  const base = {
    id: row.eventId ?? String(row.version ?? index),
    type: row.type,
    at: row.at ?? row.metadata?.at ?? row.recordedAt ?? '',
    who: actor?.name || actor?.userId || 'Unknown',
    role: actor?.role ?? null,
  };
  switch (row.type) {
    case 'MasterItemCreated':
      return { ...base, before: {}, after: record(data['values']) };
    case 'MasterItemChanged':
      return { ...base, before: record(data['before']), after: record(data['after']) };
    case 'MasterItemStatusChanged': {
      const status = data['status'];
      return {
        ...base,
        before: { status: status === 'active' ? 'inactive' : 'active' },
        after: { status },
      };
    }
    default:
      return { ...base, before: {}, after: {} };
  }
}

function toImportResult(json: unknown): MasterImportResult {
  const body = record(json);
  return {
    created: count(body['created']),
    updated: count(body['updated']),
    unchanged: count(body['unchanged']),
    message: typeof body['message'] === 'string' ? body['message'] : null,
  };
}

export const masterMethods: MasterDataProvider = {
  getMasterCounts: async () => toCounts((await httpClient(`${API_URL}/masters/counts`)).json),
  getMasterHistory: async (resource, id) => {
    const { json } = await httpClient(`${resourcePath(resource)}/${encodeURIComponent(String(id))}/events`);
    return (Array.isArray(json) ? (json as EventRow[]) : []).map(toChange);
  },
  exportMaster: async (resource) => {
    const res = await authorisedFetch(`${resourcePath(resource)}/export`);
    if (!res.ok) throw await failure(res);
    return { blob: await res.blob(), fileName: fileNameOf(res, `${resource}.xlsx`) };
  },
  importMaster: async (resource, file) => {
    const form = new FormData();
    form.append('file', file, file.name);
    const res = await authorisedFetch(`${resourcePath(resource)}/import`, {
      method: 'POST',
      body: form,
      headers: { Accept: `application/json, ${XLSX_TYPE}` },
    });
    const type = res.headers.get('content-type') ?? '';
    // 422 with a workbook: the rows with a column of messages. A 422 in JSON is a refusal like any other.
    if (res.status === 422 && !type.includes('json')) {
      return { ok: false, errorWorkbook: { blob: await res.blob(), fileName: fileNameOf(res, `${resource}-errors.xlsx`) } };
    }
    if (!res.ok) throw await failure(res);
    return { ok: true, result: toImportResult(await res.json().catch(() => ({}))) };
  },
};
