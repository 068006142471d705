import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  CHILD_SHEET,
  COL,
  PARENT_SHEET,
  TEMPLATE_EXAMPLES,
  WORKBOOK_COLUMNS,
  validateWorkbook,
  workbookMessages as m,
} from '../../../domain/src/vendor-code-workbook/rules';
import { readWorkbookSheets, UnreadableWorkbookError, writeTemplate } from './workbook';

const bytesOf = async (wb: ExcelJS.Workbook) => Readable.from(Buffer.from(await wb.xlsx.writeBuffer()));

describe('reading a vendor-code workbook', () => {
  test('blank rows are not data (row = data index + 2), numbers and dates become text, a formula stays "=…"', async () => {
    const wb = new ExcelJS.Workbook();
    const cols = WORKBOOK_COLUMNS.utility[PARENT_SHEET].map((r) => r.column);
    // Sheet names matched case-insensitively; an extra sheet and an extra column are ignored.
    const ws = wb.addWorksheet('parent sheet');
    wb.addWorksheet('Notes').addRow(['anything']);
    ws.addRow([...cols, 'Remarks']);
    const example = TEMPLATE_EXAMPLES.utility[PARENT_SHEET];
    ws.addRow([]);
    const row = cols.map((c) => example[c] ?? '');
    row[cols.indexOf(COL.postalCode)] = 400051 as unknown as string;
    ws.addRow([...row, 'note']);
    const second = [...row];
    second[cols.indexOf(COL.pan)] = 'AAECM2934K';
    second[cols.indexOf(COL.name)] = { formula: 'HYPERLINK("http://x")' } as unknown as string;
    ws.addRow(second);
    const child = wb.addWorksheet(CHILD_SHEET);
    child.addRow(WORKBOOK_COLUMNS.utility[CHILD_SHEET].map((r) => r.column));

    const sheets = await readWorkbookSheets(await bytesOf(wb), 200);
    expect(sheets[PARENT_SHEET]?.headers).toEqual([...cols, 'Remarks']);
    expect(sheets[PARENT_SHEET]?.rows).toHaveLength(2);
    expect(sheets[PARENT_SHEET]?.rows[0]?.[COL.postalCode]).toBe('400051');
    expect(sheets[PARENT_SHEET]?.rows[1]?.[COL.name]).toBe('=HYPERLINK("http://x")');
    expect(sheets[CHILD_SHEET]?.rows).toEqual([]);
    expect(validateWorkbook('utility', sheets)).toEqual([
      { sheet: PARENT_SHEET, row: 3, column: COL.name, value: '=HYPERLINK("http://x")', message: m.mismatch },
    ]);
  });

  test('an unnamed column with data under it is an empty header; without data it is ignored', async () => {
    const wb = new ExcelJS.Workbook();
    const cols = WORKBOOK_COLUMNS.utility[CHILD_SHEET].map((r) => r.column);
    wb.addWorksheet(PARENT_SHEET).addRow(WORKBOOK_COLUMNS.utility[PARENT_SHEET].map((r) => r.column));
    const ws = wb.addWorksheet(CHILD_SHEET);
    ws.addRow([...cols, '', 'Extra']);
    ws.addRow([...cols.map((c) => TEMPLATE_EXAMPLES.utility[CHILD_SHEET][c] ?? ''), '', 'x']);
    const quiet = await readWorkbookSheets(await bytesOf(wb), 200);
    expect(quiet[CHILD_SHEET]?.headers).toEqual([...cols, 'Extra']);
    expect(validateWorkbook('utility', quiet)).toEqual([]);

    ws.getRow(2).getCell(cols.length + 1).value = 'data under no header';
    const loud = await readWorkbookSheets(await bytesOf(wb), 200);
    expect(validateWorkbook('utility', loud)).toEqual([{ sheet: CHILD_SHEET, row: 1, column: '', value: '', message: m.emptyHeader }]);
  });

  test('not a workbook → UnreadableWorkbookError', async () => {
    await expect(readWorkbookSheets(Readable.from(Buffer.from('plain text')), 200)).rejects.toBeInstanceOf(UnreadableWorkbookError);
  });

  test('the template: no cell would start a formula, and it reads back as valid', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await writeTemplate('other-company', out);
    const sheets = await readWorkbookSheets(Readable.from(Buffer.concat(chunks)), 200);
    expect(validateWorkbook('other-company', sheets)).toEqual([]);
    for (const sheet of [PARENT_SHEET, CHILD_SHEET] as const)
      for (const v of Object.values(sheets[sheet]?.rows[0] ?? {})) expect(v).not.toMatch(/^[=+\-@\t\r\n]/);
  });
});
