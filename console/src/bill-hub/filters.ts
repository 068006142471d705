import { DISPLAY_TIME_ZONE } from '../../../domain/src/shared/format';
import { dateWindowMessages, dateWindowProblem } from '../../../domain/src/validation/date-window';

const indiaDate = new Intl.DateTimeFormat('en-CA', { timeZone: DISPLAY_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's calendar date in India (YYYY-MM-DD), the "today" of the 61-day window. */
export const indiaToday = (now: Date = new Date()): string => indiaDate.format(now);

const asDate = (value: unknown): string | null => (typeof value === 'string' && value ? value.slice(0, 10) : null);

/**
 * The date filter's rule (spec 001 §5 date range, domain/src/validation/date-window.ts): the start not after
 * the end and neither before the 61-day window; the message, or undefined when the range is fine.
 */
export function dateRangeError(all: Record<string, unknown>, today = indiaToday()): string | undefined {
  const problem = dateWindowProblem(asDate(all['dateFrom']), asDate(all['dateTo']), today);
  return problem ? dateWindowMessages[problem] : undefined;
}

/** The date inputs' `validate`, so react-admin does not send an invalid range (the API refuses it too). */
export const validateDateRange = (_value: unknown, all: Record<string, unknown>): string | undefined => dateRangeError(all);
