import { createHash, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import { userDecider, userIdForUsername, userStreamId } from '../../../domain/src/identity/users';
import type { Actor } from '../../../domain/src/shared/events';
import { sendContactChangeStep, startContactChange } from './client';
import { contactChangeWorkflowId, type ContactChangeInput, type ContactChangeUpdateResult } from './messages';

/**
 * The contact-change journeys the integration tests drive and the golden histories are recorded from, kept
 * in one place so the recorded histories are exactly what the tests prove.
 */
export const requester: Actor = { userId: 'u-ba-admin', role: 'BA Admin', name: 'Asha Rao' };

/** The API's stored credential for the new password: the workflow only carries its id to the user's event. */
export const NEW_CREDENTIAL_ID = 'credential-of-the-new-password';

/** A BA user on its own stream, as registration or the BA Admin would create it. */
export async function registerBaUser(store: EventStore, username = `user-${randomUUID().slice(0, 8)}@acme.test`): Promise<Actor> {
  const userId = userIdForUsername(username);
  await handleCommand(
    store,
    userStreamId(userId),
    userDecider,
    {
      type: 'RegisterUser',
      userId,
      username,
      name: 'Ravi Kumar',
      credentialId: 'credential-of-the-old-password',
      roles: ['BA User'],
      companyCodes: ['1000'],
      baId: 'ba-1',
      mobileNo: '9876543210',
    },
    {
      commandId: `register-${userId}`,
      actor: { userId: 'seed', role: 'system' },
      at: new Date().toISOString(),
      companyCode: '1000',
      correlationId: 'scenario',
      causationId: null,
      workflowId: null,
      requestId: null,
    },
  );
  return { userId, role: 'BA User', name: 'Ravi Kumar' };
}

export function contactChangeInput(userId: string, overrides: Partial<ContactChangeInput> = {}): ContactChangeInput {
  const changeId = overrides.changeId ?? randomUUID();
  return {
    changeId,
    baId: 'ba-1',
    companyCode: '1000',
    userId,
    tokenHash: createHash('sha256').update(changeId).digest('hex'),
    requestedBy: requester,
    correlationId: randomUUID(),
    requestId: randomUUID(),
    ...overrides,
  };
}

/** Sends one step with a fresh request id (a new HTTP request). */
export const stepAs = (client: Client, changeId: string, actor: Actor, step: Parameters<typeof sendContactChangeStep>[2]) =>
  sendContactChangeStep(client, changeId, step, { actor, requestId: randomUUID() });

/**
 * requested → a failed identity try → identity confirmed → codes to one pair of addresses → Back, codes to
 * another → resend → completed with the latest codes.
 */
export async function completedJourney(client: Client, taskQueue: string, input: ContactChangeInput, user: Actor): Promise<ContactChangeUpdateResult> {
  const { changeId } = input;
  await startContactChange(client, taskQueue, input);
  await stepAs(client, changeId, user, { kind: 'checkIdentity', matched: false });
  await stepAs(client, changeId, user, { kind: 'checkIdentity', matched: true });
  await stepAs(client, changeId, user, { kind: 'otpSent', newEmail: 'first@acme.test', newMobile: '9000000001', challengeId: 'ch-1', resend: false });
  await stepAs(client, changeId, user, { kind: 'otpSent', newEmail: 'New@Acme.test', newMobile: '9123456780', challengeId: 'ch-2', resend: false });
  await stepAs(client, changeId, user, { kind: 'otpSent', newEmail: 'new@acme.test', newMobile: '9123456780', challengeId: 'ch-2', resend: true });
  const done = await stepAs(client, changeId, user, { kind: 'complete', challengeId: 'ch-2', credentialId: NEW_CREDENTIAL_ID });
  await client.workflow.getHandle(contactChangeWorkflowId(changeId)).result();
  return done;
}

/** requested → identity confirmed → left alone until the timer expires it (give a short ttlMs). */
export async function expiredJourney(client: Client, taskQueue: string, input: ContactChangeInput, user: Actor): Promise<ContactChangeUpdateResult> {
  await startContactChange(client, taskQueue, input);
  await stepAs(client, input.changeId, user, { kind: 'checkIdentity', matched: true });
  return client.workflow.getHandle(contactChangeWorkflowId(input.changeId)).result();
}
