import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import { itemsOf, type OnboardingState } from '../../../domain/src/onboarding/state';
import { DomainError } from '../../../domain/src/shared/errors';
import { sendOnboardingAction } from '../onboarding/client';
import { CommandFailedError } from '../shared/command-deadline';
import { DOCUMENT_EXPIRY_ACTOR } from './messages';

export type RecordDocumentExpiryArgs = {
  baId: string;
  docId: string;
  validTill: string;
  /** The reminder (days before validTill), or null for the expiry itself. */
  daysBefore: number | null;
  /** Bumped by the workflow only after the onboarding workflow failed the command for good (a new request). */
  round: number;
  correlationId: string;
};

/**
 * recorded: the onboarding workflow has it (now or on an earlier attempt) and the document is still the one
 * the timer watches. gone: the document was replaced, deleted, rejected or re-dated, or the lifecycle refused
 * (the timer ends). failed: the onboarding workflow's own activity gave up; the timer tries again later.
 */
export type RecordDocumentExpiryResult =
  | { outcome: 'recorded' }
  | { outcome: 'gone'; reason: string }
  | { outcome: 'failed'; reason: string };

/**
 * The request id, and so the onboarding update id: a retried attempt of this activity is the same update, which
 * Temporal (and the lifecycle's `recent` answers across continue-as-new) answers once. The date is part of it
 * so a document approved again with another date is a new request, not an old answer.
 */
export const expiryRequestId = (a: Pick<RecordDocumentExpiryArgs, 'docId' | 'validTill' | 'daysBefore' | 'round'>): string =>
  `expiry:${a.docId}:${a.validTill}:${a.daysBefore ?? 'expired'}${a.round > 0 ? `:r${a.round}` : ''}`;

export const expiryCommand = (a: Pick<RecordDocumentExpiryArgs, 'docId' | 'validTill' | 'daysBefore'>): OnboardingCommand =>
  a.daysBefore === null
    ? { type: 'MarkDocumentExpired', docId: a.docId, validTill: a.validTill }
    : { type: 'MarkDocumentExpiring', docId: a.docId, validTill: a.validTill, daysBefore: a.daysBefore };

/** Why the timer has nothing more to do for this document, or null while it is the approved one with this date. */
export function whyNotWatched(state: OnboardingState, docId: string, validTill: string): string | null {
  const current = itemsOf(state).documents[docId];
  if (!current) return 'The document was replaced or deleted';
  if (current.review.status !== 'approved') return `The document is ${current.review.status}`;
  const now = current.document.validTill;
  if (now !== validTill) return `The document is now valid till ${now ?? 'no date'}`;
  return null;
}

/**
 * The document-expiry timers' one activity: asks the BA's onboarding lifecycle to record a reminder or the
 * expiry, through the same generic command update the API uses, so the decider (and its lock) stays the only
 * writer of the BA's stream. `temporal` is the worker's client (worker.ts).
 */
export function createDocumentExpiryActivities({ temporal }: { temporal?: Client }) {
  return {
    async recordDocumentExpiry(args: RecordDocumentExpiryArgs): Promise<RecordDocumentExpiryResult> {
      // A worker built without a client cannot send; failing (and retrying) keeps the timer until one can.
      if (!temporal) throw new Error('recordDocumentExpiry needs a Temporal client (createActivities({ temporal }))');
      try {
        const { state } = await sendOnboardingAction(
          temporal,
          args.baId,
          { kind: 'command', command: expiryCommand(args) },
          {
            actor: DOCUMENT_EXPIRY_ACTOR,
            requestId: expiryRequestId(args),
            correlationId: args.correlationId,
            // Every lifecycle runs on the worker's one queue: a lifecycle that had completed is resumed there.
            taskQueue: Context.current().info.taskQueue,
          },
        );
        const reason = whyNotWatched(state, args.docId, args.validTill);
        return reason === null ? { outcome: 'recorded' } : { outcome: 'gone', reason };
      } catch (error) {
        // The decider or the lifecycle refused: retrying the same request cannot change that.
        if (error instanceof DomainError) return { outcome: 'gone', reason: error.message };
        if (error instanceof CommandFailedError) return { outcome: 'failed', reason: error.message };
        throw error;
      }
    },
  };
}

export type DocumentExpiryActivities = ReturnType<typeof createDocumentExpiryActivities>;
