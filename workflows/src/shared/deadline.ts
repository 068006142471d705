import { ActivityFailure, ApplicationFailure } from '@temporalio/common';

/*
 * Workflow side of "commands never hang" (issue 6), shared by the three lifecycles. Workflow code only
 * imports @temporalio/common here, so this module is safe in the workflow bundle and in the client.
 *
 * A command sent by the API carries `deadline` (epoch ms): the API stops waiting shortly after it and tells the
 * user nothing was changed. The validator and the handler (under the lock) refuse the command once workflow
 * time is past it, so a command queued while the worker was down is never applied later. Workflow time is
 * the server's time of the workflow task, the same in every replay.
 */

/** ApplicationFailure types: wire contracts between the workflows and their clients, never renamed. */
export const DEADLINE_PASSED = 'CommandDeadlinePassed';
export const COMMAND_FAILED = 'CommandFailed';

/** Refuses (nothing appended) a command whose deadline has passed; a command without one always passes. */
export function refuseIfLate(deadline: unknown): void {
  if (typeof deadline === 'number' && Date.now() > deadline) {
    throw ApplicationFailure.create({
      type: DEADLINE_PASSED,
      message: 'The command reached the workflow after its deadline: nothing was changed',
      nonRetryable: true,
    });
  }
}

/**
 * What an update handler throws for a failed activity: a refusal (non-retryable ApplicationFailure from the
 * decider or the store) as is; a fault that outlived the activity's retry bound as a CommandFailed failure
 * the client reports (the update fails, the lifecycle keeps running and takes the next command). `log` is
 * the workflow's replay-aware logger, so the operator sees the cause once.
 */
export function commandFailure(
  error: unknown,
  what: string,
  log: (message: string, attrs: Record<string, unknown>) => void,
): unknown {
  if (!(error instanceof ActivityFailure)) return error;
  // A refusal raised on purpose by the activity (the decider, the stream moved): an answer, not a fault.
  if (error.cause instanceof ApplicationFailure && error.cause.nonRetryable) return error.cause;
  log('command failed after its retries', { command: what, error: describe(error) });
  return ApplicationFailure.create({
    type: COMMAND_FAILED,
    message:
      `The system could not record this change (${what}). ` +
      'Please try again later; if it keeps failing, tell the administrator.',
    nonRetryable: true,
  });
}

function describe(error: ActivityFailure): string {
  const cause = error.cause;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : error.message;
}
