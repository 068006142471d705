import { HSN_CODES } from '../../../domain/src/masters/reference-data/hsn-codes';
import { isApiError, newIdempotencyKey, type ApiClient } from '../api/client';
import type {
  FormOptions,
  HsnOption,
  InvoiceAttachment,
  InvoiceDetail,
  InvoiceFields,
  InvoiceFilter,
  InvoiceRow,
  MemoDetail,
} from './types';

export type Page<T> = { rows: T[]; total: number };

/** `invoices 0-9/23` → 23; a missing or unreadable header → the rows on the page. */
function totalOf(response: Response, fallback: number): number {
  const header = (response.headers as Headers | undefined)?.get?.('Content-Range') ?? '';
  const total = Number(/\/(\d+)$/.exec(header)?.[1]);
  return Number.isFinite(total) ? total : fallback;
}

const invoicePath = (id: string) => `/api/invoices/${encodeURIComponent(id)}`;
const memoPath = (id: string) => `/api/memos/${encodeURIComponent(id)}`;

/** The largest page the API serves (api/src/http/simple-rest.ts): memo candidates of one state pair fit. */
const MAX_PAGE = 100;

/** The BA's Bill-Hub calls (contract "HTTP API"), with the session; commands carry an Idempotency-Key. */
export function billHubApi(client: ApiClient) {
  const post = <T>(path: string, body: unknown = {}) =>
    client.call<T>(path, { method: 'POST', body, idempotencyKey: newIdempotencyKey() });

  async function list(filter: InvoiceFilter, page: number, perPage: number, sort: [string, 'ASC' | 'DESC'] = ['updatedAt', 'DESC']): Promise<Page<InvoiceRow>> {
    const start = page * perPage;
    const query = new URLSearchParams({
      filter: JSON.stringify(filter),
      sort: JSON.stringify(sort),
      range: JSON.stringify([start, start + perPage - 1]),
    });
    const response = await client.rawCall(`/api/invoices?${query.toString()}`);
    if (!response.ok) throw await client.errorOf(response);
    const rows = (await response.json()) as InvoiceRow[];
    return { rows, total: totalOf(response, rows.length) };
  }

  return {
    list,
    /** Invoices that may go into a memo of this state pair: S, A or V and in no memo (contract). */
    memoCandidates: async (fromStateId: number, toStateId: number) =>
      (await list({ memoCandidates: true, fromStateId, toStateId }, 0, MAX_PAGE, ['invoiceDate', 'ASC'])).rows,
    get: (id: string) => client.call<InvoiceDetail>(invoicePath(id)),
    formOptions: () => client.call<FormOptions>('/api/invoices/form-options'),
    create: (fields: Partial<InvoiceFields>) =>
      post<{ id: string; message: string; invoice: InvoiceRow }>('/api/invoices', fields),
    update: (id: string, fields: Partial<InvoiceFields>) =>
      client.call<{ message: string; invoice: InvoiceRow }>(invoicePath(id), { method: 'PUT', body: fields }),
    submit: (id: string, fields?: Partial<InvoiceFields>) =>
      post<{ message: string; invoice: InvoiceRow }>(`${invoicePath(id)}/submit`, fields ?? {}),
    revoke: (id: string, remarks: string) =>
      post<{ message: string; invoice: InvoiceRow }>(`${invoicePath(id)}/revoke`, remarks ? { remarks } : {}),
    discard: (id: string) => post<{ message: string }>(`${invoicePath(id)}/discard`),
    upload: (id: string, file: File) => {
      const form = new FormData();
      form.append('file', file);
      return client.call<{ message: string; attachment: InvoiceAttachment }>(`${invoicePath(id)}/attachments`, {
        method: 'POST',
        body: form,
      });
    },
    removeAttachment: (id: string, attachmentId: string) =>
      client.call<{ message: string }>(`${invoicePath(id)}/attachments/${encodeURIComponent(attachmentId)}`, {
        method: 'DELETE',
      }),
    attachment: (id: string, attachmentId: string) =>
      client.fileCall(`${invoicePath(id)}/attachments/${encodeURIComponent(attachmentId)}`),
    /**
     * The HSN select's list: the form options' when the API sends one, else the HSN master's active codes.
     * Bill-Hub-only users may not read the masters routes: for them the installed reference list stands in
     * (the API checks the code against the master anyway).
     */
    hsnCodes: async (options: FormOptions | null): Promise<HsnOption[]> => {
      if (options?.hsnCodes) return options.hsnCodes;
      try {
        const query = new URLSearchParams({ filter: JSON.stringify({ status: 'active' }), range: JSON.stringify([0, MAX_PAGE - 1]) });
        return await client.call<HsnOption[]>(`/api/hsn-codes?${query.toString()}`);
      } catch (e) {
        if (isApiError(e) && e.status === 401) throw e;
        return HSN_CODES.map(({ hsnCode, description }) => ({ hsnCode, description }));
      }
    },
    createMemo: (invoiceIds: string[], comments: string) =>
      post<{ id: string; memoNumber: string; message: string; memo: MemoDetail }>('/api/memos', {
        invoiceIds,
        ...(comments.trim() ? { comments: comments.trim() } : {}),
      }),
    memo: (id: string) => client.call<MemoDetail>(memoPath(id)),
    memoPdf: (id: string) => client.fileCall(`${memoPath(id)}/pdf`),
  };
}

export type BillHubApi = ReturnType<typeof billHubApi>;

/** "MEMO/1000/2026-27/000001" → "Memo-MEMO-1000-2026-27-000001.pdf" (contract: "/" as "-"). */
export const memoPdfName = (memoNumber: string) => `Memo-${memoNumber.replace(/\//g, '-')}.pdf`;
