import { MAX_CELL_TEXT, safeCell, safeCellText } from './safe-cell';

describe('safeCell', () => {
  test.each([
    ['=1+1', "'=1+1"],
    ['+91 98765', "'+91 98765"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['\nx', "'\nx"],
    ['Acme = good', 'Acme = good'],
    ['', ''],
  ])('%j → %j', (input, output) => {
    expect(safeCell(input)).toBe(output);
  });

  test('numbers, booleans, dates and null pass unchanged', () => {
    const d = new Date(0);
    expect([safeCell(-5), safeCell(true), safeCell(d), safeCell(null)]).toEqual([-5, true, d, null]);
  });

  test('safeCellText: JSON for objects, formula-safe, cut at the cell limit with the note', () => {
    expect(safeCellText(null)).toBe('');
    expect(safeCellText({ a: 1 })).toBe('{"a":1}');
    expect(safeCellText('=x')).toBe("'=x");
    const cut = safeCellText('x'.repeat(MAX_CELL_TEXT + 10), '…cut');
    expect(cut).toHaveLength(MAX_CELL_TEXT);
    expect(cut.endsWith('…cut')).toBe(true);
  });
});
