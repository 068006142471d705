import PDFDocument from 'pdfkit';
import { COMPANIES } from '../../../domain/src/masters/reference-data/companies';
import { formatDate } from '../../../domain/src/shared/format';
import type { MemoDetail } from '../../../projections/src/memos/memos.queries';

/**
 * The printable memo (A4) the BA sends with its invoices and staff download: company header, memo number and
 * date, the BA, from/to state, the invoices, totals, advances and the balance.
 *
 * pdfkit's standard fonts (Helvetica) have no "₹" glyph and embedding a font file for one symbol is not worth
 * it: amounts are written "Rs. 1,23,456.00" (Indian digit grouping), which every reader of a memo knows.
 */
export const memoPdfFilename = (memoNumber: string): string => `Memo-${memoNumber.replace(/\//g, '-')}.pdf`;

/** "123456.5" → "Rs. 1,23,456.50" (en-IN grouping, always two decimals). */
export function rupees(amount: string | null | undefined): string {
  const n = Number(amount ?? 0);
  const text = (Number.isFinite(n) ? n : 0).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `Rs. ${text}`;
}
const plain = (amount: string): string => rupees(amount).slice(4);

type Column = { title: string; width: number; align: 'left' | 'right'; value: (i: MemoDetail['invoices'][number]) => string };
const COLUMNS: Column[] = [
  { title: 'Invoice No.', width: 78, align: 'left', value: (i) => i.invoiceNumber },
  { title: 'Date', width: 52, align: 'left', value: (i) => (i.invoiceDate ? formatDate(i.invoiceDate) : '') },
  { title: 'HSN', width: 40, align: 'left', value: (i) => i.hsnCode },
  { title: 'Taxable', width: 58, align: 'right', value: (i) => plain(i.taxableAmount) },
  { title: 'CGST', width: 46, align: 'right', value: (i) => plain(i.cgst) },
  { title: 'SGST', width: 46, align: 'right', value: (i) => plain(i.sgst) },
  { title: 'IGST', width: 46, align: 'right', value: (i) => plain(i.igst) },
  { title: 'TD', width: 40, align: 'right', value: (i) => plain(i.td) },
  { title: 'Total', width: 63, align: 'right', value: (i) => plain(i.totalAmount) },
];

/** The memo as PDF bytes. `compress: false` keeps the text readable in tests. */
export async function renderMemoPdf(memo: MemoDetail, options: { compress?: boolean; baCode?: string | null } = {}): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, compress: options.compress ?? true, info: { Title: `Memo ${memo.memoNumber}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const company = COMPANIES.find((c) => c.companyCode === memo.companyCode)?.name ?? `Company ${memo.companyCode}`;

  doc.font('Helvetica-Bold').fontSize(16).text(company, { align: 'center' });
  doc.font('Helvetica').fontSize(10).text(`Company code ${memo.companyCode}`, { align: 'center' });
  doc.moveDown(0.5).font('Helvetica-Bold').fontSize(13).text('Invoice Memo', { align: 'center' });
  doc.moveDown();

  const baCode = options.baCode ?? memo.invoices.find((i) => i.baCode)?.baCode ?? null;
  const line = (label: string, value: string) => doc.font('Helvetica-Bold').fontSize(10).text(`${label}: `, { continued: true }).font('Helvetica').text(value);
  line('Memo number', memo.memoNumber);
  line('Memo date', formatDate(memo.submittedAt));
  line('Financial year', memo.financialYear);
  line('Business associate', `${memo.baName ?? memo.baId}${baCode ? ` (${baCode})` : ''}`);
  line('From state', memo.fromStateName ?? String(memo.fromStateId ?? ''));
  line('To state', memo.toStateName ?? String(memo.toStateId ?? ''));
  if (memo.comments) line('Comments', memo.comments);
  doc.moveDown();

  // The invoice table: header, one row per invoice, a totals row. Amounts in rupees (Rs.).
  // The columns' widths stretched to the page's text width.
  const scale = width / COLUMNS.reduce((sum, c) => sum + c.width, 0);
  const row = (values: string[], bold: boolean) => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    const y = doc.y;
    let x = left;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    let height = 0;
    COLUMNS.forEach((c, index) => {
      const text = values[index] ?? '';
      const w = c.width * scale;
      doc.text(text, x + 2, y, { width: w - 4, align: c.align });
      height = Math.max(height, doc.heightOfString(text, { width: w - 4 }));
      x += w;
    });
    doc.y = y + height + 4;
    doc.moveTo(left, doc.y - 2).lineTo(left + width, doc.y - 2).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.x = left;
  };
  row(COLUMNS.map((c) => c.title), true);
  for (const invoice of memo.invoices) row(COLUMNS.map((c) => c.value(invoice)), false);
  row(['Total', '', '', plain(memo.taxableAmount), plain(memo.cgst), plain(memo.sgst), plain(memo.igst), plain(memo.td), plain(memo.totalAmount)], true);
  doc.font('Helvetica').fontSize(8).text('Amounts in Indian rupees (Rs.).', left, doc.y + 2);
  doc.moveDown();

  doc.x = left;
  line('Total amount', rupees(memo.totalAmount));
  line('TD', rupees(memo.td));
  line('Net payable', rupees(memo.netPayable));
  if (memo.advances.length > 0) {
    doc.moveDown(0.5).font('Helvetica-Bold').fontSize(10).text('Advance payments');
    for (const a of memo.advances) {
      doc.font('Helvetica').fontSize(9).text(`${formatDate(a.paidOn)}  ${a.reference}  ${rupees(a.amount)}`);
    }
  }
  line('Advance paid', rupees(memo.advanceAmount));
  line('Balance', rupees(memo.balance));
  doc.moveDown(2).font('Helvetica').fontSize(8).fillColor('#555555').text(`Submitted by ${memo.submittedBy.name ?? memo.submittedBy.userId} on ${formatDate(memo.submittedAt)}.`);
  doc.end();
  return done;
}
