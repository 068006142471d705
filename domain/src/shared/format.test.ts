import { display, formatAge, formatDate, formatDateTime, formatInr, MISSING } from './format';

describe('display formats', () => {
  // A machine zone far from India: what is shown must not depend on where the browser runs.
  const machineZone = process.env['TZ'];
  beforeAll(() => {
    process.env['TZ'] = 'America/Los_Angeles';
  });
  afterAll(() => {
    if (machineZone === undefined) delete process.env['TZ'];
    else process.env['TZ'] = machineZone;
  });

  test('dates are DD-MMM-YYYY in Indian time: a late-evening UTC instant is the next day', () => {
    expect(formatDate('2025-11-21T20:00:00.000Z')).toBe('22-Nov-2025');
    expect(formatDate('2025-11-21T10:00:00.000Z')).toBe('21-Nov-2025');
    expect(formatDate(new Date('2026-03-04T20:05:00.000Z'))).toBe('05-Mar-2026');
  });

  test('date-times are DD-MMM-YYYY HH:mm in Indian time, on a 24-hour clock from 00:00', () => {
    expect(formatDateTime('2025-11-21T20:00:00.000Z')).toBe('22-Nov-2025 01:30');
    expect(formatDateTime('2025-11-21T18:30:00.000Z')).toBe('22-Nov-2025 00:00');
    expect(formatDateTime('2025-11-05T10:30:00.000Z')).toBe('05-Nov-2025 16:00');
  });

  test('a missing or unreadable date is the spec’s "NA"', () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatDate(value)).toBe(MISSING);
      expect(formatDateTime(value)).toBe(MISSING);
    }
    expect(MISSING).toBe('NA');
  });

  test('ages are coarse: minutes, then hours, then days', () => {
    expect(formatAge(10)).toBe('1 min');
    expect(formatAge(12 * 60)).toBe('12 min');
    expect(formatAge(3 * 3600 + 59)).toBe('3 h');
    expect(formatAge(2 * 86_400 + 60)).toBe('2 d');
    expect(formatAge(-1)).toBe(MISSING);
    expect(formatAge(null)).toBe(MISSING);
  });

  test('any value shows as text, with "NA" for nothing', () => {
    expect(display(null)).toBe('NA');
    expect(display('')).toBe('NA');
    expect(display(true)).toBe('Yes');
    expect(display(12)).toBe('12');
    expect(display({ a: 1 })).toBe('{"a":1}');
  });

  test('rupee amounts are ₹ with en-IN grouping and exactly 2 decimals, from numbers or decimal strings', () => {
    expect(formatInr(1234567.5)).toBe('₹12,34,567.50');
    expect(formatInr('1234567.5')).toBe('₹12,34,567.50');
    expect(formatInr('1234.5')).toBe('₹1,234.50');
    expect(formatInr(45000)).toBe('₹45,000.00');
    expect(formatInr('0')).toBe('₹0.00');
    expect(formatInr(999)).toBe('₹999.00');
    expect(formatInr('100000')).toBe('₹1,00,000.00');
    expect(formatInr(' 12.5 ')).toBe('₹12.50');
  });

  test('rupee amounts round to paise, and a large decimal string keeps its paise exactly', () => {
    expect(formatInr('10.005')).toBe('₹10.01');
    expect(formatInr(10.004)).toBe('₹10.00');
    expect(formatInr('12345678901234567.89')).toBe('₹12,34,56,78,90,12,34,567.89');
  });

  test('a negative amount has the sign before the rupee symbol; one that rounds to zero has none', () => {
    expect(formatInr(-1234)).toBe('-₹1,234.00');
    expect(formatInr('-1234567.5')).toBe('-₹12,34,567.50');
    expect(formatInr('-0.001')).toBe('₹0.00');
  });

  test('a missing or non-numeric amount is the spec’s "NA"', () => {
    for (const value of [null, undefined, '', '   ', 'abc', '12abc', '1,234', '0x10', '1e3', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatInr(value)).toBe(MISSING);
    }
  });
});
