import { rfpFileNames } from '../../../domain/src/rfp/messages';
import { API_URL, httpClient } from '../providers/httpClient';
import { authorisedFetch, downloadFile, failure, jsonOf } from '../vendor-code/http';
import type { ComparisonBy, RfpActivityPage, RfpBackhaulAnswer, RfpComparison, RfpLanePage, RfpStaffView } from './types';

/** The calls of the staff RFP view (api/src/rfp/routes.ts, file-routes.ts); the list goes through the data provider. */
export const RFP_RESOURCE = 'rfps';

const rfpPath = (code: string) => `${API_URL}/rfps/${encodeURIComponent(code)}`;
const paged = (page: number, perPage: number, extra: Record<string, string> = {}) =>
  new URLSearchParams({ page: String(page), perPage: String(perPage), ...extra }).toString();

export async function fetchRfp(code: string): Promise<RfpStaffView> {
  return (await httpClient(rfpPath(code))).json as RfpStaffView;
}

/** A page of the lane grid (page from 0). */
export async function fetchLanes(code: string, page: number, perPage: number): Promise<RfpLanePage> {
  return (await httpClient(`${rfpPath(code)}/lanes?${paged(page, perPage)}`)).json as RfpLanePage;
}

/** A page of comparison groups (page from 0), of the current round. */
export async function fetchComparison(code: string, by: ComparisonBy, page: number, perPage: number): Promise<RfpComparison> {
  return (await httpClient(`${rfpPath(code)}/comparison?${paged(page, perPage, { by })}`)).json as RfpComparison;
}

/** The API's largest comparison page: the award dialog reads every lane in pages this size. */
export const MAX_COMPARISON_PAGE = 1000;

/** Every lane with its BAs' rates, lowest first (comparison 'all': one group per lane), for the award dialog. */
export async function fetchLaneQuotes(code: string): Promise<RfpComparison['groups']> {
  const groups: RfpComparison['groups'] = [];
  for (let page = 0; ; page++) {
    const answer = await fetchComparison(code, 'all', page, MAX_COMPARISON_PAGE);
    groups.push(...answer.groups);
    if (answer.groups.length < MAX_COMPARISON_PAGE || groups.length >= answer.total) return groups;
  }
}

export async function fetchActivity(code: string, page: number, perPage: number): Promise<RfpActivityPage> {
  return (await httpClient(`${rfpPath(code)}/activity?${paged(page, perPage)}`)).json as RfpActivityPage;
}

/** The decision commands of the view (MLL Procurement, MLL-ADMIN). */
export type RfpVerb = 'close-bidding' | 'award' | 'close' | 'reopen';

/** POST /api/rfps/:code/<verb>: answers the RFP as staff see it after the command. */
export async function rfpCommand(code: string, verb: RfpVerb, body: unknown, idempotencyKey: string): Promise<Record<string, unknown>> {
  const { json } = await httpClient(`${rfpPath(code)}/${verb}`, {
    method: 'POST',
    body: JSON.stringify(body ?? {}),
    headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
  });
  return (json ?? {}) as Record<string, unknown>;
}

/** POST /api/rfps/:code/backhaul-invitations {baId, isInvited}. */
export async function setBackhaul(code: string, baId: string, isInvited: boolean, idempotencyKey: string): Promise<RfpBackhaulAnswer> {
  const { json } = await httpClient(`${rfpPath(code)}/backhaul-invitations`, {
    method: 'POST',
    body: JSON.stringify({ baId, isInvited }),
    headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
  });
  return json as RfpBackhaulAnswer;
}

/** POST /api/rfps/:code/terms (multipart, the PDF as `file`). */
export async function uploadTerms(code: string, file: File, idempotencyKey: string): Promise<{ message: string }> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await authorisedFetch(`${rfpPath(code)}/terms`, { method: 'POST', body: form, headers: { 'Idempotency-Key': idempotencyKey } });
  if (!res.ok) throw await failure(res);
  return jsonOf(res);
}

/** The view's downloads; the file name comes from the API's Content-Disposition, these are the fallbacks. */
export type RfpDownload = 'templateWithData' | 'quoteMatrix' | 'vehicleAvailability' | 'terms';

export function downloadRfpFile(code: string, which: RfpDownload): Promise<{ blob: Blob; fileName: string }> {
  switch (which) {
    case 'templateWithData':
      return downloadFile(`${rfpPath(code)}/template?withData=1`, rfpFileNames.templateWithData(code));
    case 'quoteMatrix':
      return downloadFile(`${rfpPath(code)}/quote-matrix`, rfpFileNames.quoteMatrix(code));
    case 'vehicleAvailability':
      return downloadFile(`${rfpPath(code)}/vehicle-availability`, `VehicleAvailability-${code}.xlsx` /* the API's name; the spec gives none */);
    case 'terms':
      return downloadFile(`${rfpPath(code)}/terms`, rfpFileNames.terms(code));
  }
}
