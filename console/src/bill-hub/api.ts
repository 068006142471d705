import { API_URL, httpClient } from '../providers/httpClient';
import { downloadFile } from '../vendor-code/http';
import { memoPdfName, type StaffAction } from './labels';
import type { InvoiceAttachment, InvoiceRow, MemoRow } from './types';

/**
 * The Bill-Hub calls beyond simple-rest (api/src/invoices/commands.ts, api/src/memos): commands carry one
 * Idempotency-Key per user action; files are fetched with the session's token (a plain link cannot send it).
 */
export const INVOICES_RESOURCE = 'invoices';
export const MEMOS_RESOURCE = 'memos';

const invoicePath = (id: string) => `${API_URL}/invoices/${encodeURIComponent(id)}`;
const memoPath = (id: string) => `${API_URL}/memos/${encodeURIComponent(id)}`;

export type CommandAnswer = { status: number; message?: string; invoice?: InvoiceRow };

/** POST /api/invoices/:id/<verb>; the status matters to book (200 booked, 202 waiting for the ERP). */
export async function invoiceCommand(
  id: string,
  verb: StaffAction,
  body: Record<string, unknown>,
  idempotencyKey: string,
): Promise<CommandAnswer> {
  const { status, json } = await httpClient(`${invoicePath(id)}/${verb}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
  });
  return { status, ...((json ?? {}) as { message?: string; invoice?: InvoiceRow }) };
}

export type AdvanceInput = { amount: string; reference: string; paidOn: string };

/** POST /api/memos/:id/advances (INVOICE_ACCOUNTS). */
export async function recordAdvance(memoId: string, input: AdvanceInput, idempotencyKey: string): Promise<{ message?: string; memo?: MemoRow }> {
  const { json } = await httpClient(`${memoPath(memoId)}/advances`, {
    method: 'POST',
    body: JSON.stringify(input),
    headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
  });
  return (json ?? {}) as { message?: string; memo?: MemoRow };
}

/** GET /api/invoices/:id/attachments/:attachmentId (inline: to view in the browser rather than save). */
export function fetchAttachment(invoiceId: string, attachment: InvoiceAttachment, inline = false) {
  const url = `${invoicePath(invoiceId)}/attachments/${encodeURIComponent(attachment.attachmentId)}${inline ? '?inline=1' : ''}`;
  return downloadFile(url, attachment.name);
}

/** GET /api/memos/:id/pdf, named by Content-Disposition, else "Memo-<number>.pdf". */
export function fetchMemoPdf(memo: Pick<MemoRow, 'id' | 'memoNumber'>) {
  return downloadFile(`${memoPath(memo.id)}/pdf`, memoPdfName(memo.memoNumber));
}
