import { API_URL, httpClient } from '../providers/httpClient';
import type { VendorCodeCounts, VendorCodeHistoryEntry, VendorCodeRow } from './types';

/** The vendor-code commands under POST /api/business-associates/:id/vendor-codes/<verb>. */
export type VendorCodeVerb =
  | 'request-parent'
  | 'request-child'
  | 'payment-terms'
  | 'vendor-category'
  | 'recon-account'
  | 'withholding-tax'
  | 'reject';

/** Spec 000 §8 success text of request-parent (the API sends it too). */
export const SAP_CODE_REQUESTED = 'SAP Code requested successfully.';

/** GET /api/vendor-codes/counts: the dashboard's tab badges and the sidebar's Nucleus Vendor Codes badge. */
export async function fetchVendorCodeCounts(): Promise<VendorCodeCounts> {
  return (await httpClient(`${API_URL}/vendor-codes/counts`)).json as VendorCodeCounts;
}

const codePath = (id: string) => `${API_URL}/vendor-codes/${encodeURIComponent(id)}`;

/** GET /api/vendor-codes/:id/history: the stream's events as activity entries, newest first. */
export async function fetchVendorCodeHistory(id: string): Promise<VendorCodeHistoryEntry[]> {
  const { json } = await httpClient(`${codePath(id)}/history`);
  return Array.isArray(json) ? (json as RawHistoryEntry[]).map(toHistoryEntry) : [];
}

/** An entry as the API sends it: the actor may come as a name or as `{userId, name, role}`. */
type RawHistoryEntry = Omit<VendorCodeHistoryEntry, 'actor'> & {
  actor?: string | { userId?: string; name?: string | null; role?: string } | null;
  at?: string;
};

export function toHistoryEntry(raw: RawHistoryEntry): VendorCodeHistoryEntry {
  const actor = raw.actor;
  return {
    id: raw.id,
    time: raw.time ?? raw.at ?? '',
    actor: typeof actor === 'string' ? actor : (actor?.name ?? actor?.userId ?? null),
    what: typeof raw.what === 'string' ? raw.what : String(raw.what ?? ''),
    detail: typeof raw.detail === 'string' ? raw.detail : raw.detail == null ? null : String(raw.detail),
  };
}

/** One BA's rows (one per company code in the caller's scope): GET /api/vendor-codes?filter={baId}. */
export async function fetchVendorCodesOfBa(baId: string): Promise<VendorCodeRow[]> {
  const query = new URLSearchParams({
    filter: JSON.stringify({ tab: 'all', baId }),
    range: JSON.stringify([0, 49]),
    sort: JSON.stringify(['updatedAt', 'DESC']),
  });
  const { json } = await httpClient(`${API_URL}/vendor-codes?${query}`);
  const rows = Array.isArray(json) ? (json as VendorCodeRow[]) : [];
  // The API sorts by updatedAt, requestedAt, companyName or status: company codes are ordered here.
  return [...rows].sort((a, b) => a.companyCode.localeCompare(b.companyCode));
}
