/**
 * Display formats from spec 000 §9, shared by the console and the portal: dates as DD-MMM-YYYY, "NA" for a
 * missing value. Dates and times are shown in Indian time whatever the browser's zone, so a BA and the staff
 * see the same day for the same instant (the API sends ISO instants).
 */
export const MISSING = 'NA';

export const DISPLAY_TIME_ZONE = 'Asia/Kolkata';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

// h23, not hour12: false, which some engines render as "24:05" just after midnight.
const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: DISPLAY_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type DateInput = string | number | Date | null | undefined;

function pieces(value: DateInput): Record<'day' | 'month' | 'year' | 'hour' | 'minute', string> | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const p = Object.fromEntries(parts.formatToParts(date).map((x) => [x.type, x.value]));
  return {
    day: p['day'] ?? '',
    month: MONTHS[Number(p['month']) - 1] ?? '',
    year: p['year'] ?? '',
    hour: p['hour'] ?? '',
    minute: p['minute'] ?? '',
  };
}

/** 21-Nov-2025 */
export function formatDate(value: DateInput): string {
  const p = pieces(value);
  return p ? `${p.day}-${p.month}-${p.year}` : MISSING;
}

/** 21-Nov-2025 14:05 */
export function formatDateTime(value: DateInput): string {
  const p = pieces(value);
  return p ? `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute}` : MISSING;
}

/** How long a task has waited, coarse on purpose: "12 min", "3 h", "2 d". */
export function formatAge(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return MISSING;
  if (seconds < 3600) return `${Math.max(1, Math.floor(seconds / 60))} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** Any scalar as text, with the spec's "NA" for null, undefined and empty strings. */
export function display(value: unknown): string {
  if (value === null || value === undefined || value === '') return MISSING;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

// Decimal style plus an explicit "₹": the currency style's symbol and sign placement vary between ICU builds.
const inrDigits = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * An amount in rupees, en-IN grouping, exactly 2 decimals (spec 001 §9): "₹12,34,567.50", "-₹1,234.00"; "NA"
 * for nothing or for text that is not a plain decimal. Amounts travel as decimal strings; the string itself is
 * handed to Intl (not Number(text)) so large amounts keep their paise exactly.
 */
export function formatInr(value: number | string | null | undefined): string {
  if (value === null || value === undefined) return MISSING;
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  // String(1e21) is exponent notation, which the pattern rejects; such amounts are not rupee figures anyway.
  if (!DECIMAL.test(text)) return MISSING;
  const negative = text.startsWith('-');
  const digits = inrDigits.format((negative ? text.slice(1) : text) as unknown as number);
  // -0.001 rounds to 0.00, which carries no sign.
  return negative && /[1-9]/.test(digits) ? `-₹${digits}` : `₹${digits}`;
}
