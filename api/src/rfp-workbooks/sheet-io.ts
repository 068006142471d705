import type { Writable } from 'node:stream';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import type { LaneColumn } from '../../../domain/src/rfp/model';
import { cellText } from '../../../platform/src/workbooks/cell-text';
import { safeCell } from '../../../platform/src/workbooks/safe-cell';
import { isXls, xlsToXlsx } from '../../../platform/src/workbooks/xls';
import { NotAWorkbookError, readXlsxRows } from '../../../platform/src/workbooks/xlsx-rows';

/**
 * What every RFP workbook shares: reading the one sheet of an upload (an .xlsx, an .xls converted, or a .csv)
 * into its header row and data rows, matching headers to columns by label, and the streaming writer's setup
 * (a bold header row, an "Options" sheet behind the dropdown lists, the "Errors" column of error workbooks).
 */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The sheet names we write; uploads are read from the sheet named LANES_SHEET, else from the first sheet. */
export const LANES_SHEET = 'Lanes';
export const OPTIONS_SHEET = 'Options';
export const ERRORS_COLUMN = 'Errors';
export const LANE_ID_COLUMN = 'Lane ID';

export type Cell = string | null;
export type SheetRow = { /** the row's number in the sheet (1-based), as Excel shows it */ number: number; cells: Cell[] };
export type UploadedSheet = { headers: Cell[]; rows: SheetRow[]; /** more data rows than `maxRows` were there */ overflow: boolean };

/** Header text compared case- and space-insensitively ("From  city " is "From City"). */
export const labelKey = (text: unknown): string =>
  String(text ?? '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

/** Trimmed cell text; an empty cell is null. */
const textOf = (value: Parameters<typeof cellText>[0]): Cell => {
  const t = cellText(value);
  if (t === null) return null;
  const trimmed = t.trim();
  return trimmed === '' ? null : trimmed;
};

/**
 * A .csv is read only when it is text (valid UTF-8, no NUL byte): SheetJS reads any bytes as one-column CSV, and
 * a PDF or an image must be refused as "not an excel file" rather than read as a sheet of garbage.
 */
const looksLikeText = (bytes: Buffer): boolean => {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};
const isZip = (bytes: Buffer): boolean => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

/** The upload's bytes are not a workbook or a CSV (the caller answers 'Invalid file type selected…'). */
export class UnreadableUploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableUploadError';
  }
}

/**
 * The upload's lane sheet: the first sheet named "Lanes" (any case), else the first sheet; its first non-empty
 * row is the header row, blank rows are skipped, cells are trimmed text. At most `maxRows` data rows are kept
 * (`overflow` tells that more were there), so a huge sheet cannot fill memory.
 */
export async function readUploadedSheet(bytes: Buffer, maxRows: number): Promise<UploadedSheet> {
  if (isZip(bytes) || isXls(bytes)) return readWorkbookSheet(isXls(bytes) ? await xlsToXlsx(bytes) : bytes, maxRows);
  if (bytes.length > 0 && looksLikeText(bytes)) return readCsv(bytes, maxRows);
  throw new UnreadableUploadError('The file is neither an Excel workbook nor a CSV text file');
}

function collector(maxRows: number) {
  const sheet: UploadedSheet = { headers: [], rows: [], overflow: false };
  let headed = false;
  const add = (number: number, cells: Cell[]) => {
    if (!cells.some((c) => c !== null)) return; // blank rows, above the header too
    if (!headed) {
      headed = true;
      sheet.headers = cells;
    } else if (sheet.rows.length < maxRows) sheet.rows.push({ number, cells });
    else sheet.overflow = true;
  };
  return { sheet, add };
}

async function readWorkbookSheet(xlsx: Buffer, maxRows: number): Promise<UploadedSheet> {
  const first = collector(maxRows);
  let named: ReturnType<typeof collector> | null = null;
  try {
    await readXlsxRows(xlsx, ({ name, position }) => {
      // The first sheet is kept until a later sheet turns out to be the one named "Lanes".
      const isLanes = named === null && labelKey(name) === labelKey(LANES_SHEET);
      if (isLanes) named = position === 0 ? first : collector(maxRows);
      const target = position === 0 ? first : isLanes ? named : null;
      if (!target) return null;
      return (number, values) => target.add(number, Array.from(values, textOf));
    });
  } catch (error) {
    if (error instanceof NotAWorkbookError) throw new UnreadableUploadError(error.message);
    throw error;
  }
  return (named ?? first).sheet;
}

function readCsv(bytes: Buffer, maxRows: number): UploadedSheet {
  // raw: every field stays the text it was (no "007" → 7, no dates guessed, no formulas).
  const wb = XLSX.read(bytes, { type: 'buffer', raw: true, cellFormula: false, cellDates: false, dense: true });
  const ws = wb.Sheets[wb.SheetNames[0] ?? ''];
  const out = collector(maxRows);
  if (!ws) return out.sheet;
  const rows = XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, defval: null, blankrows: true });
  rows.forEach((row, i) => out.add(i + 1, Array.from(row, (v) => textOf(v === null || v === undefined ? undefined : String(v)))));
  return out.sheet;
}

/**
 * Where each label stands in the header row (labels missing from it are left out), the headers no label claims
 * (`ignored` ones, such as the "Errors" column of an error workbook, excepted) and the headers that repeat a
 * claimed label, by position.
 */
export function matchHeaders(
  headers: readonly Cell[],
  labels: readonly string[],
  ignored: readonly string[] = [ERRORS_COLUMN],
): { index: Map<string, number>; unknown: number[]; repeated: number[] } {
  const wanted = new Map(labels.map((l) => [labelKey(l), l]));
  const skip = new Set(ignored.map(labelKey));
  const index = new Map<string, number>();
  const unknown: number[] = [];
  const repeated: number[] = [];
  headers.forEach((h, i) => {
    if (h === null) return;
    const key = labelKey(h);
    const label = wanted.get(key);
    if (label === undefined) {
      if (!skip.has(key)) unknown.push(i);
    } else if (index.has(label)) repeated.push(i);
    else index.set(label, i);
  });
  return { index, unknown, repeated };
}

/** Why a cell of an error is there: the domain's message, with the column named when the message does not. */
export const withLabel = (label: string, message: string): string => (message.startsWith(label) ? message : `${label}: ${message}`);

/** The last row a template's dropdowns and formats reach: the header plus the most lanes an RFP takes. */
export const templateRows = (maxLanes: number, filled: number) => Math.max(maxLanes, filled) + 1;

export const newWorkbookWriter = (out: Writable) =>
  new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });

export type WorkbookWriter = ReturnType<typeof newWorkbookWriter>;
export type WorksheetWriter = ReturnType<WorkbookWriter['addWorksheet']>;

/** Excel's column letters: 0 → A, 27 → AB. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export const columnWidth = (label: string) => Math.min(60, Math.max(14, label.length + 4));

/**
 * Adds list validations (dropdowns) to the select columns of a sheet, rows 2 to `lastRow`. The options stand on
 * an "Options" sheet, one column per select column, and the validation refers to that range: an inline list is
 * limited to 255 characters and cannot hold an option with a comma, a range has neither limit.
 * `at` is each select column's position in the sheet; writeOptionsSheet writes the options in the same order.
 */
/** The streaming writer's sheets keep range validations (written at commit), though exceljs' types omit them. */
type SheetValidations = { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } };

export function addDropdowns(ws: WorksheetWriter, selects: readonly { column: LaneColumn; at: number }[], lastRow: number): void {
  selects.forEach(({ column, at }, i) => {
    const count = column.options?.length ?? 0;
    if (count === 0) return;
    const letter = columnLetter(i);
    const range = `${columnLetter(at)}2:${columnLetter(at)}${lastRow}`;
    (ws as unknown as SheetValidations).dataValidations.add(range, {
      type: 'list',
      allowBlank: true,
      formulae: [`${OPTIONS_SHEET}!$${letter}$2:$${letter}$${count + 1}`],
      showErrorMessage: true,
      errorStyle: 'error',
      errorTitle: column.label,
      error: `Please choose one of the listed values for ${column.label}`,
    });
  });
}

/** The "Options" sheet: per select column its label and its options below, in the order addDropdowns refers to. */
export function writeOptionsSheet(wb: WorkbookWriter, selects: readonly { column: LaneColumn }[]): void {
  if (selects.length === 0) return;
  const ws = wb.addWorksheet(OPTIONS_SHEET);
  ws.columns = selects.map(({ column }) => ({ header: safeCell(column.label), width: columnWidth(column.label) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  const longest = Math.max(...selects.map(({ column }) => column.options?.length ?? 0));
  for (let r = 0; r < longest; r += 1) ws.addRow(selects.map(({ column }) => safeCell(column.options?.[r] ?? null))).commit();
  ws.commit();
}

export const selectColumns = (columns: readonly LaneColumn[], offset: number) =>
  columns.map((column, i) => ({ column, at: i + offset })).filter(({ column }) => column.type === 'select' && (column.options?.length ?? 0) > 0);

export const GREY_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7E6E6' } };
export const ERROR_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } };

export type UploadedRowResult = SheetRow & { errors: string[]; /** sheet positions of the cells that failed */ badCells: number[] };

/**
 * An error workbook: the uploaded header row (a previous "Errors" column dropped) plus "Errors", then EVERY
 * uploaded row in sheet order, its problems in "Errors" and its failing cells shaded. Every row, not just the
 * failed ones: the upload is refused as a whole, so the corrected error workbook must be the whole sheet again
 * to upload "as it is" (a workbook of failed rows only would replace 5,000 lanes with the 3 corrected ones).
 */
export async function writeErrorWorkbook(headers: readonly Cell[], rows: readonly UploadedRowResult[], out: Writable): Promise<void> {
  const wb = newWorkbookWriter(out);
  const keep = headers.map((h, i) => [h ?? '', i] as const).filter(([h]) => labelKey(h) !== labelKey(ERRORS_COLUMN));
  const ws = wb.addWorksheet(LANES_SHEET);
  ws.columns = [
    ...keep.map(([h]) => ({ header: safeCell(h), width: columnWidth(h), style: { numFmt: '@' } })),
    { header: ERRORS_COLUMN, width: 70, style: { numFmt: '@' } },
  ];
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  // A filter on the header row: with thousands of lanes, "Errors is not empty" finds the rows to fix.
  ws.autoFilter = `A1:${columnLetter(keep.length)}1`;
  for (const r of rows) {
    const row = ws.addRow([...keep.map(([, i]) => safeCell(r.cells[i] ?? null)), r.errors.length > 0 ? safeCell(r.errors.join('; ')) : null]);
    if (r.errors.length > 0) {
      const bad = new Set(r.badCells);
      keep.forEach(([, i], at) => {
        if (bad.has(i)) row.getCell(at + 1).fill = ERROR_FILL;
      });
      row.getCell(keep.length + 1).fill = ERROR_FILL;
    }
    row.commit();
  }
  ws.commit();
  await wb.commit();
}
