import {
  ApplicationFailure,
  WorkflowFailedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type WorkflowHandle,
} from '@temporalio/client';
import type { DomainError } from '../../../domain/src/shared/errors';
import { domainErrorFrom } from '../onboarding/refusal';
import { CommandFailedError, CommandTimeoutError } from './command-deadline';
import { COMMAND_FAILED, DEADLINE_PASSED } from './deadline';

/*
 * How the lifecycles' clients (registration, onboarding, contact change) turn Temporal's errors back into the
 * DomainErrors the API answers with. Client side only: workflow code must not import this module.
 */

/**
 * What to throw for an update that failed: the refusal the decider gave (WorkflowUpdateFailedError carrying a
 * refusal failure), `closed()` when the update could not reach a run (a closed run, or none under that id),
 * else the error itself.
 */
export async function explainUpdateError(
  error: unknown,
  closed: () => DomainError | Promise<DomainError>,
): Promise<unknown> {
  if (error instanceof WorkflowUpdateFailedError) return commandErrorFrom(error.cause) ?? error;
  if (error instanceof WorkflowNotFoundError) return closed();
  return error;
}

/**
 * What a failure that came back from a workflow means to the caller: a refusal (DomainError), a command
 * refused for arriving after its deadline (the caller is told nothing was changed), a command whose activity
 * failed for good; null for anything else.
 */
export function commandErrorFrom(failure: unknown): Error | null {
  if (failure instanceof ApplicationFailure && failure.type === DEADLINE_PASSED) return new CommandTimeoutError('not-applied');
  if (failure instanceof ApplicationFailure && failure.type === COMMAND_FAILED) return new CommandFailedError(failure.message);
  return domainErrorFrom(failure);
}

/** The refusal a failed run ended with, as a DomainError, if that is why it failed. */
export async function failureOf(handle: WorkflowHandle): Promise<DomainError | null> {
  const { status } = await handle.describe();
  if (status.name !== 'FAILED') return null;
  try {
    await handle.result();
    return null;
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) return null;
    let cause: unknown = error.cause;
    // A refused activity arrives wrapped: ActivityFailure → ApplicationFailure.
    while (cause instanceof Error) {
      const domain = domainErrorFrom(cause);
      if (domain) return domain;
      cause = cause.cause;
    }
    return null;
  }
}
