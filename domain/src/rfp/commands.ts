import type { StoredFile } from '../shared/files';
import type { AwardShare, Lane, LaneColumn, RfpStepNumber } from './model';

/**
 * Commands on one RFP (stream `rfp-<rfpCode>`). Inputs that come from forms and sheets are `unknown` and parsed
 * by the decider with the schemas of rules.ts, so the API, the importers and a workflow retry all meet the
 * same rules. Time and the actor arrive in the command metadata.
 */

/** Wizard step 1: the opportunity's header. Creates the draft. */
export type CreateRfpDraft = { type: 'CreateRfpDraft'; header: unknown };

/** Wizard steps 1–5 of a draft; `data` is the step's form (rules.ts). */
export type SaveRfpStep = { type: 'SaveRfpStep'; step: RfpStepNumber; data: unknown };

/** The lane sheet, parsed by the importer: its columns and lanes (MLL-property values) and the stored file. */
export type UploadLanes = { type: 'UploadLanes'; headerData: LaneColumn[]; lanes: Lane[]; file: StoredFile | null };

/**
 * Float (spec 001 §3 payload). `dueAt`: when bidding closes (ISO instant); by default the end of the header's
 * due date in India. Only the first float sets it; later floats add BAs to the open round.
 */
export type FloatRfp = { type: 'FloatRfp'; payload: unknown; dueAt?: string | null };

/**
 * A BA's lane responses. `baId` is the BA the caller acts for (from its session); `baBlocked` whether its vendor
 * code is blocked, which the caller reads from the block read model because the RFP stream does not know it.
 */
export type SubmitLaneResponses = {
  type: 'SubmitLaneResponses';
  baId: string;
  round: number;
  quotes: Record<string, Record<string, string | null>>;
  baBlocked: boolean;
};

/** Ends bidding. The due-date timer (system actor) names the round it was set for; staff may close early. */
export type CloseBidding = { type: 'CloseBidding'; round?: number };

/** Per lane the BAs it goes to with their shares; lanes not listed are not awarded. */
export type AwardRfp = { type: 'AwardRfp'; lanes: Record<string, AwardShare[]> };

export type CloseRfp = { type: 'CloseRfp'; remarks?: string | null };

/** A new round until `dueAt` (ISO instant, in the future). */
export type ReopenRfp = { type: 'ReopenRfp'; dueAt: string };

export type InviteBackhaul = { type: 'InviteBackhaul'; baId: string; isInvited: boolean };

/** The terms and conditions PDF, already stored in the BlobStore. */
export type UploadTerms = { type: 'UploadTerms'; file: StoredFile };

export type RfpCommand =
  | CreateRfpDraft
  | SaveRfpStep
  | UploadLanes
  | FloatRfp
  | SubmitLaneResponses
  | CloseBidding
  | AwardRfp
  | CloseRfp
  | ReopenRfp
  | InviteBackhaul
  | UploadTerms;
