import ExcelJS from 'exceljs';
import { columnsOf, type MassUploadField, type MassUploadKind, type MassUploadSheet } from '../../../domain/src/mass-upload/columns';

/** Mass-upload workbooks for the api's tests: valid rows by PAN, any sheets, any headers. */
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A distinct valid PAN per (prefix, i). */
export const panOf = (prefix: string, i: number) => `${prefix}${LETTERS[Math.floor(i / 26) % 26]}${LETTERS[i % 26]}${String(1000 + i).slice(-4)}${LETTERS[(i * 7) % 26]}`;

export type Row = Partial<Record<MassUploadField, string | number | null>>;

/** A valid row: the template's example with this PAN (GSTIN built from region + PAN). */
export function rowFor(kind: MassUploadKind, sheet: MassUploadSheet, pan: string, over: Row = {}): Row {
  const base: Row = Object.fromEntries(columnsOf(kind, sheet).map((c) => [c.field, c.example === '' ? null : c.example]));
  return { ...base, pan, gstin: `27${pan}1Z5`, ...over };
}

export async function workbook(
  kind: MassUploadKind,
  sheets: { sheet: MassUploadSheet; rows: Row[]; headers?: (string | null)[] }[],
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const s of sheets) {
    const cols = columnsOf(kind, s.sheet);
    const ws = wb.addWorksheet(s.sheet);
    ws.addRow(s.headers ?? cols.map((c) => c.column));
    for (const r of s.rows) ws.addRow(cols.map((c) => r[c.field] ?? null));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
