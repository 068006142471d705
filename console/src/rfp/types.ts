/**
 * The RFP API's shapes as the console reads them (api/src/contract.ts re-exports api/src/rfp/views.ts), and the
 * read-model rows inside them. Types only: nothing of the API or the projections reaches the bundle.
 */
import type { RfpActivityRow } from '../../../projections/src/rfps/rfps.queries';

export type {
  RfpStaffListRow,
  RfpStaffView,
  RfpCommandAnswer,
  RfpLanePage,
  RfpBackhaulAnswer,
  RfpComparison,
} from '../../../api/src/contract';
export type { AwardRow, InvitationRow, LaneRow, RfpActivityRow } from '../../../projections/src/rfps/rfps.queries';
export type { ComparisonBy, ComparisonGroup, ComparisonQuote } from '../../../projections/src/rfps/comparison';

/** GET /api/rfps/:code/activity, newest first. */
export type RfpActivityPage = { rows: RfpActivityRow[]; total: number };
