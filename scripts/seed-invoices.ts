import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { userIdForUsername } from '../domain/src/identity/users';
import type { EventStore } from '../domain/src/event-store/port';
import { evolveInvoice, initialInvoiceState, type InvoiceState } from '../domain/src/invoices/decide';
import { invoiceStreamId, type InvoiceEvent, type InvoiceFields, type InvoiceStatus } from '../domain/src/invoices/events';
import { DomainError } from '../domain/src/shared/errors';
import type { Actor, StoredEvent } from '../domain/src/shared/events';
import type { BlobStore } from '../platform/src/files';
import { indiaDateAt } from '../domain/src/shared/india-date';
import { addDays } from '../workflows/src/document-expiry/schedule';
import { childCodesOf } from '../workflows/src/invoices/resolve';
import {
  acknowledgeInvoice,
  addInvoiceAttachment,
  bookInvoice,
  createInvoiceDraft,
  discardInvoice,
  rejectInvoice,
  releaseInvoice,
  revokeInvoice,
  submitInvoice,
  verifyInvoice,
  type InvoiceCaller,
} from '../workflows/src/invoices/client';
import { recordAdvancePayment, submitMemo } from '../workflows/src/memos/client';
import { demoPdf, putDemoFile } from './seed-files';

/**
 * Bill-Hub's demo data (issue 11): the invoices of ba.verified's BA (Chamundi Roadlines, company code 1000,
 * billing from its Karnataka child vendor code) in every status, and a memo of three of them with an advance
 * against it, so the portal's Bill-Hub, the console's invoice queue and memos, the performance dashboard and the
 * verified home all have something to show.
 *
 * Sent through the invoice and memo clients exactly as the api sends a person's commands. Like the other demo
 * stories, each invoice's next command is planned from its own stream, every command carries a request id fixed
 * per step (a rerun never applies a step twice), and an invoice whose stream holds an event the seed did not
 * write (a person acted on it) is left as it stands.
 */

const NAMESPACE = '5b0c7c0e-3a7e-4f0a-9d59-7d1d2a0b1c11';
export const demoInvoiceId = (key: string): string => uuidv5(`demo-invoice:${key}`, NAMESPACE);
export const demoMemoId = (key: string): string => uuidv5(`demo-memo:${key}`, NAMESPACE);

/** Where a demo invoice's story ends. */
export type InvoiceTarget = Exclude<InvoiceStatus, never>;

type Step = 'create' | 'submit' | 'acknowledge' | 'verify' | 'book' | 'release' | 'reject' | 'revoke' | 'discard';

/** The path of commands that leads to each status, from nothing. */
const PATHS: Record<InvoiceTarget, readonly Step[]> = {
  draft: ['create'],
  discarded: ['create', 'discard'],
  S: ['create', 'submit'],
  A: ['create', 'submit', 'acknowledge'],
  V: ['create', 'submit', 'acknowledge', 'verify'],
  B: ['create', 'submit', 'acknowledge', 'verify', 'book'],
  P: ['create', 'submit', 'acknowledge', 'verify', 'book', 'release'],
  C: ['create', 'submit', 'reject'],
  R: ['create', 'submit', 'revoke'],
};

/** The status each step leaves the invoice in (book stays V until the ERP answers). */
const AFTER: Record<Step, InvoiceStatus> = {
  create: 'draft',
  discard: 'discarded',
  submit: 'S',
  acknowledge: 'A',
  verify: 'V',
  book: 'B',
  release: 'P',
  reject: 'C',
  revoke: 'R',
};

export type DemoInvoice = {
  key: string;
  number: string;
  /** Invoice date, days before today in India (inside the 61-day window). */
  daysAgo: number;
  taxable: number;
  /** A `locations` master code: HSK (Karnataka, intra-state: CGST + SGST) or CHK (Maharashtra: IGST). */
  to: 'HSK' | 'CHK';
  hsnCode: string;
  comments: string;
  target: InvoiceTarget;
  attachment?: string;
  remarks?: string;
};

/** 5 % GST on road transport (SAC 996511), split by whether the invoice crosses a state border; 1 % TDS. */
export function demoInvoiceFields(inv: DemoInvoice, today: string, billingFromCode: string, submitToUserId: string): InvoiceFields {
  const tax = Math.round(inv.taxable * 5) / 100;
  const intra = inv.to === 'HSK';
  const money = (n: number) => n.toFixed(2);
  return {
    invoiceNumber: inv.number,
    invoiceDate: addDays(today, -inv.daysAgo),
    taxableAmount: money(inv.taxable),
    cgst: money(intra ? tax / 2 : 0),
    sgst: money(intra ? tax / 2 : 0),
    igst: money(intra ? 0 : tax),
    td: money(Math.round(inv.taxable) / 100),
    hsnCode: inv.hsnCode,
    comments: inv.comments,
    submitToUserId,
    billingFromCode,
    billingToCode: inv.to,
  };
}

/**
 * Nine invoices, one per status, plus three submitted to Hoskote that the memo groups: a newcomer sees every
 * status chip, a rejection with its remarks, a booked invoice with the ERP's document number and a released one.
 */
export const DEMO_INVOICES: readonly DemoInvoice[] = [
  { key: 'draft', number: 'CRL/26-27/0141', daysAgo: 2, taxable: 48500, to: 'HSK', hsnCode: '996511', comments: 'Mysuru to Hoskote, 4 trips of 20 FT SXL, November week 4', target: 'draft' },
  { key: 'discarded', number: 'CRL/26-27/0140', daysAgo: 3, taxable: 12000, to: 'HSK', hsnCode: '996511', comments: 'Duplicate of a trip already billed', target: 'discarded' },
  { key: 'submitted', number: 'CRL/26-27/0131', daysAgo: 9, taxable: 86400, to: 'CHK', hsnCode: '996511', comments: 'Mysuru to Chakan, 3 trips of 32 FT MXL', target: 'S', attachment: 'Proof of delivery: Chakan Warehouse, 3 trips' },
  { key: 'acknowledged', number: 'CRL/26-27/0124', daysAgo: 16, taxable: 57200, to: 'CHK', hsnCode: '996511', comments: 'Bengaluru to Chakan, 2 trips of 32 FT MXL', target: 'A' },
  { key: 'verified', number: 'CRL/26-27/0117', daysAgo: 23, taxable: 39800, to: 'CHK', hsnCode: '996601', comments: 'Truck on hire with driver, 6 days at Chakan', target: 'V' },
  { key: 'booked', number: 'CRL/26-27/0109', daysAgo: 31, taxable: 124600, to: 'CHK', hsnCode: '996511', comments: 'Mysuru to Chakan, 5 trips of 32 FT MXL, October', target: 'B' },
  { key: 'released', number: 'CRL/26-27/0098', daysAgo: 44, taxable: 93250, to: 'CHK', hsnCode: '996511', comments: 'Hosur to Chakan, 4 trips of 24 FT SXL, October', target: 'P', attachment: 'Proof of delivery: Chakan Warehouse, October' },
  { key: 'rejected', number: 'CRL/26-27/0102', daysAgo: 40, taxable: 21000, to: 'CHK', hsnCode: '996511', comments: 'Detention charges at Chakan, 3 days', target: 'C', remarks: 'Detention is not payable under the contract; please bill the trip charge only' },
  { key: 'revoked', number: 'CRL/26-27/0095', daysAgo: 50, taxable: 15500, to: 'CHK', hsnCode: '996511', comments: 'Loading charges, Chakan', target: 'R', remarks: 'Raised against the wrong location' },
  { key: 'memo-1', number: 'CRL/26-27/0126', daysAgo: 14, taxable: 32000, to: 'HSK', hsnCode: '996511', comments: 'Mysuru to Hoskote, 3 trips of 20 FT SXL', target: 'S' },
  { key: 'memo-2', number: 'CRL/26-27/0127', daysAgo: 13, taxable: 28750, to: 'HSK', hsnCode: '996511', comments: 'Mysuru to Hoskote, 2 trips of 24 FT SXL', target: 'A' },
  { key: 'memo-3', number: 'CRL/26-27/0128', daysAgo: 12, taxable: 41200, to: 'HSK', hsnCode: '9967', comments: 'Cross-dock handling at Hoskote, 12 days', target: 'V' },
];

/** The memo of the three Hoskote invoices, with an advance paid against it. */
export const DEMO_MEMO = {
  key: 'hoskote-november',
  invoices: ['memo-1', 'memo-2', 'memo-3'],
  comments: 'Hoskote trips and handling, November 2026',
  advance: { amount: '25000.00', reference: 'NEFT UTR SBIN326110045872', daysAgo: 5 },
} as const;

export type InvoiceSeedDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  blobStore: BlobStore;
  /** The BA the invoices belong to (ba.verified's). */
  baId: string;
  companyCode: string;
  /** The BA's user who files them, the commercial staff they are submitted to, and the seed's staff actors. */
  actors: { ba: Actor; commercial: Actor; accounts: Actor };
  submitTo: string;
  writtenBySeed: (event: Pick<StoredEvent, 'metadata'>) => boolean;
  correlationPrefix: string;
  /** How long to wait for the child vendor code and the ERP's booking (the sandbox answers within seconds). */
  erpWaitMs?: number;
  log?: (line: string) => void;
};

export type InvoiceSeedOutcome = { invoices: number; commands: number; memo: string | null; leftAlone: string[]; waitingFor: string | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function invoiceProgress(deps: InvoiceSeedDeps, invoiceId: string): Promise<{ state: InvoiceState; touched: boolean }> {
  const events = await deps.store.readStream(invoiceStreamId(invoiceId));
  return {
    state: events.reduce((s, e) => evolveInvoice(s, { type: e.type, data: e.data } as InvoiceEvent), initialInvoiceState),
    touched: events.some((e) => !deps.writtenBySeed(e)),
  };
}

/** The next step toward the target from where the invoice stands, 'wait' while the ERP books it, null when done. */
export function nextInvoiceStep(target: InvoiceTarget, state: Pick<InvoiceState, 'status' | 'booking'>): Step | 'wait' | null {
  if (state.booking) return 'wait';
  const path = PATHS[target];
  if (state.status === 'none') return path[0] ?? null;
  const done = path.findIndex((step) => AFTER[step] === state.status);
  if (done < 0) return null; // somewhere the story does not lead: leave it
  return path[done + 1] ?? null;
}

async function runStep(deps: InvoiceSeedDeps, inv: DemoInvoice, step: Step, fields: InvoiceFields, invoiceId: string): Promise<void> {
  const correlationId = `${deps.correlationPrefix}invoice:${inv.key}`;
  const caller = (actor: Actor): InvoiceCaller => ({
    actor,
    actorBaId: actor === deps.actors.ba ? deps.baId : null,
    requestId: `${correlationId}:${step}`,
    correlationId,
  });
  const { temporal: client } = deps;
  switch (step) {
    case 'create': {
      await createInvoiceDraft(client, deps.taskQueue, { invoiceId, baId: deps.baId, fields }, caller(deps.actors.ba));
      if (inv.attachment) {
        const file = demoPdf(`${inv.number.replaceAll('/', '-')}-POD.pdf`, [inv.attachment, `Invoice ${inv.number}`]);
        await putDemoFile(deps.blobStore, file);
        const attachmentId = uuidv5(`demo-invoice-attachment:${inv.key}`, NAMESPACE);
        await addInvoiceAttachment(client, invoiceId, { attachmentId, ...file.stored }, { ...caller(deps.actors.ba), requestId: `${correlationId}:attach` });
      }
      return;
    }
    case 'submit':
      await submitInvoice(client, invoiceId, null, caller(deps.actors.ba));
      return;
    case 'discard':
      await discardInvoice(client, invoiceId, caller(deps.actors.ba));
      return;
    case 'acknowledge':
      await acknowledgeInvoice(client, invoiceId, caller(deps.actors.commercial));
      return;
    case 'verify':
      await verifyInvoice(client, invoiceId, caller(deps.actors.commercial));
      return;
    case 'book':
      await bookInvoice(client, invoiceId, caller(deps.actors.accounts));
      return;
    case 'release':
      await releaseInvoice(client, invoiceId, caller(deps.actors.accounts));
      return;
    case 'reject':
      await rejectInvoice(client, invoiceId, inv.remarks ?? 'Please correct and submit again', caller(deps.actors.commercial));
      return;
    case 'revoke':
      await revokeInvoice(client, invoiceId, inv.remarks ?? null, caller(deps.actors.ba));
      return;
  }
}

/** One invoice's story; 'left-alone' when a person acted on it, 'waiting' when the ERP had not booked it in time. */
async function seedInvoice(deps: InvoiceSeedDeps, inv: DemoInvoice, fields: InvoiceFields, deadline: number): Promise<{ commands: number; outcome: 'done' | 'left-alone' | 'waiting' }> {
  const invoiceId = demoInvoiceId(inv.key);
  let commands = 0;
  for (let sent = 0; ; ) {
    const { state, touched } = await invoiceProgress(deps, invoiceId);
    if (touched) return { commands, outcome: 'left-alone' };
    const step = nextInvoiceStep(inv.target, state);
    if (step === null) return { commands, outcome: 'done' };
    if (step === 'wait') {
      if (Date.now() >= deadline) return { commands, outcome: 'waiting' };
      await sleep(250);
      continue;
    }
    if (sent++ >= PATHS[inv.target].length + 1) throw new Error(`the demo invoice ${inv.number} does not settle`);
    try {
      await runStep(deps, inv, step, fields, invoiceId);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      if ((await invoiceProgress(deps, invoiceId)).touched) return { commands, outcome: 'left-alone' };
      throw new Error(`the demo invoice ${inv.number}: ${step} refused: ${e.message}`);
    }
    commands += 1;
  }
}

/** The BA's child vendor code in the company code, once the ERP has created it (it answers asynchronously). */
async function billingFromCode(deps: InvoiceSeedDeps, deadline: number): Promise<string | null> {
  for (;;) {
    const child = (await childCodesOf(deps.pool, deps.baId)).find((c) => c.companyCode === deps.companyCode);
    if (child) return child.code;
    if (Date.now() >= deadline) return null;
    await sleep(500);
  }
}

export async function seedInvoices(deps: InvoiceSeedDeps): Promise<InvoiceSeedOutcome> {
  const log = deps.log ?? (() => undefined);
  const deadline = Date.now() + (deps.erpWaitMs ?? 60_000);
  const outcome: InvoiceSeedOutcome = { invoices: 0, commands: 0, memo: null, leftAlone: [], waitingFor: null };
  const from = await billingFromCode(deps, deadline);
  if (!from) {
    log('demo invoices: the ERP has not created the child vendor code yet; no invoices seeded');
    outcome.waitingFor = 'child vendor code';
    return outcome;
  }
  const today = indiaDateAt(Date.now());
  // Two at a time: each is a short chain of workflow updates, and the ERP answers the bookings meanwhile.
  const queue = [...DEMO_INVOICES];
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      for (let inv = queue.shift(); inv; inv = queue.shift()) {
        const r = await seedInvoice(deps, inv, demoInvoiceFields(inv, today, from, deps.submitTo), deadline);
        outcome.commands += r.commands;
        if (r.outcome === 'left-alone') outcome.leftAlone.push(inv.number);
        else outcome.invoices += 1;
        if (r.outcome === 'waiting') log(`demo invoice ${inv.number}: the ERP has not booked it yet; it stays Verified until it does`);
      }
    }),
  );
  outcome.memo = await seedMemo(deps, today, new Set(outcome.leftAlone));
  outcome.leftAlone.sort();
  return outcome;
}

/** The memo of three Hoskote invoices and its advance; skipped when a person acted on one of its invoices. */
async function seedMemo(deps: InvoiceSeedDeps, today: string, leftAlone: ReadonlySet<string>): Promise<string | null> {
  const invoices = DEMO_INVOICES.filter((i) => (DEMO_MEMO.invoices as readonly string[]).includes(i.key));
  if (invoices.some((i) => leftAlone.has(i.number))) return null;
  const memoId = demoMemoId(DEMO_MEMO.key);
  const correlationId = `${deps.correlationPrefix}memo:${DEMO_MEMO.key}`;
  const memoEvents = await deps.store.readStream(`memo-${memoId}`);
  if (memoEvents.some((e) => !deps.writtenBySeed(e))) return null;
  const submitted = await submitMemo(deps.temporal, deps.taskQueue, {
    memoId,
    baId: deps.baId,
    invoiceIds: invoices.map((i) => demoInvoiceId(i.key)),
    comments: DEMO_MEMO.comments,
    submittedBy: deps.actors.ba,
    correlationId,
  });
  if (!memoEvents.some((e) => e.type === 'AdvancePaymentRecorded'))
    await recordAdvancePayment(deps.temporal, memoId, {
      actor: deps.actors.accounts,
      requestId: `${correlationId}:advance`,
      correlationId,
      amount: DEMO_MEMO.advance.amount,
      reference: DEMO_MEMO.advance.reference,
      paidOn: addDays(today, -DEMO_MEMO.advance.daysAgo),
    });
  return submitted.state.memoNumber ?? null;
}

/** The commercial user the demo invoices are submitted to. */
export const DEMO_SUBMIT_TO = userIdForUsername('commercial@demo.test');
