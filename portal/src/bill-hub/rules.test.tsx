import { dateWindowStart } from '../../../domain/src/validation/date-window';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { messages } from '../../../domain/src/validation/fields';
import { memoPdfName } from './api';
import { attachmentProblem, MAX_INVOICE_FILE_BYTES } from './attachments';
import { memoTotals } from './CreateMemoPage';
import { emptyFields, invoiceMessages, invoiceProblems, toPayload, totalsOf } from './invoiceValidation';
import { sumAmounts } from './money';
import { billHubTexts } from './texts';
import { invoiceRow } from './testing';
import type { InvoiceFields } from './types';

const TODAY = '2026-11-26';
const HSN = ['9965', '996511'];
const valid: InvoiceFields = {
  invoiceNumber: 'INV-001',
  invoiceDate: TODAY,
  taxableAmount: '10000',
  cgst: '900.50',
  sgst: '900.5',
  igst: '',
  td: '0',
  hsnCode: '996511',
  comments: 'November trips',
  submitToUserId: 'u-com',
  billingFromCode: '100045',
  billingToCode: 'CHK',
};
const submitProblems = (over: Partial<InvoiceFields>) =>
  invoiceProblems({ ...valid, ...over }, { mode: 'submit', today: TODAY, hsnCodes: HSN });

describe('invoice rules (spec 001 §5, contract messages)', () => {
  it('accepts a complete invoice', () => {
    expect(submitProblems({})).toEqual({});
  });

  it('requires everything on submit, with the domain messages', () => {
    expect(invoiceProblems(emptyFields(), { mode: 'submit', today: TODAY })).toEqual({
      invoiceNumber: invoiceMessages.invoiceNumberRequired,
      billingFromCode: invoiceMessages.billingFromRequired,
      comments: invoiceMessages.commentsRequired,
      hsnCode: 'Please enter a valid HSN code',
      taxableAmount: 'Please enter a valid amount',
      invoiceDate: 'Invoice date is required',
      submitToUserId: invoiceMessages.submitToRequired,
      billingToCode: invoiceMessages.billingToRequired,
    });
  });

  it('a draft needs only the invoice number and the billing-from code, but refuses malformed filled fields', () => {
    expect(invoiceProblems({ ...emptyFields(), invoiceNumber: 'INV-1', billingFromCode: '100045' }, { mode: 'draft', today: TODAY })).toEqual({});
    expect(
      invoiceProblems({ ...emptyFields(), invoiceNumber: 'INV-1', billingFromCode: '100045', cgst: '1.234' }, { mode: 'draft', today: TODAY }),
    ).toEqual({ cgst: invoiceMessages.amount });
  });

  it('taxable amount: non-zero and the amount pattern', () => {
    expect(submitProblems({ taxableAmount: '0' }).taxableAmount).toBe('Taxable amount must be greater than zero');
    expect(submitProblems({ taxableAmount: '0.00' }).taxableAmount).toBe(invoiceMessages.taxableZero);
    expect(submitProblems({ taxableAmount: '12.345' }).taxableAmount).toBe('Please enter a valid amount');
    expect(submitProblems({ taxableAmount: '-5' }).taxableAmount).toBe(invoiceMessages.amount);
  });

  it('taxes and TD: empty or zero or the amount pattern', () => {
    expect(submitProblems({ cgst: '', sgst: '0', igst: '18.5', td: '100.25' })).toEqual({});
    expect(submitProblems({ igst: 'abc', td: '1e3' })).toEqual({ igst: invoiceMessages.amount, td: invoiceMessages.amount });
  });

  it('HSN code: 4, 6 or 8 digits and an active code of the master', () => {
    expect(submitProblems({ hsnCode: '99651' }).hsnCode).toBe('Please enter a valid HSN code');
    expect(submitProblems({ hsnCode: '996799' }).hsnCode).toBe(invoiceMessages.hsn);
    expect(submitProblems({ hsnCode: '9965' })).toEqual({});
  });

  it('invoice number and comments: the safe-text rule and 260 characters', () => {
    expect(submitProblems({ invoiceNumber: '=SUM(A1)' }).invoiceNumber).toBe(messages.leadingCharacter);
    expect(submitProblems({ comments: "'quoted" }).comments).toBe(messages.leadingCharacter);
    expect(submitProblems({ comments: 'x'.repeat(261) }).comments).toBe(messages.tooLong);
    expect(submitProblems({ comments: 'x'.repeat(260) })).toEqual({});
  });

  it('invoice date: within the last 61 days and not in the future', () => {
    const first = dateWindowStart(TODAY);
    expect(submitProblems({ invoiceDate: first })).toEqual({});
    expect(submitProblems({ invoiceDate: '2026-09-25' }).invoiceDate).toBe('Invoice date must be within the last 61 days');
    expect(submitProblems({ invoiceDate: '2026-11-27' }).invoiceDate).toBe('Invoice date must be within the last 61 days');
  });

  it("today is India's date whatever the browser's zone", () => {
    expect(indiaDateAt('2026-11-25T19:00:00.000Z')).toBe('2026-11-26');
    expect(indiaDateAt('2026-11-25T18:00:00.000Z')).toBe('2026-11-25');
  });

  it('sends trimmed fields with empty taxes as "0"', () => {
    expect(toPayload({ ...valid, invoiceNumber: ' INV-001 ', igst: '' })).toMatchObject({ invoiceNumber: 'INV-001', igst: '0', cgst: '900.50' });
  });

  it('totals: taxable + taxes, net = total − TD, exact in paise', () => {
    expect(totalsOf({ taxableAmount: '0.10', cgst: '0.20', sgst: '', igst: '', td: '0.05' })).toEqual({ total: '0.30', net: '0.25' });
    expect(totalsOf({ ...valid, td: '100' })).toEqual({ total: '11801.00', net: '11701.00' });
    expect(totalsOf({ ...valid, cgst: 'x' })).toBeNull();
    expect(sumAmounts(['1.5', '2.25', null])).toBe('3.75');
  });
});

describe('attachment checks', () => {
  it('refuses other types with the spec text, a sixth file, and files over 5 MB', () => {
    expect(attachmentProblem({ name: 'bill.exe', size: 10 }, 0)).toBe('Invalid file type selected.');
    expect(attachmentProblem({ name: 'bill', size: 10 }, 0)).toBe(billHubTexts.invalidFileType);
    expect(attachmentProblem({ name: 'bill.pdf', size: 10 }, 5)).toBe('You can attach up to 5 files');
    expect(attachmentProblem({ name: 'bill.pdf', size: MAX_INVOICE_FILE_BYTES + 1 }, 0)).toBe('The file is too large. The maximum size is 5 MB.');
  });

  it('takes every listed extension, in any case, up to 5 MB', () => {
    for (const name of ['a.jpg', 'a.JPEG', 'a.png', 'a.bmp', 'a.tiff', 'a.pdf', 'a.xls', 'a.xlsx', 'a.csv', 'a.doc', 'a.docx'])
      expect(attachmentProblem({ name, size: MAX_INVOICE_FILE_BYTES }, 4)).toBeNull();
  });
});

describe('memo helpers', () => {
  it('sums the chosen invoices', () => {
    const rows = [invoiceRow({ id: 'a', invoiceNumber: 'A' }), invoiceRow({ id: 'b', invoiceNumber: 'B', taxableAmount: '500.50', cgst: '0', sgst: '0', td: '0' })];
    expect(memoTotals(rows)).toEqual({
      taxableAmount: '10500.50',
      cgst: '900.00',
      sgst: '900.00',
      igst: '0.00',
      td: '100.00',
      totalAmount: '12300.50',
      netPayable: '12200.50',
    });
  });

  it('names the PDF after the memo number with "/" as "-"', () => {
    expect(memoPdfName('MEMO/1000/2026-27/000001')).toBe('Memo-MEMO-1000-2026-27-000001.pdf');
  });
});
