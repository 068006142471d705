import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { Client } from '@temporalio/client';
import { VENDOR_CODE_CREATORS, type Role } from '../../../domain/src/identity/roles';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { extensionOf } from '../../../domain/src/validation/files';
import {
  companyScopeErrors,
  MAX_SHEET_ROWS,
  resultMessages,
  SHEET_NAMES,
  TEMPLATE_FILE_NAMES,
  validateWorkbook,
  valueOf,
  vendorRows,
  WORKBOOK_COLUMNS,
  WORKBOOK_KINDS,
  workbookMessages,
  type WorkbookError,
  type WorkbookKind,
  type WorkbookSheets,
} from '../../../domain/src/vendor-code-workbook/rules';
import type { BlobStore } from '../../../platform/src/files';
import { getVendorCodeWorkbook, submitVendorCodeWorkbook, type WorkbookRunState } from '../../../workflows/src/vendor-code-workbook/client';
import type { WorkbookTiming } from '../../../workflows/src/vendor-code-workbook/messages';
import { ALL_COMPANIES } from '../contract';
import { principalOf, requireAuth } from '../http/auth';
import { HttpError } from '../http/problem';
import { contentDisposition, receiveUpload, type UploadedFile } from '../http/uploads';
import { XLSX_TYPE } from '../masters/workbook';
import { readWorkbookSheets, UnreadableWorkbookError, writeTemplate } from './workbook';
import { openAsXlsx } from '../../../platform/src/workbooks/xls';

/**
 * Utility/government and other-company vendor codes from workbooks (spec 000 §2 "Vendor-code upload screens",
 * §4 "Vendor-code upload", §5): MLL-ADMIN only (VENDOR_CODE_CREATORS), console sessions.
 *
 *   GET  /api/vendor-code-workbooks/templates/utility | /other-company   the templates (.xlsx)
 *   POST /api/vendor-code-workbooks/validate?kind=…   multipart `file` → 200 {rows} (preview) | 400 Validation Error
 *   POST /api/vendor-code-workbooks?kind=…            multipart `file` → 200 {status, message, data} | 202 {id} | 400
 *   GET  /api/vendor-code-workbooks/:id               a submitted file's run (id = the file's sha256)
 */
export type VendorCodeWorkbookRoutesDeps = {
  temporal: Client;
  taskQueue: string;
  blobStore: BlobStore;
  /** UPLOAD_MAX_BYTES; a vendor-code workbook is small, so the lower of that and 5 MB. */
  maxBytes: number;
  /** COMMAND_TIMEOUT: how long the submit waits for the ERP's answers before answering 202. */
  commandTimeoutMs: number;
  /** Tests shorten the run's waits. */
  timing?: Partial<WorkbookTiming>;
};

export const WORKBOOK_MAX_BYTES = 5 * 1024 * 1024;

export const vendorCodeWorkbookRouteMessages = {
  // Spec 000 §5 "Files" / §8: code 101.
  excelOnly: 'Please Select Only xlsx or xls File',
  badKind: 'kind must be utility or other-company',
  xlsUnreadable:
    'This .xls workbook (Excel 97-2003) cannot be read. Please save it as .xlsx (Excel Workbook) and upload it again',
  unreadable: workbookMessages.noRows,
  notFound: 'No vendor-code workbook with this id',
} as const;

const ROLES: readonly Role[] = VENDOR_CODE_CREATORS;
const access = () => requireAuth({ roles: ROLES, app: 'console' });

const excelOnly = () => new HttpError(415, vendorCodeWorkbookRouteMessages.excelOnly, undefined, undefined, { code: 101 });

function kindOf(req: Request): WorkbookKind {
  const kind = typeof req.query['kind'] === 'string' ? req.query['kind'] : '';
  if (!(WORKBOOK_KINDS as readonly string[]).includes(kind))
    throw new DomainError('validation', vendorCodeWorkbookRouteMessages.badKind, { kind: vendorCodeWorkbookRouteMessages.badKind });
  return kind as WorkbookKind;
}

/** The "Validation Error" answer: 400 with one row per error (Sheet, Row No, Column Name, Data + message). */
const validationError = (errors: WorkbookError[]) =>
  new HttpError(400, workbookMessages.validationError, undefined, undefined, { errors });

const sha256Param = /^[0-9a-f]{64}$/;

export function vendorCodeWorkbookRoutes(deps: VendorCodeWorkbookRoutesDeps): Router {
  const router = Router();
  const maxBytes = Math.min(deps.maxBytes, WORKBOOK_MAX_BYTES);

  for (const kind of WORKBOOK_KINDS) {
    router.get(`/vendor-code-workbooks/templates/${kind}`, access(), async (_req, res) => {
      res.status(200);
      res.setHeader('Content-Type', XLSX_TYPE);
      res.setHeader('Content-Disposition', contentDisposition(TEMPLATE_FILE_NAMES[kind], 'attachment'));
      await writeTemplate(kind, res);
    });
  }

  /** The upload (only .xlsx/.xls, else 415 code 101), read and validated; 400 with every error row. */
  async function receiveWorkbook(req: Request, res: Response, kind: WorkbookKind): Promise<{ file: UploadedFile; sheets: WorkbookSheets }> {
    let file: UploadedFile;
    try {
      ({ file } = await receiveUpload(req, { blobStore: deps.blobStore, field: 'file', kinds: 'excel', maxBytes, textFields: ['userId'] }));
    } catch (error) {
      // Not an Excel extension, or content that is not what the extension says.
      if (error instanceof HttpError && error.status === 415) throw excelOnly();
      throw error;
    }
    const ext = extensionOf(file.name);
    if (ext !== 'xlsx' && ext !== 'xls') throw excelOnly();
    let sheets: WorkbookSheets;
    try {
      // An .xls (Excel 97-2003) is read as the .xlsx SheetJS rewrites it into (platform/src/workbooks/xls.ts).
      const stream = await openAsXlsx(() => deps.blobStore.get(file.sha256)).catch((error: unknown) => {
        throw new UnreadableWorkbookError(error);
      });
      if (!stream) throw new HttpError(503, 'File uploads are not available');
      sheets = await readWorkbookSheets(stream, MAX_SHEET_ROWS);
    } catch (error) {
      if (!(error instanceof UnreadableWorkbookError)) throw error;
      // A damaged file (or one neither SheetJS nor exceljs reads).
      throw new DomainError('rule', ext === 'xls' ? vendorCodeWorkbookRouteMessages.xlsUnreadable : vendorCodeWorkbookRouteMessages.unreadable);
    }
    const errors = validateWorkbook(kind, sheets);
    errors.push(...companyScopeErrors(sheets, principalOf(res).companyCodes));
    if (errors.length > 0) throw validationError(errors);
    return { file, sheets };
  }

  router.post('/vendor-code-workbooks/validate', access(), async (req, res) => {
    const kind = kindOf(req);
    const { sheets } = await receiveWorkbook(req, res, kind);
    // The paged preview: every row of both sheets, values under the template's column names.
    const rows = SHEET_NAMES.flatMap((sheet) =>
      (sheets[sheet]?.rows ?? []).map((values, index) => ({
        sheet,
        row: index + 2,
        values: Object.fromEntries(WORKBOOK_COLUMNS[kind][sheet].map((r) => [r.column, valueOf(values, r.column)])),
      })),
    );
    const columns = Object.fromEntries(SHEET_NAMES.map((sheet) => [sheet, WORKBOOK_COLUMNS[kind][sheet].map((r) => r.column)]));
    res.json({ rows, columns });
  });

  const answer = (res: Response, sha256: string, run: WorkbookRunState) => {
    if (run.state === 'done') return void res.status(200).json({ id: sha256, ...run.result });
    res.status(202).json({ id: sha256, status: 'running', message: resultMessages.running, progress: run.progress });
  };

  router.post('/vendor-code-workbooks', access(), async (req, res) => {
    const kind = kindOf(req);
    const { file, sheets } = await receiveWorkbook(req, res, kind);
    const p = principalOf(res);
    const actor: Actor = { userId: p.userId, role: ROLES.find((r) => p.roles.includes(r)) ?? ROLES[0] ?? 'MLL-ADMIN', name: p.name };
    const { parents, children } = vendorRows(kind, sheets);
    const run = await submitVendorCodeWorkbook(
      deps.temporal,
      deps.taskQueue,
      {
        sha256: file.sha256,
        kind,
        fileName: file.name,
        parents,
        children,
        actor,
        correlationId: req.get('x-correlation-id') ?? randomUUID(),
        companyCode: p.activeCompanyCode === ALL_COMPANIES ? null : p.activeCompanyCode,
        ...(deps.timing ? { timing: deps.timing } : {}),
      },
      { waitMs: deps.commandTimeoutMs },
    );
    answer(res, file.sha256, run);
  });

  router.get('/vendor-code-workbooks/:id', access(), async (req, res) => {
    const id = String(req.params['id'] ?? '');
    if (!sha256Param.test(id)) throw new DomainError('not_found', vendorCodeWorkbookRouteMessages.notFound);
    const run = await getVendorCodeWorkbook(deps.temporal, id);
    if (!run) throw new DomainError('not_found', vendorCodeWorkbookRouteMessages.notFound);
    answer(res, id, run);
  });

  return router;
}
