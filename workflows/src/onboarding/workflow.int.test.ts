import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { EventStore } from '../../../domain/src/event-store/port';
import { baStreamId } from '../../../domain/src/onboarding/events';
import { refusals, WELCOME_MESSAGE } from '../../../domain/src/onboarding/decide';
import { submissionRefusals } from '../../../domain/src/onboarding/submission';
import { DomainError } from '../../../domain/src/shared/errors';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { uniqueTaskQueue } from '../../../tests/support/temporal';
import { waitFor } from '../../../tests/support/wait';
import { refusal as refusalOf } from '../testing/refusal';
import { startTestWorker } from '../testing/worker';
import { ALREADY_VERIFIED, getOnboardingState, sendOnboardingAction, startOnboarding } from './client';
import { documentExpiryWorkflowId } from '../document-expiry/messages';
import { onboardingWorkflowId } from './messages';
import {
  act,
  actors,
  approveEveryItem,
  fillEveryTab,
  happyPath,
  nextYear,
  storedFile,
  validBankAccount,
  onboardingInput,
  REJECTION_REMARKS,
  rejectResubmit,
  startAndSubmit,
  validDetails,
} from './scenarios';

// Set here, not only in jest.config: jest-circus reads the timeout of the global config, not the project's.
jest.setTimeout(60_000);
const taskQueue = uniqueTaskQueue('onboarding-workflow');
let store: EventStore;
let client: Client;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ store, client, stop } = await startTestWorker(taskQueue));
});

afterAll(async () => {
  await stop?.();
});

const streamOf = (baId: string): Promise<StoredEvent[]> => store.readStream(baStreamId(baId));
const typesOf = async (baId: string): Promise<string[]> => (await streamOf(baId)).map((e) => e.type);
const countByType = async (baId: string): Promise<Record<string, number>> => {
  const counts: Record<string, number> = {};
  for (const t of await typesOf(baId)) counts[t] = (counts[t] ?? 0) + 1;
  return counts;
};

const refusal = (call: Promise<unknown>) => refusalOf(call, 'action');

/** The lifecycle's own events (submission, stages, verification), without the items of every tab. */
const LIFECYCLE_EVENTS = new Set([
  'BusinessAssociateCreated',
  'CompanyDetailsSaved',
  'OnboardingSubmitted',
  'ReviewStageApproved',
  'BusinessAssociateVerified',
  'OnboardingRejected',
  'ReviewOverdue',
]);
const lifecycleOf = (events: StoredEvent[]): StoredEvent[] => events.filter((e) => LIFECYCLE_EVENTS.has(e.type));
const statusOf = async (baId: string): Promise<string> =>
  (await client.workflow.getHandle(onboardingWorkflowId(baId)).describe()).status.name;

describe('onboarding workflow', () => {
  test('happy path: created, every tab saved, submitted, items and both stages approved → verified, and the lifecycle keeps running', async () => {
    const input = onboardingInput();
    const [saved, submitted, stage1, stage2] = await happyPath(client, taskQueue, input);

    expect(saved?.state).toMatchObject({
      status: 'pending',
      details: { panNumber: 'ABCDE1234F', cinNumber: null },
    });
    expect(submitted?.state).toMatchObject({ status: 'inprogress', stage: 1, submission: 1 });
    expect(stage1?.state).toMatchObject({
      status: 'inprogress',
      stage: 2,
      stage1ApprovedBy: actors.procurement.userId,
    });
    expect(stage2?.state).toMatchObject({ status: 'verified', stage: null, welcomeMessage: WELCOME_MESSAGE });

    const all = await streamOf(input.baId);
    const events = lifecycleOf(all);
    expect(events.map((e) => e.type)).toEqual([
      'BusinessAssociateCreated',
      'CompanyDetailsSaved',
      'OnboardingSubmitted',
      'ReviewStageApproved',
      'ReviewStageApproved',
      'BusinessAssociateVerified',
    ]);
    // The answer carries the position of its last event, so the API can wait for the projections to pass it.
    expect(stage2?.lastGlobalPosition).toBe(events[5]?.globalPosition);
    expect(all.at(-1)?.type).toBe('BusinessAssociateVerified');
    expect(events[3]?.metadata).toMatchObject({
      actor: actors.procurement,
      companyCode: '1000',
      workflowId: onboardingWorkflowId(input.baId),
    });
    expect(events[4]?.metadata.actor).toEqual(actors.commercial);

    // A verified lifecycle keeps running: it answers queries, the decider refuses what no longer applies,
    // and a start joins it rather than starting another.
    expect(await statusOf(input.baId)).toBe('RUNNING');
    expect((await getOnboardingState(client, input.baId))?.status).toBe('verified');
    const late = await refusal(act(client, input.baId, { kind: 'submit' }, actors.ba(input.baId)));
    expect(late).toMatchObject({ code: 'rule', message: refusals.notSubmittable });
    await expect(startOnboarding(client, taskQueue, { ...input, requestId: randomUUID() })).resolves.toEqual({
      workflowId: onboardingWorkflowId(input.baId),
      alreadyStarted: true,
    });
    expect(await typesOf(input.baId)).toHaveLength(all.length);
  });

  test('reject and resubmit: the BA sees the remarks, edits, resubmits and ends verified', async () => {
    const input = onboardingInput();
    const results = await rejectResubmit(client, taskQueue, input);

    expect(results[3]?.state).toMatchObject({ status: 'rejected', stage: null, remarks: REJECTION_REMARKS });
    expect(results[4]?.state.details?.addressLine1).toBe('14 MG Road');
    expect(results[5]?.state).toMatchObject({ status: 'inprogress', stage: 1, submission: 2, remarks: null });
    expect(results[7]?.state.status).toBe('verified');

    const events = lifecycleOf(await streamOf(input.baId));
    expect(events.map((e) => e.type)).toEqual([
      'BusinessAssociateCreated',
      'CompanyDetailsSaved',
      'OnboardingSubmitted',
      'ReviewStageApproved',
      'OnboardingRejected',
      'CompanyDetailsSaved',
      'OnboardingSubmitted',
      'ReviewStageApproved',
      'ReviewStageApproved',
      'BusinessAssociateVerified',
    ]);
    expect(events[4]?.data).toMatchObject({ stage: 2, remarks: REJECTION_REMARKS, role: 'MLL Commercial' });
    expect(events[6]?.data).toMatchObject({ submission: 2, resubmission: true });
    expect(await statusOf(input.baId)).toBe('RUNNING');
  });

  test('a start is joined, not repeated: a double click and a retried request reach the one lifecycle', async () => {
    const input = onboardingInput();
    const [first, retried, other] = await Promise.all([
      startOnboarding(client, taskQueue, input),
      startOnboarding(client, taskQueue, input),
      startOnboarding(client, taskQueue, { ...input, requestId: randomUUID() }),
    ]);
    expect(first?.workflowId).toBe(onboardingWorkflowId(input.baId));
    // Whichever request won the race started it; the same request retried gets the same answer.
    expect(retried).toEqual(first);
    expect(other?.alreadyStarted).toBe(!first?.alreadyStarted);
    // A start after the lifecycle runs joins it.
    const later = await startOnboarding(client, taskQueue, { ...input, requestId: randomUUID() });
    expect(later.alreadyStarted).toBe(true);
    // The BA exists by the time startOnboarding answers.
    expect((await getOnboardingState(client, input.baId))?.status).toBe('pending');
    expect(await typesOf(input.baId)).toEqual(['BusinessAssociateCreated']);
  });

  test('a lifecycle for a BA whose stream already exists is refused as a conflict and writes nothing', async () => {
    const input = onboardingInput();
    const none = { adminUserId: null, mobileNo: null, email: null };
    const existing = { baId: input.baId, companyCode: '1000', ...none };
    const metadata = {
      actor: actors.seed,
      companyCode: '1000',
      correlationId: randomUUID(),
      causationId: null,
      workflowId: null,
      requestId: null,
      at: new Date().toISOString(),
    };
    const created = { eventId: randomUUID(), type: 'BusinessAssociateCreated', data: existing, metadata };
    await store.appendToStream(baStreamId(input.baId), [created], { expectedVersion: 'no_stream' });
    const refused = await refusal(startOnboarding(client, taskQueue, input));
    expect(refused).toMatchObject({ code: 'conflict', message: refusals.alreadyExists });
    expect(await typesOf(input.baId)).toEqual(['BusinessAssociateCreated']);
  });

  test('refusals are answered synchronously with the domain code and nothing is appended', async () => {
    const input = onboardingInput();
    const { baId } = input;
    const ba = actors.ba(baId);
    await startOnboarding(client, taskQueue, input);

    const invalid = { ...validDetails, panNumber: '12345' };
    const badPan = await refusal(act(client, baId, { kind: 'saveDetails', details: invalid }, ba));
    expect(badPan.code).toBe('validation');
    expect(badPan.errors?.panNumber).toBeDefined();
    const save = { kind: 'saveDetails', details: validDetails } as const;
    const staffEdit = await refusal(act(client, baId, save, actors.procurement));
    expect(staffEdit).toMatchObject({ code: 'forbidden', message: refusals.baOnly });
    const incomplete = await refusal(act(client, baId, { kind: 'submit' }, actors.ba(baId)));
    expect(incomplete).toMatchObject({ code: 'rule', message: submissionRefusals.incompleteTabs });
    // No service chosen yet, so no document is mandatory yet.
    expect(Object.keys(incomplete.errors ?? {}).sort()).toEqual(['bankDetails', 'companyDetails', 'gstRegistrations', 'verticalMapping']);

    await act(client, baId, save, actors.ba(baId));
    const noDocuments = await refusal(act(client, baId, { kind: 'submit' }, actors.ba(baId)));
    expect(noDocuments.errors?.documents).toMatch(/^Missing: PAN Card, Cancelled Cheque, Vehicle Registration Certificate/);
    expect(noDocuments.errors?.companyDetails).toBeUndefined();
    const tabs = await fillEveryTab(client, baId);
    await act(client, baId, { kind: 'submit' }, actors.ba(baId));
    const before = await typesOf(baId);
    // Stage 1 waits for every item (6 documents, the bank account and the vertical mapping) to be approved.
    const unreviewed = await refusal(act(client, baId, { kind: 'approve', stage: 1 }, actors.admin));
    expect(unreviewed).toMatchObject({ code: 'rule', message: submissionRefusals.itemsNotApproved(8, 0) });

    const wrongStage = await refusal(act(client, baId, { kind: 'approve', stage: 2 }, actors.commercial));
    expect(wrongStage).toMatchObject({ code: 'conflict', message: refusals.wrongStage(1, 2) });
    const wrongRole = await refusal(act(client, baId, { kind: 'approve', stage: 1 }, actors.commercial));
    expect(wrongRole).toMatchObject({ code: 'forbidden', message: refusals.wrongRole(1) });
    const blank = { kind: 'reject', stage: 1, remarks: '  ' } as const;
    const noRemarks = await refusal(act(client, baId, blank, actors.procurement));
    expect(noRemarks).toMatchObject({ code: 'validation', errors: { remarks: refusals.remarksRequired } });
    const baInReview = await refusal(act(client, baId, save, actors.ba(baId)));
    expect(baInReview).toMatchObject({ code: 'rule', message: refusals.notEditable });
    const resubmit = await refusal(act(client, baId, { kind: 'submit' }, actors.ba(baId)));
    expect(resubmit).toMatchObject({ code: 'rule', message: refusals.notSubmittable });
    expect(await typesOf(baId)).toEqual(before);

    // MLL-ADMIN may decide either stage, but not both of the same submission.
    await approveEveryItem(client, baId, tabs);
    const reviewed = await typesOf(baId);
    await act(client, baId, { kind: 'approve', stage: 1 }, actors.admin);
    const twice = await refusal(act(client, baId, { kind: 'approve', stage: 2 }, actors.admin));
    expect(twice).toMatchObject({ code: 'rule', message: refusals.sameApprover });
    expect(await typesOf(baId)).toEqual([...reviewed, 'ReviewStageApproved']);
    expect((await getOnboardingState(client, baId))?.stage).toBe(2);

    const unknown = await refusal(act(client, randomUUID(), { kind: 'submit' }, actors.ba('x')));
    expect(unknown).toMatchObject({ code: 'not_found', message: 'Business associate not found' });
    expect(await getOnboardingState(client, randomUUID())).toBeNull();
  });

  test('each update sent three times: the same update id is one transition, other ids are refused', async () => {
    const input = onboardingInput();
    const { baId } = input;
    await startOnboarding(client, taskQueue, input);
    const thrice = <T>(send: () => Promise<T>) => Promise.allSettled([send(), send(), send()]);
    const fulfilled = <T>(results: PromiseSettledResult<T>[]) =>
      results.filter((r): r is PromiseFulfilledResult<T> => r.status === 'fulfilled').map((r) => r.value);
    const refused = (results: PromiseSettledResult<unknown>[]) =>
      results
        .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
        .map((r) => (r.reason instanceof DomainError ? r.reason.code : String(r.reason)));
    const ba = actors.ba(baId);
    const send = (action: Parameters<typeof sendOnboardingAction>[2], actor = ba, requestId = randomUUID()) =>
      sendOnboardingAction(client, baId, action, { actor, requestId });

    // A retried HTTP request (same Idempotency-Key → same update id): three answers, one transition.
    const saveId = randomUUID();
    const saves = await thrice(() => send({ kind: 'saveDetails', details: validDetails }, ba, saveId));
    expect(fulfilled(saves)).toHaveLength(3);
    const tabs = await fillEveryTab(client, baId);
    const submitId = randomUUID();
    const submits = await thrice(() => send({ kind: 'submit' }, ba, submitId));
    const submitAnswers = fulfilled(submits);
    expect(submitAnswers).toHaveLength(3);
    expect(new Set(submitAnswers.map((a) => JSON.stringify(a))).size).toBe(1);

    await approveEveryItem(client, baId, tabs);
    // Three different requests racing: the validators all see stage 1, the lock lets exactly one through.
    const approvals = await thrice(() => send({ kind: 'approve', stage: 1 }, actors.procurement));
    expect(fulfilled(approvals)).toHaveLength(1);
    expect(refused(approvals)).toEqual(['conflict', 'conflict']);

    const finalId = randomUUID();
    const finals = await thrice(() => send({ kind: 'approve', stage: 2 }, actors.commercial, finalId));
    const finalAnswers = fulfilled(finals);
    expect(finalAnswers).toHaveLength(3);
    expect(finalAnswers.every((a) => a.state.status === 'verified')).toBe(true);
    // Retried once more later: the lifecycle still knows the update and gives the same answer.
    const retried = send({ kind: 'approve', stage: 2 }, actors.commercial, finalId);
    await expect(retried).resolves.toEqual(finalAnswers[0]);

    const counts = await countByType(baId);
    expect(Object.fromEntries(Object.entries(counts).filter(([type]) => LIFECYCLE_EVENTS.has(type)))).toEqual({
      BusinessAssociateCreated: 1,
      CompanyDetailsSaved: 1,
      OnboardingSubmitted: 1,
      ReviewStageApproved: 2,
      BusinessAssociateVerified: 1,
    });
    // The losers were refused by the decider in the activity, under the workflow's lock: nothing appended (the
    // counts above), one activity each that failed as a refusal and was not retried.
    const history = await client.workflow.getHandle(onboardingWorkflowId(baId)).fetchHistory();
    const scheduled = history.events?.filter((e) => e.activityTaskScheduledEventAttributes).length;
    const failed = history.events?.filter((e) => e.activityTaskFailedEventAttributes).length;
    // 5 lifecycle commands, 9 saved items (account, GST row, 6 documents, mapping), 8 item reviews, 2 losers.
    expect({ scheduled, failed }).toEqual({ scheduled: 5 + 9 + 8 + 2, failed: 2 });
  });

  test('a review waiting longer than its SLA is reported overdue once, and the lifecycle still reaches verification', async () => {
    const reviewSlaMs = 1500;
    const input = onboardingInput({ reviewSlaMs });
    const { baId } = input;
    await startAndSubmit(client, taskQueue, input);

    const find = async (type: string) => (await streamOf(baId)).find((e) => e.type === type);
    const overdue = await waitFor(() => find('ReviewOverdue'), 15_000);
    const submittedAt = Date.parse((await find('OnboardingSubmitted'))?.metadata.at ?? '');
    expect(overdue.data).toMatchObject({ stage: 1, submission: 1 });
    expect(Date.parse((overdue.data as { dueAt: string }).dueAt)).toBe(submittedAt + reviewSlaMs);
    expect(overdue.metadata.actor.role).toBe('system');
    expect((await getOnboardingState(client, baId))?.overdueStages).toEqual([1]);

    // Keep waiting past another SLA period: still exactly one for stage 1.
    await new Promise((r) => setTimeout(r, reviewSlaMs + 500));
    await act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement);
    await act(client, baId, { kind: 'approve', stage: 2 }, actors.commercial);

    const events = await streamOf(baId);
    const overdueEvents = events.filter((e) => e.type === 'ReviewOverdue');
    expect(overdueEvents.filter((e) => (e.data as { stage: number }).stage === 1)).toHaveLength(1);
    expect(events[events.length - 1]?.type).toBe('BusinessAssociateVerified');
  });
});

describe('the command update and the lifecycle after verification (issue 8)', () => {
  /** An additional document (the additional-documents master's first type, which needs a validity date). */
  const additionalDocument = (docId: string) => ({
    kind: 'command' as const,
    command: {
      type: 'UploadDocument' as const,
      docId,
      document: { documentTypeId: 1, kind: 'additional', validTill: nextYear(), file: storedFile('tds.pdf') },
    },
  });

  test('carries any item command, refuses the lifecycle\'s own commands, and refuses like any other update', async () => {
    const input = onboardingInput();
    const { baId } = input;
    await startOnboarding(client, taskQueue, input);
    const ba = actors.ba(baId);

    const create = { type: 'CreateBusinessAssociate', baId, companyCode: '1000', adminUserId: null, mobileNo: null, email: null } as const;
    expect(await refusal(act(client, baId, { kind: 'command', command: create }, ba))).toMatchObject({ code: 'validation' });
    const overdue = { type: 'MarkReviewOverdue', submission: 1, stage: 1, dueAt: new Date().toISOString() } as const;
    expect(await refusal(act(client, baId, { kind: 'command', command: overdue }, ba))).toMatchObject({ code: 'validation' });

    const accountId = randomUUID();
    const save = { type: 'SaveBankAccount', accountId, primary: true, account: validBankAccount } as const;
    const saved = await act(client, baId, { kind: 'command', command: save }, ba);
    expect(saved.state.bankAccounts?.[accountId]).toMatchObject({ primary: true, review: { status: 'pending' } });
    expect(saved.lastGlobalPosition).toBeGreaterThan(0);
    // Staff may not edit the BA's items: refused by the validator, nothing appended.
    const staffEdit = await refusal(act(client, baId, { kind: 'command', command: { ...save, accountId: randomUUID() } }, actors.procurement));
    expect(staffEdit.code).toBe('forbidden');
    expect(await typesOf(baId)).toEqual(['BusinessAssociateCreated', 'BankAccountSaved']);
  });

  test('a verified lifecycle keeps taking commands across continue-as-new and starts the expiry timer of an approved document', async () => {
    const input = onboardingInput({ continueAsNewAfterHistoryLength: 40, documentExpiry: { dayMs: 60_000 } });
    const { baId } = input;
    await happyPath(client, taskQueue, input);
    const handle = client.workflow.getHandle(onboardingWorkflowId(baId));

    const docId = randomUUID();
    await act(client, baId, additionalDocument(docId), actors.ba(baId));
    const review = { type: 'ReviewDocument', docId, decision: 'approved', approvedTill: nextYear() } as const;
    const approved = await act(client, baId, { kind: 'command', command: review }, actors.procurement);
    expect(approved.state.documents?.[docId]?.review.status).toBe('approved');

    // The run is not the first: the state came across continue-as-new, and the run still answers.
    const history = await handle.fetchHistory();
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
    expect((await getOnboardingState(client, baId))?.status).toBe('verified');
    expect(await statusOf(baId)).toBe('RUNNING');

    // The document's timer runs as its own workflow, outliving the onboarding run (ABANDON).
    const timer = client.workflow.getHandle(documentExpiryWorkflowId(baId, docId));
    const described = await waitFor(() => timer.describe().catch(() => undefined), 10_000);
    expect(described.type).toBe('documentExpiryWorkflow');
    expect(described.parentExecution?.workflowId).toBe(onboardingWorkflowId(baId));
  });

  test('a lifecycle that ended at verification (before issue 8) is resumed by the next command, from its stream', async () => {
    const input = onboardingInput({ endAtVerification: true });
    const { baId } = input;
    await happyPath(client, taskQueue, input);
    const handle = client.workflow.getHandle(onboardingWorkflowId(baId));
    await expect(handle.result()).resolves.toMatchObject({ state: { status: 'verified' } });

    // Without the task queue the client cannot start a run: the old answer.
    const docId = randomUUID();
    const closed = await refusal(sendOnboardingAction(client, baId, additionalDocument(docId), { actor: actors.ba(baId), requestId: randomUUID() }));
    expect(closed).toMatchObject({ code: 'rule', message: ALREADY_VERIFIED });

    const requestId = randomUUID();
    const send = () => sendOnboardingAction(client, baId, additionalDocument(docId), { actor: actors.ba(baId), requestId, taskQueue });
    const resumed = await send();
    expect(resumed.state).toMatchObject({ status: 'verified', baId, companyCode: '1000' });
    expect(resumed.state.documents?.[docId]?.document.kind).toBe('additional');
    expect(await statusOf(baId)).toBe('RUNNING');
    // The same request again: the same answer, one upload.
    await expect(send()).resolves.toEqual(resumed);
    const types = await typesOf(baId);
    expect(types.filter((t) => t === 'DocumentUploaded')).toHaveLength(7);
    expect(types.filter((t) => t === 'BusinessAssociateCreated')).toHaveLength(1);
    // The new run decides against the loaded state: a refusal is still a refusal.
    const again = await refusal(act(client, baId, { kind: 'submit' }, actors.ba(baId)));
    expect(again).toMatchObject({ code: 'rule', message: refusals.notSubmittable });
  });
});
