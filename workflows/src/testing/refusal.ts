import { DomainError } from '../../../domain/src/shared/errors';

/**
 * The DomainError a call was refused with; fails the test (`expected the <what> to be refused`) if it was not
 * refused, and rethrows any other error.
 */
export async function refusal(call: Promise<unknown>, what = 'call'): Promise<DomainError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`expected the ${what} to be refused`);
}
