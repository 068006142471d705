import { Router } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { EventStore } from '../../../domain/src/event-store/port';
import { MASS_UPLOADERS } from '../../../domain/src/identity/roles';
import {
  errorFileName,
  isMassUploadKind,
  massUploadMessages,
  templateFileName,
  type MassUploadKind,
} from '../../../domain/src/mass-upload/columns';
import { DomainError } from '../../../domain/src/shared/errors';
import { extensionOf } from '../../../domain/src/validation/files';
import type { BlobStore } from '../../../platform/src/files';
import { getMassUpload } from '../../../projections/src/nucleus-vendors/nucleus-vendors.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { startMassUploadErp } from '../../../workflows/src/mass-upload/client';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { HttpError } from '../http/problem';
import { contentDisposition, receiveUpload, type UploadedFile } from '../http/uploads';
import { requestIds } from '../onboarding/access';
import { claimRecording, finishRecording, readProgress, RECORDING_FAILED, reportProcessed, type UploadProgress } from './progress';
import { recordUpload, uploadIdOf } from './record';
import { validateWorkbook } from './validate';
import { writeErrorWorkbook, writeTemplate, XLSX_TYPE } from './workbook';
import { readAsXlsx } from '../../../platform/src/workbooks/xls';

/**
 * Nucleus and SAP-verified mass upload (spec 000 §5, §7, §8; issue 9). MLL-ADMIN and MDM on the console.
 *
 * - GET  /api/mass-uploads/templates/:kind — the template workbook.
 * - POST /api/mass-uploads?kind=nucleus|sap-verified — multipart `file` (.xlsx/.xls, else 415 code 101). Every
 *   row is validated first; any failure → 201 with the error workbook and nothing written. Otherwise the rows
 *   are recorded: up to `asyncFromRows` rows the answer waits (200 summary); above, it answers 202 `{uploadId}`
 *   once validated and records in the background (GET …/:uploadId shows progress). Then the ERP step starts
 *   (workflow `mass-upload-<uploadId>`).
 * - GET  /api/mass-uploads/:uploadId — `{uploadId, state, processed, total, …}`.
 */
export type MassUploadRoutesDeps = {
  pool: Pool;
  store: EventStore;
  blobStore: BlobStore;
  /** Temporal: the ERP step's workflow; without it the rows are recorded and the ERP step is left out. */
  temporal?: Client;
  taskQueue?: string;
  /** The upload's byte cap (default 64 MB: a 100,000-row workbook is ~15 MB). */
  maxBytes?: number;
  /** Above this many rows the POST answers 202 and records in the background (default 5,000). */
  asyncFromRows?: number;
  projectionWaitMs?: number;
  log?: (line: string) => void;
};

export const MASS_UPLOAD_MAX_BYTES = 64 * 1024 * 1024;
export const ASYNC_FROM_ROWS = 5000;

/** How often a running recording writes how far it got (GET …/:uploadId reads it from any api process). */
const REPORT_EVERY_MS = 500;

const notExcel = () => new HttpError(415, massUploadMessages.notExcel, undefined, undefined, { code: 101 });
const badKind = () => new DomainError('validation', "kind must be 'nucleus' or 'sap-verified'", { kind: "kind must be 'nucleus' or 'sap-verified'" });

const actorOf = (p: Principal) => ({
  userId: p.userId,
  role: p.roles.find((r) => (MASS_UPLOADERS as readonly string[]).includes(r)) ?? 'MLL-ADMIN',
  name: p.name,
});

export function massUploadRoutes(deps: MassUploadRoutesDeps): Router {
  const { pool, store, blobStore } = deps;
  const router = Router();
  const uploaders = requireAuth({ roles: MASS_UPLOADERS, app: 'console' });
  const log = deps.log ?? ((line: string) => console.error(line));

  router.get('/mass-uploads/templates/:kind', uploaders, async (req, res) => {
    const kind = req.params['kind'];
    if (!isMassUploadKind(kind)) throw new DomainError('not_found', 'No such template');
    res.status(200);
    res.setHeader('Content-Type', XLSX_TYPE);
    res.setHeader('Content-Disposition', contentDisposition(templateFileName(kind), 'attachment'));
    await writeTemplate(kind, res);
  });

  async function startErp(uploadId: string, kind: MassUploadKind): Promise<void> {
    if (!deps.temporal || !deps.taskQueue) return;
    try {
      await startMassUploadErp(deps.temporal, deps.taskQueue, { uploadId, kind });
    } catch (err) {
      // The rows stand; uploading the same file again starts the ERP step (its workflow id is the upload's).
      log(`mass upload ${uploadId}: the ERP step could not be started: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async function record(progress: UploadProgress, p: Principal, file: UploadedFile, rows: Parameters<typeof recordUpload>[1]['rows'], counts: { parents: number; children: number }, requestId: string | null) {
    // Progress reports go out in order, at most every REPORT_EVERY_MS, without holding up the recording.
    let reports = Promise.resolve();
    let reportedAt = Date.now();
    const report = (processed: number) => {
      if (Date.now() - reportedAt < REPORT_EVERY_MS) return;
      reportedAt = Date.now();
      reports = reports
        .then(() => reportProcessed(pool, progress.uploadId, processed))
        .catch((err: unknown) => log(`mass upload ${progress.uploadId}: progress not written: ${err instanceof Error ? err.message : String(err)}`));
    };
    let result;
    try {
      result = await recordUpload(
        { pool, store },
        {
          kind: progress.kind,
          uploadId: progress.uploadId,
          fileName: file.name,
          sha256: file.sha256,
          rows,
          parents: counts.parents,
          children: counts.children,
          actor: actorOf(p),
          requestId,
        },
        report,
      );
    } catch (err) {
      await reports;
      await finishRecording(pool, progress.uploadId, { state: 'failed', message: RECORDING_FAILED }).catch(() => undefined);
      throw err;
    }
    await reports;
    await finishRecording(pool, progress.uploadId, { state: 'recorded', processed: rows.length, created: result.created, unchanged: result.unchanged });
    await startErp(progress.uploadId, progress.kind);
    return result;
  }

  router.post('/mass-uploads', uploaders, async (req, res) => {
    const p = principalOf(res);
    const kind = req.query['kind'];
    if (!isMassUploadKind(kind)) throw badKind();
    let file: UploadedFile;
    try {
      ({ file } = await receiveUpload(req, { blobStore, field: 'file', kinds: 'excel', maxBytes: deps.maxBytes ?? MASS_UPLOAD_MAX_BYTES }));
    } catch (err) {
      if (err instanceof HttpError && err.status === 415) throw notExcel();
      throw err;
    }
    const ext = extensionOf(file.name);
    if (ext !== 'xlsx' && ext !== 'xls') throw notExcel();
    let validation;
    try {
      // An .xls (Excel 97-2003) is read as the .xlsx SheetJS rewrites it into (platform/src/workbooks/xls.ts).
      const xlsx = await readAsXlsx(() => blobStore.get(file.sha256));
      if (!xlsx) throw new HttpError(503, 'File uploads are not available');
      validation = await validateWorkbook(kind, xlsx);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      // Not a workbook either reader can read: a damaged file, a zip of something else.
      throw new DomainError('rule', massUploadMessages.noRows);
    }
    if (!validation.ok && validation.sheetError !== null) throw new DomainError('rule', validation.sheetError);
    if (!validation.ok) {
      res.status(201);
      res.setHeader('Content-Type', XLSX_TYPE);
      res.setHeader('Content-Disposition', contentDisposition(errorFileName(kind), 'attachment'));
      res.setHeader('X-Error-Rows', String(validation.failedRows));
      res.setHeader('X-Message', massUploadMessages.rowErrors);
      res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Disposition, X-Error-Rows, X-Message');
      await writeErrorWorkbook(validation.failed, res);
      return;
    }

    const uploadId = uploadIdOf(kind, file.sha256);
    const claim = await claimRecording(pool, { uploadId, kind, total: validation.rows.length });
    if (!claim.claimed) {
      // The same file is being recorded already, by this process or another (a double click): join it.
      const running = claim.progress;
      res.status(202).json({ uploadId, state: running.state, processed: running.processed, total: running.total, message: 'The file is being uploaded' });
      return;
    }
    const progress = claim.progress;
    const counts = { parents: validation.parents, children: validation.children };
    const requestId = requestIds(req).key;
    if (validation.rows.length > (deps.asyncFromRows ?? ASYNC_FROM_ROWS)) {
      record(progress, p, file, validation.rows, counts, requestId).catch((err: unknown) => {
        log(`mass upload ${uploadId} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      });
      res.status(202).json({ uploadId, state: 'recording', processed: 0, total: progress.total, message: 'The file is valid and being uploaded' });
      return;
    }
    const result = await record(progress, p, file, validation.rows, counts, requestId);
    if (result.lastGlobalPosition > 0)
      await waitForProjections(pool, result.lastGlobalPosition, { timeoutMs: deps.projectionWaitMs ?? 2000, names: ['nucleus_vendors'] });
    res.status(200).json({
      message: massUploadMessages.uploaded,
      uploadId,
      rows: validation.rows.length,
      parents: validation.parents,
      children: validation.children,
      created: result.created,
      unchanged: result.unchanged,
    });
  });

  router.get('/mass-uploads/:uploadId', uploaders, async (req, res) => {
    const uploadId = String(req.params['uploadId']);
    const running = await readProgress(pool, uploadId);
    if (running && running.state !== 'recorded') {
      res.json({ uploadId, kind: running.kind, state: running.state, processed: running.processed, total: running.total, message: running.message });
      return;
    }
    const row = /^[0-9a-f-]{36}$/i.test(uploadId) ? await getMassUpload(pool, uploadId) : null;
    if (!row) {
      if (running) {
        res.json({ uploadId, kind: running.kind, state: 'recorded', processed: running.processed, total: running.total, created: running.created, unchanged: running.unchanged, message: null });
        return;
      }
      throw new DomainError('not_found', 'No such upload');
    }
    res.json({ ...row, state: row.state, processed: row.rows, total: row.rows, message: null });
  });

  return router;
}
