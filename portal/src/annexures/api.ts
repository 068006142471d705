import type { AnnexureRow } from '../../../projections/src/annexures/annexures.queries';
import type { ApiClient } from '../api/client';

/** One row of GET /api/annexures (type-only: erased from the bundle). */
export type Annexure = AnnexureRow;

/** Policy documents are few: one page of the API's maximum holds them all. */
const LIST_QUERY = `?${new URLSearchParams({ range: JSON.stringify([0, 99]) }).toString()}`;

/** The PO annexure calls (spec 001 §7: the annexure list and one file's bytes), with the session. */
export function annexuresApi(client: ApiClient) {
  return {
    list: (): Promise<Annexure[]> => client.call<Annexure[]>(`/api/annexures${LIST_QUERY}`),
    /** The file; `inline` asks for the preview form (Content-Disposition inline). */
    file: (id: Annexure['id'], { inline = false }: { inline?: boolean } = {}): Promise<Blob> =>
      client.fileCall(`/api/annexures/${encodeURIComponent(String(id))}/file${inline ? '?inline=1' : ''}`),
  };
}

export type AnnexuresApi = ReturnType<typeof annexuresApi>;
