/**
 * Spec 001 §5 "Date range: a date is valid when the start is not after the end and is not earlier than 61
 * days ago" (§9 "Date window: 61 days"). Used by the RFP dashboard's date filter and Bill-Hub's lists.
 * Dates are calendar dates (YYYY-MM-DD); "today" is the caller's (the India date of the request's time), so
 * the rule stays pure. The window's first day, today − 61 days, is still inside it.
 */
export const DATE_WINDOW_DAYS = 61;

export const dateWindowMessages = {
  invalidDate: 'Please enter a valid date (YYYY-MM-DD)',
  startAfterEnd: 'The start date must not be after the end date',
  tooOld: `Please choose dates within the last ${DATE_WINDOW_DAYS} days`,
} as const;

export type DateWindowProblem = keyof typeof dateWindowMessages;

const DAY_MS = 86_400_000;

function dayNumber(date: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const ms = Date.parse(`${date}T00:00:00.000Z`);
  // Date.parse rolls 2026-02-30 over to March; a date that does not round-trip does not exist.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) return null;
  return ms / DAY_MS;
}

/** The earliest date the window allows on `today`. */
export function dateWindowStart(today: string, days = DATE_WINDOW_DAYS): string {
  const t = dayNumber(today);
  if (t === null) throw new Error(`Not a date: ${today}`);
  return new Date((t - days) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Why a start/end pair is refused, or null when it is valid. Either end may be left open (null): an open
 * start only needs the end not to be before the window either.
 */
export function dateWindowProblem(start: string | null, end: string | null, today: string, days = DATE_WINDOW_DAYS): DateWindowProblem | null {
  const s = start === null ? null : dayNumber(start);
  const e = end === null ? null : dayNumber(end);
  if ((start !== null && s === null) || (end !== null && e === null)) return 'invalidDate';
  if (s !== null && e !== null && s > e) return 'startAfterEnd';
  const first = dayNumber(dateWindowStart(today, days)) as number;
  if ((s ?? e ?? first) < first) return 'tooOld';
  return null;
}

export const isDateRangeValid = (start: string | null, end: string | null, today: string): boolean =>
  dateWindowProblem(start, end, today) === null;
