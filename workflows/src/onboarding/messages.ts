import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import type { OnboardingState } from '../../../domain/src/onboarding/state';
import type { Actor } from '../../../domain/src/shared/events';

/**
 * The onboarding lifecycle's wire contract: workflow id, input, updates and query. Names are wire contracts
 * (running workflows and recorded histories depend on them): add new ones, never rename.
 */

/** One lifecycle per BA: the business id is the workflow id, so a second start cannot run a second one. */
export const onboardingWorkflowId = (baId: string): string => `onboarding-${baId}`;

/**
 * Patch id (a wire contract, never renamed or reused): runs started since issue 8 keep running after the BA is
 * verified (item commands, other company codes, change requests and expiry reminders still arrive); runs
 * recorded before it ended at verification and replay that way.
 */
export const CONTINUES_AFTER_VERIFICATION = 'onboarding-continues-after-verification';

export const DEFAULT_REVIEW_SLA_MS = 48 * 60 * 60 * 1000;

export type OnboardingInput = {
  baId: string;
  companyCode: string;
  adminUserId: string | null;
  mobileNo: string | null;
  email: string | null;
  /** Who created the BA (the seed, later the registration flow). */
  actor: Actor;
  correlationId: string;
  requestId: string;
  /** How long a review stage may wait for a decision before it is reported overdue (default 48 h). */
  reviewSlaMs?: number;
  /** Set only by continue-as-new: the state the previous run ended with. */
  carry?: OnboardingCarry;
  /**
   * Continue as new once the run's history is longer than this, besides when Temporal suggests it. Tests set it
   * low to cross a run boundary mid-lifecycle; production leaves it unset.
   */
  continueAsNewAfterHistoryLength?: number;
  /**
   * Set by the client when the BA's lifecycle had completed (verified before the lifecycle kept running) and a
   * command arrives: the new run loads the BA's state from its stream instead of creating the BA.
   */
  resume?: boolean;
  /**
   * Tests only: end the run at verification as runs from before CONTINUES_AFTER_VERIFICATION do, so a test can
   * hold a completed lifecycle and show that a later command resumes it.
   */
  endAtVerification?: boolean;
  /** The expiry reminders' durations handed to each document-expiry child (tests shorten them). */
  documentExpiry?: { reminderDaysBefore?: number[]; dayMs?: number };
};

/** What one run hands to the next on continue-as-new. */
export type OnboardingCarry = {
  state: OnboardingState;
  lastGlobalPosition: number;
  /** When the review stage now waiting began (epoch ms), so the SLA keeps counting across runs. */
  stageSince: number | null;
  /**
   * The answers of the latest commands, by request id (oldest first, at most RECENT_REQUESTS): Temporal
   * dedupes update ids within one run only, so a retried request that reaches the next run gets its answer
   * from here instead of being decided again.
   */
  recent?: [requestId: string, result: OnboardingUpdateResult][];
};

/** How many answered request ids a run hands to the next. */
export const RECENT_REQUESTS = 100;

/** Every update answers with the state after it and the position of its last event (read-your-writes). */
export type OnboardingUpdateResult = { state: OnboardingState; lastGlobalPosition: number };

/**
 * What every update carries besides its payload: who acts, and ids for idempotency and tracing. `deadline`
 * (epoch ms, set by the API): past it the command is refused, never applied (workflows/src/shared/deadline.ts).
 */
export type ActionContext = { actor: Actor; requestId: string; correlationId: string; deadline?: number };

export type SaveDetailsArgs = ActionContext & { details: unknown };
export type SubmitArgs = ActionContext;
export type ReviewDecisionArgs = ActionContext & { stage: number; remarks?: string | null };

/** Any onboarding command but the lifecycle's own (creation, the SLA timer): the item commands of issue 8 and more. */
export type CommandArgs = ActionContext & { command: OnboardingCommand };

export type AwaitCreatedResult = OnboardingUpdateResult & { startedBy: string };

/** Sent by the BA portal: save (a draft of) the company details. */
export const saveDetailsUpdate = defineUpdate<OnboardingUpdateResult, [SaveDetailsArgs]>('saveDetails');

/** Sent by the BA portal: submit the saved details for review (also the resubmission after a rejection). */
export const submitUpdate = defineUpdate<OnboardingUpdateResult, [SubmitArgs]>('submit');

/** Sent by the staff console: approve the review stage now waiting. */
export const approveUpdate = defineUpdate<OnboardingUpdateResult, [ReviewDecisionArgs]>('approve');

/** Sent by the staff console: reject the review stage now waiting, with remarks the BA will read. */
export const rejectUpdate = defineUpdate<OnboardingUpdateResult, [ReviewDecisionArgs]>('reject');

/**
 * Sent by the API (and the document-expiry timers): one onboarding command, decided like every other update.
 * Carries the item commands (bank accounts, GST rows, documents, concessions, vertical mapping, company codes,
 * change requests) and the submission and stage commands that name a company code.
 */
export const commandUpdate = defineUpdate<OnboardingUpdateResult, [CommandArgs]>('command');

/**
 * Sent by `startOnboarding` (with the start, as update-with-start): answers once the BA exists, so the caller
 * can rely on it. `startedBy` is the request id of the start that created the lifecycle.
 */
export const awaitCreatedUpdate = defineUpdate<AwaitCreatedResult, []>('awaitCreated');

/** Asked by the API and tests: the decider state as the workflow holds it now. */
export const stateQuery = defineQuery<OnboardingState>('state');
