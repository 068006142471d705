import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { EventStore } from '../../../domain/src/event-store/port';
import { invoiceStreamId } from '../../../domain/src/invoices/events';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, uniqueTaskQueue, workflowBundle } from '../../../tests/support/temporal';
import { refusal } from '../testing/refusal';
import { createInvoiceActivities } from './activities';
import {
  acknowledgeInvoice,
  bookInvoice,
  createInvoiceDraft,
  getInvoiceState,
  rejectInvoice,
  releaseInvoice,
  submitInvoice,
  verifyInvoice,
  waitForInvoiceBooking,
  type InvoiceUpdateResult,
} from './client';
import { fixedLookups, invoiceActors, invoiceFields } from './testing';

jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('invoice-workflow');
let db: TestDatabase;
let store: EventStore;
let sandbox: StartedErpSandbox;
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let worker: Worker;
let running: Promise<void>;
const onHold = new Set<string>();

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 100 });
  store = createPostgresEventStore(db.appPool);
  nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  const activities = createInvoiceActivities({ store, erp: sandbox.erp, lookups: fixedLookups({ onHold }) });
  worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowBundle: workflowBundle(), activities });
  running = worker.run();
  connection = await Connection.connect({ address: temporalAddress() });
  client = new Client({ connection });
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
  await sandbox?.stop();
  await db?.drop();
});

const FAST = { retryInitialMs: 200, retryMaxMs: 800, pollInitialMs: 100, pollMaxMs: 300 };
const typesOf = async (invoiceId: string) => (await store.readStream(invoiceStreamId(invoiceId))).map((e) => e.type);
const as = (actor: typeof invoiceActors.ba, baId: string | null) => ({ actor, actorBaId: baId, requestId: randomUUID() });

async function draft(baId: string, number: string, timing: object = FAST): Promise<string> {
  const invoiceId = randomUUID();
  await createInvoiceDraft(client, taskQueue, { invoiceId, baId, fields: invoiceFields({ invoiceNumber: number }), timing }, as(invoiceActors.ba, baId));
  return invoiceId;
}
async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('invoice workflow', () => {
  test('draft → S → A → V → B (sandbox ERP) → P, with release refused while payments are on hold', async () => {
    const baId = randomUUID();
    const id = await draft(baId, 'INV-FLOW-1');
    await submitInvoice(client, id, null, as(invoiceActors.ba, baId));
    await acknowledgeInvoice(client, id, as(invoiceActors.commercial, null));
    // The BA may not verify; commercial verifies.
    expect(await refusal(verifyInvoice(client, id, as(invoiceActors.ba, baId)))).toMatchObject({ code: 'forbidden' });
    await verifyInvoice(client, id, as(invoiceActors.commercial, null));
    await bookInvoice(client, id, as(invoiceActors.accounts, null));
    const booked = (await waitForInvoiceBooking(client, id, 20_000)) as InvoiceUpdateResult;
    expect(booked.state).toMatchObject({ status: 'B', booking: false });
    expect(booked.state.erpDocumentNumber).toMatch(/^51\d{8}$/);

    onHold.add(baId);
    expect(await refusal(releaseInvoice(client, id, as(invoiceActors.accounts, null)))).toMatchObject({ code: 'rule', message: 'Payments to this BA are on hold' });
    onHold.delete(baId);
    const released = await releaseInvoice(client, id, as(invoiceActors.accounts, null));
    expect(released.state.status).toBe('P');
    expect(await typesOf(id)).toEqual([
      'InvoiceDrafted',
      'InvoiceSubmitted',
      'InvoiceAcknowledged',
      'InvoiceVerified',
      'InvoiceBookingRequested',
      'InvoiceErpRequestSubmitted',
      'InvoiceBooked',
      'InvoiceReleased',
    ]);
  });

  test('the ERP down for a while during booking: failures recorded, one posting, one InvoiceBooked', async () => {
    const baId = randomUUID();
    const id = await draft(baId, 'INV-ERP-DOWN');
    await submitInvoice(client, id, null, as(invoiceActors.ba, baId));
    await acknowledgeInvoice(client, id, as(invoiceActors.commercial, null));
    await verifyInvoice(client, id, as(invoiceActors.commercial, null));
    sandbox.setFaults({ downFor: 60_000 });
    try {
      await bookInvoice(client, id, as(invoiceActors.accounts, null));
      await until(typesOf.bind(null, id), (t) => t.filter((x) => x === 'InvoiceErpCallFailed').length >= 2);
      expect((await getInvoiceState(client, id))?.state).toMatchObject({ status: 'V', booking: true });
    } finally {
      sandbox.resetFaults();
    }
    const booked = await until(() => getInvoiceState(client, id), (s) => s?.state.status === 'B');
    expect(booked?.state.status).toBe('B');
    const types = await typesOf(id);
    expect(types.filter((t) => t === 'InvoiceBooked')).toHaveLength(1);
    expect(types.filter((t) => t === 'InvoiceErpRequestSubmitted')).toHaveLength(1);
  });

  test('two invoices with the same number submitted at once: exactly one accepted, the other 409 Duplicate Invoice', async () => {
    const baId = randomUUID();
    const [a, b] = await Promise.all([draft(baId, 'INV-RACE'), draft(baId, 'inv-race ')]);
    const outcomes = await Promise.allSettled([
      submitInvoice(client, a!, null, as(invoiceActors.ba, baId)),
      submitInvoice(client, b!, null, as(invoiceActors.ba, baId)),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failed = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toMatchObject({ code: 'conflict', message: 'Duplicate Invoice' });
    const statuses = await Promise.all([a!, b!].map(async (id) => (await getInvoiceState(client, id))?.state.status));
    expect(statuses.sort()).toEqual(['S', 'draft']);
  });

  test('a rejected and resubmitted invoice keeps its number: a new invoice with it is a duplicate', async () => {
    const baId = randomUUID();
    const first = await draft(baId, 'INV-KEEP');
    await submitInvoice(client, first, null, as(invoiceActors.ba, baId));
    await rejectInvoice(client, first, 'Wrong rate', as(invoiceActors.commercial, null));
    const resubmitted = await submitInvoice(client, first, null, as(invoiceActors.ba, baId));
    expect(resubmitted.state.status).toBe('S');
    await rejectInvoice(client, first, 'Still wrong', as(invoiceActors.commercial, null));
    const second = await draft(baId, 'INV-KEEP');
    expect(await refusal(submitInvoice(client, second, null, as(invoiceActors.ba, baId)))).toMatchObject({ code: 'conflict', message: 'Duplicate Invoice' });
    expect(await typesOf(second)).toEqual(['InvoiceDrafted']);
  });

  test('an SLA breach is recorded once when a status outlives its timer', async () => {
    const baId = randomUUID();
    const id = await draft(baId, 'INV-SLA', { ...FAST, slaMs: { S: 300 } });
    await submitInvoice(client, id, null, as(invoiceActors.ba, baId));
    const state = await until(() => getInvoiceState(client, id), (s) => s?.state.slaBreached === true);
    expect(state?.state).toMatchObject({ status: 'S', slaBreached: true });
    await new Promise((r) => setTimeout(r, 500));
    expect((await typesOf(id)).filter((t) => t === 'InvoiceSlaBreached')).toHaveLength(1);
    await acknowledgeInvoice(client, id, as(invoiceActors.commercial, null));
    expect((await getInvoiceState(client, id))?.state.slaBreached).toBe(false);
  });
});
