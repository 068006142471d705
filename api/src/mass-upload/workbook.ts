import type { Readable, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  columnsOf,
  ERRORS_COLUMN,
  MASS_UPLOAD_SHEETS,
  type MassUploadKind,
  type MassUploadSheet,
} from '../../../domain/src/mass-upload/columns';
import { headerKey } from '../../../domain/src/mass-upload/rules';
import { safeCell } from '../../../platform/src/workbooks/safe-cell';

/**
 * The mass-upload workbooks (exceljs, streamed both ways): the template (sheets "Parent" and "Child", a bold
 * header row and one example row), the reader (rows handed over one at a time, never the whole sheet) and
 * the error workbook (the uploaded rows that failed, each with an "Errors" column, sheet by sheet).
 */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type Cell = string | null;

/** A cell as text: trimmed strings, integers without ".0", dates as YYYY-MM-DD, a formula as its "=" text. */
export function cellText(v: ExcelJS.CellValue | undefined): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    // A formula is never evaluated: its text fails every pattern (no column takes a leading "=").
    if ('formula' in v || 'sharedFormula' in v) {
      const f = v as { formula?: string; sharedFormula?: string };
      return `=${f.formula ?? f.sharedFormula ?? ''}`;
    }
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v) return String((v as { text: unknown }).text);
    if ('error' in v) return String((v as { error: unknown }).error);
  }
  return String(v);
}

/** Which of our sheets a worksheet is: by name ("Parent"/"Child", any case), else by position (1st, 2nd). */
function sheetOf(name: string | undefined, position: number): MassUploadSheet | null {
  const byName = MASS_UPLOAD_SHEETS.find((s) => headerKey(s) === headerKey(name));
  if (byName) return byName;
  return position === 0 ? 'Parent' : position === 1 ? 'Child' : null;
}

export type SheetVisitor = {
  /** The header row of a sheet (called once per sheet, before its rows). */
  header(sheet: MassUploadSheet, headers: Cell[]): void;
  /** One non-empty data row (its 1-based row number in the sheet, cells from column A). */
  row(sheet: MassUploadSheet, number: number, cells: Cell[]): void;
};

/**
 * Streams an .xlsx: every worksheet that is "Parent" or "Child" goes through the visitor row by row. Throws
 * on a file exceljs cannot read (the caller answers "Please upload valid excel file…").
 */
export async function readMassUploadWorkbook(input: Readable, visitor: SheetVisitor): Promise<Set<MassUploadSheet>> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  const seen = new Set<MassUploadSheet>();
  let position = 0;
  for await (const worksheet of reader) {
    const sheet = sheetOf((worksheet as unknown as { name?: string }).name, position);
    position += 1;
    let headerDone = false;
    for await (const row of worksheet) {
      if (!sheet || seen.has(sheet) && !headerDone) continue; // a second sheet of the same name: ignored
      const values = row.values as ExcelJS.CellValue[];
      const cells: Cell[] = new Array(Math.max(0, values.length - 1));
      let empty = true;
      for (let i = 1; i < values.length; i += 1) {
        const t = cellText(values[i]);
        const trimmed = t === null ? null : t.trim();
        cells[i - 1] = trimmed === '' ? null : trimmed;
        if (cells[i - 1] !== null) empty = false;
      }
      if (!headerDone) {
        if (empty) continue; // blank rows above the header
        headerDone = true;
        seen.add(sheet);
        visitor.header(sheet, cells);
        continue;
      }
      if (!empty) visitor.row(sheet, row.number, cells);
    }
    if (sheet && !headerDone && !seen.has(sheet)) {
      seen.add(sheet);
      visitor.header(sheet, []);
    }
  }
  return seen;
}

/** The template: sheets "Parent" and "Child", each a bold header row and one example row. */
export async function writeTemplate(kind: MassUploadKind, out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  for (const sheet of MASS_UPLOAD_SHEETS) {
    const cols = columnsOf(kind, sheet);
    const ws = wb.addWorksheet(sheet);
    ws.columns = cols.map((c) => ({ header: c.column, key: c.field, width: Math.max(14, c.column.length + 4) }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    // Codes go in as text so Excel keeps leading zeros; the example is the same as every rule's example.
    ws.addRow(cols.map((c) => (c.example === '' ? null : safeCell(c.example)))).commit();
    ws.commit();
  }
  await wb.commit();
}

export type FailedRow = { number: number; cells: Cell[]; errors: readonly string[] };

/** The failed rows of each sheet under the uploaded headers, with an "Errors" column, streamed. */
export async function writeErrorWorkbook(
  sheets: readonly { sheet: MassUploadSheet; headers: readonly Cell[]; rows: readonly FailedRow[] }[],
  out: Writable,
): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  for (const { sheet, headers, rows } of sheets) {
    // The uploaded columns (an "Errors" column of an earlier error workbook is replaced), then Errors.
    const keep = headers.map((h, i) => [h ?? '', i] as const).filter(([h]) => headerKey(h) !== headerKey(ERRORS_COLUMN));
    const ws = wb.addWorksheet(sheet);
    ws.columns = [...keep.map(([h]) => ({ header: safeCell(h), width: Math.max(14, h.length + 4) })), { header: ERRORS_COLUMN, width: 70 }];
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    for (const r of rows) ws.addRow([...keep.map(([, i]) => safeCell(r.cells[i] ?? null)), safeCell(r.errors.join('; '))]).commit();
    ws.commit();
  }
  await wb.commit();
}
