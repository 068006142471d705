import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { dateWindowMessages, dateWindowProblem } from '../../../domain/src/validation/date-window';

const asDate = (value: unknown): string | null => (typeof value === 'string' && value ? value.slice(0, 10) : null);

/**
 * The date filter's rule (spec 001 §5 date range, domain/src/validation/date-window.ts): the start not after
 * the end and neither before the 61-day window; the message, or undefined when the range is fine.
 */
export function dateRangeError(all: Record<string, unknown>, today = indiaDateAt(Date.now())): string | undefined {
  const problem = dateWindowProblem(asDate(all['dateFrom']), asDate(all['dateTo']), today);
  return problem ? dateWindowMessages[problem] : undefined;
}

/** The date inputs' `validate`, so react-admin does not send an invalid range (the API refuses it too). */
export const validateDateRange = (_value: unknown, all: Record<string, unknown>): string | undefined => dateRangeError(all);
