import type { Readable, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  SHEET_NAMES,
  TEMPLATE_EXAMPLES,
  WORKBOOK_COLUMNS,
  type SheetName,
  type WorkbookKind,
  type WorkbookSheet,
  type WorkbookSheets,
} from '../../../domain/src/vendor-code-workbook/rules';
import { safeCell } from '../../../platform/src/workbooks/safe-cell';
import { cellValue } from '../masters/workbook';

/**
 * Vendor-code workbooks in and out (exceljs). The template: "Parent Sheet" and "Child Sheet", a bold header row
 * of the kind's columns, one example row, every column formatted as text (a Region "07" or a postal code keeps
 * its leading zero). Every cell written goes through `safeCell`.
 */
export async function writeTemplate(kind: WorkbookKind, out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  for (const name of SHEET_NAMES) {
    const ws = wb.addWorksheet(name);
    const rules = WORKBOOK_COLUMNS[kind][name];
    ws.columns = rules.map((r) => ({
      header: safeCell(r.column) as string,
      key: r.column,
      width: Math.max(14, r.column.length + 4),
      style: { numFmt: '@' },
    }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    const example = TEMPLATE_EXAMPLES[kind][name];
    ws.addRow(rules.map((r) => safeCell(example[r.column] ?? ''))).commit();
    ws.commit();
  }
  await wb.commit();
}

/** A cell as trimmed text: numbers as typed, dates as YYYY-MM-DD, formulas as "=…" (which no pattern passes). */
function cellText(v: ExcelJS.CellValue | undefined): string {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const plain = cellValue(v);
  return plain === null ? '' : String(plain).trim();
}

/** Not a workbook exceljs can read (a damaged file, an Excel 97-2003 .xls). */
export class UnreadableWorkbookError extends Error {
  constructor(cause: unknown) {
    super(`The workbook could not be read: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'UnreadableWorkbookError';
  }
}

/**
 * The two sheets of an uploaded .xlsx (sheet names matched case-insensitively; others ignored): the header row
 * (up to its last named column; an unnamed column in between counts only when a row has data under it) and the
 * data rows with a value per header, blank rows left out. At most `maxRows + 1` rows per sheet are kept, so the
 * rules can say "too many" without holding a huge sheet.
 */
export async function readWorkbookSheets(input: Readable, maxRows: number): Promise<WorkbookSheets> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.read(input);
  } catch (error) {
    throw new UnreadableWorkbookError(error);
  }
  const sheets: WorkbookSheets = {};
  for (const name of SHEET_NAMES) {
    const ws = wb.worksheets.find((w) => w.name.trim().toLowerCase() === name.toLowerCase());
    if (ws) sheets[name as SheetName] = readSheet(ws, maxRows);
  }
  return sheets;
}

function readSheet(ws: ExcelJS.Worksheet, maxRows: number): WorkbookSheet {
  const texts = (row: ExcelJS.Row): string[] => (row.values as ExcelJS.CellValue[]).slice(1).map((v) => cellText(v));
  let headers = ws.rowCount >= 1 ? texts(ws.getRow(1)) : [];
  const raw: string[][] = [];
  for (let n = 2; n <= ws.rowCount && raw.length <= maxRows; n++) {
    const cells = texts(ws.getRow(n));
    if (cells.some((c) => c !== '')) raw.push(cells);
  }
  // The header row ends at its last named column, unless data stands further right (then that is an empty header).
  let width = headers.length;
  while (width > 0 && headers[width - 1] === '' && !raw.some((r) => (r[width - 1] ?? '') !== '')) width -= 1;
  headers = headers.slice(0, width);
  const used = headers.map((h, i) => h !== '' || raw.some((r) => (r[i] ?? '') !== ''));
  const kept = headers.map((h, i) => ({ h, i })).filter(({ i }) => used[i]);
  const rows = raw.map((cells) => Object.fromEntries(kept.filter(({ h }) => h !== '').map(({ h, i }) => [h, cells[i] ?? ''])));
  return { headers: kept.map(({ h }) => h), rows };
}
