/**
 * Money inside the memo domain: integers in paise, decimal strings ("12500.00") on the wire (issue 11 contract).
 * Integers because sums of many invoices in floating point drift by a paisa.
 */
export const AMOUNT_PATTERN = /^\d+(\.\d{1,2})?$/;

/** "12500.5" → 1250050; null for anything that is not a non-negative amount with at most 2 decimals. */
export function toPaise(value: string | null | undefined): number | null {
  const v = (value ?? '').trim();
  if (v === '') return 0;
  if (!AMOUNT_PATTERN.test(v)) return null;
  const [rupees = '0', fraction = ''] = v.split('.');
  const paise = Number(rupees) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(paise) ? paise : null;
}

/** 1250050 → "12500.50" (negative values keep their sign: a balance can be shown as it is). */
export function fromPaise(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** India's financial year (April–March) of a YYYY-MM-DD date, written "2026-27". */
export function memoFinancialYear(date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const start = month >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** The calendar date in India (UTC+5:30) of an instant: memo dates and payment dates are Indian dates. */
export const indiaDateOf = (at: string): string => new Date(Date.parse(at) + 5.5 * 3_600_000).toISOString().slice(0, 10);
