import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { userIdForUsername } from '../../../domain/src/identity/users';
import { adminNameFromEmail } from '../../../domain/src/registration/decide';
import { baIdForRegistration } from '../../../domain/src/registration/ids';
import type { Actor } from '../../../domain/src/shared/events';
import { completeRegistration, startRegistration } from './client';
import { registrationWorkflowId, type CompleteArgs, type CompleteResult, type RegistrationInput } from './messages';

/**
 * The registration journeys the integration tests drive and the golden histories are recorded from, kept in
 * one place so the recorded histories are exactly what the tests prove.
 */

/** The API's stored credential for the chosen password: the workflow only carries its id to the user's event. */
export const CREDENTIAL_ID = 'credential-of-the-registrant';

export const registrantActor = (registrationId: string): Actor => ({
  userId: `registration-${registrationId}`,
  role: 'Registrant',
});

export function registrationInput(overrides: Partial<RegistrationInput> = {}): RegistrationInput {
  const registrationId = overrides.registrationId ?? randomUUID();
  const email = overrides.email ?? `owner-${registrationId.slice(0, 8)}@acme.test`;
  return {
    registrationId,
    challengeId: randomUUID(),
    mobileNo: '9876543210',
    email,
    companyCode: '1000',
    baId: baIdForRegistration(registrationId),
    userId: userIdForUsername(email),
    ttlMs: 60_000,
    actor: registrantActor(registrationId),
    correlationId: randomUUID(),
    requestId: randomUUID(),
    ...overrides,
  };
}

export const completeArgs = (input: RegistrationInput, overrides: Partial<CompleteArgs> = {}): CompleteArgs => ({
  credentialId: CREDENTIAL_ID,
  actor: { userId: input.userId, role: 'BA Admin', name: adminNameFromEmail(input.email) },
  requestId: randomUUID(),
  correlationId: input.correlationId,
  ...overrides,
});

/** start → both codes matched → completed: the BA Admin, RegistrationCompleted and the BA's lifecycle. */
export async function completedJourney(
  client: Client,
  taskQueue: string,
  input: RegistrationInput,
): Promise<CompleteResult> {
  await startRegistration(client, taskQueue, input);
  const result = await completeRegistration(client, input.registrationId, completeArgs(input), `verify-${randomUUID()}`);
  await client.workflow.getHandle(registrationWorkflowId(input.registrationId)).result();
  return result;
}

/** start → nobody completes it → RegistrationExpired when its lifetime (input.ttlMs) runs out. */
export async function expiredJourney(client: Client, taskQueue: string, input: RegistrationInput): Promise<void> {
  await startRegistration(client, taskQueue, input);
  await client.workflow.getHandle(registrationWorkflowId(input.registrationId)).result();
}
