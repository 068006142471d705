import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { baStreamId } from '../../../domain/src/onboarding';
import { sendOnboardingAction } from '../../../workflows/src/onboarding/client';
import { approveEveryItem, fillEveryTab } from '../../../workflows/src/onboarding/scenarios';
import { commandTimeoutMessages } from '../../../workflows/src/shared/command-deadline';
import { bindIdempotencyKey, IDEMPOTENCY_KEY_REUSED } from '../http/idempotency';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, details, sessionOf, type TestBa } from '../users/testing';

/**
 * Commands over HTTP (issue 6): a decision sent while the worker is down answers 503 within the command
 * deadline and is never applied; an Idempotency-Key is bound to the request it first came with.
 */
jest.setTimeout(120_000);

const TIMEOUT_MS = 1500;
let h: ApiHarness;
let ba: TestBa;
let baAuth: { Authorization: string };
let staffAuth: { Authorization: string };

beforeAll(async () => {
  h = await startApiHarness('api-commands', { commandTimeoutMs: TIMEOUT_MS });
  ba = await addBa(h, 'commands');
  baAuth = (await sessionOf(h, ba.admin)).auth;
  const staff = await addUser(h, { email: `reviewer-${randomUUID().slice(0, 8)}@example.test`, roles: ['MLL Procurement'] });
  staffAuth = (await sessionOf(h, staff)).auth;
});

afterAll(async () => {
  await h?.stop();
});

const eventsOf = async (type: string) => (await h.store.readStream(baStreamId(ba.baId))).filter((e) => e.type === type);
const post = (path: string, auth: { Authorization: string }, key: string, body: object = {}) =>
  request(h.app).post(`/api/business-associates/${ba.baId}/${path}`).set(auth).set('Idempotency-Key', key).send(body);

describe('Idempotency-Key', () => {
  it('answers the same request again, and refuses the key for another request (422)', async () => {
    const key = randomUUID();
    const first = await post('details', baAuth, key, details());
    expect(first.status).toBe(200);
    const again = await post('details', baAuth, key, details());
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await eventsOf('CompanyDetailsSaved')).toHaveLength(1);

    // Another body, or another action, under the same key: refused, not answered with the first result.
    const otherBody = await post('details', baAuth, key, details({ addressLine1: '2 Other Road' }));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.message).toBe(IDEMPOTENCY_KEY_REUSED);
    const otherAction = await post('submit', baAuth, key);
    expect(otherAction.status).toBe(422);
    expect(await eventsOf('CompanyDetailsSaved')).toHaveLength(1);
    expect(await eventsOf('OnboardingSubmitted')).toHaveLength(0);

    // Keys are the caller's own: another user's same key is another request.
    const admin = { userId: ba.admin.id, role: 'BA Admin', name: ba.admin.name };
    const tabs = await fillEveryTab(h.temporal, ba.baId, admin, { gst: { gstNo: `27${details().panNumber}1Z5` } });
    const submitted = await post('submit', baAuth, randomUUID());
    await approveEveryItem(h.temporal, ba.baId, tabs, { userId: 'items-reviewer', role: 'MLL Procurement', name: 'R' });
    expect(submitted.status).toBe(200);
  });

  it('frees a key bound more than a day ago', async () => {
    const key = randomUUID();
    await bindIdempotencyKey(h.db.appPool, 'someone', key, 'fingerprint-1');
    await expect(bindIdempotencyKey(h.db.appPool, 'someone', key, 'fingerprint-2')).rejects.toThrow(IDEMPOTENCY_KEY_REUSED);
    await h.db.pool.query(`update idempotency_keys set created_at = now() - interval '25 hours' where key = $1`, [key]);
    await expect(bindIdempotencyKey(h.db.appPool, 'someone', key, 'fingerprint-2')).resolves.toBeUndefined();
  });
});

describe('with the worker down', () => {
  it('a decision answers 503 within the deadline, and is not applied when the worker returns', async () => {
    expect((await eventsOf('OnboardingSubmitted')).length).toBe(1);
    await h.pauseWorker();
    const started = Date.now();
    let res: request.Response;
    try {
      res = await post('approve', staffAuth, 'approve-while-down', { stage: 1 });
    } finally {
      await h.resumeWorker();
    }
    const took = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(commandTimeoutMessages['not-applied']);
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS);
    // Bounded (it never hangs), with room for the two status probes on a loaded machine.
    expect(took).toBeLessThan(TIMEOUT_MS + 8000);

    // Taken after the waiting one: had that been applied, this one (the same stage) would be refused as stale.
    // Sent without a deadline: the returning worker may first wait out the old one's sticky queue.
    const actor = { userId: 'reviewer-after-return', role: 'MLL Procurement', name: 'R' };
    const next = await sendOnboardingAction(h.temporal, ba.baId, { kind: 'approve', stage: 1 }, { actor, requestId: 'after-return' });
    expect(next.state).toMatchObject({ status: 'inprogress', stage: 2 });
    const approvals = await eventsOf('ReviewStageApproved');
    expect(approvals.map((e) => (e.metadata as { requestId?: string }).requestId)).toEqual(['after-return']);
  });
});
