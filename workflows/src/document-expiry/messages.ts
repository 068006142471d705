import { defineQuery, defineSignal, ParentClosePolicy, type ChildWorkflowOptions } from '@temporalio/workflow';
import type { Actor } from '../../../domain/src/shared/events';

/**
 * The document-expiry timers' wire contract: workflow id, input, signal and query. Names are wire contracts
 * (running timers and recorded histories depend on them): add new ones, never rename.
 *
 * One timer workflow per approved document with a validity date. The onboarding workflow starts it as a child
 * when it applies a DocumentReviewed 'approved' with a date (`documentExpiryChild`), abandoned on the parent's
 * close so the onboarding lifecycle may continue-as-new or end without stopping the reminders.
 */

/** One timer per document: the document's id is the business id, so a second start cannot run a second one. */
export const documentExpiryWorkflowId = (baId: string, docId: string): string => `document-expiry-${baId}-${docId}`;

/** The workflow type name as registered by workflows.ts. */
export const DOCUMENT_EXPIRY_WORKFLOW_TYPE = 'documentExpiryWorkflow';

/** Spec/issue 8 defaults: 30 days before, 7 days before, on the day. */
export const DEFAULT_REMINDER_DAYS_BEFORE: readonly number[] = [30, 7, 0];

/** A real day. Tests pass a few hundred milliseconds instead (design.md §4: durations are workflow inputs). */
export const DAY_MS = 86_400_000;

/** Who records the reminders and the expiry in the BA's stream. */
export const DOCUMENT_EXPIRY_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Document expiry' };

export type DocumentExpiryInput = {
  baId: string;
  docId: string;
  /** YYYY-MM-DD: the last day the document is valid (the approvedTill of its approval). */
  validTill: string;
  /** For logs and the query; the events take the name from the BA's stream. */
  documentTypeName: string;
  /** Days before `validTill` a reminder is recorded (0 = on the day). Default [30, 7, 0]. */
  reminderDaysBefore?: number[];
  /** Length of a day in milliseconds (default DAY_MS); tests make days short. */
  dayMs?: number;
  /** Traces the timer back to the approval that started it. */
  correlationId?: string;
};

/**
 * Sent when the same document is approved again with another date while its timer runs (a child start with
 * the same workflow id would be refused): the timer plans again for the new date.
 */
export const validTillChangedSignal = defineSignal<[{ validTill: string }]>('validTillChanged');

/** What a timer has planned and done, for tests and operators. */
export type DocumentExpirySchedule = {
  validTill: string;
  /** Reminders still to come (days before), in the order they fall due. */
  pending: number[];
  /** Reminders the onboarding workflow recorded (or answered for an earlier attempt). */
  recorded: number[];
  /** Reminders whose moment had passed before the timer planned them. */
  skipped: number[];
  expired: boolean;
  /** Why the timer stopped early: the document was replaced, deleted, rejected or re-dated. */
  endedBecause: string | null;
};

export const expiryScheduleQuery = defineQuery<DocumentExpirySchedule>('schedule');

/**
 * Options for `startChild(documentExpiryWorkflow, documentExpiryChild(input))` from the onboarding workflow:
 * the timer outlives its parent (ABANDON) so a continue-as-new or a closed lifecycle does not cancel it.
 */
export const documentExpiryChild = (
  input: DocumentExpiryInput,
): ChildWorkflowOptions & { workflowId: string; args: [DocumentExpiryInput] } => ({
  workflowId: documentExpiryWorkflowId(input.baId, input.docId),
  args: [input],
  parentClosePolicy: ParentClosePolicy.ABANDON,
});
