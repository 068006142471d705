import { Readable } from 'node:stream';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { cellText } from './cell-text';
import { NotAWorkbookError, decodeXml, readXlsxRows } from './xlsx-rows';

/**
 * The lean reader is held to exceljs' stream reader (what the uploads used before, with the same options):
 * every sheet, row number and cell text must come out the same for workbooks exceljs writes, and to SheetJS
 * for a workbook SheetJS writes (its parts in an order exceljs' stream reader cannot follow).
 */
type Rows = { sheet: string; position: number; rows: [number, (string | null)[]][] }[];

const trimEnd = (cells: (string | null)[]) => {
  const out = [...cells];
  while (out.length > 0 && out[out.length - 1] === null) out.pop();
  return out;
};

async function viaLean(buffer: Buffer): Promise<Rows> {
  const out: Rows = [];
  await readXlsxRows(Readable.from([buffer]), ({ name, position }) => {
    const sheet = { sheet: name, position, rows: [] as [number, (string | null)[]][] };
    out.push(sheet);
    return (number, values) => {
      sheet.rows.push([number, trimEnd(Array.from(values, (v) => cellText(v)))]);
    };
  });
  return out;
}

async function viaExceljs(buffer: Buffer): Promise<Rows> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  const out: Rows = [];
  let position = 0;
  for await (const worksheet of reader) {
    const sheet = { sheet: (worksheet as unknown as { name: string }).name, position: position++, rows: [] as [number, (string | null)[]][] };
    out.push(sheet);
    for await (const row of worksheet) {
      const values = (row.values as ExcelJS.CellValue[]).slice(1);
      sheet.rows.push([row.number, trimEnd(Array.from(values, (v) => cellText(v)))]);
    }
  }
  return out;
}

function fill(wb: ExcelJS.Workbook | ExcelJS.stream.xlsx.WorkbookWriter) {
  const parent = wb.addWorksheet('Parent');
  const rows: ExcelJS.CellValue[][] = [
    ['Name', 'PAN', 'Amount', 'Flag', 'Formula', 'Text formula', 'Error'],
    ['Kovai & Sons <Logistics> "Ltd"', 'ABCDE1234F', 1234567, true, { formula: 'C2*2', result: 2469134 }, { formula: 'A2&"x"', result: 'Kovai x' }, { error: '#N/A' }],
    ["O'Neil Transport — मुंबई 🚚", '  padded  ', -12.75, false, null, null, null],
    [null, null, null, null, null, null, null],
    ['after a blank row', null, 0.1 + 0.2, null, null, null, null],
    ['=SUM(1,2) as text', "'quoted", 123456789012345, null, null, null, null],
  ];
  for (const r of rows) parent.addRow(r);
  parent.getRow(8).getCell(10).value = 'far away cell (J8)';
  parent.getRow(9).getCell(2).value = { richText: [{ text: 'rich ' }, { font: { bold: true }, text: 'text' }] };
  const child = wb.addWorksheet('R&D <Child>');
  child.addRow(['Only', 'two']);
  child.addRow([1, 2]);
  wb.addWorksheet('Empty');
  for (const ws of [parent, child]) if ('commit' in ws) (ws as unknown as { commit(): void }).commit();
}

describe('readXlsxRows', () => {
  test('reads a workbook exceljs writes (shared strings) exactly as exceljs reads it', async () => {
    const wb = new ExcelJS.Workbook();
    fill(wb);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    const lean = await viaLean(buffer);
    expect(lean).toEqual(await viaExceljs(buffer));
    // And the cases the table is for, spelled out (so the two agreeing on nothing cannot pass).
    expect(lean.map((s) => s.sheet)).toEqual(['Parent', 'R&D <Child>', 'Empty']);
    const parent = new Map(lean[0]!.rows);
    expect(parent.get(2)).toEqual(['Kovai & Sons <Logistics> "Ltd"', 'ABCDE1234F', '1234567', 'TRUE', '=C2*2', '=A2&"x"', '#N/A']);
    expect(parent.get(3)).toEqual(["O'Neil Transport — मुंबई 🚚", '  padded  ', '-12.75', 'FALSE']);
    expect(parent.get(5)).toEqual(['after a blank row', null, String(0.1 + 0.2)]);
    expect(parent.get(6)).toEqual(['=SUM(1,2) as text', "'quoted", '123456789012345']);
    expect(parent.get(8)).toEqual([null, null, null, null, null, null, null, null, null, 'far away cell (J8)']);
    expect(parent.get(9)).toEqual([null, 'rich text']);
  });

  test('reads a workbook exceljs streams without shared strings exactly as exceljs reads it', async () => {
    const chunks: Buffer[] = [];
    const sink = new (await import('node:stream')).Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    });
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: false, useSharedStrings: false });
    fill(wb);
    await wb.commit();
    const buffer = Buffer.concat(chunks);
    const lean = await viaLean(buffer);
    const exceljs = await viaExceljs(buffer);
    // The one difference: an inline rich text (<is> with several runs), of which exceljs keeps the last run.
    expect(new Map(lean[0]!.rows).get(9)).toEqual([null, 'rich text']);
    expect(new Map(exceljs[0]!.rows).get(9)).toEqual([null, 'text']);
    const without9 = (rows: Rows) => rows.map((s) => ({ ...s, rows: s.rows.filter(([n]) => !(s.position === 0 && n === 9)) }));
    expect(without9(lean)).toEqual(without9(exceljs));
  });

  test('reads a workbook SheetJS writes (shared strings after the sheets) as SheetJS reads it', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['PAN', 'Name'], ['ABCDE1234F', 'A & B'], [42, true]]), 'Parent');
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['x']]), 'Child');
    const buffer = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', bookSST: true }) as Buffer;
    const lean = await viaLean(buffer);
    expect(lean).toEqual([
      { sheet: 'Parent', position: 0, rows: [[1, ['PAN', 'Name']], [2, ['ABCDE1234F', 'A & B']], [3, ['42', 'TRUE']]] },
      { sheet: 'Child', position: 1, rows: [[1, ['x']]] },
    ]);
  });

  test('skips a sheet the visitor declines', async () => {
    const wb = new ExcelJS.Workbook();
    fill(wb);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    const seen: string[] = [];
    await readXlsxRows(buffer, ({ name }) => (name === 'Parent' ? null : () => seen.push(name)));
    expect(seen).toEqual(['R&D <Child>', 'R&D <Child>']);
  });

  test('refuses what is not a workbook', async () => {
    await expect(readXlsxRows(Buffer.from('not a zip at all'), () => null)).rejects.toBeInstanceOf(NotAWorkbookError);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['x']]), 'S');
    // An OpenDocument spreadsheet is a zip too, without the workbook part.
    const ods = XLSX.write(book, { type: 'buffer', bookType: 'ods' }) as Buffer;
    await expect(readXlsxRows(ods, () => null)).rejects.toBeInstanceOf(NotAWorkbookError);
  });

  test('decodes the XML entities, numeric ones too', () => {
    expect(decodeXml('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#65;&#x42; &#x1F69A;')).toBe('a & b <c> "d" \'e\' AB 🚚');
    expect(decodeXml('&amp;lt;')).toBe('&lt;');
  });
});
