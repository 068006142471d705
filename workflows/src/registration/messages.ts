import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { RegistrationState } from '../../../domain/src/registration/state';
import type { Actor } from '../../../domain/src/shared/events';

/**
 * The registration lifecycle's wire contract: workflow id, input, updates and query. Names are wire contracts
 * (running workflows and recorded histories depend on them): add new ones, never rename.
 */

/** One lifecycle per registration: the business id is the workflow id. */
export const registrationWorkflowId = (registrationId: string): string => `registration-${registrationId}`;

/** REGISTRATION_TTL default: a registration not completed within 30 minutes lapses. */
export const DEFAULT_REGISTRATION_TTL_MS = 30 * 60 * 1000;

export type RegistrationInput = {
  registrationId: string;
  /** The OTP challenge that holds the two codes (also recorded in RegistrationStarted). */
  challengeId: string;
  mobileNo: string;
  /** Lower case; becomes the BA Admin's username. */
  email: string;
  companyCode: string;
  /** Derived by the caller (uuid v5 of the registration id; userIdForUsername of the e-mail): fixed from the start. */
  baId: string;
  userId: string;
  /** How long the registration waits for its codes (REGISTRATION_TTL, default 30 min). */
  ttlMs?: number;
  /** Who started it: an anonymous registrant, recorded on RegistrationStarted. */
  actor: Actor;
  correlationId: string;
  requestId: string;
  /**
   * Set by the API (epoch ms): a run that first gets to work after it records nothing and refuses the start,
   * whose caller was told nothing happened (workflows/src/shared/deadline.ts).
   */
  deadline?: number;
};

/** Every answer carries the state after it and the position of its last event (read-your-writes). */
export type RegistrationUpdateResult = { state: RegistrationState; lastGlobalPosition: number };

export type CompleteArgs = {
  /**
   * The `credentials` row the API stored the chosen password's hash in (api/src/identity/store/credentials.ts):
   * neither the password nor its hash ever enters this workflow's history.
   */
  credentialId: string;
  /** Only in histories recorded before issue 6 (the hash itself); never sent any more. */
  passwordHash?: string;
  /** The new BA Admin, as the actor of the events the completion appends. */
  actor: Actor;
  requestId: string;
  correlationId: string;
  /** Set by the API (epoch ms): past it the completion is refused, never applied. */
  deadline?: number;
};

export type CompleteResult = {
  registrationId: string;
  userId: string;
  baId: string;
  /** Position of the user's UserRegistered event: the API waits for the users read model to pass it. */
  userPosition: number;
  lastGlobalPosition: number;
};

/** Sent with the start (update-with-start): answers once RegistrationStarted is in the store. */
export const awaitStartedUpdate = defineUpdate<RegistrationUpdateResult, []>('awaitStarted');

/**
 * Sent by the API once both codes matched: registers the BA Admin, records the completion and starts the BA's
 * onboarding lifecycle; answers when all three are done. Refused (and nothing appended) once the registration
 * has expired or completed.
 */
export const completeUpdate = defineUpdate<CompleteResult, [CompleteArgs]>('complete');

/** Asked by the API and tests: the decider state as the workflow holds it now. */
export const stateQuery = defineQuery<RegistrationState>('state');
