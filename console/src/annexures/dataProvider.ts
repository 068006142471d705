import { HttpError, type Identifier } from 'react-admin';
import { API_URL, httpClient, NO_RESPONSE_MESSAGE, refreshSession, sessionStore } from '../providers/httpClient';
import type { AnnexureRow } from './types';

/**
 * The PO annexure commands (spread into the console's data provider). Reads are ra-data-simple-rest's
 * (`annexures`); writes are multipart, sent with XMLHttpRequest because fetch reports no upload progress and a
 * 20 MB policy document on a slow line needs a progress bar (design.md §7).
 */
export type UploadProgress = (fraction: number) => void;

export type AnnexureUpload = { title: string; file: File; idempotencyKey: string; onProgress?: UploadProgress };
/** A new title, a new file, or both. */
export type AnnexureReplacement = {
  title?: string;
  file?: File | null;
  idempotencyKey: string;
  onProgress?: UploadProgress;
};

export type AnnexureDataProvider = {
  /** POST /api/annexures (multipart `title`, `file`). */
  uploadAnnexure(params: AnnexureUpload): Promise<{ data: AnnexureRow }>;
  /** PUT /api/annexures/:id (multipart `title` and/or `file`). */
  replaceAnnexure(id: Identifier, params: AnnexureReplacement): Promise<{ data: AnnexureRow }>;
  /** POST /api/annexures/:id/withdraw: BAs no longer see it. */
  withdrawAnnexure(id: Identifier, params: { idempotencyKey: string }): Promise<{ data: { id: Identifier } }>;
};

/** What the user reads when the API's answer carries no message of its own. */
export const annexureErrorTexts = {
  tooLarge: 'The file is too large to upload',
  wrongType: 'Invalid file type selected',
  sessionTimedOut: 'Session Timed out.Please login again',
  ourEnd: 'There was a problem at our end',
} as const;

const FALLBACK: Record<number, string> = {
  401: annexureErrorTexts.sessionTimedOut,
  413: annexureErrorTexts.tooLarge,
  415: annexureErrorTexts.wrongType,
};

type Answer = { status: number; text: string };

function sendOnce(method: 'POST' | 'PUT', url: string, body: FormData, key: string, onProgress?: UploadProgress) {
  return new Promise<Answer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Idempotency-Key', key);
    const session = sessionStore.get();
    if (session) xhr.setRequestHeader('Authorization', `Bearer ${session.accessToken}`);
    if (onProgress) {
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
    }
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    // The server may answer 413 and close before the browser has sent everything: some browsers report
    // that as a network error, with no status to show.
    xhr.onerror = () => reject(new HttpError(NO_RESPONSE_MESSAGE, 0, null));
    xhr.send(body);
  });
}

const parse = (text: string): unknown => {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
};

/**
 * One multipart request with the in-memory access token; a 401 (the 15-minute token ran out while the user
 * filled the form) refreshes the session once and sends again, as httpClient does for JSON calls.
 */
export async function sendMultipart(
  method: 'POST' | 'PUT',
  url: string,
  form: FormData,
  key: string,
  onProgress?: UploadProgress,
): Promise<unknown> {
  let answer = await sendOnce(method, url, form, key, onProgress);
  if (answer.status === 401 && (await refreshSession())) answer = await sendOnce(method, url, form, key, onProgress);
  const body = parse(answer.text);
  if (answer.status < 200 || answer.status >= 300) {
    const message = (body as { message?: unknown } | null)?.message;
    throw new HttpError(
      typeof message === 'string' && message ? message : (FALLBACK[answer.status] ?? annexureErrorTexts.ourEnd),
      answer.status,
      body,
    );
  }
  return body;
}

const annexurePath = (id: Identifier) => `${API_URL}/annexures/${encodeURIComponent(String(id))}`;

export const annexureMethods: AnnexureDataProvider = {
  uploadAnnexure: async ({ title, file, idempotencyKey, onProgress }) => {
    const form = new FormData();
    // Fields before the file: the API reads the stream in order and knows the title before the bytes arrive.
    form.append('title', title);
    form.append('file', file, file.name);
    const json = await sendMultipart('POST', `${API_URL}/annexures`, form, idempotencyKey, onProgress);
    return { data: json as AnnexureRow };
  },
  replaceAnnexure: async (id, { title, file, idempotencyKey, onProgress }) => {
    const form = new FormData();
    if (title !== undefined) form.append('title', title);
    if (file) form.append('file', file, file.name);
    const json = await sendMultipart('PUT', annexurePath(id), form, idempotencyKey, onProgress);
    return { data: { ...(json as AnnexureRow | null), id } as AnnexureRow };
  },
  withdrawAnnexure: async (id, { idempotencyKey }) => {
    await httpClient(`${annexurePath(id)}/withdraw`, {
      method: 'POST',
      body: '{}',
      headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
    });
    return { data: { id } };
  },
};
