import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { isXls, openAsXlsx, readAsXlsx, xlsToXlsx } from './xls';

/** An .xls (BIFF8 in an OLE2 file) with text, a number and a date, as Excel 97-2003 saves one. */
function sampleXls(): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet([
    ['PAN', 'Amount', 'Valid till'],
    ['AAACX1234F', 1234, new Date(Date.UTC(2027, 2, 31))],
  ], { cellDates: true });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Parent');
  return XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer;
}

describe('Excel 97-2003 uploads', () => {
  it('are told from .xlsx by their first bytes', async () => {
    const xlsx = Buffer.from(await new ExcelJS.Workbook().xlsx.writeBuffer());
    expect(isXls(sampleXls())).toBe(true);
    expect(isXls(xlsx)).toBe(false);
    expect(isXls(Buffer.from('PK'))).toBe(false);
  });

  it('are rewritten as .xlsx that exceljs reads with their text, numbers and dates', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await xlsToXlsx(sampleXls())) as unknown as ArrayBuffer);
    const row = book.getWorksheet('Parent')!.getRow(2);
    expect(row.getCell(1).value).toBe('AAACX1234F');
    expect(row.getCell(2).value).toBe(1234);
    expect(row.getCell(3).value).toEqual(new Date(Date.UTC(2027, 2, 31)));
  });

  it('convert into an .xlsx the streaming reader reads, sheet names and row numbers kept', async () => {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([await xlsToXlsx(sampleXls())]), { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', entries: 'emit' });
    const seen: [string | undefined, number, unknown][] = [];
    for await (const worksheet of reader)
      for await (const row of worksheet) seen.push([(worksheet as unknown as { name?: string }).name, row.number, (row.values as unknown[])[1]]);
    expect(seen).toEqual([
      ['Parent', 1, 'PAN'],
      ['Parent', 2, 'AAACX1234F'],
    ]);
  });

  it('open as .xlsx streams: an .xlsx passes through unchanged, an .xls converted, a missing file is null', async () => {
    const xlsx = Buffer.from(await new ExcelJS.Workbook().xlsx.writeBuffer());
    const read = async (s: Readable | null) => {
      const chunks: Buffer[] = [];
      for await (const c of s!) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
    expect(await read(await openAsXlsx(async () => Readable.from([xlsx])))).toEqual(xlsx);
    const converted = await read(await openAsXlsx(async () => Readable.from([sampleXls()])));
    expect(converted.subarray(0, 2).toString()).toBe('PK');
    await expect(openAsXlsx(async () => null)).resolves.toBeNull();
  });

  it('read as .xlsx bytes: an .xlsx unchanged, an .xls converted, each opened once; a missing file is null', async () => {
    const xlsx = Buffer.from(await new ExcelJS.Workbook().xlsx.writeBuffer());
    let opened = 0;
    const once = (bytes: Buffer) => async () => {
      opened += 1;
      return Readable.from([bytes]);
    };
    expect(await readAsXlsx(once(xlsx))).toEqual(xlsx);
    expect((await readAsXlsx(once(sampleXls())))!.subarray(0, 2).toString()).toBe('PK');
    expect(opened).toBe(2);
    await expect(readAsXlsx(async () => null)).resolves.toBeNull();
  });

  it('a damaged .xls throws, as exceljs does on a damaged .xlsx', async () => {
    const damaged = Buffer.concat([sampleXls().subarray(0, 8), Buffer.alloc(4096)]);
    await expect(openAsXlsx(async () => Readable.from([damaged]))).rejects.toThrow();
  });
});
