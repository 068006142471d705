import { BA_ROLES, REVIEW_STAGE_ROLES, type Role } from '../../../domain/src/identity/roles';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
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
  | 'contact-change.completed';

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
  version: number;
};

const BA_USERS: readonly Role[] = BA_ROLES;
const reviewers = (stage: 1 | 2): readonly Role[] => REVIEW_STAGE_ROLES[stage];
const consoleLink = (baId: string) => `/business-associates/${encodeURIComponent(baId)}/show`;
/** Portal routes (portal/src/identity/routing.ts `paths`). */
const portal = { status: '/onboard/status', home: '/home', baUsers: '/onboard/BA/add-new-ba-user' } as const;

const nameOf = (subject: BaSubject) => subject.companyName ?? 'A business associate';

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
    case 'OnboardingRejected':
    case 'BusinessAssociateVerified':
    case 'ReviewOverdue':
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
      return [];
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
