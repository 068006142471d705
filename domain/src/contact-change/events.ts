import type { Actor, DomainEvent } from '../shared/events';

/**
 * The contact-change lifecycle's events, on stream `contact-change-<changeId>`. Event names are wire
 * contracts: add new ones, never rename. No event carries a secret: the link's token appears only as its
 * sha256, and the codes sent for the OTP step never appear at all.
 */
export type ContactChangeRequested = DomainEvent<
  'ContactChangeRequested',
  {
    changeId: string;
    baId: string;
    /** The BA user whose e-mail id and mobile number change. */
    userId: string;
    /** sha256 (hex) of the secret half of the link's token. */
    tokenHash: string;
    requestedBy: Actor;
    /** ISO time after which the link no longer works. */
    expiresAt: string;
  }
>;
export type ContactIdentityCheckFailed = DomainEvent<'ContactIdentityCheckFailed', { changeId: string; attempt: number }>;
export type ContactIdentityConfirmed = DomainEvent<'ContactIdentityConfirmed', { changeId: string }>;
export type ContactChangeOtpSent = DomainEvent<
  'ContactChangeOtpSent',
  {
    changeId: string;
    newEmail: string;
    newMobile: string;
    /** The OTP challenge (api/src/identity/store/otp.ts) holding the codes' hashes; not a secret by itself. */
    challengeId: string;
    /** True when the same codes' challenge was sent again ("Resend OTP"). */
    resend: boolean;
  }
>;
export type ContactChangeCompleted = DomainEvent<
  'ContactChangeCompleted',
  { changeId: string; userId: string; newEmail: string; newMobile: string }
>;
export type ContactChangeExpired = DomainEvent<'ContactChangeExpired', { changeId: string; expiresAt: string }>;
export type ContactChangeLocked = DomainEvent<'ContactChangeLocked', { changeId: string; attempts: number }>;
/** Closed because a newer change (`supersededBy`) was started for the same user: its link is dead. */
export type ContactChangeCancelled = DomainEvent<'ContactChangeCancelled', { changeId: string; supersededBy: string }>;

export type ContactChangeEvent =
  | ContactChangeRequested
  | ContactIdentityCheckFailed
  | ContactIdentityConfirmed
  | ContactChangeOtpSent
  | ContactChangeCompleted
  | ContactChangeExpired
  | ContactChangeLocked
  | ContactChangeCancelled;

export const CONTACT_CHANGE_EVENT_TYPES = [
  'ContactChangeRequested',
  'ContactIdentityCheckFailed',
  'ContactIdentityConfirmed',
  'ContactChangeOtpSent',
  'ContactChangeCompleted',
  'ContactChangeExpired',
  'ContactChangeLocked',
  'ContactChangeCancelled',
] as const satisfies readonly ContactChangeEvent['type'][];

export const contactChangeStreamId = (changeId: string): string => `contact-change-${changeId}`;
