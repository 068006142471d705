import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import { memoMessages } from '../../../domain/src/memos/decide';
import { memoClaimsStreamId, memoStreamId } from '../../../domain/src/memos/events';
import { memoFinancialYear } from '../../../domain/src/memos/amounts';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, uniqueTaskQueue, workflowBundle } from '../../../tests/support/temporal';
import { refusal } from '../testing/refusal';
import { createActivities } from '../worker';
import { createMemoActivities } from './activities';
import { recordAdvancePayment, submitMemo } from './client';
import { memoWorkflowId } from './messages';
import { memoActors, memoInput, seedInvoice, uniqueCompanyCode } from './testing';

jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('memo-workflow');
let db: TestDatabase;
let store: EventStore;
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  db = await createTestDatabase();
  store = createPostgresEventStore(db.appPool);
  nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowBundle: workflowBundle(), activities: createActivities({ store, pool: db.appPool }) });
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

const fy = () => memoFinancialYear(indiaDateAt(Date.now()));
const typesOf = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);

describe('memo workflow', () => {
  test('claims, numbers and records the memo with its totals; an advance follows', async () => {
    const baId = randomUUID();
    const cc = uniqueCompanyCode();
    const a = await seedInvoice(store, { baId, companyCode: cc });
    const b = await seedInvoice(store, { baId, companyCode: cc, status: 'V', taxableAmount: '500.50', cgst: '0', sgst: '0', igst: '90.09', td: '0' });
    const input = memoInput(baId, [a, b]);
    const r = await submitMemo(client, taskQueue, input);
    expect(r.state).toMatchObject({ status: 'submitted', memoNumber: `MEMO/${cc}/${fy()}/000001`, baId, companyCode: cc });
    const [submitted] = await store.readStream(memoStreamId(input.memoId));
    expect(submitted?.data).toMatchObject({
      invoiceIds: [a, b],
      fromStateId: 27,
      toStateId: 27,
      totals: { taxableAmount: '1500.50', cgst: '90.00', sgst: '90.00', igst: '90.09', td: '10.00', totalAmount: '1770.59', netPayable: '1760.59' },
      comments: 'November trips',
    });
    expect(submitted?.metadata.companyCode).toBe(cc);

    // The same submission again (a retried request) joins the memo and gets the same number.
    expect((await submitMemo(client, taskQueue, input)).state.memoNumber).toBe(r.state.memoNumber);

    const paid = await recordAdvancePayment(client, input.memoId, { actor: memoActors.accounts, requestId: randomUUID(), amount: '760.59', reference: 'UTR-1', paidOn: indiaDateAt(Date.now()) });
    expect(paid.state.advancesPaise).toBe(76059);
    const tooMuch = await refusal(recordAdvancePayment(client, input.memoId, { actor: memoActors.accounts, requestId: randomUUID(), amount: '1000.01', reference: 'UTR-2', paidOn: '2026-01-01' }));
    expect(tooMuch).toMatchObject({ code: 'rule', message: memoMessages.advanceTooHigh });
    expect(await typesOf(memoStreamId(input.memoId))).toEqual(['MemoSubmitted', 'AdvancePaymentRecorded']);

    // Its history (submission, an advance, a refused advance) replays against the bundle without nondeterminism.
    const history = await client.workflow.getHandle(memoWorkflowId(input.memoId)).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: workflowBundle() }, history, memoWorkflowId(input.memoId))).resolves.toBeUndefined();
  });

  test('ten memos at once for one company code and year are numbered 1..10 without gap or duplicate', async () => {
    const cc = uniqueCompanyCode();
    const inputs = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        // Half from one BA (its claims stream contended too), half from others.
        const baId = i % 2 === 0 ? 'ba-shared-' + cc : randomUUID();
        return memoInput(baId, [await seedInvoice(store, { baId, companyCode: cc })]);
      }),
    );
    const results = await Promise.all(inputs.map((input) => submitMemo(client, taskQueue, input)));
    const numbers = results.map((r) => r.state.memoNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 10 }, (_, i) => `MEMO/${cc}/${fy()}/${String(i + 1).padStart(6, '0')}`));
  });

  test('one invoice claimed by two memos at once: one wins, the other is refused and takes no number', async () => {
    const baId = randomUUID();
    const cc = uniqueCompanyCode();
    const shared = await seedInvoice(store, { baId, companyCode: cc, invoiceNumber: 'RACE-1' });
    const other = await seedInvoice(store, { baId, companyCode: cc });
    const first = memoInput(baId, [shared]);
    const second = memoInput(baId, [other, shared]);
    const outcomes = await Promise.allSettled([submitMemo(client, taskQueue, first), submitMemo(client, taskQueue, second)]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof submitMemo>>>).value;
    expect(lost[0]?.reason).toMatchObject({ code: 'conflict', message: `Invoice RACE-1 is already in memo ${winner.state.memoNumber}` });
    expect(winner.state.memoNumber).toBe(`MEMO/${cc}/${fy()}/000001`);
    expect(await typesOf(memoClaimsStreamId(baId))).toEqual(['MemoInvoicesClaimed']);
    // The next memo of the company code gets 2: the refused one consumed no number.
    const fresh = await seedInvoice(store, { baId, companyCode: cc });
    const next = await submitMemo(client, taskQueue, memoInput(baId, [fresh]));
    expect(next.state.memoNumber).toBe(`MEMO/${cc}/${fy()}/000002`);
  });

  test('a draft or booked invoice, or mixed state pairs, are refused and record nothing', async () => {
    const baId = randomUUID();
    const cc = uniqueCompanyCode();
    const draft = await seedInvoice(store, { baId, companyCode: cc, status: 'draft', invoiceNumber: 'D-1' });
    const booked = await seedInvoice(store, { baId, companyCode: cc, status: 'B', invoiceNumber: 'B-1' });
    const s1 = await seedInvoice(store, { baId, companyCode: cc });
    const s2 = await seedInvoice(store, { baId, companyCode: cc, toStateId: 29 });
    expect(await refusal(submitMemo(client, taskQueue, memoInput(baId, [draft])))).toMatchObject({ code: 'rule', message: memoMessages.notSubmitted('D-1', 'Draft') });
    expect(await refusal(submitMemo(client, taskQueue, memoInput(baId, [booked])))).toMatchObject({ code: 'rule', message: memoMessages.notSubmitted('B-1', 'Booked') });
    expect(await refusal(submitMemo(client, taskQueue, memoInput(baId, [s1, s2])))).toMatchObject({ code: 'rule', message: memoMessages.oneStatePair });
    expect(await refusal(submitMemo(client, taskQueue, memoInput(randomUUID(), [s1])))).toMatchObject({ code: 'not_found' });
    expect(await typesOf(memoClaimsStreamId(baId))).toEqual([]);
  });

  test('activities retried after a crash are idempotent: the claim is not doubled, the memo keeps its number', async () => {
    const activities = createMemoActivities({ store });
    const baId = randomUUID();
    const cc = uniqueCompanyCode();
    const invoice = await seedInvoice(store, { baId, companyCode: cc });
    const memoId = randomUUID();
    const envelope = (commandId: string) => ({
      memoId,
      actor: memoActors.ba,
      commandId,
      correlationId: memoId,
      causedBy: null,
      workflowId: memoWorkflowId(memoId),
      companyCode: cc,
      at: new Date().toISOString(),
    });
    const claimed = await activities.claimMemoInvoices({ ...envelope('claim-1'), baId, invoiceIds: [invoice] });
    // A retry of the same attempt, and a new attempt after the workflow task was replayed with another id.
    await activities.claimMemoInvoices({ ...envelope('claim-1'), baId, invoiceIds: [invoice] });
    await activities.claimMemoInvoices({ ...envelope('claim-2'), baId, invoiceIds: [invoice] });
    expect(claimed).toMatchObject({ invoiceIds: [invoice], companyCode: cc });
    expect(await typesOf(memoClaimsStreamId(baId))).toEqual(['MemoInvoicesClaimed']);
    const first = await activities.assignMemoNumber({ ...envelope('number-1'), companyCode: cc });
    const again = await activities.assignMemoNumber({ ...envelope('number-2'), companyCode: cc });
    expect(again).toEqual(first);
    expect(first.memoNumber).toBe(`MEMO/${cc}/${fy()}/000001`);
    expect(await typesOf(`memo-seq-${cc}-${fy()}`)).toEqual(['MemoNumberAssigned']);
  });
});
