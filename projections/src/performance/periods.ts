/**
 * The performance dashboard's calendar (issue 11), pure: months in Indian time, Indian financial-year quarters
 * (Q1 = April–June) and financial years ("2026-27"). Counters are stored per month; a quarter or a year is the
 * sum of its months, so one table serves all three periods.
 */
export type Period = 'month' | 'quarter' | 'year';
export const PERIODS: readonly Period[] = ['month', 'quarter', 'year'];

/** How many buckets each period shows, oldest first (contract: 12 months, 8 quarters, 5 financial years). */
export const BUCKET_COUNTS: Record<Period, number> = { month: 12, quarter: 8, year: 5 };

const IST_OFFSET_MS = 330 * 60_000;
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** 'YYYY-MM' of an instant in Indian time (fixed +05:30, no DST): an event at 23:00 UTC on 31 Mar is April. */
export function indianMonthOf(at: string): string {
  const d = new Date(new Date(at).getTime() + IST_OFFSET_MS);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

/** Today's date (YYYY-MM-DD) in India. */
export function indianToday(now: Date = new Date()): string {
  return new Date(now.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

type YearMonth = { year: number; month: number };
const parseMonth = (ym: string): YearMonth => ({ year: Number(ym.slice(0, 4)), month: Number(ym.slice(5, 7)) });
const monthKey = ({ year, month }: YearMonth): string => `${year}-${pad(month)}`;

/** The month `delta` months after `ym` (negative goes back). */
export function addMonths(ym: string, delta: number): string {
  const { year, month } = parseMonth(ym);
  const index = year * 12 + (month - 1) + delta;
  return monthKey({ year: Math.floor(index / 12), month: (index % 12) + 1 });
}

/** The financial year's first calendar year: April 2026 – March 2027 → 2026. */
const fyStartYear = ({ year, month }: YearMonth): number => (month >= 4 ? year : year - 1);
const fyName = (start: number): string => `${start}-${pad((start + 1) % 100)}`;

export type Bucket = { key: string; label: string; months: string[] };

function monthBucket(ym: string): Bucket {
  const { year, month } = parseMonth(ym);
  return { key: ym, label: `${MONTH_NAMES[month - 1]} ${year}`, months: [ym] };
}

/** The bucket a month falls in: key '2026-11' / '2026-Q3' (FY 2026-27's third quarter) / '2026-27'. */
export function bucketOf(period: Period, ym: string): Bucket {
  if (period === 'month') return monthBucket(ym);
  const parsed = parseMonth(ym);
  const start = fyStartYear(parsed);
  const firstOfFy = `${start}-04`;
  if (period === 'year') {
    return { key: fyName(start), label: `FY ${fyName(start)}`, months: Array.from({ length: 12 }, (_, i) => addMonths(firstOfFy, i)) };
  }
  const quarter = Math.floor(((parsed.month + 8) % 12) / 3) + 1;
  const first = addMonths(firstOfFy, (quarter - 1) * 3);
  return { key: `${start}-Q${quarter}`, label: `Q${quarter} ${fyName(start)}`, months: [0, 1, 2].map((i) => addMonths(first, i)) };
}

/** The period's buckets ending with the one holding `today` (YYYY-MM-DD), oldest first. */
export function bucketsEndingAt(period: Period, today: string): Bucket[] {
  const step = period === 'month' ? 1 : period === 'quarter' ? 3 : 12;
  const current = bucketOf(period, today.slice(0, 7));
  const firstMonth = current.months[0] as string;
  const count = BUCKET_COUNTS[period];
  return Array.from({ length: count }, (_, i) => bucketOf(period, addMonths(firstMonth, (i - count + 1) * step)));
}

/** The spec's percentage helper: part / whole × 100 with 2 decimals; 0 when there is no whole. */
export function percentage(part: number, whole: number): number {
  if (!(whole > 0) || !(part >= 0)) return 0;
  return Math.round((part / whole) * 10_000) / 100;
}

/** An average with 2 decimals, or null when there is nothing to average. */
export function average(sum: number, count: number): number | null {
  return count > 0 ? Math.round((sum / count) * 100) / 100 : null;
}
