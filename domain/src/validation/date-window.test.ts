import { DATE_WINDOW_DAYS, dateWindowMessages, dateWindowProblem, dateWindowStart, isDateRangeValid } from './date-window';

const today = '2026-03-31';

describe('spec 001 §5 date range: start not after end, not earlier than 61 days ago', () => {
  it('the window starts 61 days before today', () => {
    expect(DATE_WINDOW_DAYS).toBe(61);
    expect(dateWindowStart(today)).toBe('2026-01-29');
  });

  const cases: [string, string | null, string | null, ReturnType<typeof dateWindowProblem>][] = [
    ['a range inside the window', '2026-02-01', '2026-03-31', null],
    ['a single day', '2026-03-10', '2026-03-10', null],
    ['a start exactly 61 days ago', '2026-01-29', '2026-02-10', null],
    ['a start 62 days ago', '2026-01-28', '2026-02-10', 'tooOld'],
    ['a start after the end', '2026-03-10', '2026-03-09', 'startAfterEnd'],
    ['an open end', '2026-03-01', null, null],
    ['an open start with an end inside', null, '2026-03-01', null],
    ['an open start with an end before the window', null, '2026-01-01', 'tooOld'],
    ['no dates at all', null, null, null],
    ['a date that does not exist', '2026-02-30', '2026-03-01', 'invalidDate'],
    ['a date in another format', '01-03-2026', '2026-03-01', 'invalidDate'],
  ];
  test.each(cases)('%s', (_name, start, end, problem) => {
    expect(dateWindowProblem(start, end, today)).toBe(problem);
    expect(isDateRangeValid(start, end, today)).toBe(problem === null);
  });

  it('has a message for every problem', () => {
    expect(dateWindowMessages.tooOld).toBe('Please choose dates within the last 61 days');
  });
});
