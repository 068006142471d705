import { AMOUNT_PATTERN, EMPTY_INVOICE_FIELDS, invoiceFieldErrors, invoiceFieldsInput, invoiceTotals } from '../../../domain/src/invoices/fields';
import type { InvoiceFields } from './types';

/**
 * The client side of the spec 001 §5 invoice rules: the domain's own (domain/src/invoices/fields.ts, the same
 * function the API decides with), so the form shows per field what the server would answer. The API stays the
 * judge of what only it knows (duplicates, vendor codes, the live HSN master); its 400 `errors` land on the
 * same fields.
 */
export { invoiceMessages } from '../../../domain/src/invoices/messages';

export type InvoiceErrors = Partial<Record<keyof InvoiceFields, string>>;

/** The body sent: trimmed, empty taxes and TD as "0" (the domain's normalisation, so the BA sees what is stored). */
export const toPayload = (f: InvoiceFields): InvoiceFields => invoiceFieldsInput.parse(f);

/**
 * Problems of the form, by field. `mode: 'draft'` needs only the invoice number and the billing-from code;
 * `submit` needs everything. `hsnCodes`: the HSN master's active codes when loaded (else the reference data).
 */
export function invoiceProblems(
  f: InvoiceFields,
  { mode, today, hsnCodes }: { mode: 'draft' | 'submit'; today: string; hsnCodes?: readonly string[] },
): InvoiceErrors {
  return invoiceFieldErrors(toPayload(f), { today, ...(hsnCodes ? { activeHsnCodes: new Set(hsnCodes) } : {}) }, mode);
}

/** Total = taxable + CGST + SGST + IGST; net payable = total − TD; null while an amount is malformed. */
export function totalsOf(f: Pick<InvoiceFields, 'taxableAmount' | 'cgst' | 'sgst' | 'igst' | 'td'>): { total: string; net: string } | null {
  const amounts = [f.taxableAmount, f.cgst, f.sgst, f.igst, f.td].map((v) => (v.trim() === '' ? '0' : v.trim()));
  if (!amounts.every((v) => AMOUNT_PATTERN.test(v))) return null;
  const [taxableAmount = '0', cgst = '0', sgst = '0', igst = '0', td = '0'] = amounts;
  const { totalAmount, netPayable } = invoiceTotals({ taxableAmount, cgst, sgst, igst, td });
  return { total: totalAmount, net: netPayable };
}

/** A new invoice's form: the taxes start empty (typed in, or sent as "0"). */
export const emptyFields = (): InvoiceFields => ({ ...EMPTY_INVOICE_FIELDS, cgst: '', sgst: '', igst: '', td: '' });
