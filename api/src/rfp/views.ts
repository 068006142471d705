import type { LaneColumn } from '../../../domain/src/rfp/model';
import type { OpenedWizard } from '../../../domain/src/rfp/wizard';
import type {
  AwardRow,
  InvitationRow,
  LaneRow,
  QuoteRow,
  RfpBaRecord,
  RfpBaRow,
  RfpRecord,
  RfpStaffRow,
} from '../../../projections/src/rfps/rfps.queries';
import type { RfpSummary } from '../../../workflows/src/rfp/summary';

/**
 * What the RFP routes answer (types only, for api/src/contract.ts: the console and the portal import them).
 * List rows carry `id` = the RFP code, as react-admin needs.
 */

/** GET /api/rfps for staff (react-admin list, Content-Range). */
export type RfpStaffListRow = RfpStaffRow & { id: string };
/** GET /api/rfps for a BA: only RFPs floated to it, with its own facts. */
export type RfpBaListRow = RfpBaRow & { id: string };

/** GET /api/rfps/:code for staff, and the answer of every staff command: the RFP, its wizard, BAs and award. */
export type RfpStaffView = RfpRecord & { id: string; wizard: OpenedWizard; invitations: InvitationRow[]; awards: AwardRow[] };
/** A command's answer when the read model has not caught up within the wait: the workflow's summary. */
export type RfpPendingView = { rfpCode: string; summary?: RfpSummary };
export type RfpCommandAnswer = RfpStaffView | RfpPendingView;

/** GET /api/rfps/:code for a BA: what was floated to it and its own award, never other BAs'. */
export type RfpBaView = RfpBaRecord & { id: string; awards: AwardRow[] };

/** GET /api/rfps/:code/lanes (`?page=&perPage=&sort=<column>&order=ASC|DESC&filter={column: text}`); a BA's rows carry its `quote`. */
export type RfpLanePage = { rows: LaneRow[]; total: number; round: number; columns: LaneColumn[] };

/** POST /api/rfps/:code/lanes/upload when the sheet was good (a bad one is 400 with the error workbook). */
export type RfpLaneUploadAnswer = { message: string; lanes: number; rfp: RfpCommandAnswer };
/** POST /api/rfps/:code/float. */
export type RfpFloatAnswer = { message: string; rfp: RfpCommandAnswer };
/** POST /api/rfps/:code/backhaul-invitations. */
export type RfpBackhaulAnswer = { message: string; invitations: InvitationRow[] };
/** GET and PUT /api/rfps/:code/responses/mine (PUT adds the spec's message). */
export type RfpMyResponses = { round: number; quotes: QuoteRow[]; message?: string };
/** POST /api/rfps/:code/bids when the sheet was good. */
export type RfpBidUploadAnswer = { message: string; round: number; lanes: number };
