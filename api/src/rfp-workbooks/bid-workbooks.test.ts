import type ExcelJS from 'exceljs';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import type { LaneColumn } from '../../../domain/src/rfp/model';
import { columns, lanes } from '../../../domain/src/rfp/testing';
import { writeBidTemplate } from './bid-template';
import { readBidUpload, writeBidErrorWorkbook, type BidUploadResult } from './bid-upload';
import type { UploadFailure } from './lane-upload';
import { workbookMessages } from './messages';
import { bytesOf, loadWorkbook, saveWorkbook, sheetRows } from './testing';

const HEADERS = ['Lane ID', 'From City', 'To City', 'Vehicle Type', 'Rate per Trip', 'Transit Days'];
const template = (quotes?: Parameters<typeof writeBidTemplate>[2], cols: LaneColumn[] = columns) =>
  bytesOf((out) => writeBidTemplate(cols, lanes, quotes, out));

/** The BA fills its copy in "Excel": `edit` sets cells of the Lanes sheet. */
async function filledBid(edit: (ws: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const wb = await loadWorkbook(await template());
  edit(wb.getWorksheet('Lanes')!);
  return saveWorkbook(wb);
}

function failureOf(result: BidUploadResult): UploadFailure {
  if (result.ok) throw new Error('expected the upload to fail');
  return result;
}
const failedRows = (f: UploadFailure) => f.rows.filter((r) => r.errors.length > 0).map((r) => [r.number, r.errors]);

describe('the bid template', () => {
  it('lists every lane with its id and MLL columns locked and grey, the BA columns editable and filled with saved quotes', async () => {
    const wb = await loadWorkbook(await template({ L0002: { ratePerTrip: '52000', transitDays: null } }));
    const ws = wb.getWorksheet('Lanes')!;
    expect(sheetRows(ws)).toEqual([
      HEADERS,
      ['L0001', 'Mumbai', 'Pune', '32 FT MXL'],
      ['L0002', 'Chennai', 'Bengaluru', '20 FT SXL', '52000'],
    ]);
    // Locked is Excel's default for a cell: it is written (and read back) only where a cell is unlocked.
    expect(ws.getCell('A2').protection?.locked).not.toBe(false);
    expect(ws.getCell('D2').fill).toMatchObject({ pattern: 'solid' });
    expect(ws.getCell('E3').protection).toMatchObject({ locked: false });
    expect(ws.getCell('E1').protection?.locked).not.toBe(false);
    expect((ws as unknown as { sheetProtection: unknown }).sheetProtection).toMatchObject({ sheet: true });
  });

  it('gives a BA select column a dropdown', async () => {
    const cols: LaneColumn[] = [...columns, { key: 'fuel', label: 'Fuel', owner: 'ba', type: 'select', options: ['Fixed', 'Linked'], required: false }];
    const wb = await loadWorkbook(await template(undefined, cols));
    expect(wb.getWorksheet('Lanes')!.getCell('G3').dataValidation).toMatchObject({ type: 'list', formulae: ['Options!$A$2:$A$3'] });
    expect(sheetRows(wb.getWorksheet('Options')!)).toEqual([['Fuel'], ['Fixed'], ['Linked']]);
  });
});

describe('reading a BA’s bid', () => {
  it('returns the quotes per lane; a row left empty is a withdrawn quote (all null)', async () => {
    const bytes = await filledBid((ws) => {
      ws.getCell('E2').value = '45000';
      ws.getCell('F2').value = 1;
    });
    expect(await readBidUpload(columns, lanes, bytes)).toEqual({
      ok: true,
      quotes: { L0001: { ratePerTrip: '45000', transitDays: '1' }, L0002: { ratePerTrip: null, transitDays: null } },
    });
  });

  it('reports unknown, missing, repeated and changed lanes and bad BA cells on their rows', async () => {
    const bytes = await filledBid((ws) => {
      ws.getCell('E2').value = '45000.505';
      ws.getCell('B3').value = 'Madurai';
      ws.getCell('E3').value = '100';
      ws.addRow(['L0099', 'X', 'Y', '32 FT MXL', '1']);
      ws.addRow(['L0001', 'Mumbai', 'Pune', '32 FT MXL', '2']);
      ws.addRow([null, null, null, null, '3']);
      ws.addRow(['L0002', 'Chennai', 'Bengaluru', '20 FT SXL', null, '4']);
    });
    const failure = failureOf(await readBidUpload(columns, lanes, bytes));
    expect(failedRows(failure)).toEqual([
      [2, [rfpMessages.numberValue('Rate per Trip')]],
      [3, [workbookMessages.laneChanged('From City', 'L0002')]],
      [4, [rfpMessages.unknownLane('L0099')]],
      [5, [workbookMessages.repeatedLane('L0001')]],
      [6, [rfpMessages.requiredValue('Lane ID')]],
      [7, [workbookMessages.repeatedLane('L0002')]],
    ]);
  });

  it('a filled row must fill every required BA column (the domain’s quote rule)', async () => {
    const bytes = await filledBid((ws) => {
      ws.getCell('F3').value = '2';
    });
    expect(failedRows(failureOf(await readBidUpload(columns, lanes, bytes)))).toEqual([[3, [rfpMessages.requiredValue('Rate per Trip')]]]);
  });

  it('takes a number lane cell written differently as unchanged, and lets the MLL columns be removed', async () => {
    const cols = columns.map((c) => (c.key === 'toCity' ? { ...c, type: 'number' as const } : c));
    const numeric = lanes.map((l) => ({ ...l, values: { ...l.values, toCity: '1200' } }));
    const wb = await loadWorkbook(await bytesOf((out) => writeBidTemplate(cols, numeric, undefined, out)));
    const ws = wb.getWorksheet('Lanes')!;
    ws.getCell('C2').value = 1200;
    ws.getCell('C3').value = '1200.00';
    ws.getCell('E2').value = '10';
    expect((await readBidUpload(cols, numeric, await saveWorkbook(wb))).ok).toBe(true);
    ws.spliceColumns(2, 3);
    expect(await readBidUpload(cols, numeric, await saveWorkbook(wb))).toMatchObject({ ok: true, quotes: { L0001: { ratePerTrip: '10' } } });
  });

  it('refuses a sheet without the lane id or a BA column', async () => {
    const bytes = await filledBid((ws) => {
      ws.getCell('G1').value = 'Notes';
    });
    expect(failureOf(await readBidUpload(columns, lanes, bytes)).sheetError).toBe(workbookMessages.unknownColumns(['Notes']));
    const noId = await filledBid((ws) => {
      ws.getCell('A1').value = null;
      ws.getCell('F1').value = null;
    });
    expect(failureOf(await readBidUpload(columns, lanes, noId)).sheetError).toBe(workbookMessages.missingColumns(['Lane ID', 'Transit Days']));
  });

  it('with every lane required, an unquoted lane fails, and a lane left out is added to the error workbook to quote there', async () => {
    const bytes = await filledBid((ws) => {
      ws.getCell('E2').value = '45000';
      ws.spliceRows(3, 1);
    });
    const failure = failureOf(await readBidUpload(columns, lanes, bytes, { quoteEveryLane: true }));
    expect(failure.sheetError).toBe(workbookMessages.everyLane(['L0002']));
    const book = await loadWorkbook(await bytesOf((out) => writeBidErrorWorkbook(failure, out)));
    const ws = book.getWorksheet('Lanes')!;
    expect(sheetRows(ws)).toEqual([
      [...HEADERS, 'Errors'],
      ['L0001', 'Mumbai', 'Pune', '32 FT MXL', '45000'],
      ['L0002', 'Chennai', 'Bengaluru', '20 FT SXL', null, null, workbookMessages.everyLane(['L0002'])],
    ]);
    // The BA quotes the lane in the error workbook and uploads it as it is.
    ws.getCell('E3').value = '51000';
    expect(await readBidUpload(columns, lanes, await saveWorkbook(book), { quoteEveryLane: true })).toMatchObject({
      ok: true,
      quotes: { L0001: { ratePerTrip: '45000' }, L0002: { ratePerTrip: '51000' } },
    });
  });

  it('writes the failed bid to the error workbook, formula-safe, and the corrected one uploads', async () => {
    const bytes = await filledBid((ws) => {
      ws.getCell('E2').value = '=1+1';
      ws.getCell('E3').value = '500';
    });
    const failure = failureOf(await readBidUpload(columns, lanes, bytes));
    const book = await loadWorkbook(await bytesOf((out) => writeBidErrorWorkbook(failure, out)));
    const ws = book.getWorksheet('Lanes')!;
    expect(sheetRows(ws)[1]).toEqual(['L0001', 'Mumbai', 'Pune', '32 FT MXL', "'=1+1", null, rfpMessages.numberValue('Rate per Trip')]);
    ws.getCell('E2').value = '450';
    expect(await readBidUpload(columns, lanes, await saveWorkbook(book))).toMatchObject({ ok: true, quotes: { L0001: { ratePerTrip: '450' } } });
  });
});
