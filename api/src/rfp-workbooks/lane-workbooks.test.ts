import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { laneIdOf, MAX_LANES } from '../../../domain/src/rfp/lanes';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import type { Lane, LaneColumn } from '../../../domain/src/rfp/model';
import { columns, lanes } from '../../../domain/src/rfp/testing';
import { messages } from '../../../domain/src/validation/fields';
import { writeLaneTemplate } from './lane-template';
import { readLaneUpload, writeLaneErrorWorkbook, type LaneUploadResult, type UploadFailure } from './lane-upload';
import { workbookMessages } from './messages';
import { bytesOf, loadWorkbook, saveWorkbook, sheetRows } from './testing';

const MLL_LABELS = ['From City', 'To City', 'Vehicle Type'];
const template = (withLanes?: Lane[], cols: LaneColumn[] = columns) => bytesOf((out) => writeLaneTemplate(cols, withLanes, out));

/** Staff fill the downloaded template in "Excel": rows appended under the header. */
async function filled(rows: (string | null)[][], edit?: (ws: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const wb = await loadWorkbook(await template());
  const ws = wb.getWorksheet('Lanes')!;
  rows.forEach((r, i) => {
    ws.getRow(i + 2).values = r;
  });
  edit?.(ws);
  return saveWorkbook(wb);
}

function failureOf(result: LaneUploadResult): UploadFailure {
  if (result.ok) throw new Error('expected the upload to fail');
  return result;
}

describe('the lane template', () => {
  it('has a bold header of the MLL labels only, and a dropdown of each select column’s options', async () => {
    const wb = await loadWorkbook(await template());
    const ws = wb.getWorksheet('Lanes')!;
    expect(sheetRows(ws)).toEqual([MLL_LABELS]);
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheetRows(wb.getWorksheet('Options')!)).toEqual([['Vehicle Type'], ['32 FT MXL'], ['20 FT SXL']]);
    // Rows 2 to MAX_LANES + 1 of the Vehicle Type column (C) offer the list; the text columns have none.
    for (const address of ['C2', `C${MAX_LANES + 1}`])
      expect(ws.getCell(address).dataValidation).toMatchObject({ type: 'list', formulae: ['Options!$A$2:$A$3'] });
    expect(ws.getCell('A2').dataValidation).toBeUndefined();
  });

  it('with lanes is the template with data, and reads back as the same lanes', async () => {
    const bytes = await template(lanes);
    expect(sheetRows((await loadWorkbook(bytes)).getWorksheet('Lanes')!)).toEqual([
      MLL_LABELS,
      ['Mumbai', 'Pune', '32 FT MXL'],
      ['Chennai', 'Bengaluru', '20 FT SXL'],
    ]);
    expect(await readLaneUpload(columns, bytes)).toEqual({ ok: true, lanes });
  });

  it('escapes every cell that could start a formula', async () => {
    const evil = [{ laneId: 'L0001', values: { fromCity: '=HYPERLINK("http://x")', toCity: '+91', vehicleType: '@SUM(A1)' } }];
    const ws = (await loadWorkbook(await template(evil))).getWorksheet('Lanes')!;
    expect(sheetRows(ws)[1]).toEqual(["'=HYPERLINK(\"http://x\")", "'+91", "'@SUM(A1)"]);
    expect(ws.getCell('A2').type).toBe(ExcelJS.ValueType.String);
  });
});

describe('reading the uploaded lane sheet', () => {
  it('turns the filled rows into lanes L0001… in sheet order, blank rows skipped, headers matched loosely', async () => {
    const bytes = await filled(
      [
        ['Mumbai', 'Pune', '32 FT MXL'],
        [null, null, null],
        ['  Chennai ', 'Bengaluru', '20 FT SXL'],
      ],
      (ws) => {
        ws.getCell('A1').value = '  from   CITY ';
      },
    );
    expect(await readLaneUpload(columns, bytes)).toEqual({
      ok: true,
      lanes: [
        { laneId: 'L0001', values: { fromCity: 'Mumbai', toCity: 'Pune', vehicleType: '32 FT MXL' } },
        { laneId: 'L0002', values: { fromCity: 'Chennai', toCity: 'Bengaluru', vehicleType: '20 FT SXL' } },
      ],
    });
  });

  it('reads numbers as typed text and lets an optional column be left out', async () => {
    const cols: LaneColumn[] = [...columns, { key: 'distanceKm', label: 'Distance (km)', owner: 'mll', type: 'number', required: false }];
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['From City', 'To City', 'Vehicle Type', 'Distance (km)']);
    ws.addRow(['Pune', 'Goa', '20 FT SXL', 450.5]);
    const withDistance = await readLaneUpload(cols, await saveWorkbook(wb));
    expect(withDistance.ok && withDistance.lanes[0]?.values['distanceKm']).toBe('450.5');
    ws.spliceColumns(4, 1);
    const without = await readLaneUpload(cols, await saveWorkbook(wb));
    expect(without.ok && without.lanes[0]?.values['distanceKm']).toBeNull();
  });

  it('reports bad cells on their sheet rows with the domain’s messages, and only those rows', async () => {
    const bytes = await filled([
      ['Mumbai', 'Pune', '32 FT MXL'],
      [null, 'Pune', '32 FT MXL'],
      ['Mumbai', 'Pune', '32 FT MXL'],
      ['Delhi', '=cmd', '40 FT'],
    ]);
    const failure = failureOf(await readLaneUpload(columns, bytes));
    expect(failure.sheetError).toBeNull();
    expect(failure.failedRows).toBe(2);
    expect(failure.rows.filter((r) => r.errors.length > 0).map((r) => [r.number, r.errors])).toEqual([
      [3, [rfpMessages.requiredValue('From City')]],
      [5, [`To City: ${messages.leadingCharacter}`, rfpMessages.optionValue('Vehicle Type')]],
    ]);
  });

  it('writes every row to the error workbook, Errors filled on the failed ones, and the corrected workbook uploads as it is', async () => {
    const bytes = await filled([
      ['Mumbai', 'Pune', '32 FT MXL'],
      [null, 'Goa', '20 FT SXL'],
      ['Delhi', 'Agra', '32 FT MXL'],
    ]);
    const failure = failureOf(await readLaneUpload(columns, bytes));
    const errorBook = await loadWorkbook(await bytesOf((out) => writeLaneErrorWorkbook(failure, out)));
    const ws = errorBook.getWorksheet('Lanes')!;
    expect(sheetRows(ws)).toEqual([
      [...MLL_LABELS, 'Errors'],
      ['Mumbai', 'Pune', '32 FT MXL'],
      [null, 'Goa', '20 FT SXL', rfpMessages.requiredValue('From City')],
      ['Delhi', 'Agra', '32 FT MXL'],
    ]);
    // The failing cell is shaded, its neighbours are not.
    expect(ws.getCell('A3').fill).toMatchObject({ pattern: 'solid' });
    expect(ws.getCell('B3').fill).not.toMatchObject({ pattern: 'solid' });

    ws.getCell('A3').value = 'Nashik';
    const again = await readLaneUpload(columns, await saveWorkbook(errorBook));
    expect(again.ok && again.lanes.map((l) => l.values['fromCity'])).toEqual(['Mumbai', 'Nashik', 'Delhi']);
    // Uploading the error workbook a second time replaces its old Errors column rather than adding another.
    const second = failureOf(await readLaneUpload(columns, await saveWorkbook(await loadWorkbook(await bytesOf((out) => writeLaneErrorWorkbook(failure, out))))));
    const twice = await loadWorkbook(await bytesOf((out) => writeLaneErrorWorkbook(second, out)));
    expect(sheetRows(twice.getWorksheet('Lanes')!)[0]).toEqual([...MLL_LABELS, 'Errors']);
  });

  it('refuses a sheet without a required column, with a repeated column, or (standard) with an unknown column', async () => {
    const missing = await filled([['Mumbai', 'Pune', '32 FT MXL']], (ws) => {
      ws.getCell('B1').value = 'Destination';
    });
    const m = failureOf(await readLaneUpload(columns, missing));
    expect(m.sheetError).toBe(workbookMessages.missingColumns(['To City']));
    expect(m.rows[0]?.errors).toEqual([workbookMessages.missingColumns(['To City'])]);

    const extra = await filled([['Mumbai', 'Pune', '32 FT MXL', 'night only']], (ws) => {
      ws.getCell('D1').value = 'Notes';
    });
    expect(failureOf(await readLaneUpload(columns, extra)).sheetError).toBe(workbookMessages.unknownColumns(['Notes']));
    const repeated = await filled([['Mumbai', 'Pune', '32 FT MXL', 'Goa']], (ws) => {
      ws.getCell('D1').value = 'to city';
    });
    expect(failureOf(await readLaneUpload(columns, repeated)).sheetError).toBe(workbookMessages.repeatedColumn('to city'));
  });

  it('non-standard: the customer’s own sheet, its MLL columns found by label anywhere, other columns ignored', async () => {
    const free: LaneColumn[] = [
      { key: 'scope', label: 'Scope', owner: 'mll', type: 'text', required: true },
      { key: 'price', label: 'Price', owner: 'ba', type: 'number', required: true },
    ];
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Customer RFQ');
    ws.addRow([]);
    ws.addRow(['S.No', 'Customer note', 'SCOPE']);
    ws.addRow([1, 'urgent', 'Warehouse to port shuttle']);
    const bytes = await saveWorkbook(wb);
    expect(await readLaneUpload(free, bytes, { rfpType: 'non-standard' })).toEqual({
      ok: true,
      lanes: [{ laneId: 'L0001', values: { scope: 'Warehouse to port shuttle' } }],
    });
    expect(failureOf(await readLaneUpload(free, bytes, { rfpType: 'standard' })).sheetError).toBe(
      workbookMessages.unknownColumns(['S.No', 'Customer note']),
    );
  });

  it('an empty sheet is refused, and its error workbook still says why (a row that re-uploads as blank)', async () => {
    const failure = failureOf(await readLaneUpload(columns, await template()));
    expect(failure.sheetError).toBe(rfpMessages.sheetEmpty);
    const book = await loadWorkbook(await bytesOf((out) => writeLaneErrorWorkbook(failure, out)));
    expect(sheetRows(book.getWorksheet('Lanes')!)).toEqual([[...MLL_LABELS, 'Errors'], [null, null, null, rfpMessages.sheetEmpty]]);
    expect(failureOf(await readLaneUpload(columns, await saveWorkbook(book))).sheetError).toBe(rfpMessages.sheetEmpty);
  });

  it(`refuses more than ${MAX_LANES} lanes`, async () => {
    const rows = Array.from({ length: MAX_LANES + 1 }, (_, i) => ['Mumbai', `Town ${i}`, '32 FT MXL']);
    const failure = failureOf(await readLaneUpload(columns, await filled(rows)));
    expect(failure.sheetError).toBe(rfpMessages.tooManyLanes(MAX_LANES));
    const exactly = await readLaneUpload(columns, await filled(rows.slice(0, MAX_LANES)));
    expect(exactly.ok && exactly.lanes.at(-1)?.laneId).toBe(laneIdOf(MAX_LANES - 1));
  });

  it('reads the sheet named "Lanes" wherever it stands, else the first sheet', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Read me').addRow(['Instructions']);
    const ws = wb.addWorksheet('lanes');
    ws.addRow(MLL_LABELS);
    ws.addRow(['Mumbai', 'Pune', '32 FT MXL']);
    expect((await readLaneUpload(columns, await saveWorkbook(wb))).ok).toBe(true);
  });

  it('accepts .xls and .csv, and refuses a file that is neither with the spec’s message', async () => {
    const aoa = [MLL_LABELS, ['Mumbai', 'Pune', '32 FT MXL'], ['Chennai', '007', '20 FT SXL']];
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(aoa), 'Lanes');
    const xls = XLSX.write(book, { type: 'buffer', bookType: 'xls' }) as Buffer;
    const fromXls = await readLaneUpload(columns, xls);
    expect(fromXls.ok && fromXls.lanes.map((l) => l.values['toCity'])).toEqual(['Pune', '007']);

    const csv = Buffer.from(`\ufeff${aoa.map((r) => r.map((c) => `"${c}"`).join(',')).join('\r\n')}\r\n`);
    const fromCsv = await readLaneUpload(columns, csv);
    expect(fromCsv.ok && fromCsv.lanes.map((l) => l.values['toCity'])).toEqual(['Pune', '007']);

    for (const junk of [Buffer.from('%PDF-1.7\n\u0000\u0001'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), Buffer.alloc(0)])
      expect(failureOf(await readLaneUpload(columns, junk)).sheetError).toBe(rfpMessages.invalidExcel);
  });
});
