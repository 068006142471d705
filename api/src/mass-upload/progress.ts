import type pg from 'pg';
import type { MassUploadKind } from '../../../domain/src/mass-upload/columns';

/*
 * Where a mass upload's recording stands, in PostgreSQL so every api process answers the same (issue 12 runs the
 * api as a cluster: the POST that records and the GETs polling its progress land on any worker). Kept in memory
 * per process before, a poll that reached another worker answered 404 "No such upload" until the projector had
 * the finished upload, and a double click reaching another worker recorded the file a second time.
 *
 * Operational state, not events (like idempotency keys): the upload's events stay the record; this row only says
 * "being recorded, n of m" while that runs, and how it ended. A worker that died mid-recording leaves a row that
 * stops moving: after STALE_AFTER_SECONDS without progress the same file may be claimed again.
 */

export const MASS_UPLOAD_PROGRESS_SCHEMA_SQL = /* sql */ `
create table if not exists mass_upload_progress (
  upload_id text primary key,
  kind text not null,
  state text not null check (state in ('recording', 'recorded', 'failed')),
  processed integer not null default 0,
  total integer not null,
  created integer not null default 0,
  unchanged integer not null default 0,
  message text,
  updated_at timestamptz not null default now()
);`;

export async function ensureMassUploadProgressSchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  await db.query(MASS_UPLOAD_PROGRESS_SCHEMA_SQL);
}

/** A recording that has not moved for this long is taken for dead (a batch takes well under a second). */
export const STALE_AFTER_SECONDS = 120;
/** What a failed recording says, and a dead one (stale) reads as. */
export const RECORDING_FAILED = 'The upload could not be recorded. Please upload the file again.';
/** Finished rows are kept this long for late polls, then pruned (the read model `mass_uploads` stays). */
const KEEP_FINISHED_HOURS = 24;

export type UploadProgress = {
  uploadId: string;
  kind: MassUploadKind;
  state: 'recording' | 'recorded' | 'failed';
  processed: number;
  total: number;
  created: number;
  unchanged: number;
  message: string | null;
};

type DbProgress = {
  upload_id: string;
  kind: MassUploadKind;
  state: UploadProgress['state'];
  processed: number;
  total: number;
  created: number;
  unchanged: number;
  message: string | null;
};

const fromRow = (r: DbProgress): UploadProgress => ({
  uploadId: r.upload_id,
  kind: r.kind,
  state: r.state,
  processed: r.processed,
  total: r.total,
  created: r.created,
  unchanged: r.unchanged,
  message: r.message,
});

export type Claim = { claimed: true; progress: UploadProgress } | { claimed: false; progress: UploadProgress };

/**
 * Claims the recording of an upload: answers `claimed: true` when this caller is to record it, or the running
 * recording another request (of any process) holds. One statement, so two requests racing for the same file
 * cannot both win.
 */
export async function claimRecording(db: pg.Pool, upload: { uploadId: string; kind: MassUploadKind; total: number }): Promise<Claim> {
  await db.query(
    `DELETE FROM mass_upload_progress WHERE state <> 'recording' AND updated_at < now() - make_interval(hours => $1)`,
    [KEEP_FINISHED_HOURS],
  );
  const { rows } = await db.query<DbProgress>(
    `INSERT INTO mass_upload_progress AS p (upload_id, kind, state, total) VALUES ($1, $2, 'recording', $3)
     ON CONFLICT (upload_id) DO UPDATE
       SET state = 'recording', kind = EXCLUDED.kind, total = EXCLUDED.total, processed = 0, created = 0, unchanged = 0,
           message = NULL, updated_at = now()
       WHERE p.state <> 'recording' OR p.updated_at < now() - make_interval(secs => $4)
     RETURNING *`,
    [upload.uploadId, upload.kind, upload.total, STALE_AFTER_SECONDS],
  );
  if (rows[0]) return { claimed: true, progress: fromRow(rows[0]) };
  const running = await readProgress(db, upload.uploadId);
  if (!running) throw new Error(`mass upload ${upload.uploadId}: neither claimed nor found`);
  return { claimed: false, progress: running };
}

/** Rows recorded so far. Never moves backwards, so reports that overtake each other on the way do no harm. */
export async function reportProcessed(db: pg.Pool, uploadId: string, processed: number): Promise<void> {
  await db.query(
    `UPDATE mass_upload_progress SET processed = greatest(processed, $2), updated_at = now() WHERE upload_id = $1 AND state = 'recording'`,
    [uploadId, processed],
  );
}

export async function finishRecording(
  db: pg.Pool,
  uploadId: string,
  outcome: { state: 'recorded'; processed: number; created: number; unchanged: number } | { state: 'failed'; message: string },
): Promise<void> {
  if (outcome.state === 'recorded')
    await db.query(
      `UPDATE mass_upload_progress SET state = 'recorded', processed = $2, created = $3, unchanged = $4, message = NULL, updated_at = now()
       WHERE upload_id = $1`,
      [uploadId, outcome.processed, outcome.created, outcome.unchanged],
    );
  else
    await db.query(`UPDATE mass_upload_progress SET state = 'failed', message = $2, updated_at = now() WHERE upload_id = $1`, [
      uploadId,
      outcome.message,
    ]);
}

/** How the upload's recording stands; one whose process died (stale) reads as failed, so the console stops waiting. */
export async function readProgress(db: pg.Pool, uploadId: string): Promise<UploadProgress | null> {
  const { rows } = await db.query<DbProgress & { stale: boolean }>(
    `SELECT *, state = 'recording' AND updated_at < now() - make_interval(secs => $2) AS stale
       FROM mass_upload_progress WHERE upload_id = $1`,
    [uploadId, STALE_AFTER_SECONDS],
  );
  const row = rows[0];
  if (!row) return null;
  return row.stale ? { ...fromRow(row), state: 'failed', message: RECORDING_FAILED } : fromRow(row);
}
