import { ApplicationFailure } from '@temporalio/common';
import { DomainError, type DomainErrorCode } from '../../../domain/src/shared/errors';

/**
 * How a refused command crosses Temporal: an ApplicationFailure typed by the DomainError code, with the
 * error's fields as its one detail. Shared by the workflow (validators), the activity and the client, which
 * turns it back into the same DomainError. Part of the wire contract.
 */
export type RefusalDetails = { code: DomainErrorCode; message: string; errors?: Record<string, string> };

const CODES: readonly DomainErrorCode[] = ['validation', 'forbidden', 'not_found', 'conflict', 'rule'];

/** A refusal is an answer, not a fault: non-retryable, so neither the activity nor the update is retried. */
export function refusalFailure(error: DomainError): ApplicationFailure {
  const details: RefusalDetails = error.errors
    ? { code: error.code, message: error.message, errors: error.errors }
    : { code: error.code, message: error.message };
  return ApplicationFailure.create({
    message: error.message,
    type: error.code,
    nonRetryable: true,
    details: [details],
  });
}

/** The DomainError a refusal failure stands for, or null when the failure is something else. */
export function domainErrorFrom(failure: unknown): DomainError | null {
  if (!(failure instanceof ApplicationFailure)) return null;
  const code = failure.type as DomainErrorCode | null | undefined;
  if (!code || !CODES.includes(code)) return null;
  const details = failure.details?.[0] as Partial<RefusalDetails> | undefined;
  const errors = details?.errors && typeof details.errors === 'object' ? details.errors : undefined;
  return new DomainError(code, details?.message ?? failure.message, errors);
}

/**
 * Runs an activity's work with its refusals turned into refusal failures (non-retryable: a refusal is an
 * answer); anything else (database down, concurrent append, a lost connection) is thrown as is and retried.
 */
export async function refusalsAsFailures<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw refusalFailure(error);
    throw error;
  }
}
