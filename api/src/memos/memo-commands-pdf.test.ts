import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoDetail } from '../../../projections/src/memos/memos.queries';
import { memoPdfFilename, renderMemoPdf, rupees } from './pdf';

const invoice = (n: number) =>
  ({ id: `i${n}`, invoiceNumber: `INV/26/${n}`, invoiceDate: '2026-11-10', hsnCode: '996511', taxableAmount: '125000.00', cgst: '11250.00', sgst: '11250.00', igst: '0.00', td: '2500.00', totalAmount: '147500.00', baCode: '100234' }) as unknown as MemoDetail['invoices'][number];
const memo: MemoDetail = {
  id: 'm1',
  memoNumber: 'MEMO/1000/2026-27/000012',
  baId: 'ba-1',
  baName: 'Sharma Transport',
  companyCode: '1000',
  financialYear: '2026-27',
  fromStateId: 27,
  fromStateName: 'Maharashtra',
  toStateId: 29,
  toStateName: 'Karnataka',
  invoiceIds: ['i1', 'i2'],
  invoiceCount: 2,
  taxableAmount: '250000.00',
  cgst: '22500.00',
  sgst: '22500.00',
  igst: '0.00',
  td: '5000.00',
  totalAmount: '295000.00',
  netPayable: '290000.00',
  advanceAmount: '100000.00',
  balance: '190000.00',
  comments: null,
  submittedAt: '2026-11-20T06:00:00.000Z',
  submittedBy: { userId: 'u', name: 'Bala' },
  invoices: [invoice(1), invoice(2)],
  advances: [{ advanceId: 'a', amount: '100000.00', reference: 'UTR 998877', paidOn: '2026-11-21', by: { userId: 'x', name: 'Asha', role: 'MLL Accounts' }, recordedAt: '2026-11-21T06:00:00.000Z' }],
};

describe('memo PDF', () => {
  test('file name: the memo number with / as -', () => {
    expect(memoPdfFilename('MEMO/1000/2026-27/000012')).toBe('Memo-MEMO-1000-2026-27-000012.pdf');
  });
  test('amounts in rupees with Indian digit grouping ("Rs.", the standard fonts have no ₹)', () => {
    expect(rupees('1234567.5')).toBe('Rs. 12,34,567.50');
    expect(rupees('0')).toBe('Rs. 0.00');
  });
  test('the PDF carries header, BA, states, invoices, totals, advances and balance', async () => {
    const pdf = await renderMemoPdf(memo);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'memo-pdf-'));
    writeFileSync(join(dir, 'm.pdf'), pdf);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'm.pdf'), '-'], { encoding: 'utf8' });
    for (const expected of ['MLL Logistics', 'MEMO/1000/2026-27/000012', 'Sharma Transport (100234)', 'Maharashtra', 'Karnataka', 'INV/26/1', 'INV/26/2', '2,95,000.00', 'Rs. 2,90,000.00', 'UTR 998877', 'Rs. 1,90,000.00']) {
      expect(text).toContain(expected);
    }
  });
});
