import type { RfpCommand } from './commands';
import type { RfpStatus } from './model';

/** The state before an RFP exists. */
export type RfpStatusOrNone = RfpStatus | 'none';

/**
 * The RFP's transition table (spec 001 §4: "Full status values and transition rules are not shown"; decided).
 * Per command: the statuses it is accepted in, and the status it leaves (null: unchanged). The decider refuses
 * a command in any other status (422; 404 before the RFP exists), before looking at its payload.
 *
 *   none ──Create──▶ draft ──Float──▶ floated ──CloseBidding──▶ evaluation ──Award──▶ awarded
 *                                        ▲   │ (due-date timer or staff)       │              │
 *                                        │   └──────────── CloseRfp ───────────┴──────────────┴──▶ closed
 *                                        └──────────── ReopenRfp (round + 1) from evaluation, awarded, closed
 */
export const RFP_TRANSITIONS = {
  CreateRfpDraft: { from: ['none'], to: 'draft' },
  SaveRfpStep: { from: ['draft'], to: null },
  // After the first float the lanes are what BAs quote on: they stay, also in a reopened round.
  UploadLanes: { from: ['draft'], to: null },
  // Floating again while bidding is open adds BAs to the round.
  FloatRfp: { from: ['draft', 'floated'], to: 'floated' },
  SubmitLaneResponses: { from: ['floated'], to: null },
  CloseBidding: { from: ['floated'], to: 'evaluation' },
  // One award per round; a different award needs a new round.
  AwardRfp: { from: ['evaluation'], to: 'awarded' },
  // Closing while bidding is open cancels the RFP (e.g. the customer withdrew).
  CloseRfp: { from: ['floated', 'evaluation', 'awarded'], to: 'closed' },
  ReopenRfp: { from: ['evaluation', 'awarded', 'closed'], to: 'floated' },
  // Backhaul is offered to the RFP's BAs once they have it.
  InviteBackhaul: { from: ['floated', 'evaluation', 'awarded', 'closed'], to: null },
  UploadTerms: { from: ['draft', 'floated', 'evaluation', 'awarded', 'closed'], to: null },
} as const satisfies Record<RfpCommand['type'], { from: readonly RfpStatusOrNone[]; to: RfpStatus | null }>;

export const isAcceptedIn = (command: RfpCommand['type'], status: RfpStatusOrNone): boolean =>
  (RFP_TRANSITIONS[command].from as readonly RfpStatusOrNone[]).includes(status);

/** The status moves the table allows, from → to (staying put not listed): what a status badge may become next. */
export const RFP_STATUS_TRANSITIONS: Record<RfpStatusOrNone, readonly RfpStatus[]> = (() => {
  const out: Record<RfpStatusOrNone, RfpStatus[]> = { none: [], draft: [], floated: [], evaluation: [], awarded: [], closed: [] };
  for (const { from, to } of Object.values(RFP_TRANSITIONS)) {
    if (to === null) continue;
    for (const f of from) if (f !== to && !out[f].includes(to)) out[f].push(to);
  }
  return out;
})();
