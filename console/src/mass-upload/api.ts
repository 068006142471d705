import { API_URL } from '../providers/httpClient';
import { authorisedFetch, downloadFile, failure, fileNameOf, jsonOf } from '../vendor-code/http';
import type { MassUploadKind, MassUploadProgress, MassUploadSummary } from '../vendor-code/types';

/** Spec 000 §7 file names. */
export const MASS_UPLOAD_FILES: Record<MassUploadKind, { template: string; errors: string; label: string }> = {
  nucleus: {
    template: 'Nucleus-Mass-Upload-Template.xlsx',
    errors: 'Nucleus-Mass-Upload-Error.xlsx',
    label: 'Nucleus Mass Upload',
  },
  'sap-verified': {
    template: 'SAP-Verified-Mass-Upload-Template.xlsx',
    errors: 'SAP-Verified-Mass-Upload-Error.xlsx',
    label: 'SAP Verified Mass Upload',
  },
};

/** Spec 000 §8 (verbatim, spelling included). */
export const MASS_UPLOAD_MESSAGES = {
  errorsInFile: 'Some Errors occured with uploaded data. Please check downlaoded file for errors',
  uploaded: 'File uploaded successfully',
  onlyExcel: 'Please Select Only xlsx or xls File',
} as const;

export type MassUploadOutcome =
  | { kind: 'done'; summary: MassUploadSummary }
  | { kind: 'errors'; blob: Blob; fileName: string }
  | { kind: 'accepted'; uploadId: string };

/** GET /api/mass-uploads/templates/:kind. */
export const downloadMassUploadTemplate = (kind: MassUploadKind) =>
  downloadFile(`${API_URL}/mass-uploads/templates/${kind}`, MASS_UPLOAD_FILES[kind].template);

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * POST /api/mass-uploads?kind= (multipart `file`). 200: the summary; 201: every row was checked and some failed —
 * the body is the error workbook and nothing was written; 202: a long upload runs on, its progress at
 * GET /api/mass-uploads/:uploadId. Anything else throws with the API's message (415: code 101 "Please Select
 * Only xlsx or xls File").
 */
export async function uploadMassUpload(kind: MassUploadKind, file: File, idempotencyKey: string): Promise<MassUploadOutcome> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await authorisedFetch(`${API_URL}/mass-uploads?${new URLSearchParams({ kind })}`, {
    method: 'POST',
    body: form,
    headers: { Accept: `application/json, ${XLSX}`, 'Idempotency-Key': idempotencyKey },
  });
  if (res.status === 201) {
    return { kind: 'errors', blob: await res.blob(), fileName: fileNameOf(res, MASS_UPLOAD_FILES[kind].errors) };
  }
  if (res.status === 202) {
    const body = await jsonOf<{ uploadId: string }>(res);
    return { kind: 'accepted', uploadId: body.uploadId };
  }
  if (!res.ok) throw await failure(res);
  return { kind: 'done', summary: await jsonOf<MassUploadSummary>(res) };
}

/** GET /api/mass-uploads/:uploadId. */
export async function fetchMassUploadProgress(uploadId: string): Promise<MassUploadProgress> {
  const res = await authorisedFetch(`${API_URL}/mass-uploads/${encodeURIComponent(uploadId)}`);
  if (!res.ok) throw await failure(res);
  return jsonOf<MassUploadProgress>(res);
}
