import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { EventStore } from '../../../domain/src/event-store/port';
import { baStreamId } from '../../../domain/src/onboarding/events';
import { temporalAddress, uniqueTaskQueue } from '../../../tests/support/temporal';
import { waitFor } from '../../../tests/support/wait';
import { startTestWorker } from '../testing/worker';
import { act, actors, happyPath, nextYear, onboardingInput, storedFile } from '../onboarding/scenarios';
import { createDocumentExpiryActivities, expiryRequestId, type RecordDocumentExpiryArgs } from './activities';
import { expiryScheduleQuery, validTillChangedSignal, type DocumentExpiryInput, type DocumentExpirySchedule } from './messages';
import { baWithApprovedDocument as approvedDocument } from './scenarios';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { addDays } from './schedule';

// Set here, not only in jest.config: jest-circus reads the timeout of the global config, not the project's.
jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('document-expiry');
let store: EventStore;
let client: Client;
let connection: Connection;
let stop: (() => Promise<void>) | undefined;
/** Request ids the wrapped activity has sent once and then "lost the answer" of. */
const lostOnce = new Set<string>();
const attempts: string[] = [];

beforeAll(async () => {
  // The timers' activity sends to the onboarding lifecycle: it needs a client of its own (the worker's in production).
  connection = await Connection.connect({ address: temporalAddress() });
  const activityClient = new Client({ connection });
  const real = createDocumentExpiryActivities({ temporal: activityClient });
  ({ store, client, stop } = await startTestWorker(taskQueue, {
    activities: () => ({
      // Every request is sent, then its answer is lost once (a worker crash after the update): the retry
      // sends the same request id again, which the lifecycle must answer without recording anything twice.
      async recordDocumentExpiry(args: RecordDocumentExpiryArgs) {
        const id = expiryRequestId(args);
        attempts.push(id);
        const result = await real.recordDocumentExpiry(args);
        if (!lostOnce.has(id)) {
          lostOnce.add(id);
          throw new Error(`answer of ${id} lost`);
        }
        return result;
      },
    }),
  }));
});

afterAll(async () => {
  await stop?.();
  await connection?.close();
});

const countOf = async (baId: string, type: string): Promise<Record<string, number>> => {
  const counts: Record<string, number> = {};
  for (const e of await store.readStream(baStreamId(baId))) {
    if (e.type !== type) continue;
    const key = String((e.data as { daysBefore?: number }).daysBefore ?? 'expired');
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

const baWithApprovedDocument = (validTill: string) => approvedDocument(client, taskQueue, validTill);

/** Starts a timer under an id of the test's own (the lifecycle's child, if any, has the production id). */
const startTimer = (input: DocumentExpiryInput) =>
  client.workflow.start('documentExpiryWorkflow', { taskQueue, workflowId: `test-expiry-${randomUUID()}`, args: [input] });

describe('document expiry timers', () => {
  test('reminders 30, 7 and 0 days before, then the expiry: each recorded once although every answer was lost once', async () => {
    // 31 Indian days ahead: the 30-day reminder falls tomorrow, so none is skipped. A "day" is 250 ms.
    const validTill = addDays(indiaDateAt(Date.now()), 31);
    const { baId, docId } = await baWithApprovedDocument(validTill);
    const timer = await startTimer({ baId, docId, validTill, documentTypeName: 'Insurance', reminderDaysBefore: [30, 7, 0], dayMs: 250 });

    const done: DocumentExpirySchedule = await timer.result();
    expect(done).toMatchObject({ validTill, recorded: [30, 7, 0], skipped: [], pending: [], expired: true, endedBecause: null });
    expect(await countOf(baId, 'DocumentExpiryReminded')).toEqual({ '30': 1, '7': 1, '0': 1 });
    expect(await countOf(baId, 'DocumentExpired')).toEqual({ expired: 1 });
    // Each step was really asked twice (the lost answer, then its retry) under one request id.
    for (const step of [30, 7, 0, null]) {
      const id = expiryRequestId({ docId, validTill, daysBefore: step, round: 0 });
      expect(attempts.filter((a) => a === id)).toHaveLength(2);
    }
    const [expired] = (await store.readStream(baStreamId(baId))).filter((e) => e.type === 'DocumentExpired');
    expect(expired?.data).toMatchObject({ docId, validTill });
    expect(expired?.metadata.actor).toEqual({ userId: 'system', role: 'system', name: 'Document expiry' });
  });

  test('once the document is no longer the approved one with that date, the timer records nothing more and ends', async () => {
    // 8 days ahead: the 30-day reminder's day is over (skipped), the 7-day one is due at once. A "day" is 1.5 s.
    const validTill = addDays(indiaDateAt(Date.now()), 8);
    const { baId, docId } = await baWithApprovedDocument(validTill);
    const timer = await startTimer({ baId, docId, validTill, documentTypeName: 'Insurance', dayMs: 1500 });
    // Recorded once the (lost, then retried) answer reached the timer.
    const schedule = await waitFor(async () => {
      const s = await timer.query(expiryScheduleQuery);
      return s.recorded.includes(7) ? s : undefined;
    }, 20_000);
    expect(schedule).toMatchObject({ skipped: [30], recorded: [7], pending: [0] });
    expect(await countOf(baId, 'DocumentExpiryReminded')).toEqual({ '7': 1 });

    // A reviewer takes the approval back (the application is still in review): the timer's date no longer applies.
    await act(
      client,
      baId,
      { kind: 'command', command: { type: 'ReviewDocument', docId, decision: 'rejected', remarks: 'The policy was cancelled' } },
      actors.procurement,
    );
    const done = await timer.result();
    expect(done).toMatchObject({ recorded: [7], expired: false, endedBecause: 'The document is rejected' });
    expect(await countOf(baId, 'DocumentExpiryReminded')).toEqual({ '7': 1 });
    expect(await countOf(baId, 'DocumentExpired')).toEqual({});
  });

  test('a verified BA replaces the document: the old one’s timer records nothing and ends', async () => {
    const input = onboardingInput({ documentExpiry: { dayMs: 10 * 365 * 86_400_000 } });
    const { baId } = input;
    const verified = (await happyPath(client, taskQueue, input)).at(-1);
    expect(verified?.state.status).toBe('verified');
    const documents = verified?.state.documents ?? {};
    const [docId, current] = Object.entries(documents).find(([, d]) => d.document.validTill !== null) ?? [];
    if (!docId || !current) throw new Error('no document with a validity date');
    const validTill = current.document.validTill ?? nextYear();
    // A "day" of 20 ms: the 30-day reminder falls some seconds from now, after the replacement below.
    const timer = await startTimer({ baId, docId, validTill, documentTypeName: 'Insurance', dayMs: 20 });

    const renewed = {
      documentTypeId: current.document.documentTypeId,
      kind: 'onboarding',
      documentNumber: null,
      validTill: addDays(validTill, 365),
      stateId: null,
      file: storedFile('renewed.pdf'),
    };
    const upload = { type: 'UploadDocument' as const, docId: randomUUID(), document: renewed };
    const replaced = await act(client, baId, { kind: 'command', command: upload }, actors.ba(baId));
    expect(replaced.state.documents?.[docId]).toBeUndefined();

    const done = await timer.result();
    expect(done).toMatchObject({ recorded: [], expired: false, endedBecause: 'The document was replaced or deleted' });
    expect(await countOf(baId, 'DocumentExpiryReminded')).toEqual({});
    expect(await countOf(baId, 'DocumentExpired')).toEqual({});
  });

  test('re-dated while it runs (the same document approved again with another date), the timer plans for the new date', async () => {
    const today = indiaDateAt(Date.now());
    const { baId, docId } = await baWithApprovedDocument(addDays(today, 8));
    const timer = await startTimer({ baId, docId, validTill: addDays(today, 8), documentTypeName: 'Insurance', dayMs: 1500 });
    await waitFor(async () => ((await timer.query(expiryScheduleQuery)).recorded.includes(7) ? true : undefined), 20_000);

    const later = addDays(today, 20);
    const review = { type: 'ReviewDocument' as const, docId, decision: 'approved' as const, approvedTill: later };
    await act(client, baId, { kind: 'command', command: review }, actors.procurement);
    // What the onboarding workflow sends its own child in this case (its child here is another workflow id).
    await timer.signal(validTillChangedSignal, { validTill: later });
    const replanned = await waitFor(async () => {
      const s = await timer.query(expiryScheduleQuery);
      return s.validTill === later ? s : undefined;
    }, 10_000);
    // 30 days before the new date is over; 7 and 0 days before lie ahead; nothing is recorded for it yet.
    expect(replanned).toMatchObject({ skipped: [30], pending: [7, 0], recorded: [], endedBecause: null });
    await timer.terminate('test over');
    expect(await countOf(baId, 'DocumentExpiryReminded')).toEqual({ '7': 1 });
  });
});
