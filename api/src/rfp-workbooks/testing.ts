import { PassThrough, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';

/** Test helpers: a writer's output as bytes, and a workbook read whole with exceljs (as a person's Excel would). */
export async function bytesOf(write: (out: Writable) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => out.on('end', resolve));
  await write(out);
  await ended;
  return Buffer.concat(chunks);
}

export async function loadWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb;
}

export const saveWorkbook = async (wb: ExcelJS.Workbook): Promise<Buffer> => Buffer.from(await wb.xlsx.writeBuffer());

/** A sheet's values as rows of text (row 1 first), empty cells as null, trailing empties dropped. */
export function sheetRows(ws: ExcelJS.Worksheet): (string | number | null)[][] {
  const rows: (string | number | null)[][] = [];
  for (let n = 1; n <= ws.rowCount; n += 1) {
    const cells = (ws.getRow(n).values as ExcelJS.CellValue[]).slice(1);
    const values = Array.from(cells, (v) => (v === undefined || v === null ? null : (v as string | number)));
    while (values.length > 0 && values[values.length - 1] === null) values.pop();
    rows.push(values);
  }
  return rows;
}
