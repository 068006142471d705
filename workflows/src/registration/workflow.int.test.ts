import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import { userDecider, userRefusals, userStreamId } from '../../../domain/src/identity/users';
import { baStreamId } from '../../../domain/src/onboarding/events';
import { BA_ADMIN_APPLICATIONS, registrationMessages } from '../../../domain/src/registration/decide';
import { registrationStreamId } from '../../../domain/src/registration/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { uniqueTaskQueue } from '../../../tests/support/temporal';
import { waitFor } from '../../../tests/support/wait';
import { getOnboardingState } from '../onboarding/client';
import { onboardingWorkflowId } from '../onboarding/messages';
import { refusal } from '../testing/refusal';
import { startTestWorker } from '../testing/worker';
import {
  completeRegistration,
  findCompletion,
  getRegistrationState,
  startRegistration,
} from './client';
import { registrationWorkflowId } from './messages';
import { completeArgs, completedJourney, expiredJourney, CREDENTIAL_ID, registrationInput } from './scenarios';

// Set here, not only in jest.config: jest-circus reads the timeout of the global config, not the project's.
jest.setTimeout(60_000);
const taskQueue = uniqueTaskQueue('registration-workflow');
let store: EventStore;
let client: Client;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ store, client, stop } = await startTestWorker(taskQueue));
});

afterAll(async () => {
  await stop?.();
});

const typesOf = async (stream: string): Promise<string[]> => (await store.readStream(stream)).map((e) => e.type);
const history = (registrationId: string) =>
  client.workflow.getHandle(registrationWorkflowId(registrationId)).fetchHistory();

const firstOf = async (stream: string, type: string): Promise<StoredEvent | undefined> =>
  (await store.readStream(stream)).find((e) => e.type === type);

describe('registration workflow', () => {
  test('completion: the BA Admin is registered, the registration completed, the BA lifecycle started, the timer cancelled', async () => {
    const input = registrationInput();
    const started = await startRegistration(client, taskQueue, input);
    expect(started.state).toMatchObject({ status: 'started', challengeId: input.challengeId, email: input.email });
    const [startedEvent] = await store.readStream(registrationStreamId(input.registrationId));
    expect(startedEvent?.data).toMatchObject({
      registrationId: input.registrationId,
      challengeId: input.challengeId,
      mobileNo: input.mobileNo,
      email: input.email,
      companyCode: '1000',
    });
    expect(startedEvent?.metadata.actor.role).toBe('Registrant');

    const args = completeArgs(input);
    const result = await completeRegistration(client, input.registrationId, args, `verify-${randomUUID()}`);
    expect(result).toMatchObject({ registrationId: input.registrationId, userId: input.userId, baId: input.baId });
    expect(result.userPosition).toBeGreaterThan(0);
    expect(result.lastGlobalPosition).toBeGreaterThan(result.userPosition);

    expect(await typesOf(registrationStreamId(input.registrationId))).toEqual([
      'RegistrationStarted',
      'RegistrationCompleted',
    ]);
    const completed = await firstOf(registrationStreamId(input.registrationId), 'RegistrationCompleted');
    expect(completed?.data).toEqual({ registrationId: input.registrationId, baId: input.baId, userId: input.userId });
    expect(completed?.metadata.actor).toEqual(args.actor);

    const [user] = await store.readStream(userStreamId(input.userId));
    expect(user?.type).toBe('UserRegistered');
    expect(user?.data).toMatchObject({
      userId: input.userId,
      username: input.email,
      name: input.email.split('@')[0],
      credentialId: CREDENTIAL_ID,
      roles: ['BA Admin'],
      applications: BA_ADMIN_APPLICATIONS,
      companyCodes: ['1000'],
      baId: input.baId,
      mobileNo: input.mobileNo,
      mustChangePassword: false,
    });

    // The BA is created by its own lifecycle, which outlives the registration (parent close policy ABANDON).
    const created = await waitFor(() => firstOf(baStreamId(input.baId), 'BusinessAssociateCreated'), 10_000);
    expect(created.data).toEqual({
      baId: input.baId,
      companyCode: '1000',
      adminUserId: input.userId,
      mobileNo: input.mobileNo,
      email: input.email,
    });
    const final = await client.workflow.getHandle(registrationWorkflowId(input.registrationId)).result();
    expect(final.state.status).toBe('completed');
    const child = await client.workflow.getHandle(onboardingWorkflowId(input.baId)).describe();
    expect(child.status.name).toBe('RUNNING');
    expect((await getOnboardingState(client, input.baId))?.status).toBe('pending');

    // The expiry timer was started and cancelled by the completion, never fired.
    const events = (await history(input.registrationId)).events ?? [];
    expect(events.filter((e) => e.timerStartedEventAttributes)).toHaveLength(1);
    expect(events.filter((e) => e.timerCanceledEventAttributes)).toHaveLength(1);
    expect(events.filter((e) => e.timerFiredEventAttributes)).toHaveLength(0);
  });

  test('expiry: after its lifetime a registration records RegistrationExpired and nothing else', async () => {
    const input = registrationInput({ ttlMs: 2000 });
    await expiredJourney(client, taskQueue, input);

    const events = await store.readStream(registrationStreamId(input.registrationId));
    expect(events.map((e) => e.type)).toEqual(['RegistrationStarted', 'RegistrationExpired']);
    expect(events[1]?.metadata.actor).toMatchObject({ userId: 'system', role: 'system' });
    const startedAt = Date.parse(events[0]?.metadata.at ?? '');
    expect(Date.parse(events[1]?.metadata.at ?? '')).toBeGreaterThanOrEqual(startedAt + 2000);
    expect((events[0]?.data as { expiresAt: string }).expiresAt).toBe(new Date(startedAt + 2000).toISOString());
    // No user, no BA, no lifecycle.
    expect(await store.readStream(userStreamId(input.userId))).toEqual([]);
    expect(await store.readStream(baStreamId(input.baId))).toEqual([]);
    expect(await getOnboardingState(client, input.baId)).toBeNull();
    expect((await getRegistrationState(client, input.registrationId))?.status).toBe('expired');

    // A completion arriving late is refused and writes nothing.
    const late = await refusal(completeRegistration(client, input.registrationId, completeArgs(input), 'late'));
    expect(late).toMatchObject({ code: 'rule', message: registrationMessages.expired });
    expect(await typesOf(registrationStreamId(input.registrationId))).toHaveLength(2);
  });

  test('the same verification sent twice is one completion with one answer; another one is refused', async () => {
    const input = registrationInput();
    await startRegistration(client, taskQueue, input);
    const updateId = `verify-${randomUUID()}`;
    const args = completeArgs(input);
    const [first, second] = await Promise.all([
      completeRegistration(client, input.registrationId, args, updateId),
      completeRegistration(client, input.registrationId, args, updateId),
    ]);
    expect(second).toEqual(first);
    await client.workflow.getHandle(registrationWorkflowId(input.registrationId)).result();

    // Once the run has closed, the server still knows the answer under the same id...
    expect(await findCompletion(client, input.registrationId, updateId)).toEqual(first);
    await expect(completeRegistration(client, input.registrationId, args, updateId)).resolves.toEqual(first);
    // ...and nothing under another one.
    expect(await findCompletion(client, input.registrationId, 'verify-unknown')).toBeNull();
    expect(await findCompletion(client, randomUUID(), updateId)).toBeNull();
    const other = await refusal(completeRegistration(client, input.registrationId, args, `verify-${randomUUID()}`));
    expect(other).toMatchObject({ code: 'rule', message: registrationMessages.completed });

    expect(await typesOf(registrationStreamId(input.registrationId))).toEqual([
      'RegistrationStarted',
      'RegistrationCompleted',
    ]);
    expect(await typesOf(userStreamId(input.userId))).toEqual(['UserRegistered']);
    await waitFor(() => firstOf(baStreamId(input.baId), 'BusinessAssociateCreated'), 10_000);
    expect(await typesOf(baStreamId(input.baId))).toEqual(['BusinessAssociateCreated']);
  });

  test('an e-mail taken since the start refuses the completion as a conflict; the registration then expires', async () => {
    const input = registrationInput({ ttlMs: 2500 });
    await startRegistration(client, taskQueue, input);
    // Someone else got an account under this address in the meantime (staff created it).
    await handleCommand(
      store,
      userStreamId(input.userId),
      userDecider,
      {
        type: 'RegisterUser',
        userId: input.userId,
        username: input.email,
        name: 'Someone Else',
        credentialId: CREDENTIAL_ID,
        roles: ['MLL Procurement'],
        companyCodes: ['1000'],
        baId: null,
      },
      {
        actor: { userId: 'staff-admin', role: 'MLL-ADMIN' },
        at: new Date().toISOString(),
        companyCode: null,
        correlationId: randomUUID(),
        causationId: null,
        workflowId: null,
        requestId: null,
        commandId: randomUUID(),
      },
    );
    const refused = await refusal(completeRegistration(client, input.registrationId, completeArgs(input), 'verify-x'));
    expect(refused).toMatchObject({ code: 'conflict', message: userRefusals.alreadyExists });
    expect(await typesOf(registrationStreamId(input.registrationId))).toEqual(['RegistrationStarted']);

    await client.workflow.getHandle(registrationWorkflowId(input.registrationId)).result();
    expect(await typesOf(registrationStreamId(input.registrationId))).toEqual([
      'RegistrationStarted',
      'RegistrationExpired',
    ]);
    expect(await typesOf(userStreamId(input.userId))).toEqual(['UserRegistered']);
    expect(await store.readStream(baStreamId(input.baId))).toEqual([]);
  });

  test('a start the decider refuses (company not in the list) is answered as a validation error and writes nothing', async () => {
    const input = registrationInput({ companyCode: '9999' });
    const refused = await refusal(startRegistration(client, taskQueue, input));
    expect(refused).toMatchObject({ code: 'validation', errors: { companyCode: registrationMessages.unknownCompany } });
    expect(await store.readStream(registrationStreamId(input.registrationId))).toEqual([]);
  });

  test('the golden journeys run as recorded: completed, and expired', async () => {
    const done = registrationInput();
    const result = await completedJourney(client, taskQueue, done);
    expect(result.baId).toBe(done.baId);
    const lapsed = registrationInput({ ttlMs: 1500 });
    await expiredJourney(client, taskQueue, lapsed);
    expect(await typesOf(registrationStreamId(lapsed.registrationId))).toEqual([
      'RegistrationStarted',
      'RegistrationExpired',
    ]);
  });
});
