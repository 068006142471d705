import type { RfpBaListRow, RfpBaView, RfpBidUploadAnswer, RfpLanePage, RfpMyResponses } from '../../../api/src/contract';
import type { LaneRow } from '../../../projections/src/rfps/rfps.queries';
import { rfpFileNames } from '../../../domain/src/rfp/messages';
import type { ApiClient } from '../api/client';

export type { RfpBaListRow, RfpBaView, RfpLanePage, RfpMyResponses, LaneRow };

/** A BA's quote values of one lane, by BA column key. */
export type LaneQuote = Record<string, string | null>;
/** PUT responses/mine: the changed lanes' quotes, by lane id. */
export type QuotesByLane = Record<string, LaneQuote>;

export type RfpPage = { rows: RfpBaListRow[]; total: number };

/** What a bid upload came to: saved, or refused with the error workbook to correct (spec 001 §7). */
export type BidUploadOutcome =
  | { ok: true; answer: RfpBidUploadAnswer }
  | { ok: false; message: string; workbook: Blob; fileName: string };

/** The API's largest lane page (projections MAX_LANE_PAGE_SIZE): the grid loads every lane page by page. */
export const LANE_PAGE_SIZE = 1000;

/** `rfps 0-9/23` → 23; a missing or unreadable header → the rows on the page. */
function totalOf(response: Response, fallback: number): number {
  const header = (response.headers as Headers | undefined)?.get?.('Content-Range') ?? '';
  const total = Number(/\/(\d+)$/.exec(header)?.[1]);
  return Number.isFinite(total) ? total : fallback;
}

const rfpPath = (code: string) => `/api/rfps/${encodeURIComponent(code)}`;

/** The BA's RFP calls (api/src/rfp/routes.ts and file-routes.ts), with the session. */
export function rfpApi(client: ApiClient) {
  return {
    /** GET /api/rfps for the BA: page `page` (from 0) of `perPage` rows, newest invitation first. */
    async list(page: number, perPage: number): Promise<RfpPage> {
      const range = JSON.stringify([page * perPage, page * perPage + perPage - 1]);
      const response = await client.rawCall(`/api/rfps?${new URLSearchParams({ range }).toString()}`);
      if (!response.ok) throw await client.errorOf(response);
      const rows = (await response.json()) as RfpBaListRow[];
      return { rows, total: totalOf(response, rows.length) };
    },
    get: (code: string): Promise<RfpBaView> => client.call<RfpBaView>(rfpPath(code)),
    /** Every lane with the BA's own quote, fetched a page at a time (the grid sorts and filters in the browser). */
    async lanes(code: string): Promise<RfpLanePage> {
      const first = await client.call<RfpLanePage>(`${rfpPath(code)}/lanes?page=0&perPage=${LANE_PAGE_SIZE}`);
      const rows = [...first.rows];
      for (let page = 1; rows.length < first.total; page++) {
        const next = await client.call<RfpLanePage>(`${rfpPath(code)}/lanes?page=${page}&perPage=${LANE_PAGE_SIZE}`);
        if (next.rows.length === 0) break;
        rows.push(...next.rows);
      }
      return { ...first, rows };
    },
    /** GET responses/mine of one round: the BA's own quotes (earlier rounds stay readable). */
    myResponses: (code: string, round: number): Promise<RfpMyResponses> =>
      client.call<RfpMyResponses>(`${rfpPath(code)}/responses/mine?round=${round}`),
    saveResponses: (code: string, round: number, quotes: QuotesByLane): Promise<RfpMyResponses> =>
      client.call<RfpMyResponses>(`${rfpPath(code)}/responses/mine`, { method: 'PUT', body: { round, quotes } }),
    bidTemplate: (code: string): Promise<Blob> => client.fileCall(`${rfpPath(code)}/bid-template`),
    terms: (code: string): Promise<Blob> => client.fileCall(`${rfpPath(code)}/terms`),
    /** POST bids: a 400 that carries a workbook is the error workbook; any other refusal is an ApiError. */
    async uploadBids(code: string, file: File): Promise<BidUploadOutcome> {
      const form = new FormData();
      form.append('file', file);
      const response = await client.rawCall(`${rfpPath(code)}/bids`, { method: 'POST', body: form });
      if (response.ok) return { ok: true, answer: (await response.json()) as RfpBidUploadAnswer };
      const type = (response.headers as Headers | undefined)?.get?.('Content-Type') ?? '';
      if (response.status !== 400 || !type.includes('spreadsheetml')) throw await client.errorOf(response);
      const reason = (response.headers as Headers).get('X-Upload-Error');
      return {
        ok: false,
        message: reason ? decodeURIComponent(reason) : rfpTexts.bidRefused,
        workbook: await response.blob(),
        fileName: rfpFileNames.baTemplateErrors(code),
      };
    },
  };
}

export type RfpApi = ReturnType<typeof rfpApi>;

/** Texts of the BA RFP screens that the spec does not give (ARCHITECTURE notes). */
export const rfpTexts = {
  bidRefused: 'Some rows of the bid need correcting: download the error file, correct it and upload it again',
  noChanges: 'Nothing to save: no lane was changed',
  biddingClosed: 'Bidding is closed for this RFP',
  backhaulInvited: 'Invited for backhaul',
  carriedForward: (lanes: number, round: number) =>
    `Your round ${round} quotes of ${lanes} lane${lanes === 1 ? '' : 's'} are filled in: revise what you need, then Save to submit them for this round`,
} as const;
