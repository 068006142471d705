import {
  BA_ROLES,
  BLOCK_APPROVERS,
  BLOCK_REQUESTERS,
  INVOICE_ACCOUNTS,
  INVOICE_COMMERCIAL,
  REVIEW_STAGE_ROLES,
  SAP_REQUESTERS,
  type Role,
} from '../../../domain/src/identity/roles';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import { formatDate } from '../../../domain/src/shared/format';
import type { StoredEvent } from '../../../domain/src/shared/events';

/**
 * Which domain event tells whom what. Pure: the projection resolves each `Audience` against the recipients
 * directory as it stood at the event's position, and writes one row per recipient.
 *
 * Links are paths inside the recipient's own application (staff: console routes, BAs: portal routes); a
 * recipient is either staff or a BA user, never both, so a link never points into the other application.
 */
export type NotificationKind =
  | 'onboarding.submitted'
  | 'onboarding.resubmitted'
  | 'onboarding.stage-2'
  | 'onboarding.stage-1-approved'
  | 'onboarding.verified'
  | 'onboarding.rejected'
  | 'onboarding.overdue'
  | 'document.approved'
  | 'document.rejected'
  | 'bank-account.approved'
  | 'bank-account.rejected'
  | 'concession.approved'
  | 'concession.rejected'
  | 'vertical-mapping.approved'
  | 'vertical-mapping.rejected'
  | 'document.expiring'
  | 'document.expired'
  | 'change-request.raised'
  | 'change-request.first-approved'
  | 'change-request.approved'
  | 'change-request.rejected'
  | 'payments.held'
  | 'payments.released'
  | 'contact-change.completed'
  | 'vendor-code.parent-assigned'
  | 'vendor-code.child-assigned'
  | 'vendor-code.rejected'
  | 'block.requested'
  | 'block.applied'
  | 'block.rejected'
  // Issue 10 (./rfp-rules.ts): told to the BAs of an RFP, and e-mailed to them.
  | 'rfp.floated'
  | 'rfp.awarded'
  | 'rfp.not-awarded'
  | 'rfp.closed'
  | 'rfp.reopened'
  | 'rfp.backhaul-invited'
  // Issue 11: Bill-Hub invoices and memos (invoiceNotifications, memoNotifications below).
  | 'invoice.submitted'
  | 'invoice.resubmitted'
  | 'invoice.rejected'
  | 'invoice.booked'
  | 'invoice.released'
  | 'invoice.overdue'
  | 'memo.submitted';

/**
 * Who receives it: active users holding one of `roles` and either the company code (staff audiences) or the
 * BA (BA audiences: `baId`, or `adminsOfUser`, a BA user whose BA's users are meant, resolved by the projection).
 * One of the two is always given: nobody is told about every company's BAs at once.
 */
export type Audience = {
  roles: readonly Role[];
  companyCode: string | null;
  baId: string | null;
  adminsOfUser: string | null;
  /** Never these users: the actor, or whoever may not decide the stage (the stage-1 approver for stage 2). */
  exclude: readonly string[];
  /**
   * Only these users, who must still hold the roles and company code at the event (issue 11: the commercial
   * user an invoice is submitted to). Absent = everyone the rest of the audience names.
   */
  users?: readonly string[];
};

export type NotificationRequest = {
  eventId: string;
  position: number;
  at: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
  baId: string | null;
  companyCode: string | null;
  audience: Audience;
};

/** What the projection remembers per BA between pages, to word and address the BA's notifications. */
export type BaSubject = {
  baId: string;
  companyCode: string;
  companyName: string | null;
  /** Who approved stage 1 of the current submission: may not decide stage 2, so is not asked to. */
  stage1ApprovedBy: string | null;
  /**
   * How the BA's items are named in its notifications, by key: `doc:<docId>` the document type's name,
   * `bank:<accountId>` "account ending 1234", `concession:<id>` the certificate number, `cr:<requestId>` the
   * section of an open change request. Review events carry only ids; this is what words them.
   */
  labels: Record<string, string>;
  version: number;
};

const BA_USERS: readonly Role[] = BA_ROLES;
const reviewers = (stage: 1 | 2): readonly Role[] => REVIEW_STAGE_ROLES[stage];
const consoleLink = (baId: string) => `/business-associates/${encodeURIComponent(baId)}/show`;
/** Portal routes (portal/src/identity/routing.ts `paths`). */
const portal = {
  status: '/onboard/status',
  home: '/home',
  baUsers: '/onboard/BA/add-new-ba-user',
  profile: '/onboard/ba-details/view',
} as const;

const nameOf = (subject: BaSubject) => subject.companyName ?? 'A business associate';

const withLabel = (subject: BaSubject, key: string, label: string): BaSubject => ({
  ...subject,
  labels: { ...subject.labels, [key]: label },
});
const withoutLabels = (subject: BaSubject, ...keys: (string | null)[]): BaSubject => {
  if (!keys.some((k) => k !== null && k in subject.labels)) return subject;
  const labels = { ...subject.labels };
  for (const key of keys) if (key !== null) delete labels[key];
  return { ...subject, labels };
};

/** What a change request changes, in the BA's words. */
const SECTION_NAMES: Record<string, string> = { company: 'company details', bank: 'bank account' };
const sectionName = (subject: BaSubject, requestId: string) => SECTION_NAMES[subject.labels[`cr:${requestId}`] ?? ''] ?? 'profile';

/** A date of the events (YYYY-MM-DD) as the spec shows it: 31-Jan-2027. */
const shownDate = (date: string) => formatDate(date);

/** The subject after the event: what later notifications of this BA need to know. */
export function evolveSubject(subject: BaSubject, event: OnboardingEvent): BaSubject {
  switch (event.type) {
    case 'BusinessAssociateCreated':
      return { ...subject, companyCode: event.data.companyCode };
    case 'CompanyDetailsSaved':
      return { ...subject, companyName: event.data.details.companyName ?? subject.companyName };
    case 'OnboardingSubmitted':
      return { ...subject, stage1ApprovedBy: null };
    case 'ReviewStageApproved':
      return event.data.stage === 1 ? { ...subject, stage1ApprovedBy: event.data.approvedBy } : subject;
    case 'BankAccountSaved':
      return withLabel(subject, `bank:${event.data.accountId}`, `ending ${event.data.account.accountNo.slice(-4)}`);
    case 'BankAccountDeleted':
      return withoutLabels(subject, `bank:${event.data.accountId}`);
    case 'DocumentUploaded':
      return withLabel(
        withoutLabels(subject, event.data.replaces && `doc:${event.data.replaces}`),
        `doc:${event.data.docId}`,
        event.data.document.documentTypeName,
      );
    case 'DocumentDeleted':
      return withoutLabels(subject, `doc:${event.data.docId}`);
    case 'ConcessionSaved':
      return withLabel(subject, `concession:${event.data.concessionId}`, event.data.concession.exemptionNumber);
    case 'ConcessionDeleted':
      return withoutLabels(subject, `concession:${event.data.concessionId}`);
    case 'ChangeRequestRaised':
      return withLabel(subject, `cr:${event.data.requestId}`, event.data.section);
    case 'ChangeRequestApproved':
      return event.data.final ? withoutLabels(subject, `cr:${event.data.requestId}`) : subject;
    case 'ChangeRequestRejected':
      return withoutLabels(subject, `cr:${event.data.requestId}`);
    case 'OnboardingRejected':
    case 'BusinessAssociateVerified':
    case 'ReviewOverdue':
    case 'BankAccountReviewed':
    case 'GstRegistrationSaved':
    case 'GstRegistrationDeleted':
    case 'DocumentReviewed':
    case 'DocumentExpiryReminded':
    case 'DocumentExpired':
    case 'ConcessionReviewed':
    case 'VerticalMappingSaved':
    case 'VerticalMappingReviewed':
    case 'CompanyCodeApplied':
    case 'PaymentsHeld':
    case 'PaymentsReleased':
      return subject;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/**
 * The notifications of one onboarding event, worded with the subject as it stood before the event (the
 * company name the reviewers know). The actor is never told about their own action.
 */
export function onboardingNotifications(
  stored: StoredEvent,
  event: OnboardingEvent,
  subject: BaSubject,
): NotificationRequest[] {
  const actor = stored.metadata.actor.userId;
  const base = {
    eventId: stored.eventId,
    position: stored.globalPosition,
    at: stored.metadata.at,
    baId: subject.baId,
    companyCode: subject.companyCode,
  };
  const toReviewers = (stage: 1 | 2, exclude: (string | null)[]): Audience => ({
    roles: reviewers(stage),
    companyCode: subject.companyCode,
    baId: null,
    adminsOfUser: null,
    exclude: [actor, ...exclude].filter((x): x is string => x !== null),
  });
  const toBa: Audience = { roles: BA_USERS, companyCode: null, baId: subject.baId, adminsOfUser: null, exclude: [actor] };
  const name = nameOf(subject);

  switch (event.type) {
    case 'OnboardingSubmitted':
      return [
        event.data.resubmission
          ? {
              ...base,
              kind: 'onboarding.resubmitted',
              title: 'BA resubmitted for review',
              body: `${name} corrected its details and submitted them again for verification.`,
              link: consoleLink(subject.baId),
              audience: toReviewers(1, []),
            }
          : {
              ...base,
              kind: 'onboarding.submitted',
              title: 'New BA submitted for review',
              body: `${name} submitted its details for verification.`,
              link: consoleLink(subject.baId),
              audience: toReviewers(1, []),
            },
      ];
    case 'ReviewStageApproved':
      if (event.data.stage !== 1) return [];
      return [
        {
          ...base,
          kind: 'onboarding.stage-2',
          title: 'BA ready for second-stage review',
          body: `${name} passed the first review and awaits the second-stage decision.`,
          link: consoleLink(subject.baId),
          // Whoever approved stage 1 may not approve stage 2 (ARCHITECTURE.md "Who reviews which stage").
          audience: toReviewers(2, [event.data.approvedBy]),
        },
        {
          ...base,
          kind: 'onboarding.stage-1-approved',
          title: 'First review passed',
          body: 'Your details passed the first review. A second review follows.',
          link: portal.status,
          audience: toBa,
        },
      ];
    case 'BusinessAssociateVerified':
      return [
        {
          ...base,
          kind: 'onboarding.verified',
          title: 'Your organisation is verified',
          body: event.data.welcomeMessage,
          link: portal.home,
          audience: toBa,
        },
      ];
    case 'OnboardingRejected':
      return [
        {
          ...base,
          kind: 'onboarding.rejected',
          title: 'Your details need changes',
          body: `The stage ${event.data.stage} review sent your details back: ${event.data.remarks}`,
          link: portal.status,
          audience: toBa,
        },
      ];
    case 'ReviewOverdue':
      return [
        {
          ...base,
          kind: 'onboarding.overdue',
          title: 'Review overdue',
          body: `${name} has waited past its review deadline (stage ${event.data.stage}).`,
          link: consoleLink(subject.baId),
          audience: toReviewers(event.data.stage, event.data.stage === 2 ? [subject.stage1ApprovedBy] : []),
        },
      ];
    case 'BusinessAssociateCreated':
    case 'CompanyDetailsSaved':
    case 'BankAccountSaved':
    case 'BankAccountDeleted':
    case 'GstRegistrationSaved':
    case 'GstRegistrationDeleted':
    case 'DocumentUploaded':
    case 'DocumentDeleted':
    case 'ConcessionSaved':
    case 'ConcessionDeleted':
    case 'VerticalMappingSaved':
    case 'CompanyCodeApplied':
      return [];
    default:
      return itemNotifications(event, subject, { base, toBa, toReviewers });
  }
}

/** The events the item rules word; a new event type fails to compile until it is placed in one switch or the other. */
type ItemNoticeEvent = Extract<
  OnboardingEvent,
  {
    type:
      | 'DocumentReviewed'
      | 'BankAccountReviewed'
      | 'ConcessionReviewed'
      | 'VerticalMappingReviewed'
      | 'DocumentExpiryReminded'
      | 'DocumentExpired'
      | 'ChangeRequestRaised'
      | 'ChangeRequestApproved'
      | 'ChangeRequestRejected'
      | 'PaymentsHeld'
      | 'PaymentsReleased';
  }
>;

type Addressing = {
  base: Pick<NotificationRequest, 'eventId' | 'position' | 'at' | 'baId' | 'companyCode'>;
  toBa: Audience;
  toReviewers: (stage: 1 | 2, exclude: (string | null)[]) => Audience;
};

/** A staff verdict on one item, told to the BA's users: what was decided and, for a rejection, why. */
function verdict(
  { base, toBa }: Addressing,
  kinds: { approved: NotificationKind; rejected: NotificationKind },
  what: { title: string; item: string },
  decision: 'approved' | 'rejected',
  remarks: string | null,
  approvedSuffix = '',
): NotificationRequest {
  const approved = decision === 'approved';
  return {
    ...base,
    kind: approved ? kinds.approved : kinds.rejected,
    title: `${what.title} ${approved ? 'approved' : 'rejected'}`,
    body: approved
      ? `Your ${what.item} was approved${approvedSuffix}.`
      : `Your ${what.item} was rejected${remarks ? `: ${remarks}` : '.'}`,
    link: portal.status,
    audience: toBa,
  };
}

/**
 * Issue 8: item reviews, document expiry, change requests and payment holds. The BA's users hear every
 * verdict on their items and what happens to their profile; the stage-1 reviewers of the BA's company code
 * hear what needs them (a document about to lapse or lapsed, a change to decide), and for a bank change the
 * stage-2 reviewers hear that a second approval is needed (never the first approver: two different people).
 */
function itemNotifications(event: ItemNoticeEvent, subject: BaSubject, addressing: Addressing): NotificationRequest[] {
  const { base, toBa, toReviewers } = addressing;
  const name = nameOf(subject);
  const documentName = (docId: string, fallback = 'document') => subject.labels[`doc:${docId}`] ?? fallback;
  switch (event.type) {
    case 'DocumentReviewed': {
      const { approvedTill } = event.data;
      const suffix = approvedTill ? `, valid till ${shownDate(approvedTill)}` : '';
      return [
        verdict(
          addressing,
          { approved: 'document.approved', rejected: 'document.rejected' },
          { title: 'Document', item: documentName(event.data.docId) },
          event.data.decision,
          event.data.remarks,
          suffix,
        ),
      ];
    }
    case 'BankAccountReviewed': {
      const label = subject.labels[`bank:${event.data.accountId}`];
      return [
        verdict(
          addressing,
          { approved: 'bank-account.approved', rejected: 'bank-account.rejected' },
          { title: 'Bank account', item: label ? `bank account ${label}` : 'bank account' },
          event.data.decision,
          event.data.remarks,
        ),
      ];
    }
    case 'ConcessionReviewed': {
      const number = subject.labels[`concession:${event.data.concessionId}`];
      return [
        verdict(
          addressing,
          { approved: 'concession.approved', rejected: 'concession.rejected' },
          { title: 'Concession', item: number ? `concession certificate ${number}` : 'concession certificate' },
          event.data.decision,
          event.data.remarks,
        ),
      ];
    }
    case 'VerticalMappingReviewed':
      return [
        verdict(
          addressing,
          { approved: 'vertical-mapping.approved', rejected: 'vertical-mapping.rejected' },
          { title: 'Vertical mapping', item: 'vertical mapping' },
          event.data.decision,
          event.data.remarks,
        ),
      ];
    case 'DocumentExpiryReminded': {
      const date = shownDate(event.data.validTill);
      const document = event.data.documentTypeName;
      return [
        {
          ...base,
          kind: 'document.expiring',
          title: 'Document expiring',
          body: `Your ${document} expires on ${date}. Please upload a renewed one.`,
          link: portal.profile,
          audience: toBa,
        },
        {
          ...base,
          kind: 'document.expiring',
          title: 'BA document expiring',
          body: `${name}: ${document} expires on ${date}.`,
          link: consoleLink(subject.baId),
          audience: toReviewers(1, []),
        },
      ];
    }
    case 'DocumentExpired': {
      const date = shownDate(event.data.validTill);
      const document = event.data.documentTypeName;
      return [
        {
          ...base,
          kind: 'document.expired',
          title: 'Document expired',
          body: `Your ${document} was valid till ${date} and has expired. Please upload a renewed one.`,
          link: portal.profile,
          audience: toBa,
        },
        {
          ...base,
          kind: 'document.expired',
          title: 'BA document expired',
          body: `${name}: ${document} was valid till ${date} and has expired.`,
          link: consoleLink(subject.baId),
          audience: toReviewers(1, []),
        },
      ];
    }
    case 'ChangeRequestRaised': {
      const bank = event.data.section === 'bank';
      return [
        {
          ...base,
          kind: 'change-request.raised',
          title: 'Profile change to review',
          body: bank
            ? `${name} asked to change its bank account; its payments are on hold until the change is decided.`
            : `${name} asked to change its company details.`,
          link: consoleLink(subject.baId),
          audience: toReviewers(1, []),
        },
      ];
    }
    case 'ChangeRequestApproved': {
      const section = sectionName(subject, event.data.requestId);
      if (event.data.final) {
        return [
          {
            ...base,
            kind: 'change-request.approved',
            title: 'Profile change approved',
            body: `Your change to the ${section} was approved and now applies.`,
            link: portal.profile,
            audience: toBa,
          },
        ];
      }
      return [
        {
          ...base,
          kind: 'change-request.first-approved',
          title: 'Bank change awaits a second approval',
          body: `${name}'s change to its ${section} has its first approval and needs a second approver.`,
          link: consoleLink(subject.baId),
          audience: toReviewers(2, [event.data.approvedBy]),
        },
      ];
    }
    case 'ChangeRequestRejected': {
      const section = sectionName(subject, event.data.requestId);
      return [
        {
          ...base,
          kind: 'change-request.rejected',
          title: 'Profile change rejected',
          body: `Your change to the ${section} was rejected: ${event.data.remarks}`,
          link: portal.profile,
          audience: toBa,
        },
      ];
    }
    case 'PaymentsHeld':
      return [
        {
          ...base,
          kind: 'payments.held',
          title: 'Payments on hold',
          body: 'Payments to your organisation are on hold until your bank account change is approved.',
          link: portal.profile,
          audience: toBa,
        },
      ];
    case 'PaymentsReleased':
      return [
        {
          ...base,
          kind: 'payments.released',
          title: 'Payments released',
          body: 'Payments to your organisation are no longer on hold.',
          link: portal.profile,
          audience: toBa,
        },
      ];
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/**
 * A completed contact change, told to the admins of the user's BA: the change signs the user out everywhere
 * and replaces the address the BA is reached at, which the admin should know of even when it was their own.
 */
export function contactChangeNotification(
  stored: StoredEvent,
  data: { userId: string; newEmail: string; newMobile: string },
): NotificationRequest {
  return {
    eventId: stored.eventId,
    position: stored.globalPosition,
    at: stored.metadata.at,
    kind: 'contact-change.completed',
    title: 'E-mail id and mobile number changed',
    body: `A user's e-mail id is now ${data.newEmail} and mobile number ${data.newMobile}.`,
    link: portal.baUsers,
    baId: null,
    companyCode: stored.metadata.companyCode,
    audience: { roles: ['BA Admin'], companyCode: null, baId: null, adminsOfUser: data.userId, exclude: [] },
  };
}

/**
 * Vendor codes (issue 9): a parent or child code created in the ERP is told to the BA's users and to the SAP
 * requesters of the company code (the requester among them; the events do not name who asked); a request
 * rejected with `sendToBa` is told to the BA's users with the reason, so they correct their profile. Returns []
 * for every other event (and for `vendor-code-workbook-…` streams, which share some event names).
 */
export function vendorCodeNotifications(stored: StoredEvent): NotificationRequest[] {
  if (!stored.streamId.startsWith('vendor-code-') || stored.streamId.startsWith('vendor-code-workbook-')) return [];
  const d = stored.data as Record<string, unknown> | null;
  if (!d || typeof d['baId'] !== 'string' || typeof d['companyCode'] !== 'string') return [];
  const baId = d['baId'];
  const companyCode = d['companyCode'];
  const base = { eventId: stored.eventId, position: stored.globalPosition, at: stored.metadata.at, baId, companyCode };
  const toBa: Audience = { roles: BA_USERS, companyCode: null, baId, adminsOfUser: null, exclude: [] };
  const toRequesters: Audience = { roles: SAP_REQUESTERS, companyCode, baId: null, adminsOfUser: null, exclude: [] };
  const staffLink = `/sap/view/${encodeURIComponent(baId)}`;
  switch (stored.type) {
    case 'ParentCodeAssigned': {
      const title = 'SAP code created';
      const body = `Parent vendor code ${String(d['parentCode'])} was created for company code ${companyCode}.`;
      return [
        { ...base, kind: 'vendor-code.parent-assigned', title, body, link: portal.home, audience: toBa },
        { ...base, kind: 'vendor-code.parent-assigned', title, body, link: staffLink, audience: toRequesters },
      ];
    }
    case 'ChildCodeAssigned': {
      const title = 'Child vendor code created';
      const body = `Child vendor code ${String(d['childCode'])} was created for company code ${companyCode}.`;
      return [
        { ...base, kind: 'vendor-code.child-assigned', title, body, link: portal.home, audience: toBa },
        { ...base, kind: 'vendor-code.child-assigned', title, body, link: staffLink, audience: toRequesters },
      ];
    }
    case 'VendorCodeRequestRejected': {
      if (d['sendToBa'] !== true) return [];
      const remarks = typeof d['remarks'] === 'string' && d['remarks'] !== '' ? ` Remarks: ${d['remarks']}` : '';
      return [
        {
          ...base,
          kind: 'vendor-code.rejected',
          title: 'Please correct your profile',
          body: `Your SAP code request was sent back: ${String(d['reason'])}.${remarks} Please correct it under View and Edit Profile.`,
          link: portal.profile,
          audience: toBa,
        },
      ];
    }
    default:
      return [];
  }
}

/**
 * Block and unblock (issue 9, `block-<requestId>` streams): a new request → the approvers of its company code
 * (never the requester); applied in the ERP → the block requesters of the company code (the requester among them:
 * an audience names roles, not a person) except the approver, and the BA's users; rejected → the requesters.
 * The company code comes from the event's metadata (every block event is recorded under the request's code).
 */
export function blockNotifications(stored: StoredEvent): NotificationRequest[] {
  if (!stored.streamId.startsWith('block-')) return [];
  const d = stored.data as Record<string, unknown> | null;
  const companyCode = stored.metadata.companyCode;
  if (!d || typeof d['requestId'] !== 'string' || !companyCode) return [];
  const requestId = d['requestId'];
  const baId = typeof d['baId'] === 'string' ? d['baId'] : null;
  const actor = stored.metadata.actor.userId;
  const base = { eventId: stored.eventId, position: stored.globalPosition, at: stored.metadata.at, baId, companyCode };
  const staff = (roles: readonly Role[]): Audience => ({ roles, companyCode, baId: null, adminsOfUser: null, exclude: [actor] });
  const link = `/blocks/${encodeURIComponent(requestId)}/show`;
  switch (stored.type) {
    case 'BlockRequested': {
      const scope = d['scope'] as { vendorCode?: string } | undefined;
      const action = d['action'] === 'unblock' ? 'Unblock' : 'Block';
      return [
        {
          ...base,
          kind: 'block.requested',
          title: `${action} request waiting for approval`,
          body: `${action} of vendor code ${String(scope?.vendorCode ?? '')} (company code ${companyCode}) was requested: ${String(d['reason'] ?? '')}.`,
          link,
          audience: staff(BLOCK_APPROVERS),
        },
      ];
    }
    case 'BlockApplied': {
      const unblocked = d['action'] === 'unblock';
      const title = unblocked ? 'Vendor unblocked' : 'Vendor blocked';
      const body = `Vendor code ${String(d['vendorCode'])} (company code ${companyCode}): ${String(d['message'] ?? '')}.`;
      const toStaff: NotificationRequest = { ...base, kind: 'block.applied', title, body, link, audience: staff(BLOCK_REQUESTERS) };
      if (!baId) return [toStaff];
      const toBa: Audience = { roles: BA_USERS, companyCode: null, baId, adminsOfUser: null, exclude: [] };
      const baBody = unblocked
        ? `Your vendor account (vendor code ${String(d['vendorCode'])}) is active again.`
        : `Your vendor account (vendor code ${String(d['vendorCode'])}) is blocked. Please contact the admin team.`;
      return [toStaff, { ...base, kind: 'block.applied', title: unblocked ? 'Vendor account unblocked' : 'Vendor account blocked', body: baBody, link: portal.home, audience: toBa }];
    }
    case 'BlockRejected':
      return [
        {
          ...base,
          kind: 'block.rejected',
          title: 'Block request rejected',
          body: `The block/unblock request was rejected. Remarks: ${String(d['remarks'] ?? '')}`,
          link,
          audience: staff(BLOCK_REQUESTERS),
        },
      ];
    default:
      return [];
  }
}

/**
 * What the notifications projection remembers per invoice (`notification_invoices`): later invoice events carry
 * only ids, and their notices name the invoice by its number.
 */
export type InvoiceSubject = { invoiceId: string; baId: string; invoiceNumber: string; companyCode: string | null; version: number };

const invoiceStatusNames: Record<string, string> = { S: 'Submitted', A: 'Acknowledged', V: 'Verified', B: 'Booked' };
/** Console (react-admin resource `invoices`) and portal (`/bill-hub/invoice/:id`) links of an invoice. */
const invoiceLinks = (invoiceId: string) => ({
  staff: `/invoices/${encodeURIComponent(invoiceId)}/show`,
  ba: `/bill-hub/invoice/${encodeURIComponent(invoiceId)}`,
});

/** The subject after an invoice event: the number and company code its edits and submission give it. */
export function evolveInvoiceSubject(subject: InvoiceSubject, stored: StoredEvent): InvoiceSubject {
  const d = stored.data as { fields?: { invoiceNumber?: unknown; companyCode?: unknown }; companyCode?: unknown } | null;
  const number = d?.fields?.invoiceNumber;
  const code = d?.companyCode ?? d?.fields?.companyCode;
  return {
    ...subject,
    invoiceNumber: typeof number === 'string' && number.trim() !== '' ? number.trim() : subject.invoiceNumber,
    companyCode: typeof code === 'string' && code !== '' ? code : subject.companyCode,
    version: stored.version,
  };
}

/**
 * Bill-Hub invoices (issue 11, `invoice-<id>` streams), worded with the subject as it stands after the event:
 * a submission → the commercial user it was submitted to (still holding an INVOICE_COMMERCIAL role in that company
 * code); rejected, booked, released → the BA's users; an SLA breach → whoever owes the next step (commercial for
 * S and A, accounts for V and B) in the invoice's company code. The actor is never told about their own action.
 */
export function invoiceNotifications(stored: StoredEvent, subject: InvoiceSubject): NotificationRequest[] {
  const d = stored.data as Record<string, unknown> | null;
  if (!d) return [];
  const companyCode = subject.companyCode ?? stored.metadata.companyCode;
  const actor = stored.metadata.actor.userId;
  const base = { eventId: stored.eventId, position: stored.globalPosition, at: stored.metadata.at, baId: subject.baId, companyCode };
  const links = invoiceLinks(subject.invoiceId);
  const staff = (roles: readonly Role[], users?: readonly string[]): Audience => ({
    roles,
    companyCode,
    baId: null,
    adminsOfUser: null,
    exclude: [actor],
    ...(users ? { users } : {}),
  });
  const toBa: Audience = { roles: BA_USERS, companyCode: null, baId: subject.baId, adminsOfUser: null, exclude: [actor] };
  const number = subject.invoiceNumber;
  switch (stored.type) {
    case 'InvoiceSubmitted': {
      const fields = d['fields'] as { submitToUserId?: unknown } | undefined;
      const submitTo = typeof fields?.submitToUserId === 'string' && fields.submitToUserId !== '' ? fields.submitToUserId : null;
      if (!submitTo || !companyCode) return [];
      const again = d['resubmission'] === true;
      return [
        {
          ...base,
          kind: again ? 'invoice.resubmitted' : 'invoice.submitted',
          title: again ? 'Invoice resubmitted' : 'Invoice submitted to you',
          body: again
            ? `Invoice ${number} (company code ${companyCode}) was corrected and submitted again for your acknowledgement.`
            : `Invoice ${number} (company code ${companyCode}) was submitted for your acknowledgement.`,
          link: links.staff,
          audience: staff(INVOICE_COMMERCIAL, [submitTo]),
        },
      ];
    }
    case 'InvoiceRejected':
      return [
        {
          ...base,
          kind: 'invoice.rejected',
          title: 'Invoice rejected',
          body: `Your invoice ${number} was rejected: ${String(d['remarks'] ?? '')}. Please correct it and submit it again.`,
          link: links.ba,
          audience: toBa,
        },
      ];
    case 'InvoiceBooked':
      return [
        {
          ...base,
          kind: 'invoice.booked',
          title: 'Invoice booked',
          body: `Your invoice ${number} was booked (document ${String(d['erpDocumentNumber'] ?? '')}).`,
          link: links.ba,
          audience: toBa,
        },
      ];
    case 'InvoiceReleased':
      return [
        {
          ...base,
          kind: 'invoice.released',
          title: 'Invoice released',
          body: `Payment of your invoice ${number} was released.`,
          link: links.ba,
          audience: toBa,
        },
      ];
    case 'InvoiceSlaBreached': {
      const status = String(d['status'] ?? '');
      const owners = status === 'S' || status === 'A' ? INVOICE_COMMERCIAL : status === 'V' || status === 'B' ? INVOICE_ACCOUNTS : null;
      if (!owners || !companyCode) return [];
      return [
        {
          ...base,
          kind: 'invoice.overdue',
          title: 'Invoice overdue',
          body: `Invoice ${number} (company code ${companyCode}) has waited past its time limit while ${invoiceStatusNames[status] ?? status}.`,
          link: links.staff,
          audience: staff(owners),
        },
      ];
    }
    default:
      return [];
  }
}

/** A submitted memo (issue 11, `memo-<id>` streams) → the commercial users of its company code. */
export function memoNotifications(stored: StoredEvent): NotificationRequest[] {
  if (stored.type !== 'MemoSubmitted' || !stored.streamId.startsWith('memo-')) return [];
  const d = stored.data as { memoId?: unknown; memoNumber?: unknown; baId?: unknown; companyCode?: unknown; invoiceIds?: unknown } | null;
  if (!d || typeof d.memoId !== 'string' || typeof d.companyCode !== 'string') return [];
  const count = Array.isArray(d.invoiceIds) ? d.invoiceIds.length : 0;
  return [
    {
      eventId: stored.eventId,
      position: stored.globalPosition,
      at: stored.metadata.at,
      kind: 'memo.submitted',
      title: 'Memo submitted',
      body: `Memo ${String(d.memoNumber ?? '')} with ${count} invoice${count === 1 ? '' : 's'} was submitted (company code ${d.companyCode}).`,
      link: `/memos/${encodeURIComponent(d.memoId)}/show`,
      baId: typeof d.baId === 'string' ? d.baId : null,
      companyCode: d.companyCode,
      audience: { roles: INVOICE_COMMERCIAL, companyCode: d.companyCode, baId: null, adminsOfUser: null, exclude: [stored.metadata.actor.userId] },
    },
  ];
}
