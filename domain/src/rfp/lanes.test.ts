import { messages } from '../validation/fields';
import { cellProblem, checkLanes, checkQuotes, headerDataProblems, laneIdOf, MAX_LANES, normaliseCell } from './lanes';
import { rfpMessages } from './messages';
import type { LaneColumn } from './model';
import { columns, step2 } from './testing';

const column = (over: Partial<LaneColumn>): LaneColumn => ({ key: 'k', label: 'Rate', owner: 'ba', type: 'text', required: false, ...over });

describe('one cell against its column', () => {
  const cases: [string, LaneColumn, string | null, string | null][] = [
    ['an empty required cell', column({ required: true }), null, rfpMessages.requiredValue('Rate')],
    ['an empty optional cell', column({}), null, null],
    ['a number with 2 decimals', column({ type: 'number' }), '45000.50', null],
    ['a number with 3 decimals', column({ type: 'number' }), '1.505', rfpMessages.numberValue('Rate')],
    ['a negative number', column({ type: 'number' }), '-5', rfpMessages.numberValue('Rate')],
    ['a listed option', column({ type: 'select', options: ['Yes', 'No'] }), 'No', null],
    ['an unlisted option', column({ type: 'select', options: ['Yes', 'No'] }), 'yes', rfpMessages.optionValue('Rate')],
    ['text starting with a formula character', column({}), '=1+1', messages.leadingCharacter],
    ['text of 261 characters', column({}), 'a'.repeat(261), messages.tooLong],
    ['plain text', column({}), 'Night driving allowed', null],
  ];
  test.each(cases)('%s', (_name, col, value, problem) => {
    expect(cellProblem(col, value)).toBe(problem);
  });

  it('trims, and reads blank as empty', () => {
    expect(normaliseCell('  Pune ')).toBe('Pune');
    expect(normaliseCell('   ')).toBeNull();
    expect(normaliseCell(undefined)).toBeNull();
  });
});

describe('the sheet columns', () => {
  it('accepts the columns step 2 chose', () => {
    expect(headerDataProblems(columns, step2)).toBeNull();
  });

  it('refuses repeated keys, a dropdown without options and a sheet without BA columns', () => {
    expect(Object.values(headerDataProblems([...columns, columns[0]], step2) ?? {})).toContain('Column fromCity appears twice');
    const noOptions = columns.map((c) => (c.key === 'vehicleType' ? { ...c, options: [] } : c));
    expect(headerDataProblems(noOptions, step2)).toEqual({ '2.options': 'A dropdown column needs its options' });
    expect(Object.values(headerDataProblems(columns.filter((c) => c.owner === 'mll'), step2) ?? {})).toContain('The sheet needs at least one BA property column');
  });

  it('a non-standard sheet need not name from, to and vehicle', () => {
    const free: LaneColumn[] = [
      { key: 'scope', label: 'Scope', owner: 'mll', type: 'text', required: true },
      { key: 'price', label: 'Price', owner: 'ba', type: 'number', required: true },
    ];
    expect(headerDataProblems(free, { ...step2, rfpType: 'non-standard', mllProperties: ['scope'], baProperties: ['price'] })).toBeNull();
    expect(headerDataProblems(free, { ...step2, rfpType: 'single', mllProperties: ['scope'], baProperties: ['price'] })).toEqual({
      headerData: "A standard RFP's lanes need the columns fromCity, toCity, vehicleType",
    });
  });
});

describe('lanes of an upload', () => {
  it('numbers lanes L0001, L0002, …', () => {
    expect([laneIdOf(0), laneIdOf(41), laneIdOf(9999)]).toEqual(['L0001', 'L0042', 'L10000']);
  });

  it('refuses repeated or malformed lane ids and more than the maximum of lanes', () => {
    const lane = { laneId: 'L0001', values: { fromCity: 'Pune', toCity: 'Goa', vehicleType: '32 FT MXL' } };
    expect(checkLanes(columns, [lane, lane]).errors).toEqual({ 'lanes.1': 'Lane 2 needs its own lane id like L0002' });
    expect(checkLanes(columns, [{ ...lane, laneId: '1' }]).errors).toEqual({ 'lanes.0': 'Lane 1 needs its own lane id like L0001' });
    const many = Array.from({ length: MAX_LANES + 1 }, (_, i) => ({ ...lane, laneId: laneIdOf(i) }));
    expect(checkLanes(columns, many).errors).toEqual({ lanes: rfpMessages.tooManyLanes(MAX_LANES) });
  });
});

describe('a BA’s quotes', () => {
  const laneIds = new Set(['L0001', 'L0002']);
  it('an all-empty lane withdraws the quote; a filled one keeps every BA column', () => {
    expect(checkQuotes(columns, laneIds, { L0001: { ratePerTrip: ' ', transitDays: '' }, L0002: { ratePerTrip: '900' } })).toEqual({
      value: { L0001: null, L0002: { ratePerTrip: '900', transitDays: null } },
      errors: {},
    });
  });
});

describe('malformed input from a sheet or a form', () => {
  it('reads a row that is not an object as empty cells instead of failing', () => {
    const bad = [{ laneId: 'L0001', values: null }] as unknown as Parameters<typeof checkLanes>[1];
    expect(checkLanes(columns, bad).errors).toMatchObject({ 'L0001.fromCity': rfpMessages.requiredValue('From City') });
    const quotes = { L0001: null } as unknown as Parameters<typeof checkQuotes>[2];
    expect(checkQuotes(columns, new Set(['L0001']), quotes)).toEqual({ value: { L0001: null }, errors: {} });
  });
});
