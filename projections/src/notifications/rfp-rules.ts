import { BA_ROLES } from '../../../domain/src/identity/roles';
import type { RfpEvent } from '../../../domain/src/rfp/events';
import type { AwardedShare, RfpType } from '../../../domain/src/rfp/model';
import { formatDate } from '../../../domain/src/shared/format';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Audience, NotificationKind, NotificationRequest } from './rules';

/**
 * What the BAs of an RFP are told (issue 10): a float tells the BAs it newly invites, an award tells every
 * invited BA its own outcome (only its own lanes and shares: a BA never learns of another BA), a close and a
 * reopen tell every invited BA, a backhaul invitation tells that BA. Staff are told nothing here: they act on
 * the RFP screens themselves. Every one of these is also e-mailed (the projection writes the outbox).
 */
export const RFP_NOTIFICATION_KINDS = [
  'rfp.floated',
  'rfp.awarded',
  'rfp.not-awarded',
  'rfp.closed',
  'rfp.reopened',
  'rfp.backhaul-invited',
] as const satisfies readonly NotificationKind[];
export type RfpNotificationKind = (typeof RFP_NOTIFICATION_KINDS)[number];
// Every one starts with 'rfp.': the projection's fan-out picks the rows to e-mail by that prefix.

export const isRfpNotificationKind = (kind: string): kind is RfpNotificationKind =>
  (RFP_NOTIFICATION_KINDS as readonly string[]).includes(kind);

/**
 * What the projection remembers per RFP between pages: the RFP events carry only the code, yet the texts name
 * the customer, the links need the RFP type, and an award, close or reopen is told to every BA invited by any
 * earlier float.
 */
export type RfpSubject = {
  rfpCode: string;
  /** The company code the draft was created under (its first event's metadata): filed on each row. */
  companyCode: string | null;
  customerName: string | null;
  rfpType: RfpType;
  /** Every BA invited so far, in order of invitation. */
  invitedBaIds: string[];
  version: number;
};

export const newRfpSubject = (rfpCode: string, companyCode: string | null): RfpSubject => ({
  rfpCode,
  companyCode,
  customerName: null,
  rfpType: 'standard',
  invitedBaIds: [],
  version: -1,
});

/** The portal's RFP view (portal/src/rfp/paths.ts `rfpBaViewPath`). */
export const rfpBaViewLink = (rfpCode: string, rfpType: RfpType): string =>
  `/rfp/BA/view/${encodeURIComponent(rfpCode)}/${encodeURIComponent(rfpType)}`;

/** An award names at most this many of the recipient's lanes; a 5,000-lane award would not fit a notice. */
export const AWARD_LANES_SHOWN = 10;

export function evolveRfpSubject(subject: RfpSubject, event: RfpEvent): RfpSubject {
  switch (event.type) {
    case 'RfpDraftCreated':
      return { ...subject, customerName: event.data.header.customerName };
    case 'RfpStepSaved':
      if (event.data.step === 1) return { ...subject, customerName: event.data.data.customerName };
      if (event.data.step === 2) return { ...subject, rfpType: event.data.data.rfpType };
      return subject;
    case 'RfpLanesUploaded':
      return { ...subject, rfpType: event.data.rfpType };
    case 'RfpFloated': {
      const added = event.data.baIds.filter((id) => !subject.invitedBaIds.includes(id));
      return { ...subject, rfpType: event.data.rfpType, invitedBaIds: [...subject.invitedBaIds, ...added] };
    }
    case 'LaneResponsesSubmitted':
    case 'RfpBiddingClosed':
    case 'RfpAwarded':
    case 'RfpClosed':
    case 'RfpReopened':
    case 'BackhaulInvitationChanged':
    case 'RfpTermsUploaded':
      return subject;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** One BA's lanes of an award, in the award's lane order: `laneId → share %`. */
function sharesOf(lanes: Record<string, AwardedShare[]>, baId: string): [string, number][] {
  const mine: [string, number][] = [];
  for (const [laneId, shares] of Object.entries(lanes)) {
    const share = shares.find((s) => s.baId === baId);
    if (share) mine.push([laneId, share.sharePercent]);
  }
  return mine;
}

function awardedLanesText(mine: readonly [string, number][]): string {
  const shown = mine.slice(0, AWARD_LANES_SHOWN).map(([laneId, percent]) => `${laneId} (${percent}%)`);
  const more = mine.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * The notifications of one RFP event, worded with the subject as it stood before the event (a float's own
 * invitees are in the event). One request per BA, addressed to that BA's users only.
 */
export function rfpNotifications(stored: StoredEvent, event: RfpEvent, subject: RfpSubject): NotificationRequest[] {
  const code = subject.rfpCode;
  const customer = subject.customerName ?? 'a customer';
  const toBa = (baId: string, kind: RfpNotificationKind, title: string, body: string, rfpType = subject.rfpType): NotificationRequest => {
    const audience: Audience = { roles: BA_ROLES, companyCode: null, baId, adminsOfUser: null, exclude: [] };
    return {
      eventId: stored.eventId,
      position: stored.globalPosition,
      at: stored.metadata.at,
      kind,
      title,
      body,
      link: rfpBaViewLink(code, rfpType),
      baId,
      companyCode: subject.companyCode,
      audience,
    };
  };

  switch (event.type) {
    case 'RfpFloated': {
      const { baIds, dueAt, comments, rfpType } = event.data;
      const note = comments.trim() === '' ? '' : ` Note from MLL: ${comments.trim()}`;
      const body = `New RFP ${code} from ${customer}: please quote by ${formatDate(dueAt)}.${note}`;
      // Only the BAs this float adds: one invited before was told then (a re-send to all names none).
      return [...new Set(baIds)].map((baId) => toBa(baId, 'rfp.floated', `New RFP ${code}`, body, rfpType));
    }
    case 'RfpAwarded':
      return subject.invitedBaIds.map((baId) => {
        const mine = sharesOf(event.data.lanes, baId);
        if (mine.length === 0) {
          return toBa(
            baId,
            'rfp.not-awarded',
            `RFP ${code} decided`,
            `RFP ${code} from ${customer} has been awarded; no lanes were awarded to you this time. Thank you for your quote.`,
          );
        }
        const lanes = mine.length === 1 ? '1 lane' : `${mine.length} lanes`;
        return toBa(
          baId,
          'rfp.awarded',
          `RFP ${code} awarded to you`,
          `RFP ${code} from ${customer}: you were awarded ${lanes}: ${awardedLanesText(mine)}.`,
        );
      });
    case 'RfpClosed':
      return subject.invitedBaIds.map((baId) =>
        toBa(baId, 'rfp.closed', `RFP ${code} closed`, `RFP ${code} from ${customer} is closed.`),
      );
    case 'RfpReopened': {
      const { round, dueAt } = event.data;
      const body = `RFP ${code} from ${customer} is open again for round ${round}: please review your quote by ${formatDate(dueAt)}.`;
      return subject.invitedBaIds.map((baId) => toBa(baId, 'rfp.reopened', `RFP ${code} reopened`, body));
    }
    case 'BackhaulInvitationChanged':
      // Withdrawing an invitation is not news worth a notice: the BA's screen no longer offers backhaul.
      if (!event.data.isInvited) return [];
      return [
        toBa(
          event.data.baId,
          'rfp.backhaul-invited',
          `Backhaul invitation for RFP ${code}`,
          `You are invited to offer backhaul for RFP ${code} from ${customer}.`,
        ),
      ];
    case 'RfpDraftCreated':
    case 'RfpStepSaved':
    case 'RfpLanesUploaded':
    case 'LaneResponsesSubmitted':
    case 'RfpBiddingClosed':
    case 'RfpTermsUploaded':
      return [];
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
