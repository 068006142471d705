import { defineQuery } from '@temporalio/workflow';
import type { MassUploadKind } from '../../../domain/src/mass-upload/columns';

export const massUploadWorkflowId = (uploadId: string): string => `mass-upload-${uploadId}`;

export type MassUploadInput = {
  uploadId: string;
  kind: MassUploadKind;
  /** The batch (MassUploadBatchRecorded) to go on from: continue-as-new carries it. */
  fromBatch?: number;
  totals?: MassUploadProgress;
  /** ERP status polling interval of the activity (tests shorten it). */
  pollMs?: number;
};

export type MassUploadProgress = { batches: number; vendors: number; assigned: number; refused: number; notInErp: number };

export const massUploadProgressQuery = defineQuery<MassUploadProgress>('massUploadProgress');

/** At most this many ERP requests of one upload in flight at once (contract: ≤ 10). */
export const ERP_IN_FLIGHT = 10;
/** Batches handled per run before continue-as-new keeps the history short. */
export const BATCHES_PER_RUN = 20;
