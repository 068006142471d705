import type { Client } from '@temporalio/client';
import type { StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
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
  type InvoiceCaller,
  type InvoiceUpdateResult,
} from './client';
import type { InvoiceTiming } from './messages';
import { invoiceActors, invoiceFields } from './testing';

/**
 * The invoice journeys the golden histories are recorded from (`npm run histories:record -- invoice`), kept next
 * to the workflow so the recording is exactly what they prove. They need a worker whose invoice activities use
 * `fixedLookups()` (testing.ts: child code 2000000027 in company 1000) and the sandbox ERP.
 */

/** The invoice to record: its id (the workflow id is `invoice-<invoiceId>`) and its BA. */
export type GoldenInvoice = { invoiceId: string; baId: string };

/** Short ERP retry and poll intervals so a recording takes seconds; the SLA timers keep their days. */
const RECORDING_TIMING: Partial<InvoiceTiming> = { retryInitialMs: 1_000, retryMaxMs: 1_000, pollInitialMs: 400, pollMaxMs: 400 };

/** Deterministic update ids: the history records them, and a re-recording should differ only in times. */
const as = (actor: InvoiceCaller['actor'], baId: string | null, requestId: string): InvoiceCaller => ({ actor, actorBaId: baId, requestId });

/** Polls the workflow's query until `ok` (bounded: a recording that hangs should fail, not wait forever). */
async function until(client: Client, invoiceId: string, ok: (r: InvoiceUpdateResult) => boolean, what: string): Promise<InvoiceUpdateResult> {
  const end = Date.now() + 60_000;
  for (;;) {
    const current = await getInvoiceState(client, invoiceId);
    if (current && ok(current)) return current;
    if (Date.now() > end) throw new Error(`invoice ${invoiceId}: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The main path: draft → submitted → acknowledged → verified → booked in the ERP → released. The ERP is down
 * when the booking starts (one or more InvoiceErpCallFailed, each followed by a backoff timer, then the same
 * posting key again), and the posting stays pending long enough for at least one poll timer. Answers the
 * workflow's result (status P). `erp` is the sandbox; its processing time is set back to `processingMs` after.
 */
export async function bookedAndReleased(
  client: Client,
  taskQueue: string,
  erp: Pick<StartedErpSandbox, 'setFaults' | 'resetFaults' | 'setProcessingMs'>,
  { invoiceId, baId }: GoldenInvoice,
  options: { processingMs: number },
): Promise<InvoiceUpdateResult> {
  const fields = invoiceFields({ invoiceNumber: 'GOLDEN-BOOKED-1' });
  await createInvoiceDraft(client, taskQueue, { invoiceId, baId, fields, timing: RECORDING_TIMING }, as(invoiceActors.ba, baId, `draft:${invoiceId}`));
  await submitInvoice(client, invoiceId, null, as(invoiceActors.ba, baId, `submit:${invoiceId}`));
  await acknowledgeInvoice(client, invoiceId, as(invoiceActors.commercial, null, `acknowledge:${invoiceId}`));
  await verifyInvoice(client, invoiceId, as(invoiceActors.commercial, null, `verify:${invoiceId}`));
  erp.setFaults({ downFor: 60_000 });
  erp.setProcessingMs(1_000);
  try {
    await bookInvoice(client, invoiceId, as(invoiceActors.accounts, null, `book:${invoiceId}`));
    await until(client, invoiceId, (r) => r.state.erpAttempts >= 1, 'a failed ERP call');
  } finally {
    erp.resetFaults();
  }
  try {
    const booked = await waitForInvoiceBooking(client, invoiceId, 60_000);
    if (booked?.state.status !== 'B') throw new Error(`invoice ${invoiceId}: not booked (${booked?.state.status ?? 'no answer'})`);
  } finally {
    erp.setProcessingMs(options.processingMs);
  }
  return releaseInvoice(client, invoiceId, as(invoiceActors.accounts, null, `release:${invoiceId}`));
}

/**
 * Rejected and resubmitted, with the submitted status' SLA (300 ms here) outliving it both times: draft →
 * submitted → SLA breached → rejected → resubmitted → SLA breached → acknowledged. The run keeps going (an
 * acknowledged invoice waits for its verification); the history up to the acknowledgement is what is recorded.
 */
export async function rejectedResubmittedLate(client: Client, taskQueue: string, { invoiceId, baId }: GoldenInvoice): Promise<InvoiceUpdateResult> {
  const fields = invoiceFields({ invoiceNumber: 'GOLDEN-REJECTED-1' });
  const timing = { ...RECORDING_TIMING, slaMs: { S: 300 } };
  await createInvoiceDraft(client, taskQueue, { invoiceId, baId, fields, timing }, as(invoiceActors.ba, baId, `draft:${invoiceId}`));
  await submitInvoice(client, invoiceId, null, as(invoiceActors.ba, baId, `submit:${invoiceId}`));
  await until(client, invoiceId, (r) => r.state.slaBreached, 'the first SLA breach');
  await rejectInvoice(client, invoiceId, 'Wrong rate', as(invoiceActors.commercial, null, `reject:${invoiceId}`));
  await submitInvoice(client, invoiceId, null, as(invoiceActors.ba, baId, `resubmit:${invoiceId}`));
  await until(client, invoiceId, (r) => r.state.status === 'S' && r.state.slaBreached, 'the second SLA breach');
  return acknowledgeInvoice(client, invoiceId, as(invoiceActors.commercial, null, `acknowledge:${invoiceId}`));
}
