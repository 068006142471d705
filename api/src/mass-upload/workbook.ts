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
import { cellText } from '../../../platform/src/workbooks/cell-text';
import { readXlsxRows } from '../../../platform/src/workbooks/xlsx-rows';

/**
 * The mass-upload workbooks (exceljs, streamed both ways): the template (sheets "Parent" and "Child", a bold
 * header row and one example row), the reader (rows handed over one at a time, never the whole sheet) and
 * the error workbook (the uploaded rows that failed, each with an "Errors" column, sheet by sheet).
 */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type Cell = string | null;

export { cellText };

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
 * Reads an .xlsx: every worksheet that is "Parent" or "Child" goes through the visitor row by row (the lean
 * reader of platform/src/workbooks/xlsx-rows.ts: a 100,000-row upload in a quarter of exceljs' time). Throws on
 * a file it cannot read (the caller answers "Please upload valid excel file…").
 */
export async function readMassUploadWorkbook(input: Readable | Buffer, visitor: SheetVisitor): Promise<Set<MassUploadSheet>> {
  const seen = new Set<MassUploadSheet>();
  const headerless = new Set<MassUploadSheet>();
  await readXlsxRows(input, ({ name, position }) => {
    const sheet = sheetOf(name, position);
    if (!sheet || seen.has(sheet)) return null; // not ours, or a second sheet of the same name: ignored
    seen.add(sheet);
    headerless.add(sheet);
    return (number, values) => {
      const cells: Cell[] = new Array(values.length);
      let empty = true;
      for (let i = 0; i < values.length; i += 1) {
        const t = cellText(values[i]);
        const trimmed = t === null ? null : t.trim();
        cells[i] = trimmed === '' ? null : trimmed;
        if (cells[i] !== null) empty = false;
      }
      if (empty) return; // blank rows, above the header too
      if (headerless.delete(sheet)) visitor.header(sheet, cells);
      else visitor.row(sheet, number, cells);
    };
  });
  // A sheet without a header row still counts as there (its own rule: no rows).
  for (const sheet of headerless) visitor.header(sheet, []);
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
