import { Readable } from 'node:stream';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';

/**
 * Excel 97-2003 uploads (.xls, the binary BIFF format in an OLE2 compound file). The spec accepts "xlsx or xls";
 * exceljs, which reads (streamed) and writes every workbook of the project, reads Office Open XML only. An .xls
 * is therefore rewritten as an .xlsx in memory by SheetJS and read by the same exceljs readers, so one set of
 * rules and messages serves both. Bounded: an .xls holds at most 65,536 rows a sheet, and the upload's size
 * limit applies before this runs.
 *
 * Why @e965/xlsx: the `xlsx` package on npm stopped at 0.18.5 (prototype pollution and ReDoS on crafted files,
 * CVE-2023-30533, CVE-2024-22363); SheetJS publishes fixed builds only on its own CDN, which these machines
 * cannot reach. @e965/xlsx republishes those official builds unchanged.
 */

const OLE2_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Whether these first bytes are an OLE2 compound file (how every .xls begins). */
export const isXls = (head: Buffer): boolean => head.length >= 8 && head.subarray(0, 8).equals(OLE2_SIGNATURE);

/**
 * An .xls workbook as an .xlsx: each sheet's cells at their own row and column (so reported row numbers stay
 * the sheet's), values, dates (as dates) and formulas (as formulas with their cached result, never evaluated).
 * Written by exceljs, not SheetJS: the exceljs stream reader needs the workbook part before the sheets, which
 * SheetJS's .xlsx does not put first.
 */
export async function xlsToXlsx(xls: Buffer): Promise<Buffer> {
  const source = XLSX.read(xls, { type: 'buffer', cellFormula: true, cellDates: true, cellStyles: false, cellHTML: false });
  const target = new ExcelJS.Workbook();
  for (const name of source.SheetNames) {
    const sheet = source.Sheets[name];
    const ws = target.addWorksheet(name);
    const ref = sheet?.['!ref'];
    if (!sheet || !ref) continue;
    const range = XLSX.utils.decode_range(ref);
    for (let r = range.s.r; r <= range.e.r; r += 1) {
      const values: ExcelJS.CellValue[] = [];
      for (let c = range.s.c; c <= range.e.c; c += 1) {
        const cell = sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
        if (!cell || cell.t === 'z' || cell.t === 'e') continue;
        const value = cell.v as ExcelJS.CellValue;
        values[c + 1] = cell.f ? ({ formula: cell.f, result: value } as ExcelJS.CellValue) : value;
      }
      if (values.length > 0) ws.getRow(r + 1).values = values;
    }
  }
  return Buffer.from(await target.xlsx.writeBuffer());
}

async function readAll(input: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function firstBytes(input: Readable, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(b);
    size += b.length;
    if (size >= n) break;
  }
  input.destroy();
  return Buffer.concat(chunks).subarray(0, n);
}

/**
 * The stored upload as an .xlsx stream for the exceljs readers: an .xlsx as it is (streamed), an .xls converted.
 * `open` opens the stored file (twice for an .xls: once to look at its first bytes). Null: the store is down.
 * A file SheetJS cannot read either throws, as exceljs does on a damaged file.
 */
export async function openAsXlsx(open: () => Promise<Readable | null>): Promise<Readable | null> {
  const probe = await open();
  if (!probe) return null;
  if (!isXls(await firstBytes(probe, OLE2_SIGNATURE.length))) return open();
  const stored = await open();
  if (!stored) return null;
  return Readable.from([await xlsToXlsx(await readAll(stored))]);
}

/**
 * The stored upload as .xlsx bytes, read once, for the lean reader (xlsx-rows.ts), which takes the zip whole:
 * an .xlsx as it is, an .xls converted. Null: the store is down.
 */
export async function readAsXlsx(open: () => Promise<Readable | null>): Promise<Buffer | null> {
  const stored = await open();
  if (!stored) return null;
  const bytes = await readAll(stored);
  return isXls(bytes) ? xlsToXlsx(bytes) : bytes;
}
