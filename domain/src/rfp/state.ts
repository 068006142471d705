import type { StoredFile } from '../shared/files';
import type { RfpEvent } from './events';
import type { RfpStatusOrNone } from './lifecycle';
import type { AwardedShare, Lane, LaneQuote, RfpHeader, RfpStep2, RfpStep3, RfpStep4, RfpStep5, RfpType } from './model';
import type { WizardProgress } from './wizard';

/** A BA the RFP was floated to, and the round it was first invited in (the time is in the event's metadata). */
export type RfpInvitation = { round: number };

/** One round's award (kept for every round that had one). */
export type RfpAward = { round: number; lanes: Record<string, AwardedShare[]> };

export type RfpState = {
  status: RfpStatusOrNone;
  rfpCode: string | null;
  /** 0 until floated; each reopen adds one. */
  round: number;
  /** When bidding of the current round closes (ISO instant). */
  dueAt: string | null;
  header: RfpHeader | null;
  steps: { 2: RfpStep2 | null; 3: RfpStep3 | null; 4: RfpStep4 | null; 5: RfpStep5 | null };
  /** The uploaded lanes, in sheet order; step 3's columns are `steps[3].headerData`. */
  lanes: Lane[];
  invited: Record<string, RfpInvitation>;
  /** By round (as text), then BA, then lane: what each BA quoted in each round. */
  responses: Record<string, Record<string, Record<string, LaneQuote>>>;
  awards: RfpAward[];
  /** Backhaul invitations by BA (spec 001 §3 isInvited). */
  backhaul: Record<string, boolean>;
  terms: StoredFile | null;
};

export const initialRfpState: RfpState = {
  status: 'none',
  rfpCode: null,
  round: 0,
  dueAt: null,
  header: null,
  steps: { 2: null, 3: null, 4: null, 5: null },
  lanes: [],
  invited: {},
  responses: {},
  awards: [],
  backhaul: {},
  terms: null,
};

export const rfpTypeOf = (state: RfpState): RfpType | null => state.steps[2]?.rfpType ?? null;

/** The wizard's view of the saved steps (wizard.ts). */
export const progressOf = (state: RfpState): WizardProgress => ({
  rfpType: rfpTypeOf(state),
  step1: state.header !== null,
  step2: state.steps[2] !== null,
  step3: state.steps[3] !== null,
  laneCount: state.lanes.length,
  step4: state.steps[4] !== null,
  step5: state.steps[5] !== null,
});

/** What a BA quoted in a round: its own quotes only — a BA never sees another BA's. */
export const quotesOf = (state: RfpState, baId: string, round = state.round): Record<string, LaneQuote> =>
  state.responses[String(round)]?.[baId] ?? {};

/** The current round's award, if the round has one. */
export const currentAward = (state: RfpState): RfpAward | null => state.awards.find((a) => a.round === state.round) ?? null;

function mergeQuotes(before: Record<string, LaneQuote>, quotes: Record<string, LaneQuote | null>): Record<string, LaneQuote> {
  const next = { ...before };
  for (const [laneId, quote] of Object.entries(quotes)) {
    if (quote === null) delete next[laneId];
    else next[laneId] = quote;
  }
  return next;
}

export function evolveRfp(state: RfpState, event: RfpEvent): RfpState {
  switch (event.type) {
    case 'RfpDraftCreated':
      return { ...initialRfpState, status: 'draft', rfpCode: event.data.rfpCode, header: event.data.header };
    case 'RfpStepSaved': {
      const d = event.data;
      const steps = { ...state.steps };
      for (const step of d.clearedSteps) steps[step] = null;
      const lanes = d.clearedSteps.includes(3) || d.clearsLanes ? [] : state.lanes;
      switch (d.step) {
        case 1:
          return { ...state, header: d.data, steps, lanes };
        case 2:
          return { ...state, steps: { ...steps, 2: d.data }, lanes };
        case 3:
          return { ...state, steps: { ...steps, 3: d.data }, lanes };
        case 4:
          return { ...state, steps: { ...steps, 4: d.data }, lanes };
        case 5:
          return { ...state, steps: { ...steps, 5: d.data }, lanes };
        default: {
          const never: never = d;
          return never;
        }
      }
    }
    case 'RfpLanesUploaded':
      return { ...state, steps: { ...state.steps, 3: { headerData: event.data.headerData } }, lanes: event.data.lanes };
    case 'RfpFloated': {
      const d = event.data;
      const invited = { ...state.invited };
      for (const baId of d.baIds) invited[baId] ??= { round: d.round };
      return { ...state, status: 'floated', round: d.round, dueAt: d.dueAt, invited };
    }
    case 'LaneResponsesSubmitted': {
      const d = event.data;
      const round = String(d.round);
      const ofRound = state.responses[round] ?? {};
      return {
        ...state,
        responses: { ...state.responses, [round]: { ...ofRound, [d.baId]: mergeQuotes(ofRound[d.baId] ?? {}, d.quotes) } },
      };
    }
    case 'RfpBiddingClosed':
      return { ...state, status: 'evaluation' };
    case 'RfpAwarded':
      return { ...state, status: 'awarded', awards: [...state.awards, { round: event.data.round, lanes: event.data.lanes }] };
    case 'RfpClosed':
      return { ...state, status: 'closed' };
    case 'RfpReopened':
      return { ...state, status: 'floated', round: event.data.round, dueAt: event.data.dueAt };
    case 'BackhaulInvitationChanged':
      return { ...state, backhaul: { ...state.backhaul, [event.data.baId]: event.data.isInvited } };
    case 'RfpTermsUploaded':
      return { ...state, terms: event.data.file };
    default: {
      const never: never = event;
      return never;
    }
  }
}
