import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MemoState } from '../../../domain/src/memos/decide';
import type { Actor } from '../../../domain/src/shared/events';

/**
 * The memo lifecycle's wire contract: workflow id, input, updates and query (names are wire contracts: add new
 * ones, never rename).
 */
export const memoWorkflowId = (memoId: string): string => `memo-${memoId}`;

export type MemoInput = {
  memoId: string;
  baId: string;
  invoiceIds: string[];
  comments: string | null;
  submittedBy: Actor;
  correlationId: string;
  /** Set by the API (epoch ms): a run that first gets to work after it records nothing. */
  deadline?: number;
};

export type MemoUpdateResult = { state: MemoState; lastGlobalPosition: number };

export type AdvanceArgs = {
  actor: Actor;
  /** The HTTP request id: the update id, and the advance's id (a retried request records it once). */
  requestId: string;
  correlationId: string;
  amount: string;
  reference: string;
  paidOn: string;
  deadline?: number;
};

/** Sent with the start (update-with-start): answers once MemoSubmitted is recorded, or with the refusal. */
export const awaitMemoSubmittedUpdate = defineUpdate<MemoUpdateResult, []>('awaitSubmitted');
/** Accounts record an advance payment: answers once AdvancePaymentRecorded is recorded. */
export const recordAdvanceUpdate = defineUpdate<MemoUpdateResult, [AdvanceArgs]>('recordAdvance');
export const memoStateQuery = defineQuery<MemoUpdateResult>('state');
