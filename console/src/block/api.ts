import { blockMessages } from '../../../domain/src/block/decide';
import { API_URL, httpClient } from '../providers/httpClient';
import { authorisedFetch, downloadFile, failure, jsonOf } from '../vendor-code/http';
import type { BlockRow } from '../vendor-code/types';

/** Spec 000 §8 / §4 texts (the API sends them as `message`; these are the fallbacks). */
export const BLOCK_MESSAGES = {
  requested: blockMessages.requested,
  blocked: blockMessages.blocked,
  unblocked: blockMessages.unblocked,
  rejected: blockMessages.rejected,
} as const;

export type BlockRequestInput = {
  target: { baId: string } | { pan: string };
  action: 'block' | 'unblock';
  scope: 'parent' | 'child';
  companyCode: string;
  childCode?: string | null;
  reasonId: string;
  comments: string;
  endDate?: string | null;
  file: File;
};

/** POST /api/blocks (multipart; fields first, the file last, as the API streams them). */
export async function requestBlock(
  input: BlockRequestInput,
  idempotencyKey: string,
): Promise<{ id: string; status: string; message: string }> {
  const form = new FormData();
  if ('baId' in input.target) form.append('baId', input.target.baId);
  else form.append('pan', input.target.pan);
  form.append('action', input.action);
  form.append('scope', input.scope);
  form.append('companyCode', input.companyCode);
  if (input.scope === 'child' && input.childCode) form.append('childCode', input.childCode);
  form.append('reasonId', input.reasonId);
  form.append('comments', input.comments);
  if (input.action === 'block' && input.endDate) form.append('endDate', input.endDate);
  form.append('file', input.file, input.file.name);
  const res = await authorisedFetch(`${API_URL}/blocks`, {
    method: 'POST',
    body: form,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  if (!res.ok) throw await failure(res);
  return jsonOf(res);
}

const blockPath = (id: string) => `${API_URL}/blocks/${encodeURIComponent(id)}`;

/** POST /api/blocks/:id/approve → 200 applied ("Successfully Blocked") or 202 still waiting for the ERP. */
export async function approveBlock(id: string, idempotencyKey: string): Promise<{ message: string; block?: BlockRow }> {
  const { json } = await httpClient(`${blockPath(id)}/approve`, {
    method: 'POST',
    body: '{}',
    headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
  });
  return (json ?? {}) as { message: string; block?: BlockRow };
}

/** POST /api/blocks/:id/reject {remarks}. */
export async function rejectBlock(
  id: string,
  remarks: string,
  idempotencyKey: string,
): Promise<{ message?: string; block?: BlockRow }> {
  const { json } = await httpClient(`${blockPath(id)}/reject`, {
    method: 'POST',
    body: JSON.stringify({ remarks }),
    headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
  });
  return (json ?? {}) as { message?: string; block?: BlockRow };
}

/** GET /api/blocks/:id/file: the request's attachment. */
export const fetchBlockFile = (row: Pick<BlockRow, 'id' | 'fileName'>) =>
  downloadFile(`${blockPath(row.id)}/file`, row.fileName ?? 'attachment');
