/**
 * Money inside the memo domain: integers in paise, decimal strings ("12500.00") on the wire (issue 11 contract).
 * Integers because sums of many invoices in floating point drift by a paisa. The invoice domain owns the
 * amount rules (domain/src/invoices/fields.ts); a memo only reads amounts leniently (see `toPaise`).
 */
import { AMOUNT_PATTERN, financialYearOf, fromPaise, toPaise as invoiceToPaise } from '../invoices/fields';

export { AMOUNT_PATTERN, fromPaise };

/**
 * "12500.5" → 1250050; "" (or nothing) → 0; null for anything that is not a non-negative amount with at most
 * 2 decimals or is too large to add exactly. Unlike the invoice rule it never throws: a memo sums amounts read
 * back from invoice streams and refuses the request on null.
 */
export function toPaise(value: string | null | undefined): number | null {
  const v = (value ?? '').trim();
  if (v !== '' && !AMOUNT_PATTERN.test(v)) return null;
  const paise = invoiceToPaise(v);
  return Number.isSafeInteger(paise) ? paise : null;
}

/** India's financial year (April–March) of a YYYY-MM-DD date, written "2026-27". */
export const memoFinancialYear = financialYearOf;
