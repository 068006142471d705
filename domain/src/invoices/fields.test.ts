import { EMPTY_INVOICE_FIELDS, financialYearOf, fromPaise, invoiceFieldErrors, invoiceTotals, parseInvoiceFields, toPaise } from './fields';
import type { InvoiceFields } from './events';

const today = '2026-06-30';
const valid: InvoiceFields = {
  ...EMPTY_INVOICE_FIELDS,
  invoiceNumber: 'INV-001',
  invoiceDate: '2026-06-01',
  taxableAmount: '12500.00',
  cgst: '312.50',
  sgst: '312.50',
  hsnCode: '996511',
  comments: 'June trips',
  submitToUserId: 'u-commercial',
  billingFromCode: '200001',
  billingToCode: 'CHK',
};
const errorsOf = (patch: Partial<InvoiceFields>, mode: 'draft' | 'submit' = 'submit') => invoiceFieldErrors({ ...valid, ...patch }, { today }, mode);

describe('financialYearOf', () => {
  it.each([
    ['2026-03-31', '2025-26'],
    ['2026-04-01', '2026-27'],
    ['2026-12-31', '2026-27'],
    ['2027-01-01', '2026-27'],
    ['2099-04-01', '2099-00'],
  ])('%s is in %s', (date, fy) => expect(financialYearOf(date)).toBe(fy));
});

describe('amounts in paise', () => {
  it.each([
    ['0', 0],
    ['0.1', 10],
    ['12500.00', 1250000],
    ['1.05', 105],
  ])('%s = %i paise', (v, p) => expect(toPaise(v)).toBe(p));
  it('adds exactly and formats two decimals', () => {
    expect(invoiceTotals({ taxableAmount: '0.1', cgst: '0.2', sgst: '0', igst: '0', td: '0.05' })).toEqual({ totalAmount: '0.30', netPayable: '0.25' });
    expect(fromPaise(-5)).toBe('-0.05');
  });
  it('refuses a non-amount', () => expect(() => toPaise('1.234')).toThrow());
});

describe('invoice field rules (spec 001 §5)', () => {
  it('accepts a complete invoice', () => expect(errorsOf({})).toEqual({}));
  it.each<[Partial<InvoiceFields>, string, string]>([
    [{ invoiceNumber: '' }, 'invoiceNumber', 'Please enter the invoice number'],
    [{ invoiceNumber: '=SUM(A1)' }, 'invoiceNumber', "Text must not start with - = @ # & ^ + | % < ' \" or a tab or line break"],
    [{ invoiceNumber: 'x'.repeat(261) }, 'invoiceNumber', 'Maximum 260 characters allowed'],
    [{ comments: '' }, 'comments', 'Please enter comments'],
    [{ comments: '@cmd' }, 'comments', "Text must not start with - = @ # & ^ + | % < ' \" or a tab or line break"],
    [{ hsnCode: '' }, 'hsnCode', 'Please enter a valid HSN code'],
    [{ hsnCode: '99651' }, 'hsnCode', 'Please enter a valid HSN code'],
    [{ hsnCode: '1234' }, 'hsnCode', 'Please enter a valid HSN code'],
    [{ hsnCode: '99651100' }, 'hsnCode', 'Please enter a valid HSN code'],
    [{ taxableAmount: '' }, 'taxableAmount', 'Please enter a valid amount'],
    [{ taxableAmount: '0.00' }, 'taxableAmount', 'Taxable amount must be greater than zero'],
    [{ taxableAmount: '12.345' }, 'taxableAmount', 'Please enter a valid amount'],
    [{ taxableAmount: '-5' }, 'taxableAmount', 'Please enter a valid amount'],
    [{ cgst: '1e3' }, 'cgst', 'Please enter a valid amount'],
    [{ igst: '.5' }, 'igst', 'Please enter a valid amount'],
    [{ td: '99999999' }, 'td', 'Please enter a valid amount'],
    [{ invoiceDate: '' }, 'invoiceDate', 'Invoice date is required'],
    [{ invoiceDate: '2026-02-30' }, 'invoiceDate', 'Invoice date is required'],
    [{ invoiceDate: '2026-07-01' }, 'invoiceDate', 'Invoice date must be within the last 61 days'],
    [{ invoiceDate: '2026-04-29' }, 'invoiceDate', 'Invoice date must be within the last 61 days'],
    [{ submitToUserId: '' }, 'submitToUserId', 'Please select whom to submit to'],
    [{ billingFromCode: '' }, 'billingFromCode', 'Please select the billing from vendor code'],
    [{ billingToCode: '' }, 'billingToCode', 'Please select the billing to location'],
  ])('%j → %s: %s', (patch, field, message) => expect(errorsOf(patch)[field]).toBe(message));

  it.each(['9965', '996511', '9967', '998540'])('HSN %s of the master is valid', (hsnCode) => expect(errorsOf({ hsnCode })).toEqual({}));
  it('the window edges: today and today − 61 days are inside', () => {
    expect(errorsOf({ invoiceDate: today })).toEqual({});
    expect(errorsOf({ invoiceDate: '2026-04-30' })).toEqual({});
  });
  it('a draft needs only the number and the billing-from code, but what is filled must be well formed', () => {
    expect(invoiceFieldErrors({ ...EMPTY_INVOICE_FIELDS, invoiceNumber: 'A1', billingFromCode: '200001' }, { today }, 'draft')).toEqual({});
    expect(invoiceFieldErrors({ ...EMPTY_INVOICE_FIELDS, invoiceNumber: 'A1', billingFromCode: '200001', taxableAmount: '1.234' }, { today }, 'draft')).toEqual({
      taxableAmount: 'Please enter a valid amount',
    });
  });
  it('normalises a body: missing → empty, taxes empty → 0, trimmed', () => {
    expect(parseInvoiceFields({ invoiceNumber: ' A1 ', cgst: '', taxableAmount: 100 })).toEqual({
      fields: { ...EMPTY_INVOICE_FIELDS, invoiceNumber: 'A1', taxableAmount: '100' },
    });
  });
});
