import type { StoredEvent } from '../../../domain/src/shared/events';
import { decimalOf, foldInvoice, paiseOf, type InvoiceDbRow } from './invoice-fold';
import { invoiceFields } from './test-events';

let version = -1;
const stored = (type: string, data: Record<string, unknown>): StoredEvent => {
  version += 1;
  return {
    eventId: `e-${version}`,
    type,
    data: { invoiceId: 'i-1', baId: 'ba-1', ...data },
    metadata: { actor: { userId: 'u', role: 'BA Admin' }, companyCode: '1000', correlationId: 'c', causationId: null, workflowId: null, requestId: null, at: `2026-11-15T10:0${version}:00.000Z` },
    streamId: 'invoice-i-1',
    version,
    globalPosition: 100 + version,
    recordedAt: '2026-11-15T10:00:00.000Z',
    prevHash: '',
    hash: '',
  };
};

describe('amounts in paise', () => {
  it('reads decimal text exactly and writes it back with two decimals', () => {
    expect(paiseOf('12500')).toBe(1_250_000n);
    expect(paiseOf('0.1')).toBe(10n);
    expect(paiseOf(' 90.09 ')).toBe(9009n);
    expect(paiseOf('9999999999999.99')).toBe(999_999_999_999_999n);
    for (const bad of ['', '-1', '1.234', '1e3', 'abc', null, 12]) expect(paiseOf(bad)).toBeNull();
    expect(decimalOf(1_180_000n)).toBe('11800.00');
    expect(decimalOf(5n)).toBe('0.05');
    expect(decimalOf(-250n)).toBe('-2.50');
  });
});

describe('folding an invoice', () => {
  it('totals exactly, keeps gaps of a draft, and ignores what it already holds', () => {
    version = -1;
    const drafted = foldInvoice(null, stored('InvoiceDrafted', { companyCode: '1000', fields: invoiceFields({ taxableAmount: '', cgst: '0.10', sgst: '0.20', igst: '', td: '' }) }));
    expect(drafted).toMatchObject({ status: 'draft', taxable_amount: null, total_amount: '0.30', net_payable: '0.30', stream_version: 0, global_position: 100 });
    const saved = foldInvoice(drafted, stored('InvoiceDraftSaved', { companyCode: '1000', fields: invoiceFields({ taxableAmount: '0.1', cgst: '0.2', sgst: '', igst: '', td: '0.05' }) })) as InvoiceDbRow;
    expect(saved).toMatchObject({ taxable_amount: '0.10', cgst: '0.20', sgst: '0.00', total_amount: '0.30', net_payable: '0.25', stream_version: 1 });
    // Replayed: the same object back, nothing written.
    expect(foldInvoice(saved, { ...stored('InvoiceDiscarded', {}), version: 1 })).toBe(saved);
    expect(foldInvoice(saved, stored('SomethingElse', {}))).toBe(saved);
    expect(foldInvoice(null, stored('InvoiceAcknowledged', {}))).toBeNull();
  });
});
