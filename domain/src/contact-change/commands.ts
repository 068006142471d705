import type { Actor } from '../shared/events';

/**
 * Imperative names. Checks that need the outside world (does the token match, does the given e-mail and
 * mobile match the user's, are the OTP codes right) happen before the command: the command carries their
 * validated result, so the decision depends on the stream alone and replays the same way.
 */
export type RequestContactChange = {
  type: 'RequestContactChange';
  changeId: string;
  baId: string;
  userId: string;
  tokenHash: string;
  requestedBy: Actor;
  expiresAt: string;
};
/** The outcome of comparing the registered e-mail id and mobile number with what the user typed. */
export type CheckContactIdentity = { type: 'CheckContactIdentity'; matched: boolean };
export type RecordContactOtpSent = {
  type: 'RecordContactOtpSent';
  newEmail: string;
  newMobile: string;
  challengeId: string;
  resend: boolean;
};
/** Sent once the codes of `challengeId` were verified. */
export type CompleteContactChange = { type: 'CompleteContactChange'; challengeId: string };
/** Sent by the workflow's timer, never by a person. */
export type ExpireContactChange = { type: 'ExpireContactChange' };
/** A newer change was started for the same user: this link stops working (only the latest one may be used). */
export type CancelContactChange = { type: 'CancelContactChange'; supersededBy: string };

export type ContactChangeCommand =
  | RequestContactChange
  | CheckContactIdentity
  | RecordContactOtpSent
  | CompleteContactChange
  | ExpireContactChange
  | CancelContactChange;
