import { continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { createMassUploadActivities } from './activities';
import { BATCHES_PER_RUN, massUploadProgressQuery, type MassUploadInput, type MassUploadProgress } from './messages';

// Types only: the activity code (pg, the ERP adapter) never enters the workflow bundle.
const { massUploadBatchCount, completeMassUpload } = proxyActivities<ReturnType<typeof createMassUploadActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

const { pushMassUploadBatch } = proxyActivities<ReturnType<typeof createMassUploadActivities>>({
  // One batch: up to 1000 vendors, ≤ 10 ERP requests in flight, each polled until the ERP answers.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  // An ERP outage (ErpUnavailableError) fails the batch; it is tried again with backoff (2 s doubling to 10 min)
  // without a bound. Vendors already answered are skipped on the next try (their streams say so), and every
  // ERP request carries the row's idempotency key, so no vendor is created twice.
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    nonRetryableErrorTypes: ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'],
  },
});

/**
 * The ERP step of one mass upload, after the API recorded its rows. Batch by batch (the PANs of each
 * MassUploadBatchRecorded): nucleus — each parent is created in the ERP, then its children with the parent's
 * code; SAP-verified — each PAN is looked up and the codes found are recorded. Results are events on the
 * vendors' streams; the last is MassUploadErpCompleted on the upload's stream.
 */
export async function massUploadWorkflow(input: MassUploadInput): Promise<MassUploadProgress> {
  const progress: MassUploadProgress = input.totals ?? { batches: 0, vendors: 0, assigned: 0, refused: 0, notInErp: 0 };
  setHandler(massUploadProgressQuery, () => progress);
  const batches = await massUploadBatchCount({ uploadId: input.uploadId });
  const from = input.fromBatch ?? 0;
  const last = input.pollMs === undefined ? {} : { pollMs: input.pollMs };
  for (let batch = from; batch < batches; batch += 1) {
    if (batch - from >= BATCHES_PER_RUN) {
      await continueAsNew<typeof massUploadWorkflow>({ ...input, fromBatch: batch, totals: progress });
    }
    const result = await pushMassUploadBatch({ uploadId: input.uploadId, kind: input.kind, batch, ...last });
    progress.batches += 1;
    progress.vendors += result.vendors;
    progress.assigned += result.assigned;
    progress.refused += result.refused;
    progress.notInErp += result.notInErp;
  }
  await completeMassUpload({ uploadId: input.uploadId, assigned: progress.assigned, refused: progress.refused, notInErp: progress.notInErp });
  return progress;
}
