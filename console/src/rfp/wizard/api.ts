import type { SuggestedBa } from '../../../../api/src/rfp/suggested-bas';
import type { Opportunity } from '../../../../domain/src/crm/port';
import { rfpFileNames } from '../../../../domain/src/rfp/messages';
import type { RfpStepNumber } from '../../../../domain/src/rfp/model';
import { API_URL, httpClient } from '../../providers/httpClient';
import { authorisedFetch, downloadFile, failure, jsonOf } from '../../vendor-code/http';
import type { RfpCommandAnswer, RfpStaffView } from '../types';

/** The wizard's calls (api/src/rfp/routes.ts, file-routes.ts, api/src/opportunities/routes.ts). */
const rfpsPath = `${API_URL}/rfps`;
const rfpPath = (code: string) => `${rfpsPath}/${encodeURIComponent(code)}`;
const withKey = (idempotencyKey: string) => new Headers({ 'Idempotency-Key': idempotencyKey });

/** GET /api/opportunities/:id: an id the CRM does not know is refused with the CRM's own message. */
export async function lookupOpportunity(id: string): Promise<Opportunity> {
  return (await httpClient(`${API_URL}/opportunities/${encodeURIComponent(id.trim())}`)).json as Opportunity;
}

/** POST /api/rfps: a new draft from step 1 (the server looks the opportunity up again). */
export async function createRfp(body: Record<string, unknown>, idempotencyKey: string): Promise<RfpCommandAnswer> {
  const { json } = await httpClient(rfpsPath, { method: 'POST', body: JSON.stringify(body), headers: withKey(idempotencyKey) });
  return json as RfpCommandAnswer;
}

/** PUT /api/rfps/:code/steps/:n. */
export async function saveRfpStep(code: string, step: RfpStepNumber, body: unknown, idempotencyKey: string): Promise<RfpCommandAnswer> {
  const { json } = await httpClient(`${rfpPath(code)}/steps/${step}`, {
    method: 'PUT',
    body: JSON.stringify(body),
    headers: withKey(idempotencyKey),
  });
  return json as RfpCommandAnswer;
}

/** GET /api/rfps/:code/template: the empty lane template ("RFP Template_-{customer}-{date}.xlsx"). */
export const downloadLaneTemplate = (code: string, customerName: string) =>
  downloadFile(`${rfpPath(code)}/template`, rfpFileNames.rfpTemplate(customerName, new Date()));

/** A lane upload's outcome: the lanes taken, or the API's error workbook with its first message. */
export type LaneUploadOutcome =
  | { ok: true; message: string; lanes: number; rfp: RfpCommandAnswer }
  | { ok: false; message: string; workbook: Blob; fileName: string };

/** Shown when a refused sheet comes without a reason header (the spec gives no text). */
export const LANE_UPLOAD_REFUSED = 'Some rows of the sheet need correcting: download the error file, correct it and upload it again';

/** POST /api/rfps/:code/lanes/upload (multipart `file`); a 400 carrying a workbook is the error workbook. */
export async function uploadLanes(code: string, file: File, idempotencyKey: string): Promise<LaneUploadOutcome> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await authorisedFetch(`${rfpPath(code)}/lanes/upload`, { method: 'POST', body: form, headers: { 'Idempotency-Key': idempotencyKey } });
  if (res.ok) {
    const answer = await jsonOf<{ message: string; lanes: number; rfp: RfpCommandAnswer }>(res);
    return { ok: true, message: answer.message, lanes: answer.lanes, rfp: answer.rfp };
  }
  const type = res.headers.get('Content-Type') ?? '';
  if (res.status !== 400 || !type.includes('spreadsheetml')) throw await failure(res);
  const reason = res.headers.get('X-Upload-Error');
  return {
    ok: false,
    message: reason ? decodeURIComponent(reason) : LANE_UPLOAD_REFUSED,
    workbook: await res.blob(),
    fileName: rfpFileNames.rfpTemplateErrors(code),
  };
}

/** GET /api/rfps/:code/suggested-bas: the BAs the portal suggests for the RFP (api/src/rfp/suggested-bas.ts). */
export async function fetchSuggestedBas(code: string): Promise<SuggestedBa[]> {
  return ((await httpClient(`${rfpPath(code)}/suggested-bas`)).json as { bas: SuggestedBa[] }).bas;
}
export type { SuggestedBa };

export type FloatBody = { baIds: string[]; comments: string; floatToAll: boolean };

/** POST /api/rfps/:code/float: `{message, rfp}`. */
export async function floatRfp(code: string, body: FloatBody, idempotencyKey: string): Promise<{ message: string; rfp: RfpCommandAnswer }> {
  const { json } = await httpClient(`${rfpPath(code)}/float`, { method: 'POST', body: JSON.stringify(body), headers: withKey(idempotencyKey) });
  return json as { message: string; rfp: RfpCommandAnswer };
}

/** A command's answer is the RFP as staff see it, unless the read model had not caught up. */
export const isStaffView = (answer: RfpCommandAnswer | undefined): answer is RfpStaffView =>
  answer !== undefined && 'wizard' in answer;
