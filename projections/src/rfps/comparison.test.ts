import { columns } from '../../../domain/src/rfp/testing';
import type { LaneColumn } from '../../../domain/src/rfp/model';
import { baResponses, isComparisonBy, laneKeysOf, rateKeyOf, rateOf, type ComparisonGroup } from './comparison';

describe('the rate a quote is compared by', () => {
  it('is the first BA column of type number, in sheet order', () => {
    expect(rateKeyOf(columns)).toBe('ratePerTrip');
    const reordered: LaneColumn[] = [
      { key: 'remarks', label: 'Remarks', owner: 'ba', type: 'text', required: false },
      { key: 'distanceKm', label: 'Distance', owner: 'mll', type: 'number', required: true },
      { key: 'ratePerKm', label: 'Rate per km', owner: 'ba', type: 'number', required: true },
      { key: 'ratePerTrip', label: 'Rate per trip', owner: 'ba', type: 'number', required: true },
    ];
    expect(rateKeyOf(reordered)).toBe('ratePerKm');
  });

  it('is missing when the sheet has no BA number column or no columns', () => {
    expect(rateKeyOf(columns.filter((c) => !(c.owner === 'ba' && c.type === 'number')))).toBeNull();
    expect(rateKeyOf(null)).toBeNull();
  });

  it('reads numbers only, and nothing without a rate column', () => {
    expect(rateOf({ ratePerTrip: ' 45000.50 ' }, 'ratePerTrip')).toBe('45000.50');
    expect(rateOf({ ratePerTrip: '45,000' }, 'ratePerTrip')).toBeNull();
    expect(rateOf({ ratePerTrip: null }, 'ratePerTrip')).toBeNull();
    expect(rateOf({ transitDays: '2' }, 'ratePerTrip')).toBeNull();
    expect(rateOf({ ratePerTrip: '100' }, null)).toBeNull();
  });
});

describe('lane keys', () => {
  it('are the trimmed city and vehicle values, null when empty or absent', () => {
    expect(laneKeysOf({ fromCity: ' Mumbai ', toCity: 'Pune', vehicleType: '' })).toEqual({ fromCity: 'Mumbai', toCity: 'Pune', vehicleType: null });
    expect(laneKeysOf({ material: 'Steel' })).toEqual({ fromCity: null, toCity: null, vehicleType: null });
  });
});

describe('comparison types', () => {
  it('are all, location, vehicle and location-vehicle', () => {
    expect(['all', 'location', 'vehicle', 'location-vehicle'].every(isComparisonBy)).toBe(true);
    expect(isComparisonBy('locationWise')).toBe(false);
  });
});

describe('the BA-response comparison', () => {
  const group = (laneId: string, quotes: [string, number, number][]): ComparisonGroup => ({
    laneId,
    fromCity: 'Mumbai',
    toCity: 'Pune',
    vehicleType: '32 FT MXL',
    lanes: 1,
    quotes: quotes.map(([baId, rate, rank]) => ({ baId, companyName: null, rate, lanesQuoted: 1, rank })),
    min: quotes[0]?.[1] ?? null,
    avg: null,
    max: null,
  });

  it('shows each BA its rank, how many quoted and how far above the lowest it is', () => {
    const byBa = baResponses([
      group('L0001', [
        ['ba-2', 80, 1],
        ['ba-1', 100, 2],
      ]),
      group('L0002', [['ba-1', 50, 1]]),
      group('L0003', []),
    ]);
    expect(byBa.map((b) => b.baId)).toEqual(['ba-1', 'ba-2']);
    expect(byBa[0]).toMatchObject({ groupsQuoted: 2, firstRanks: 1 });
    expect(byBa[0]?.entries.map((e) => [e.laneId, e.rank, e.of, e.aboveLowestPercent])).toEqual([
      ['L0001', 2, 2, 25],
      ['L0002', 1, 1, 0],
    ]);
    expect(byBa[1]?.entries.map((e) => [e.laneId, e.aboveLowestPercent])).toEqual([['L0001', 0]]);
  });

  it('orders BAs by lowest-rate groups, then groups quoted', () => {
    const byBa = baResponses([
      group('L0001', [
        ['ba-3', 10, 1],
        ['ba-1', 20, 2],
      ]),
      group('L0002', [
        ['ba-2', 10, 1],
        ['ba-1', 20, 2],
      ]),
    ]);
    expect(byBa.map((b) => b.baId)).toEqual(['ba-2', 'ba-3', 'ba-1']);
  });
});
