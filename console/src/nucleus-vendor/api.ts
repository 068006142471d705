import { API_URL, httpClient } from '../providers/httpClient';
import type { NucleusVendorDetail, VendorCodeHistoryEntry } from '../vendor-code/types';

type DetailAnswer = NucleusVendorDetail & { events?: unknown; history?: unknown };

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** An event of the vendor's stream, whether the API sends it as an activity entry or as a stored event. */
function toEntry(raw: Record<string, unknown>, index: number): VendorCodeHistoryEntry {
  const metadata = (raw['metadata'] ?? {}) as { actor?: { name?: string; userId?: string }; at?: string };
  return {
    id: (raw['id'] as string | undefined) ?? (raw['eventId'] as string | undefined) ?? index,
    time: str(raw['time']) ?? str(raw['at']) ?? str(metadata.at) ?? str(raw['recordedAt']) ?? '',
    actor: str(raw['actor']) ?? metadata.actor?.name ?? metadata.actor?.userId ?? null,
    what: str(raw['what']) ?? str(raw['type']) ?? 'Change',
    detail: str(raw['detail']),
  };
}

/** GET /api/nucleus-vendors/:pan → the row and its stream's events as history. */
export async function fetchNucleusVendor(pan: string): Promise<NucleusVendorDetail> {
  const { json } = await httpClient(`${API_URL}/nucleus-vendors/${encodeURIComponent(pan)}`);
  const body = json as DetailAnswer;
  const events = Array.isArray(body.history) ? body.history : Array.isArray(body.events) ? body.events : [];
  return {
    ...body,
    id: body.id ?? body.pan,
    history: (events as Record<string, unknown>[]).map(toEntry),
  };
}
