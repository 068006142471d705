import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Pool } from 'pg';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { MasterDefinition } from '../../../domain/src/masters/definitions';
import { DomainError } from '../../../domain/src/shared/errors';
import { extensionOf } from '../../../domain/src/validation/files';
import type { BlobStore } from '../../../platform/src/files';
import { HttpError } from '../http/problem';
import { contentDisposition, receiveUpload } from '../http/uploads';
import { createItem, updateItem, waitFor, type WriteContext } from './service';
import {
  planImport,
  readSheet,
  TooManyRowsError,
  writeErrorWorkbook,
  writeMasterWorkbook,
  XLSX_TYPE,
} from './workbook';

/**
 * GET /api/<resource>/export and POST /api/<resource>/import (multipart `file`, .xlsx). An import validates
 * every row first and writes nothing if any fails (422 with the rows and a "Messages" column); otherwise it
 * creates the rows without an Id and updates the rows with one. Each row's commands have ids derived from
 * the file's sha256 and the row number, so uploading the same file again appends nothing twice.
 */
export type WorkbookDeps = {
  pool: Pool;
  store: EventStore;
  projectionWaitMs?: number;
  blobStore?: BlobStore;
  /** UPLOAD_MAX_BYTES; a master's workbook is small, so the import's own cap is the lower of the two. */
  uploadMaxBytes?: number;
};

/** 10 MB holds far more than MAX_IMPORT_ROWS rows of any master. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export const importMessages = {
  xlsxOnly: 'Invalid file type selected. Please select excel file (.xlsx) only.',
  unavailable: 'File uploads are not available',
  rowsFailed: (n: number) => `${n} row${n === 1 ? '' : 's'} could not be imported. Nothing was saved: see the Messages column.`,
} as const;

type Context = (req: Request, res: Response) => WriteContext;

export function masterWorkbookRoutes(
  deps: WorkbookDeps & {
    def: MasterDefinition;
    readers: RequestHandler;
    writers: RequestHandler;
    context: Context;
  },
): Router {
  const { def } = deps;
  const router = Router();

  router.get(`/${def.resource}/export`, deps.readers, async (_req, res) => {
    res.status(200);
    res.setHeader('Content-Type', XLSX_TYPE);
    res.setHeader('Content-Disposition', contentDisposition(`${def.resource}.xlsx`, 'attachment'));
    await writeMasterWorkbook(deps.pool, def, res);
  });

  router.post(`/${def.resource}/import`, deps.writers, async (req, res) => {
    const ctx = deps.context(req, res);
    const blobStore = deps.blobStore;
    if (!blobStore) throw new HttpError(503, importMessages.unavailable);
    const maxBytes = Math.min(deps.uploadMaxBytes ?? IMPORT_MAX_BYTES, IMPORT_MAX_BYTES);
    const { file } = await receiveUpload(req, { blobStore, field: 'file', kinds: 'excel', maxBytes });
    if (extensionOf(file.name) !== 'xlsx') throw new HttpError(415, importMessages.xlsxOnly);
    const stream = await blobStore.get(file.sha256);
    if (!stream) throw new HttpError(503, importMessages.unavailable);

    let sheet;
    try {
      sheet = await readSheet(stream);
    } catch (err) {
      if (err instanceof TooManyRowsError) throw new DomainError('rule', err.message);
      // Not a workbook exceljs can read (a zip that is no .xlsx, a damaged file).
      throw new DomainError('rule', 'Please upload valid excel file or download template by clicking on download button');
    }

    // Rows a previous upload of this very file created: they are this file's own items, not duplicates.
    const requestIdOf = (row: number) => `import:${file.sha256}:${row}`;
    const { rows: own } = await deps.pool.query<{ key: string; item_id: string }>(
      `select key, item_id from master_keys where master = $1 and key = any($2::text[])`,
      [def.resource, sheet.rows.map((r) => `request:${requestIdOf(r.number)}`)],
    );
    const ownIds = new Map(
      own.map((r) => [Number(r.key.split(':').pop()), def.idKind === 'int' ? Number(r.item_id) : r.item_id] as const),
    );

    const plan = await planImport(deps.pool, def, sheet, ownIds);
    if (plan.sheetError) throw new DomainError('rule', plan.sheetError);
    const failed = plan.rows.filter((r) => r.messages.length > 0);
    if (failed.length > 0) {
      res.status(422);
      res.setHeader('Content-Type', XLSX_TYPE);
      res.setHeader('Content-Disposition', contentDisposition(`${def.resource}-import-errors.xlsx`, 'attachment'));
      res.setHeader('X-Import-Message', importMessages.rowsFailed(failed.length));
      await writeErrorWorkbook(sheet.headers, plan.rows, res);
      return;
    }

    let created = 0;
    let updated = 0;
    let unchanged = 0;
    let position = 0;
    for (const row of plan.rows) {
      const rowCtx: WriteContext = { ...ctx, requestId: requestIdOf(row.number), retryable: true, deferWait: true };
      const result =
        row.id === null || (ownIds.has(row.number) && ownIds.get(row.number) === row.id)
          ? await createItem(deps, def, row.values, row.status, rowCtx)
          : await updateItem(deps, def, row.id, row.values, row.status, rowCtx);
      position = Math.max(position, result.position);
      if (!result.appended) unchanged += 1;
      else if (row.id === null) created += 1;
      else updated += 1;
    }
    await waitFor(deps, position);
    res.json({ created, updated, unchanged, message: `${def.label} imported successfully` });
  });

  return router;
}
