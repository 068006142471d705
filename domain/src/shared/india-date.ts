/**
 * The calendar date in India of an instant, as YYYY-MM-DD: invoice and memo dates, payment dates, "today" in
 * the date-window rules and the document-expiry days are all Indian dates. India keeps no daylight saving
 * time, so a fixed +05:30 is exact. Pure arithmetic (no Intl, no clock of its own): safe in the workflow bundle,
 * where `at` is the workflow's deterministic time.
 */
export const INDIA_OFFSET_MS = 330 * 60_000;

/** `at`: an ISO instant or epoch milliseconds. An unreadable instant throws a RangeError (Invalid time value). */
export function indiaDateAt(at: string | number): string {
  const epochMs = typeof at === 'number' ? at : Date.parse(at);
  return new Date(epochMs + INDIA_OFFSET_MS).toISOString().slice(0, 10);
}
