import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { BlockState } from '../../../domain/src/block/decide';
import type { BlockAction, BlockLevel } from '../../../domain/src/block/events';
import type { Actor } from '../../../domain/src/shared/events';
import type { StoredFile } from '../../../domain/src/shared/files';

/**
 * The block lifecycle's wire contract: workflow id, input, updates and query. Names are wire contracts (running
 * workflows depend on them): add new ones, never rename.
 */

/** One workflow per request; the request id is a uuid chosen by the API. */
export const blockWorkflowId = (requestId: string): string => `block-${requestId}`;

/** ERP retry/poll timing (ms): outages back off 2 s doubling up to 10 min; a pending ERP request is asked again 1 s ×1.5 up to 30 s. */
export type BlockTiming = { retryInitialMs: number; retryMaxMs: number; pollInitialMs: number; pollMaxMs: number };
export const DEFAULT_BLOCK_TIMING: BlockTiming = { retryInitialMs: 2_000, retryMaxMs: 600_000, pollInitialMs: 1_000, pollMaxMs: 30_000 };

export type BlockInput = {
  requestId: string;
  action: BlockAction;
  /** An onboarded BA (its vendor code from vendor_codes or the ERP), or a nucleus vendor by PAN. */
  baId: string | null;
  pan: string | null;
  level: BlockLevel;
  /** Default: the BA's company code (a nucleus vendor needs one, or the ERP's first parent code is taken). */
  companyCode: string | null;
  /** For a child-level request: which child code. */
  childCode: string | null;
  reasonId: string;
  comments: string;
  file: StoredFile | null;
  endDate: string | null;
  requestedBy: Actor;
  correlationId: string;
  /** Set by the API (epoch ms): a run that first gets to work after it records nothing (shared/deadline.ts). */
  deadline?: number;
  /** Tests: shorter ERP retry and poll intervals. */
  timing?: Partial<BlockTiming>;
  /** Tests: the end date's timer fires this long after the block is applied instead of at the end date. */
  endAfterMs?: number;
};

export type BlockUpdateResult = { state: BlockState; lastGlobalPosition: number };

/** Who decides, and ids for idempotency; `deadline` as for every command. */
export type DecisionContext = { actor: Actor; requestId: string; correlationId: string; deadline?: number };
export type RejectArgs = DecisionContext & { remarks: string };

/** Sent with the start (update-with-start): answers once the request is recorded, or with its refusal. */
export const awaitRequestedUpdate = defineUpdate<BlockUpdateResult, []>('awaitRequested');
/** The second person approves: answers once BlockApproved is recorded (the ERP follows). */
export const approveUpdate = defineUpdate<BlockUpdateResult, [DecisionContext]>('approve');
export const rejectUpdate = defineUpdate<BlockUpdateResult, [RejectArgs]>('reject');
export const blockStateQuery = defineQuery<BlockUpdateResult>('state');
