import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { ContactChangeCommand } from '../../../domain/src/contact-change/commands';
import { contactChangeRefusals, MAX_IDENTITY_ATTEMPTS } from '../../../domain/src/contact-change/decide';
import { contactChangeStreamId } from '../../../domain/src/contact-change/events';
import type { EventStore } from '../../../domain/src/event-store/port';
import { userStreamId } from '../../../domain/src/identity/users';
import type { Actor } from '../../../domain/src/shared/events';
import type { TestDatabase } from '../../../tests/support/postgres';
import { uniqueTaskQueue } from '../../../tests/support/temporal';
import { refusal as refusalOf } from '../testing/refusal';
import { startTestWorker } from '../testing/worker';
import { contactChangedDedupeKey, createContactChangeActivities, type CompleteContactChangeArgs } from './activities';
import { getContactChangeState, sendContactChangeStep, startContactChange } from './client';
import { contactChangeWorkflowId, type ContactChangeInput } from './messages';
import { completedJourney, contactChangeInput, expiredJourney, NEW_CREDENTIAL_ID, registerBaUser, requester, stepAs } from './scenarios';

// Set here, not only in jest.config: jest-circus reads the timeout of the global config, not the project's.
jest.setTimeout(60_000);
const taskQueue = uniqueTaskQueue('contact-change-workflow');
let db: TestDatabase;
let store: EventStore;
let client: Client;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ db, store, client, stop } = await startTestWorker(taskQueue, { withPool: true }));
});

afterAll(async () => {
  await stop?.();
});

const input = (userId: string, ttlMs?: number): ContactChangeInput =>
  contactChangeInput(userId, ttlMs === undefined ? {} : { ttlMs });
const registered = async () => {
  const actor = await registerBaUser(store);
  return { userId: actor.userId, actor };
};

const typesOf = async (changeId: string) => (await store.readStream(contactChangeStreamId(changeId))).map((e) => e.type);

const refusal = (call: Promise<unknown>) => refusalOf(call, 'step');

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
    const noCodes = await refusal(step(i.changeId, actor, { kind: 'complete', challengeId: 'ch-1', credentialId: NEW_CREDENTIAL_ID }));
    expect(noCodes.message).toBe(contactChangeRefusals.identityFirst);
    expect(await typesOf(i.changeId)).toEqual(['ContactChangeRequested']);

    await step(i.changeId, actor, { kind: 'checkIdentity', matched: true });
    await step(i.changeId, actor, { kind: 'otpSent', newEmail: 'first@acme.test', newMobile: '9000000001', challengeId: 'ch-1', resend: false });
    await step(i.changeId, actor, { kind: 'otpSent', newEmail: 'new@acme.test', newMobile: '9123456780', challengeId: 'ch-2', resend: false });
    const stale = await refusal(step(i.changeId, actor, { kind: 'complete', challengeId: 'ch-1', credentialId: NEW_CREDENTIAL_ID }));
    expect(stale).toMatchObject({ code: 'rule', message: contactChangeRefusals.staleOtp });
    const noPassword = await refusal(step(i.changeId, actor, { kind: 'complete', challengeId: 'ch-2', credentialId: '' }));
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
    expect(user[2]?.data).toEqual({ userId, reason: 'contact-change', credentialId: NEW_CREDENTIAL_ID });
    expect(user[1]?.metadata).toMatchObject({ actor, workflowId: contactChangeWorkflowId(i.changeId) });
    // The answer carries the last position, so the API can wait for the users read model to show it.
    const all = [...user, ...(await store.readStream(contactChangeStreamId(i.changeId)))];
    expect(done.lastGlobalPosition).toBe(Math.max(...all.map((e) => e.globalPosition)));

    // The activity also told the old addresses (once each): the e-mail id and the mobile both changed.
    const { rows: told } = await db.pool.query<{ recipient: string; channel: string }>(
      `SELECT recipient, channel FROM outbox WHERE dedupe_key LIKE $1 || ':%' ORDER BY dedupe_key`,
      [contactChangedDedupeKey(i.changeId)],
    );
    expect(told).toEqual([
      { recipient: (user[0]?.data as { username: string }).username, channel: 'email' },
      { recipient: '9876543210', channel: 'sms' },
    ]);

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

  test('cancel (a newer change for the user): ContactChangeCancelled, the run ends, the link is dead', async () => {
    const { userId, actor } = await registered();
    const i = input(userId);
    await startContactChange(client, taskQueue, i);
    await step(i.changeId, actor, { kind: 'checkIdentity', matched: true });
    const cancelled = await step(i.changeId, requester, { kind: 'cancel', supersededBy: 'newer-change' });
    expect(cancelled.state.status).toBe('cancelled');
    const result = await client.workflow.getHandle(contactChangeWorkflowId(i.changeId)).result();
    expect(result.state.status).toBe('cancelled');
    const events = await store.readStream(contactChangeStreamId(i.changeId));
    expect(events.map((e) => e.type)).toEqual(['ContactChangeRequested', 'ContactIdentityConfirmed', 'ContactChangeCancelled']);
    expect(events[2]?.data).toEqual({ changeId: i.changeId, supersededBy: 'newer-change' });
    expect(events[2]?.metadata.actor).toMatchObject({ userId: requester.userId });
    const late = await refusal(step(i.changeId, actor, { kind: 'otpSent', newEmail: 'n@acme.test', newMobile: '9123456780', challengeId: 'c', resend: false }));
    expect(late.message).toBe(contactChangeRefusals.linkExpired);
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

/**
 * The completion activity, called directly as Temporal would retry it: a first attempt that dies after the
 * appends (its database connection lost before the sessions and the notices), then two more attempts.
 */
describe('completeContactChange activity (retried)', () => {
  const OLD_MOBILE = '9876543210';
  const envelope = (changeId: string, actor: Actor, commandId: string) => ({
    changeId,
    actor,
    commandId,
    correlationId: 'retry-test',
    requestId: null,
    workflowId: contactChangeWorkflowId(changeId),
    companyCode: '1000',
    at: new Date().toISOString(),
  });
  const outboxOf = async (dedupePrefix: string) =>
    (
      await db.pool.query<{ recipient: string; channel: string; template: string; body: string }>(
        `SELECT recipient, channel, template, body FROM outbox WHERE dedupe_key LIKE $1 || ':%' ORDER BY dedupe_key`,
        [dedupePrefix],
      )
    ).rows;

  test('ends the sessions and tells the old addresses exactly once; the events are appended once', async () => {
    const { userId, actor } = await registered();
    const { username: oldEmail } = (await store.readStream(userStreamId(userId)))[0]?.data as { username: string };
    const { changeId, tokenHash } = input(userId);
    const activities = createContactChangeActivities({ store, pool: db.pool });
    // The change up to the codes, through the same activity the workflow uses.
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const steps: ContactChangeCommand[] = [
      { type: 'RequestContactChange', changeId, baId: 'ba-1', userId, tokenHash, requestedBy: requester, expiresAt },
      { type: 'CheckContactIdentity', matched: true },
      { type: 'RecordContactOtpSent', newEmail: 'Moved@Acme.test', newMobile: '9123456789', challengeId: 'ch-1', resend: false },
    ];
    for (const [n, command] of steps.entries())
      await activities.handleContactChangeCommand({ ...envelope(changeId, actor, `cmd-${changeId}-${n}`), command });
    // Two live sessions (two apps) and one already ended.
    for (const [jti, revoked] of [[`a-${changeId}`, false], [`b-${changeId}`, false], [`c-${changeId}`, true]] as const)
      await db.pool.query(
        `INSERT INTO refresh_tokens (jti, family_id, user_id, app, expires_at, revoked_at)
         VALUES ($1, $1, $2, 'portal', now() + interval '1 hour', CASE WHEN $3 THEN now() - interval '1 hour' END)`,
        [jti, userId, revoked],
      );

    const args: CompleteContactChangeArgs = {
      ...envelope(changeId, actor, `complete-${changeId}`),
      userId,
      challengeId: 'ch-1',
      newEmail: 'moved@acme.test',
      newMobile: '9123456789',
      credentialId: NEW_CREDENTIAL_ID,
    };
    // Attempt 1: the events are written, then the database connection is lost (the process "dies").
    const lost = { connect: () => Promise.reject(new Error('connection lost')) } as unknown as Pool;
    await expect(createContactChangeActivities({ store, pool: lost }).completeContactChange(args)).rejects.toThrow('connection lost');
    expect(await outboxOf(contactChangedDedupeKey(changeId))).toEqual([]);
    // Attempts 2 and 3: the retry finishes the job; a further retry (a lost answer) changes nothing.
    const first = await activities.completeContactChange(args);
    const again = await activities.completeContactChange(args);
    expect(again).toEqual(first);
    expect(first.events.map((e) => e.type)).toEqual(['ContactChangeCompleted']);

    expect((await store.readStream(userStreamId(userId))).map((e) => e.type)).toEqual(['UserRegistered', 'UserContactChanged', 'UserPasswordChanged']);
    expect((await typesOf(changeId)).filter((t) => t === 'ContactChangeCompleted')).toHaveLength(1);
    const { rows: live } = await db.pool.query('SELECT jti FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
    expect(live).toEqual([]);
    // One e-mail to the old e-mail id and one SMS to the old mobile, naming the new addresses.
    const sent = await outboxOf(contactChangedDedupeKey(changeId));
    expect(sent.map(({ recipient, channel, template }) => ({ recipient, channel, template }))).toEqual([
      { recipient: oldEmail, channel: 'email', template: 'contact-changed' },
      { recipient: OLD_MOBILE, channel: 'sms', template: 'contact-changed' },
    ]);
    expect(sent[0]?.body).toContain('moved@acme.test');
    expect(sent[0]?.body).toContain('9123456789');
  });

  test('a worker without the database refuses before writing anything (retried until one with it runs)', async () => {
    const { userId, actor } = await registered();
    const changeId = randomUUID();
    const args: CompleteContactChangeArgs = {
      ...envelope(changeId, actor, `complete-${changeId}`),
      userId,
      challengeId: 'ch-1',
      newEmail: 'x@acme.test',
      newMobile: '9123456789',
      credentialId: NEW_CREDENTIAL_ID,
    };
    await expect(createContactChangeActivities({ store }).completeContactChange(args)).rejects.toThrow(/PostgreSQL pool/);
    expect((await store.readStream(userStreamId(userId))).map((e) => e.type)).toEqual(['UserRegistered']);
  });
});
