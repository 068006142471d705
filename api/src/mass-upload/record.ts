import type { Pool } from 'pg';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { MassUploadKind, MassUploadValues } from '../../../domain/src/mass-upload/columns';
import {
  massUploadStreamId,
  nucleusVendorStreamId,
  type MassUploadBatchRecorded,
  type MassUploadRecorded,
  type NucleusVendorRecorded,
} from '../../../domain/src/mass-upload/events';
import type { Actor, EventMetadata, NewEvent } from '../../../domain/src/shared/events';
import { uuidV5In } from '../../../platform/src/ids/uuid-v5';
import { rowHashes } from '../../../projections/src/nucleus-vendors/nucleus-vendors.queries';
import { rowIdentity, unpackValues, type GoodRow } from './validate';

/** Event ids of an upload derive from what they record, so the same rows again are the same appends. */
export const MASS_UPLOAD_NAMESPACE = 'c0f5a7a2-6f1e-4c1b-9a4d-2e8b7d3f5a10';
/** uuid v5 in MASS_UPLOAD_NAMESPACE (one per row of an upload, so the fast one). */
const massUploadId = uuidV5In(MASS_UPLOAD_NAMESPACE);
/** The same file (kind + sha256) is the same upload. */
export const uploadIdOf = (kind: MassUploadKind, sha256: string): string => massUploadId(`${kind}:${sha256}`);

/**
 * Rows per batch of vendors (PAN streams; a vendor's rows are never split): one read of the hashes, then the
 * store's grouped appends. Just under the PostgreSQL store's 1,000 events a call, so a batch's appends and the
 * previous batch's MassUploadBatchRecorded go out as one call: one transaction, one WAL flush.
 */
const ROWS_PER_BATCH = 990;
/**
 * Batches in flight: while the database appends one, the next one's appends wait in the store's queue and a
 * third one's hashes are read and its events built, so the database rarely waits for Node (with two, it waited
 * for every batch to be built, since a batch is done only once its MassUploadBatchRecorded is appended).
 */
const BATCHES_IN_FLIGHT = 3;

/** The PANs in batches of at most ROWS_PER_BATCH rows (a vendor with more rows is a batch of its own). */
function batchesOf(byPan: ReadonlyMap<string, readonly GoodRow[]>): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let rows = 0;
  for (const [pan, list] of byPan) {
    if (current.length > 0 && rows + list.length > ROWS_PER_BATCH) {
      batches.push(current);
      current = [];
      rows = 0;
    }
    current.push(pan);
    rows += list.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export type RecordInput = {
  kind: MassUploadKind;
  uploadId: string;
  fileName: string;
  sha256: string;
  rows: readonly GoodRow[];
  parents: number;
  children: number;
  actor: Actor;
  requestId: string | null;
};

export type RecordResult = { created: number; unchanged: number; lastGlobalPosition: number };

/**
 * Appends the upload: per vendor one append of its changed rows (`NucleusVendorRecorded`, one event per
 * parent or child row) on `nucleus-vendor-<PAN>`; per batch of vendors a `MassUploadBatchRecorded` (their PANs,
 * for the ERP step); at the end `MassUploadRecorded`. A row whose values hash equals the read model's is not
 * appended (a row the ERP refused or did not find never equals it: a new file holding it sends it again). Event ids are uuid v5 of stream, row, previous and new hash: a row the read model has not caught
 * up with yet, or a retry of the same file, lands on the same id, which the store answers as the original
 * append (a replay at an old position) — counted as unchanged. Nothing is written before validation passed.
 */
export async function recordUpload(
  deps: { pool: Pool; store: EventStore },
  input: RecordInput,
  progress: (processed: number) => void = () => undefined,
): Promise<RecordResult> {
  const { store, pool } = deps;
  const at = new Date().toISOString();
  // One metadata object per company code: the store sends an object shared by events once.
  const metas = new Map<string | null, EventMetadata>();
  const meta = (companyCode: string | null): EventMetadata => {
    let m = metas.get(companyCode);
    if (!m) {
      m = { actor: input.actor, companyCode, correlationId: input.uploadId, causationId: null, workflowId: null, requestId: input.requestId, at };
      metas.set(companyCode, m);
    }
    return m;
  };
  const byPan = new Map<string, GoodRow[]>();
  for (const r of input.rows) {
    const list = byPan.get(r.pan);
    if (list) list.push(r);
    else byPan.set(r.pan, [r]);
  }
  const headBefore = await store.headPosition();
  const uploadStream = massUploadStreamId(input.uploadId);
  let created = 0;
  let unchanged = 0;
  let processed = 0;
  let last = headBefore;

  /** One batch's vendor appends (all sent at once: the store groups them into one call). */
  async function appendVendors(slice: readonly string[], known: Map<string, Map<string, string>>) {
    let batchCreated = 0;
    let batchUnchanged = 0;
    const appends: Promise<void>[] = [];
    for (const pan of slice) {
      const streamId = nucleusVendorStreamId(pan);
      const hashes = known.get(pan);
      const events: NewEvent<NucleusVendorRecorded['type'], NucleusVendorRecorded['data']>[] = [];
      for (const r of byPan.get(pan)!) {
        const values: MassUploadValues = unpackValues(input.kind, r.sheet, r.packed);
        const { rowKey, valuesHash } = rowIdentity(input.kind, r, values);
        const previous = hashes?.get(rowKey) ?? '';
        if (previous === valuesHash) {
          batchUnchanged += 1;
          continue;
        }
        events.push({
          eventId: massUploadId(`${streamId}|${rowKey}|${previous}|${valuesHash}`),
          type: 'NucleusVendorRecorded',
          data: {
            pan,
            kind: input.kind,
            row: r.sheet === 'Parent' ? 'parent' : 'child',
            rowKey,
            valuesHash,
            values,
            uploadId: input.uploadId,
          },
          metadata: meta(values.companyCode ?? null),
        });
      }
      if (events.length === 0) continue;
      // Only the count is kept while the append is in flight, so the events themselves can die young.
      const count = events.length;
      appends.push(
        store.appendToStream(streamId, events, { expectedVersion: 'any' }).then((result) => {
          // A replay answers the original append's position, which is older than this upload.
          if (result.lastGlobalPosition > headBefore) {
            batchCreated += count;
            last = Math.max(last, result.lastGlobalPosition);
          } else batchUnchanged += count;
        }),
      );
    }
    await Promise.all(appends);
    return { created: batchCreated, unchanged: batchUnchanged };
  }

  // Each batch's MassUploadBatchRecorded follows its vendors' appends and the previous batch's event, so the
  // upload's stream lists batches in order and a listed batch's vendors are all recorded.
  let previousBatch: Promise<void> = Promise.resolve();
  const inFlight: Promise<void>[] = [];
  let batch = 0;
  for (const slice of batchesOf(byPan)) {
    if (inFlight.length >= BATCHES_IN_FLIGHT) await inFlight.shift();
    const number = batch++;
    const known = await rowHashes(pool, slice);
    const vendors = appendVendors(slice, known);
    const after = previousBatch;
    const done = (async () => {
      const counts = await vendors;
      await after;
      created += counts.created;
      unchanged += counts.unchanged;
      processed += slice.reduce((n, pan) => n + byPan.get(pan)!.length, 0);
      const batchEvent: NewEvent<MassUploadBatchRecorded['type'], MassUploadBatchRecorded['data']> = {
        eventId: massUploadId(`${uploadStream}|batch|${number}`),
        type: 'MassUploadBatchRecorded',
        data: { uploadId: input.uploadId, batch: number, pans: slice, created: counts.created, unchanged: counts.unchanged },
        metadata: meta(null),
      };
      const r = await store.appendToStream(uploadStream, [batchEvent], { expectedVersion: 'any' });
      last = Math.max(last, r.lastGlobalPosition);
      progress(processed);
    })();
    // A failed batch fails the upload (below); the ones after it must not wait on it forever.
    previousBatch = done.catch(() => undefined);
    inFlight.push(done);
  }
  for (const done of inFlight) await done;
  const recorded: NewEvent<MassUploadRecorded['type'], MassUploadRecorded['data']> = {
    eventId: massUploadId(`${uploadStream}|recorded`),
    type: 'MassUploadRecorded',
    data: {
      uploadId: input.uploadId,
      kind: input.kind,
      fileName: input.fileName,
      sha256: input.sha256,
      parents: input.parents,
      children: input.children,
      rows: input.rows.length,
      created,
      unchanged,
      batches: batch,
    },
    metadata: meta(null),
  };
  const r = await store.appendToStream(uploadStream, [recorded], { expectedVersion: 'any' });
  last = Math.max(last, r.lastGlobalPosition);
  return { created, unchanged, lastGlobalPosition: last };
}
