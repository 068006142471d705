/**
 * When a document's reminders and its expiry fall due (pure; workflow-safe: no Node built-ins, no clock of
 * its own — `now` is the workflow's deterministic time).
 *
 * Days are Indian calendar days (the BA and the reviewers read dates in Indian time, domain/src/shared/
 * format.ts): the reminder "N days before" falls at the start of the day N days before `validTill`, the
 * reminder 0 at the start of `validTill` itself, and the document expires at the end of `validTill` (the start
 * of the next day). India keeps no daylight saving time, so a fixed offset is exact.
 *
 * `dayMs` shrinks days for tests: the clock is scaled around `now`, so "today" and the part of it already gone
 * keep their meaning. With a real day (DAY_MS) every moment is exactly midnight in India.
 */
import { INDIA_OFFSET_MS } from '../../../domain/src/shared/india-date';

const REAL_DAY_MS = 86_400_000;

export type ExpiryPlan = {
  /** Reminders still due, earliest first (most days before first), each with its moment (epoch ms). */
  reminders: { daysBefore: number; at: number }[];
  /** Reminders whose day was over before `now`: never sent late. */
  skipped: number[];
  /** The end of the validity day (epoch ms); may be in the past (then the expiry is recorded at once). */
  expiresAt: number;
};

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export function dayNumberOf(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`Not a YYYY-MM-DD date: ${date}`);
  const [, y, m, d] = match;
  return Date.UTC(Number(y), Number(m) - 1, Number(d)) / REAL_DAY_MS;
}

/** The Indian calendar day of an instant and how much of it had gone (0 ≤ fraction < 1). */
export function indianDayAt(epochMs: number): { day: number; fraction: number } {
  const shifted = epochMs + INDIA_OFFSET_MS;
  const day = Math.floor(shifted / REAL_DAY_MS);
  return { day, fraction: (shifted - day * REAL_DAY_MS) / REAL_DAY_MS };
}

/** The reminder days a timer honours: whole, non-negative, each once, most days before first. */
export function reminderDays(daysBefore: readonly number[]): number[] {
  const valid = daysBefore.filter((n) => Number.isInteger(n) && n >= 0);
  return [...new Set(valid)].sort((a, b) => b - a);
}

export function planExpiry({
  validTill,
  reminderDaysBefore,
  dayMs,
  now,
}: {
  validTill: string;
  reminderDaysBefore: readonly number[];
  dayMs: number;
  now: number;
}): ExpiryPlan {
  const today = indianDayAt(now);
  const lastDay = dayNumberOf(validTill);
  // The start of `day` on the (possibly scaled) clock.
  const startOf = (day: number) => now + (day - today.day - today.fraction) * dayMs;
  const reminders: ExpiryPlan['reminders'] = [];
  const skipped: number[] = [];
  for (const daysBefore of reminderDays(reminderDaysBefore)) {
    const day = lastDay - daysBefore;
    // A reminder whose day is today is still sent (at once); one whose day is over is not.
    if (day < today.day) skipped.push(daysBefore);
    else reminders.push({ daysBefore, at: Math.max(now, startOf(day)) });
  }
  return { reminders, skipped, expiresAt: startOf(lastDay + 1) };
}

/** The date `days` after a YYYY-MM-DD date (negative: before), as YYYY-MM-DD. */
export function addDays(date: string, days: number): string {
  return new Date((dayNumberOf(date) + days) * REAL_DAY_MS).toISOString().slice(0, 10);
}
