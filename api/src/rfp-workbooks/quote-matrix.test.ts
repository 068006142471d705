import type { LaneColumn } from '../../../domain/src/rfp/model';
import { columns, lanes } from '../../../domain/src/rfp/testing';
import { rateColumnOf, writeQuoteMatrix, writeVehicleAvailability, type BaResponse } from './quote-matrix';
import { bytesOf, loadWorkbook, sheetRows } from './testing';

const responses: BaResponse[] = [
  { baId: 'ba-1', baName: 'Konkan Carriers', quotes: { L0001: { ratePerTrip: '45000', transitDays: '1' }, L0002: { ratePerTrip: '52000', transitDays: null } } },
  { baId: 'ba-2', baName: '=Deccan Roadways', quotes: { L0001: { ratePerTrip: '44000.50', transitDays: '2' }, L0002: { ratePerTrip: '52000', transitDays: '3' } } },
  { baId: 'ba-3', baName: 'Silent BA', quotes: { L0001: null } },
];

describe('the quote matrix', () => {
  it('rates a lane by the first number BA column', () => {
    const remarksFirst: LaneColumn[] = [{ key: 'remarks', label: 'Remarks', owner: 'ba', type: 'text', required: false }, ...columns];
    expect(rateColumnOf(remarksFirst)?.key).toBe('ratePerTrip');
    expect(rateColumnOf(columns.filter((c) => c.owner === 'mll'))).toBeNull();
  });

  it('has a row per lane: MLL columns, each BA’s quote under its name, and the lowest rate marked (ties: every BA)', async () => {
    const wb = await loadWorkbook(await bytesOf((out) => writeQuoteMatrix(columns, lanes, responses, out)));
    const ws = wb.getWorksheet('Quote Matrix')!;
    expect(sheetRows(ws)).toEqual([
      // exceljs reads a merged cell's value in every cell of the merge.
      ['Lane ID', 'From City', 'To City', 'Vehicle Type', 'Konkan Carriers', 'Konkan Carriers', "'=Deccan Roadways", "'=Deccan Roadways", 'Silent BA', 'Silent BA', 'Lowest Rate per Trip', 'Lowest by'],
      ['Lane ID', 'From City', 'To City', 'Vehicle Type', 'Rate per Trip', 'Transit Days', 'Rate per Trip', 'Transit Days', 'Rate per Trip', 'Transit Days', 'Lowest Rate per Trip', 'Lowest by'],
      ['L0001', 'Mumbai', 'Pune', '32 FT MXL', 45000, 1, 44000.5, 2, null, null, 44000.5, "'=Deccan Roadways"],
      ['L0002', 'Chennai', 'Bengaluru', '20 FT SXL', 52000, null, 52000, 3, null, null, 52000, 'Konkan Carriers, =Deccan Roadways'],
    ]);
    const marked = (address: string) => (ws.getCell(address).fill as { fgColor?: { argb?: string } } | undefined)?.fgColor?.argb === 'FFC6EFCE';
    expect(['E3', 'G3', 'I3', 'E4', 'G4', 'I4', 'F4', 'H4'].filter(marked)).toEqual(['G3', 'E4', 'G4']);
    // Each BA's name spans its two columns; the lane headers span both header rows.
    expect(ws.getCell('F1').isMerged && ws.getCell('F1').master.address).toBe('E1');
    expect(ws.getCell('A2').master.address).toBe('A1');
  });
});

describe('vehicle availability', () => {
  const withVehicles: LaneColumn[] = [...columns, { key: 'vehiclesAvailable', label: 'Vehicles Available', owner: 'ba', type: 'number', required: true }];
  it('lists per lane each BA’s vehicles and their total', async () => {
    const quoted: BaResponse[] = [
      { baId: 'ba-1', baName: 'Konkan Carriers', quotes: { L0001: { vehiclesAvailable: '4' } } },
      { baId: 'ba-2', baName: 'Deccan Roadways', quotes: { L0001: { vehiclesAvailable: '6' }, L0002: { vehiclesAvailable: '2' } } },
    ];
    const wb = await loadWorkbook(await bytesOf((out) => writeVehicleAvailability(withVehicles, lanes, quoted, out)));
    expect(sheetRows(wb.getWorksheet('Vehicle Availability')!)).toEqual([
      ['Lane ID', 'From City', 'To City', 'Vehicle Type', 'Konkan Carriers', 'Deccan Roadways', 'Total'],
      ['L0001', 'Mumbai', 'Pune', '32 FT MXL', 4, 6, 10],
      ['L0002', 'Chennai', 'Bengaluru', '20 FT SXL', null, 2, 2],
    ]);
  });

  it('is refused for an RFP without the vehicles-available column', async () => {
    await expect(bytesOf((out) => writeVehicleAvailability(columns, lanes, [], out))).rejects.toThrow('vehiclesAvailable');
  });
});
