import type { RfpEvent } from '../../../domain/src/rfp/events';

/**
 * One readable line per RFP event for the RFP's history (staff only: a line may name a BA). Quotes are never
 * copied here — only how many lanes a BA saved — so the history cannot leak one BA's rates to anyone.
 */
export type RfpActivityLine = { action: string; detail: string | null; baId: string | null };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function describeRfpEvent(event: RfpEvent): RfpActivityLine {
  switch (event.type) {
    case 'RfpDraftCreated':
      return { action: 'RFP created', detail: `Opportunity ${event.data.header.casshOppId}`, baId: null };
    case 'RfpStepSaved': {
      const cleared = event.data.clearedSteps;
      return {
        action: `Step ${event.data.step} saved`,
        detail: cleared.length > 0 ? `Cleared step ${cleared.join(', ')}` : event.data.clearsLanes ? 'Uploaded lanes cleared' : null,
        baId: null,
      };
    }
    case 'RfpLanesUploaded':
      return { action: `${plural(event.data.lanes.length, 'lane')} uploaded`, detail: event.data.file?.name ?? null, baId: null };
    case 'RfpFloated':
      return {
        action: event.data.floatToAll ? 'Floated to all BAs' : `Floated to ${plural(event.data.baIds.length, 'BA')}`,
        detail: event.data.comments || null,
        baId: null,
      };
    case 'LaneResponsesSubmitted': {
      const quotes = Object.values(event.data.quotes);
      const withdrawn = quotes.filter((q) => q === null).length;
      const saved = quotes.length - withdrawn;
      return {
        action: 'Lane responses saved',
        detail: [saved > 0 ? `${plural(saved, 'lane')} quoted` : null, withdrawn > 0 ? `${plural(withdrawn, 'lane')} withdrawn` : null]
          .filter((x) => x !== null)
          .join(', '),
        baId: event.data.baId,
      };
    }
    case 'RfpBiddingClosed':
      return { action: 'Bidding closed', detail: event.data.reason === 'due' ? 'The due date was reached' : 'Closed by staff', baId: null };
    case 'RfpAwarded':
      return { action: `${plural(Object.keys(event.data.lanes).length, 'lane')} awarded`, detail: null, baId: null };
    case 'RfpClosed':
      return { action: 'RFP closed', detail: event.data.remarks || null, baId: null };
    case 'RfpReopened':
      return { action: `Reopened for round ${event.data.round}`, detail: `Bidding open until ${event.data.dueAt}`, baId: null };
    case 'BackhaulInvitationChanged':
      return { action: event.data.isInvited ? 'Invited for backhaul' : 'Backhaul invitation withdrawn', detail: null, baId: event.data.baId };
    case 'RfpTermsUploaded':
      return { action: 'Terms and conditions uploaded', detail: event.data.file.name, baId: null };
    default: {
      const never: never = event;
      return never;
    }
  }
}
