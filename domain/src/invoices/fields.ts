import { z } from 'zod';
import { HSN_CODES } from '../masters/reference-data/hsn-codes';
import { dateWindowStart } from '../validation/date-window';
import { fieldErrors, fields as commonFields, safeText } from '../validation/fields';
import type { InvoiceFields } from './events';
import { invoiceMessages as m } from './messages';

/** Indian financial year of a date, April–March, written "2026-27". */
export function financialYearOf(date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const start = month >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

export const AMOUNT_PATTERN = /^\d+(\.\d{1,2})?$/;
export const HSN_PATTERN = /^\d{4}(\d{2}){0,2}$/;

/** Amounts travel as decimal strings; the domain adds them in paise so 0.1 + 0.2 is exactly 0.30. */
export function toPaise(amount: string): number {
  const v = amount.trim() === '' ? '0' : amount.trim();
  if (!AMOUNT_PATTERN.test(v)) throw new Error(`Not an amount: ${amount}`);
  const [rupees, decimals = ''] = v.split('.');
  return Number(rupees) * 100 + Number(decimals.padEnd(2, '0'));
}
export const fromPaise = (paise: number): string => {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** totalAmount = taxable + cgst + sgst + igst; netPayable = total − td. */
export function invoiceTotals(f: Pick<InvoiceFields, 'taxableAmount' | 'cgst' | 'sgst' | 'igst' | 'td'>): { totalAmount: string; netPayable: string } {
  const total = toPaise(f.taxableAmount) + toPaise(f.cgst) + toPaise(f.sgst) + toPaise(f.igst);
  return { totalAmount: fromPaise(total), netPayable: fromPaise(total - toPaise(f.td)) };
}

/** An active code of the HSN master (the master's reference data; the API may pass the live active list). */
export const ACTIVE_HSN_CODES: ReadonlySet<string> = new Set(HSN_CODES.map((h) => h.hsnCode));

export const EMPTY_INVOICE_FIELDS: InvoiceFields = {
  invoiceNumber: '',
  invoiceDate: '',
  taxableAmount: '',
  cgst: '0',
  sgst: '0',
  igst: '0',
  td: '0',
  hsnCode: '',
  comments: '',
  submitToUserId: '',
  billingFromCode: '',
  billingToCode: '',
};

const str = z.preprocess((v) => (v === null || v === undefined ? '' : typeof v === 'number' ? String(v) : v), z.string({ error: m.invalid }).transform((s) => s.trim()));

/** Normalises a body into InvoiceFields: missing → '', taxes and TD empty → '0', everything trimmed. */
export const invoiceFieldsInput = z.object({
  invoiceNumber: str,
  invoiceDate: str,
  taxableAmount: str,
  cgst: str.transform((v) => (v === '' ? '0' : v)),
  sgst: str.transform((v) => (v === '' ? '0' : v)),
  igst: str.transform((v) => (v === '' ? '0' : v)),
  td: str.transform((v) => (v === '' ? '0' : v)),
  hsnCode: str,
  comments: str,
  submitToUserId: str,
  billingFromCode: str,
  billingToCode: str,
});

export type InvoiceValidationContext = {
  /** Today in India (YYYY-MM-DD), from the command's time. */
  today: string;
  /** Active HSN codes; defaults to the reference data. */
  activeHsnCodes?: ReadonlySet<string>;
};

type Errors = Record<string, string>;

function textProblem(value: string, requiredMessage: string): string | null {
  if (value === '') return requiredMessage;
  const parsed = safeText().safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? m.invalid);
}

function amountProblem(value: string): string | null {
  return AMOUNT_PATTERN.test(value) ? null : m.amount;
}

function dateProblem(value: string, today: string): string | null {
  if (value === '') return m.invoiceDateRequired;
  if (!commonFields.date.safeParse(value).success) return m.invoiceDateRequired;
  return value > today || value < dateWindowStart(today) ? m.invoiceDateWindow : null;
}

function hsnProblem(value: string, active: ReadonlySet<string>): string | null {
  return HSN_PATTERN.test(value) && active.has(value) ? null : m.hsn;
}

/**
 * The §5 rules. `mode: 'draft'` needs only the invoice number and the billing-from code; what else is filled in
 * must already be well formed (so a draft never stores "12.345"). `mode: 'submit'` needs everything.
 */
export function invoiceFieldErrors(f: InvoiceFields, ctx: InvoiceValidationContext, mode: 'draft' | 'submit'): Errors {
  const errors: Errors = {};
  const active = ctx.activeHsnCodes ?? ACTIVE_HSN_CODES;
  const full = mode === 'submit';
  const put = (field: keyof InvoiceFields, problem: string | null) => {
    if (problem) errors[field] = problem;
  };
  put('invoiceNumber', textProblem(f.invoiceNumber, m.invoiceNumberRequired));
  if (f.billingFromCode === '') errors.billingFromCode = m.billingFromRequired;
  if (full || f.invoiceDate !== '') put('invoiceDate', dateProblem(f.invoiceDate, ctx.today));
  if (full || f.taxableAmount !== '') {
    if (f.taxableAmount === '' || !AMOUNT_PATTERN.test(f.taxableAmount)) errors.taxableAmount = m.amount;
    else if (toPaise(f.taxableAmount) === 0) errors.taxableAmount = m.taxableZero;
  }
  for (const tax of ['cgst', 'sgst', 'igst', 'td'] as const) put(tax, amountProblem(f[tax]));
  if (full || f.hsnCode !== '') put('hsnCode', hsnProblem(f.hsnCode, active));
  if (full || f.comments !== '') put('comments', textProblem(f.comments, m.commentsRequired));
  if (full && f.submitToUserId === '') errors.submitToUserId = m.submitToRequired;
  if (full && f.billingToCode === '') errors.billingToCode = m.billingToRequired;
  // TD larger than the invoice would make the net payable negative.
  if (!errors.taxableAmount && !errors.cgst && !errors.sgst && !errors.igst && !errors.td && f.taxableAmount !== '') {
    if (invoiceTotals(f).netPayable.startsWith('-')) errors.td = m.amount;
  }
  return errors;
}

/** Parses an unknown body; errors keyed by field when the shape itself is wrong. */
export function parseInvoiceFields(body: unknown): { fields: InvoiceFields } | { errors: Errors } {
  const parsed = invoiceFieldsInput.safeParse(body ?? {});
  return parsed.success ? { fields: parsed.data } : { errors: fieldErrors(parsed.error) };
}
