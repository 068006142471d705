import { API_URL } from '../providers/httpClient';
import { HttpError } from 'react-admin';
import { authorisedFetch, downloadFile } from '../vendor-code/http';
import type {
  WorkbookKind,
  WorkbookPreviewRow,
  WorkbookResult,
  WorkbookValidationError,
} from '../vendor-code/types';

/** Spec 000 §2 "Vendor-code upload screens" and §7 file names, per kind. */
export const WORKBOOK_SCREENS: Record<WorkbookKind, { title: string; resultTitle: string; template: string }> = {
  utility: {
    title: 'Utility/Government Vendor Code Creation',
    resultTitle: 'Utility Vendor Message',
    template: 'Utility-Vendor-Code-Template.xlsx',
  },
  'other-company': {
    title: 'Other Company Vendor Code Creation',
    resultTitle: 'Vendor Code Validation message',
    template: 'External-Vendor-Code-Template.xlsx',
  },
};

export const WORKBOOK_TEXTS = {
  empty: 'Please click on upload button to upload the downloaded template',
  validationError: 'Validation Error',
  uploaded: 'File Uploaded successfully',
  onlyExcel: 'Please Select Only xlsx or xls File',
} as const;

/** How the result dialog shows MSGTYPE (spec 000 §2): S → SUCCESS, empty → INVALID CODE, anything else → ERROR. */
export function msgTypeLabel(value: string | null | undefined): string {
  const v = (value ?? '').trim();
  if (v === '') return 'INVALID CODE';
  return v === 'S' ? 'SUCCESS' : 'ERROR';
}

/** VEN_CODE, or "-" when empty. */
export const venCodeLabel = (value: string | null | undefined): string => ((value ?? '').trim() === '' ? '-' : String(value));

export type ValidateOutcome =
  | { ok: true; rows: WorkbookPreviewRow[] }
  | { ok: false; errors: WorkbookValidationError[]; message: string };

export type SubmitOutcome =
  | { kind: 'result'; result: WorkbookResult }
  | { kind: 'invalid'; errors: WorkbookValidationError[]; message: string }
  | { kind: 'accepted'; id: string };

/** GET /api/vendor-code-workbooks/templates/:kind. */
export const downloadWorkbookTemplate = (kind: WorkbookKind) =>
  downloadFile(`${API_URL}/vendor-code-workbooks/templates/${kind}`, WORKBOOK_SCREENS[kind].template);

const formOf = (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
};

type Body = { message?: string; errors?: unknown } & Record<string, unknown>;
const isValidationBody = (b: Body): b is Body & { errors: WorkbookValidationError[] } => Array.isArray(b.errors);

/** The answer's status and JSON body (spec 000 §8: bodies are read as JSON; none → {}). */
async function answerOf(res: Response): Promise<{ status: number; body: Body }> {
  const text = await res.text().catch(() => '');
  try {
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Body };
  } catch {
    return { status: res.status, body: {} };
  }
}

/** A refusal with the server's message and the response status (spec 000 §4 "Any other outcome"). */
const refusal = (status: number, body: Body) =>
  new HttpError(
    typeof body.message === 'string' && body.message ? body.message : 'There was a problem at our end',
    status,
    body,
  );

/** POST …/validate?kind=: 400 with the rows' errors, or 200 with the rows for the paged preview. */
export async function validateWorkbook(kind: WorkbookKind, file: File): Promise<ValidateOutcome> {
  const res = await authorisedFetch(`${API_URL}/vendor-code-workbooks/validate?${new URLSearchParams({ kind })}`, {
    method: 'POST',
    body: formOf(file),
  });
  const { status, body } = await answerOf(res);
  if (status === 400 && isValidationBody(body)) {
    return { ok: false, errors: body.errors, message: body.message ?? WORKBOOK_TEXTS.validationError };
  }
  if (status < 200 || status >= 300) throw refusal(status, body);
  return { ok: true, rows: Array.isArray(body['rows']) ? (body['rows'] as WorkbookPreviewRow[]) : [] };
}

/** POST /api/vendor-code-workbooks?kind=: the ERP's answer per row, a 400 like validate's, or 202 with an id to poll. */
export async function submitWorkbook(kind: WorkbookKind, file: File, idempotencyKey: string): Promise<SubmitOutcome> {
  const res = await authorisedFetch(`${API_URL}/vendor-code-workbooks?${new URLSearchParams({ kind })}`, {
    method: 'POST',
    body: formOf(file),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  const { status, body } = await answerOf(res);
  if (status === 400 && isValidationBody(body)) {
    return { kind: 'invalid', errors: body.errors, message: body.message ?? WORKBOOK_TEXTS.validationError };
  }
  if (status === 202) return { kind: 'accepted', id: String(body['id']) };
  if (status < 200 || status >= 300) throw refusal(status, body);
  return { kind: 'result', result: body as unknown as WorkbookResult };
}

/** GET /api/vendor-code-workbooks/:id: 202 while the ERP is still answering (null), then the result. */
export async function fetchWorkbookResult(id: string): Promise<WorkbookResult | null> {
  const res = await authorisedFetch(`${API_URL}/vendor-code-workbooks/${encodeURIComponent(id)}`);
  const { status, body } = await answerOf(res);
  if (status === 202) return null;
  if (status < 200 || status >= 300) throw refusal(status, body);
  if (!body['status'] || !Array.isArray(body['data'])) return null;
  return body as unknown as WorkbookResult;
}
