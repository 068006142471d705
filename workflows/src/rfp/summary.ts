import { SYSTEM_ROLE } from '../../../domain/src/identity/roles';
import type { RfpCommand } from '../../../domain/src/rfp/commands';
import { decideRfp } from '../../../domain/src/rfp/decide';
import { isAcceptedIn, type RfpStatusOrNone } from '../../../domain/src/rfp/lifecycle';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import type { RfpType } from '../../../domain/src/rfp/model';
import { initialRfpState, progressOf, rfpTypeOf, type RfpState } from '../../../domain/src/rfp/state';
import type { WizardProgress } from '../../../domain/src/rfp/wizard';
import type { CommandMetadata } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';

/**
 * What the RFP workflow holds of its RFP (workflow-safe: pure). Not the RfpState: an RFP's lanes and every BA's
 * quotes of every round can pass Temporal's payload limit (2 MB) for one activity result or one continue-as-new
 * input, so the activity decides against the stream and answers with this summary. It carries what the
 * due-date timer needs (status, round, dueAt) and what the update validator can refuse from at once.
 */
export type RfpSummary = {
  rfpCode: string | null;
  status: RfpStatusOrNone;
  rfpType: RfpType | null;
  /** 0 until floated; each reopen adds one. */
  round: number;
  /** When bidding of the current round closes (ISO instant). */
  dueAt: string | null;
  /** The BAs the RFP was floated to, in the order they were invited. */
  baIds: string[];
  laneCount: number;
  /** The wizard's saved steps (domain/src/rfp/wizard.ts), for the API's next step. */
  progress: WizardProgress;
};

export const emptyRfpSummary: RfpSummary = summaryOf(initialRfpState);

export function summaryOf(state: RfpState): RfpSummary {
  return {
    rfpCode: state.rfpCode,
    status: state.status,
    rfpType: rfpTypeOf(state),
    round: state.round,
    dueAt: state.dueAt,
    baIds: Object.keys(state.invited),
    laneCount: state.lanes.length,
    progress: progressOf(state),
  };
}

/**
 * The refusals the summary is enough for, exactly as the decider gives them and in its order (role 403, the RFP
 * exists 404 — for a BA also that it was floated to it —, status 422; for a quote, its round 409 and the
 * deadline 422). Null: the summary cannot refuse it, the activity decides (payload 400, the command's own rules).
 * Never refuses what the decider would accept (workflows/src/rfp/summary.test.ts compares the two).
 */
export function precheck(command: RfpCommand, summary: RfpSummary, meta: Pick<CommandMetadata, 'actor' | 'at'>): DomainError | null {
  // The role is the decider's first check and depends on nothing else: asked against no RFP at all.
  const byRole = decideRfp(command, initialRfpState, meta);
  if (byRole instanceof DomainError && byRole.code === 'forbidden') return byRole;
  if (summary.status === 'none') return command.type === 'CreateRfpDraft' ? null : new DomainError('not_found', rfpMessages.notFound);
  if (command.type === 'SubmitLaneResponses' && !summary.baIds.includes(command.baId)) return new DomainError('not_found', rfpMessages.notFound);
  if (!isAcceptedIn(command.type, summary.status)) {
    if (command.type === 'CreateRfpDraft') return new DomainError('conflict', rfpMessages.exists(summary.rfpCode ?? ''));
    if (command.type === 'CloseBidding' && meta.actor.role === SYSTEM_ROLE) return null;
    if (command.type === 'SubmitLaneResponses') return new DomainError('rule', rfpMessages.biddingNotOpen);
    return new DomainError('rule', rfpMessages.notAllowedNow(summary.status));
  }
  if (command.type === 'SubmitLaneResponses') {
    if (command.round !== summary.round) return new DomainError('conflict', rfpMessages.staleRound);
    if (summary.dueAt === null || Date.parse(meta.at) >= Date.parse(summary.dueAt)) return new DomainError('rule', rfpMessages.dueDatePassed);
  }
  return null;
}
