import type { Actor, DomainEvent } from '../shared/events';
import type { StoredFile } from '../shared/files';
import type { AwardedShare, Lane, LaneColumn, LaneQuote, RfpHeader, RfpStepData, RfpType } from './model';

/**
 * One RFP's lifecycle on stream `rfp-<rfpCode>` (issue 10). Event names are wire contracts: add, never rename.
 * Every event carries `rfpCode` so projections need nothing else to file it; the actor of each is also in
 * the event metadata, and staff decisions name theirs in the data for the RFP's history screen.
 */
export type RfpDraftCreated = DomainEvent<'RfpDraftCreated', { rfpCode: string; header: RfpHeader; createdBy: Actor }>;

/**
 * A wizard step saved (1 edits the header; 2–5 as spec 001 §3 "RFP wizard state"). `clearedSteps`: later steps
 * whose data no longer fits and is dropped with it (a new RFP type or property list invalidates the lanes and
 * the BA selection; new sheet columns invalidate the lanes — step 3 is then kept with no lanes).
 */
export type RfpStepSaved = {
  [N in keyof RfpStepData]: DomainEvent<'RfpStepSaved', { rfpCode: string; step: N; data: RfpStepData[N]; clearedSteps: (3 | 4 | 5)[]; clearsLanes: boolean }>;
}[keyof RfpStepData];

/** The lane sheet uploaded while a draft: its columns and lanes replace any earlier upload. */
export type RfpLanesUploaded = DomainEvent<
  'RfpLanesUploaded',
  { rfpCode: string; rfpType: RfpType; headerData: LaneColumn[]; lanes: Lane[]; file: StoredFile | null }
>;

/** Sent to BAs. `baIds` are the BAs newly invited by this float (empty when it only re-sends to all). */
export type RfpFloated = DomainEvent<
  'RfpFloated',
  { rfpCode: string; round: number; rfpType: RfpType; baIds: string[]; comments: string; floatToAll: boolean; dueAt: string; floatedBy: Actor }
>;

/**
 * A BA's lane responses in a round, merged lane by lane into what it quoted before in that round; a lane set to
 * null withdraws its quote.
 */
export type LaneResponsesSubmitted = DomainEvent<
  'LaneResponsesSubmitted',
  { rfpCode: string; round: number; baId: string; quotes: Record<string, LaneQuote | null>; submittedBy: Actor }
>;

/** Bidding of a round ended: by the due-date timer or by staff. */
export type RfpBiddingClosed = DomainEvent<'RfpBiddingClosed', { rfpCode: string; round: number; reason: 'due' | 'staff'; closedBy: Actor }>;

/** The round's award: per lane its BAs, shares (summing to 100) and contract rates. Lanes not listed are not awarded. */
export type RfpAwarded = DomainEvent<'RfpAwarded', { rfpCode: string; round: number; lanes: Record<string, AwardedShare[]>; awardedBy: Actor }>;

export type RfpClosed = DomainEvent<'RfpClosed', { rfpCode: string; round: number; remarks: string; closedBy: Actor }>;

/** A new round: bidding opens again until `dueAt` for the same BAs and lanes; earlier rounds stay as they were. */
export type RfpReopened = DomainEvent<'RfpReopened', { rfpCode: string; round: number; dueAt: string; reopenedBy: Actor }>;

export type BackhaulInvitationChanged = DomainEvent<'BackhaulInvitationChanged', { rfpCode: string; baId: string; isInvited: boolean; by: Actor }>;

export type RfpTermsUploaded = DomainEvent<'RfpTermsUploaded', { rfpCode: string; file: StoredFile; uploadedBy: Actor }>;

export type RfpEvent =
  | RfpDraftCreated
  | RfpStepSaved
  | RfpLanesUploaded
  | RfpFloated
  | LaneResponsesSubmitted
  | RfpBiddingClosed
  | RfpAwarded
  | RfpClosed
  | RfpReopened
  | BackhaulInvitationChanged
  | RfpTermsUploaded;

export const RFP_EVENT_TYPES = [
  'RfpDraftCreated',
  'RfpStepSaved',
  'RfpLanesUploaded',
  'RfpFloated',
  'LaneResponsesSubmitted',
  'RfpBiddingClosed',
  'RfpAwarded',
  'RfpClosed',
  'RfpReopened',
  'BackhaulInvitationChanged',
  'RfpTermsUploaded',
] as const satisfies readonly RfpEvent['type'][];

export const isRfpEvent = (e: { type: string }): e is RfpEvent => (RFP_EVENT_TYPES as readonly string[]).includes(e.type);

export const RFP_STREAM_PREFIX = 'rfp-';
export const rfpStreamId = (rfpCode: string): string => `${RFP_STREAM_PREFIX}${rfpCode}`;
