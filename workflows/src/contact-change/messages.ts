import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ContactChangeState } from '../../../domain/src/contact-change/decide';
import type { Actor } from '../../../domain/src/shared/events';

/**
 * The contact-change lifecycle's wire contract: workflow id, input, updates and query. Names are wire
 * contracts (running workflows depend on them): add new ones, never rename.
 */

/** One lifecycle per change; the change id is also the first half of the link's token. */
export const contactChangeWorkflowId = (changeId: string): string => `contact-change-${changeId}`;

/** CONTACT_CHANGE_TTL default: the e-mailed link works for 24 hours. */
export const DEFAULT_CONTACT_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

export type ContactChangeInput = {
  changeId: string;
  baId: string;
  /** The BA's company code, for the events' metadata. */
  companyCode: string | null;
  userId: string;
  /** sha256 (hex) of the link's secret: the secret itself never reaches Temporal. */
  tokenHash: string;
  /** Staff member or BA Admin who started the change. */
  requestedBy: Actor;
  correlationId: string;
  requestId: string;
  /** How long the link works (default 24 h); tests pass seconds. */
  ttlMs?: number;
  /**
   * Set by the API (epoch ms): a run that first gets to work after it records nothing and refuses the start,
   * whose caller was told nothing happened (workflows/src/shared/deadline.ts).
   */
  deadline?: number;
};

/** Every update answers with the state after it and the position of its last event (read-your-writes). */
export type ContactChangeUpdateResult = { state: ContactChangeState; lastGlobalPosition: number };

/**
 * What every step carries besides its payload: who acts, and ids for idempotency and tracing. `deadline`
 * (epoch ms, set by the API): past it the step is refused, never applied.
 */
export type StepContext = { actor: Actor; requestId: string; correlationId: string; deadline?: number };

export type CheckIdentityArgs = StepContext & { matched: boolean };
export type OtpSentArgs = StepContext & { newEmail: string; newMobile: string; challengeId: string; resend: boolean };
/**
 * Sent once the API has verified the codes of `challengeId` and the new password against the rule. The API
 * stored the password as a credential (api/src/identity/store/credentials.ts); only its id travels here and
 * into the user's UserPasswordChanged, so this history never holds a hash. `passwordHash` is only in histories
 * recorded before issue 6.
 */
export type CompleteArgs = StepContext & { challengeId: string; credentialId: string; passwordHash?: string };
/** Sent by the API when a newer change (`supersededBy`) is started for the same user. */
export type CancelArgs = StepContext & { supersededBy: string };

/** Sent by `startContactChange` with the start (update-with-start): answers once the request is recorded. */
export const awaitRequestedUpdate = defineUpdate<ContactChangeUpdateResult, []>('awaitRequested');

/** The identity dialog's outcome (matched or not; the comparison is the API's). */
export const checkIdentityUpdate = defineUpdate<ContactChangeUpdateResult, [CheckIdentityArgs]>('checkIdentity');

/** Codes went to the new mobile and e-mail id (or were sent again). */
export const otpSentUpdate = defineUpdate<ContactChangeUpdateResult, [OtpSentArgs]>('otpSent');

/** The codes were right: change the user's contact and password, close the change. */
export const completeUpdate = defineUpdate<ContactChangeUpdateResult, [CompleteArgs]>('complete');

/** A newer change for the same user was started: this one closes (ContactChangeCancelled), its link dies. */
export const cancelUpdate = defineUpdate<ContactChangeUpdateResult, [CancelArgs]>('cancel');

/** The decider state as the workflow holds it now. */
export const contactChangeStateQuery = defineQuery<ContactChangeState>('state');
