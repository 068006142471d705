import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { CreateRfpDraft, RfpCommand, SubmitLaneResponses } from '../../../domain/src/rfp/commands';
import type { Actor } from '../../../domain/src/shared/events';
import type { RfpSummary } from './summary';

/**
 * The RFP lifecycle's wire contract: workflow id, input, updates and query. Names are wire contracts (running
 * workflows depend on them): add new ones, never rename.
 */

/** One lifecycle per RFP; the RFP code is the business id (and its stream is `rfp-<rfpCode>` too). */
export const rfpWorkflowId = (rfpCode: string): string => `rfp-${rfpCode}`;

export type RfpInput = {
  rfpCode: string;
  /** Wizard step 1's form: the lifecycle's first command is CreateRfpDraft with it. */
  header: CreateRfpDraft['header'];
  createdBy: Actor;
  /**
   * The creator's company code, recorded in RfpDraftCreated's metadata: the staff dashboard shows an RFP to
   * the staff of that code (projections/src/rfps). Absent in runs started before it existed: no code.
   */
  companyCode?: string | null;
  correlationId: string;
  /** The HTTP request that created the RFP: a different request joining the running lifecycle is told it exists. */
  requestId: string;
  /** Set by the API (epoch ms): a run that first gets to work after it records nothing (shared/deadline.ts). */
  deadline?: number;
  /** Set only by continue-as-new. */
  carry?: RfpCarry;
  /**
   * Continue as new once the run's history is longer than this, besides when Temporal suggests it. Tests set it
   * low to cross a run boundary mid-lifecycle; production leaves it unset.
   */
  continueAsNewAfterHistoryLength?: number;
};

/** Every answer: the RFP's summary after the command, its stream version and last position (read-your-writes). */
export type RfpStateView = { summary: RfpSummary; version: number; lastGlobalPosition: number };
/** `eventTypes`: what the command appended (empty when it changed nothing, e.g. the same backhaul value again). */
export type RfpUpdateResult = RfpStateView & { eventTypes: string[] };
export type RfpCreatedResult = RfpUpdateResult & { startedBy: string };

/**
 * What one run hands to the next on continue-as-new: the summary, never the RFP's lanes and quotes (5,000 lanes
 * from 50 BAs would pass Temporal's payload limit); the activity decides against the stream.
 */
export type RfpCarry = {
  summary: RfpSummary;
  version: number;
  lastGlobalPosition: number;
  /** Answers of the latest commands by request id (Temporal dedupes update ids within one run only). */
  recent?: [requestId: string, result: RfpUpdateResult][];
};

/** How many answered request ids a run hands to the next. */
export const RECENT_REQUESTS = 100;

/**
 * The commands people send. CreateRfpDraft starts the lifecycle; SubmitLaneResponses comes without `baBlocked`,
 * which the activity reads from the block read model (whatever a caller says is replaced).
 */
export type RfpClientCommand = Exclude<RfpCommand, CreateRfpDraft | SubmitLaneResponses> | Omit<SubmitLaneResponses, 'baBlocked'>;

/** Who acts, ids for idempotency and tracing, and the command; `deadline` as for every command. */
export type RfpCommandArgs = { actor: Actor; requestId: string; correlationId: string; deadline?: number; command: RfpClientCommand };

/** Sent with the start (update-with-start): answers once RfpDraftCreated is recorded, or with its refusal. */
export const awaitCreatedUpdate = defineUpdate<RfpCreatedResult, []>('awaitCreated');
/** Any RFP command but creation, decided by the activity against the stream. */
export const rfpCommandUpdate = defineUpdate<RfpUpdateResult, [RfpCommandArgs]>('command');
/** The summary as the workflow holds it now. */
export const rfpStateQuery = defineQuery<RfpStateView>('state');
