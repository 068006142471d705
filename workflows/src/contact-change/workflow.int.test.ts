import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { contactChangeRefusals, MAX_IDENTITY_ATTEMPTS } from '../../../domain/src/contact-change/decide';
import { contactChangeStreamId } from '../../../domain/src/contact-change/events';
import type { EventStore } from '../../../domain/src/event-store/port';
import { userStreamId } from '../../../domain/src/identity/users';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, uniqueTaskQueue, workflowBundle } from '../../../tests/support/temporal';
import { createActivities } from '../worker';
import { getContactChangeState, sendContactChangeStep, startContactChange } from './client';
import { contactChangeWorkflowId, type ContactChangeInput } from './messages';
import { completedJourney, contactChangeInput, expiredJourney, NEW_PASSWORD_HASH, registerBaUser, stepAs } from './scenarios';

// Set here, not only in jest.config: jest-circus reads the timeout of the global config, not the project's.
jest.setTimeout(60_000);
const taskQueue = uniqueTaskQueue('contact-change-workflow');
let db: TestDatabase;
let store: EventStore;
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  db = await createTestDatabase();
  store = createPostgresEventStore(db.pool);
  nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    workflowBundle: workflowBundle(),
    activities: createActivities({ store }),
  });
  running = worker.run();
  connection = await Connection.connect({ address: temporalAddress() });
  client = new Client({ connection });
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
  await db?.drop();
});

const input = (userId: string, ttlMs?: number): ContactChangeInput =>
  contactChangeInput(userId, ttlMs === undefined ? {} : { ttlMs });
const registered = async () => {
  const actor = await registerBaUser(store);
  return { userId: actor.userId, actor };
};

const typesOf = async (changeId: string) => (await store.readStream(contactChangeStreamId(changeId))).map((e) => e.type);

async function refusal(call: Promise<unknown>): Promise<DomainError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the step to be refused');
}

const step = (changeId: string, actor: Actor, s: Parameters<typeof sendContactChangeStep>[2]) => stepAs(client, changeId, actor, s);

describe('contact change workflow', () => {
  test('refusals come back at once and append nothing: codes before the identity, stale codes', async () => {
    const { userId, actor } = await registered();
    const i = input(userId);
    const started = await startContactChange(client, taskQueue, i);
    expect(started.state).toMatchObject({ status: 'requested', userId, baId: 'ba-1', tokenHash: i.tokenHash });
    expect(Date.parse(started.state.expiresAt ?? '') - Date.now()).toBeGreaterThan(23 * 3_600_000);

    const early = await refusal(step(i.changeId, actor, { kind: 'otpSent', newEmail: 'new@acme.test', newMobile: '9123456780', challengeId: 'ch-1', resend: false }));
    expect(early).toMatchObject({ code: 'rule', message: contactChangeRefusals.identityFirst });
    const noCodes = await refusal(step(i.changeId, actor, { kind: 'complete', challengeId: 'ch-1', passwordHash: NEW_PASSWORD_HASH }));
    expect(noCodes.message).toBe(contactChangeRefusals.identityFirst);
    expect(await typesOf(i.changeId)).toEqual(['ContactChangeRequested']);

    await step(i.changeId, actor, { kind: 'checkIdentity', matched: true });
    await step(i.changeId, actor, { kind: 'otpSent', newEmail: 'first@acme.test', newMobile: '9000000001', challengeId: 'ch-1', resend: false });
    await step(i.changeId, actor, { kind: 'otpSent', newEmail: 'new@acme.test', newMobile: '9123456780', challengeId: 'ch-2', resend: false });
    const stale = await refusal(step(i.changeId, actor, { kind: 'complete', challengeId: 'ch-1', passwordHash: NEW_PASSWORD_HASH }));
    expect(stale).toMatchObject({ code: 'rule', message: contactChangeRefusals.staleOtp });
    const noPassword = await refusal(step(i.changeId, actor, { kind: 'complete', challengeId: 'ch-2', passwordHash: '' }));
    expect(noPassword.code).toBe('validation');
    expect(await typesOf(i.changeId)).toEqual(['ContactChangeRequested', 'ContactIdentityConfirmed', 'ContactChangeOtpSent', 'ContactChangeOtpSent']);
    expect((await store.readStream(userStreamId(userId))).map((e) => e.type)).toEqual(['UserRegistered']);
  });

  test('completion (the recorded journey): the user has the new e-mail id, mobile and password, and the run ends', async () => {
    const { userId, actor } = await registered();
    const i = input(userId);
    const done = await completedJourney(client, taskQueue, i, actor);
    expect(done.state.status).toBe('completed');

    expect(await typesOf(i.changeId)).toEqual([
      'ContactChangeRequested',
      'ContactIdentityCheckFailed',
      'ContactIdentityConfirmed',
      'ContactChangeOtpSent',
      'ContactChangeOtpSent',
      'ContactChangeOtpSent',
      'ContactChangeCompleted',
    ]);
    const user = await store.readStream(userStreamId(userId));
    expect(user.map((e) => e.type)).toEqual(['UserRegistered', 'UserContactChanged', 'UserPasswordChanged']);
    // The addresses the latest codes went to, lower-cased: from history, never from the completing request.
    expect(user[1]?.data).toMatchObject({ newEmail: 'new@acme.test', newMobile: '9123456780', oldMobile: '9876543210' });
    expect(user[2]?.data).toEqual({ userId, passwordHash: NEW_PASSWORD_HASH, reason: 'contact-change' });
    expect(user[1]?.metadata).toMatchObject({ actor, workflowId: contactChangeWorkflowId(i.changeId) });
    // The answer carries the last position, so the API can wait for the users read model to show it.
    const all = [...user, ...(await store.readStream(contactChangeStreamId(i.changeId)))];
    expect(done.lastGlobalPosition).toBe(Math.max(...all.map((e) => e.globalPosition)));

    // The lifecycle is over: the link is dead and nothing more is appended anywhere.
    const late = await refusal(step(i.changeId, actor, { kind: 'checkIdentity', matched: true }));
    expect(late.message).toBe(contactChangeRefusals.linkExpired);
    expect((await store.readStream(userStreamId(userId))).length).toBe(3);
  });

  test('expiry: the timer records ContactChangeExpired and the link stops working', async () => {
    const { userId, actor } = await registered();
    const i = input(userId, 2_000);
    const result = await expiredJourney(client, taskQueue, i, actor);
    expect(result.state.status).toBe('expired');
    expect(await typesOf(i.changeId)).toEqual(['ContactChangeRequested', 'ContactIdentityConfirmed', 'ContactChangeExpired']);
    const events = await store.readStream(contactChangeStreamId(i.changeId));
    expect(events[2]?.metadata.actor).toMatchObject({ userId: 'system', role: 'system' });
    const late = await refusal(step(i.changeId, actor, { kind: 'otpSent', newEmail: 'n@acme.test', newMobile: '9123456780', challengeId: 'c', resend: false }));
    expect(late.message).toBe(contactChangeRefusals.linkExpired);
  });

  test(`identity: ${MAX_IDENTITY_ATTEMPTS} failed tries lock the link; concurrent tries are counted one by one`, async () => {
    const { userId, actor } = await registered();
    const i = input(userId);
    await startContactChange(client, taskQueue, i);
    const results = await Promise.all(
      Array.from({ length: MAX_IDENTITY_ATTEMPTS }, () => step(i.changeId, actor, { kind: 'checkIdentity', matched: false })),
    );
    expect(results.map((r) => r.state.failedAttempts).sort()).toEqual([1, 2, 3, 4, 5]);
    const events = await store.readStream(contactChangeStreamId(i.changeId));
    expect(events.map((e) => e.type)).toEqual([
      'ContactChangeRequested',
      ...Array<string>(MAX_IDENTITY_ATTEMPTS).fill('ContactIdentityCheckFailed'),
      'ContactChangeLocked',
    ]);
    expect(events.slice(1, -1).map((e) => (e.data as { attempt: number }).attempt)).toEqual([1, 2, 3, 4, 5]);
    const result = await client.workflow.getHandle(contactChangeWorkflowId(i.changeId)).result();
    expect(result.state.status).toBe('locked');
    expect(await getContactChangeState(client, i.changeId)).toMatchObject({ status: 'locked' });
  });

  test('a retried start joins the running change; a retried step (same request id) is one step', async () => {
    const { userId, actor } = await registered();
    const i = input(userId);
    await startContactChange(client, taskQueue, i);
    const again = await startContactChange(client, taskQueue, i);
    expect(again.state.status).toBe('requested');
    const requestId = randomUUID();
    const ctx = { actor, requestId };
    await sendContactChangeStep(client, i.changeId, { kind: 'checkIdentity', matched: false }, ctx);
    const twice = await sendContactChangeStep(client, i.changeId, { kind: 'checkIdentity', matched: false }, ctx);
    expect(twice.state.failedAttempts).toBe(1);
    expect(await typesOf(i.changeId)).toEqual(['ContactChangeRequested', 'ContactIdentityCheckFailed']);
  });
});
