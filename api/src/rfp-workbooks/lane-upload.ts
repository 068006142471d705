import type { Writable } from 'node:stream';
import { checkLanes, laneIdOf, MAX_LANES } from '../../../domain/src/rfp/lanes';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import type { Lane, LaneColumn, RfpType } from '../../../domain/src/rfp/model';
import { laneTemplateColumns } from './lane-template';
import { workbookMessages } from './messages';
import {
  ERRORS_COLUMN,
  labelKey,
  matchHeaders,
  readUploadedSheet,
  UnreadableUploadError,
  withLabel,
  writeErrorWorkbook,
  type Cell,
  type SheetRow,
  type UploadedRowResult,
} from './sheet-io';

/**
 * Reading the step-3 lane sheet. Standard and single RFPs upload our template: every required MLL column must be
 * there, a column we do not know is refused (its data would silently be lost). A non-standard RFP uploads the
 * customer's own sheet: its MLL columns are found by label in it and every other column is ignored. Either way
 * the lanes are the rows in sheet order (L0001, L0002, …; blank rows skipped) and each cell is checked by the
 * domain's rules (checkLanes), so a value refused here is refused the same way by the decider and the grid.
 */
export type UploadFailure = {
  ok: false;
  /** A problem of the whole sheet (no rows, a missing column, not a workbook); null when rows failed. */
  sheetError: string | null;
  headers: Cell[];
  /** Every uploaded row with its problems (none for a good row): the error workbook's content. */
  rows: UploadedRowResult[];
  failedRows: number;
};
export type LaneUploadResult = { ok: true; lanes: Lane[] } | UploadFailure;

export type LaneUploadOptions = { rfpType?: RfpType };

/** A sheet-level failure: every row carries the problem, so the error workbook shows it beside the data. */
export const sheetFailure = (message: string, headers: Cell[] = [], rows: readonly SheetRow[] = []): UploadFailure => ({
  ok: false,
  sheetError: message,
  headers,
  rows: rows.map((r) => ({ ...r, errors: [message], badCells: [] })),
  failedRows: rows.length,
});

/** Rows whose only values stand in ignored columns (a cleared row of an error workbook still has its Errors text). */
export const dataRows = (headers: readonly Cell[], rows: readonly SheetRow[]): SheetRow[] => {
  const ignored = new Set(headers.flatMap((h, i) => (labelKey(h) === labelKey(ERRORS_COLUMN) ? [i] : [])));
  if (ignored.size === 0) return [...rows];
  return rows.filter((r) => r.cells.some((c, i) => c !== null && !ignored.has(i)));
};

export async function readLaneUpload(columns: readonly LaneColumn[], bytes: Buffer, options: LaneUploadOptions = {}): Promise<LaneUploadResult> {
  const mll = laneTemplateColumns(columns);
  let sheet;
  try {
    sheet = await readUploadedSheet(bytes, MAX_LANES);
  } catch (error) {
    if (error instanceof UnreadableUploadError) return sheetFailure(rfpMessages.invalidExcel);
    throw error;
  }
  const { headers } = sheet;
  const rows = dataRows(headers, sheet.rows);
  if (sheet.overflow) return sheetFailure(rfpMessages.tooManyLanes(MAX_LANES), headers);
  if (rows.length === 0) return sheetFailure(rfpMessages.sheetEmpty, headers);

  const { index, unknown, repeated } = matchHeaders(headers, mll.map((c) => c.label));
  const missing = mll.filter((c) => c.required && !index.has(c.label)).map((c) => c.label);
  if (missing.length > 0) return sheetFailure(workbookMessages.missingColumns(missing), headers, rows);
  if (repeated.length > 0) return sheetFailure(workbookMessages.repeatedColumn(headers[repeated[0]!] ?? ''), headers, rows);
  if (options.rfpType !== 'non-standard' && unknown.length > 0)
    return sheetFailure(workbookMessages.unknownColumns(unknown.map((i) => headers[i] ?? '')), headers, rows);

  const lanes: Lane[] = rows.map((row, i) => {
    const values: Record<string, string | null> = {};
    for (const c of mll) {
      const at = index.get(c.label);
      values[c.key] = at === undefined ? null : (row.cells[at] ?? null);
    }
    return { laneId: laneIdOf(i), values };
  });
  const checked = checkLanes(mll, lanes);
  const results: UploadedRowResult[] = rows.map((row, i) => {
    const laneId = laneIdOf(i);
    const errors: string[] = [];
    const badCells: number[] = [];
    for (const c of mll) {
      const problem = checked.errors[`${laneId}.${c.key}`];
      if (!problem) continue;
      errors.push(withLabel(c.label, problem));
      const at = index.get(c.label);
      if (at !== undefined) badCells.push(at);
    }
    return { ...row, errors, badCells };
  });
  const failedRows = results.filter((r) => r.errors.length > 0).length;
  if (failedRows > 0) return { ok: false, sheetError: null, headers, rows: results, failedRows };
  return { ok: true, lanes: checked.value };
}

/** 'RFPTemplateError-{rfpCode}.xlsx': the uploaded sheet again, each failed row's problems in an "Errors" column. */
export async function writeLaneErrorWorkbook(failure: UploadFailure, out: Writable): Promise<void> {
  await writeUploadErrors(failure, out);
}

/** A sheet-level problem without rows to carry it (an empty sheet) still shows: one row with just its Errors text. */
export async function writeUploadErrors(failure: UploadFailure, out: Writable): Promise<void> {
  const rows =
    failure.rows.length === 0 && failure.sheetError !== null
      ? [{ number: 0, cells: [], errors: [failure.sheetError], badCells: [] }]
      : failure.rows;
  await writeErrorWorkbook(failure.headers, rows, out);
}
