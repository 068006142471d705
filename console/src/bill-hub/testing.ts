import { sapDataProvider } from '../vendor-code/testing';
import type { FakeDataProvider } from '../testing/fakes';
import type { InvoiceDetail, InvoiceRow, MemoDetail, MemoRow } from './types';

/** Test doubles of the Bill-Hub UI tests: the API's rows in the contract's shapes and a fake data provider. */
export function invoiceRow(over: Partial<InvoiceDetail> = {}): InvoiceDetail {
  return {
    id: 'inv-1',
    baId: 'ba-1',
    baName: 'Sharma Roadways Pvt Ltd',
    baCode: '1000000042',
    companyCode: '1000',
    status: 'S',
    statusLabel: 'Submitted',
    invoiceNumber: 'SR/2026/001',
    invoiceDate: '2026-11-20',
    financialYear: '2026-27',
    taxableAmount: '100000.00',
    cgst: '9000.00',
    sgst: '9000.00',
    igst: '0',
    td: '2000.00',
    totalAmount: '118000.00',
    netPayable: '116000.00',
    hsnCode: '996511',
    comments: 'Freight for November',
    submitToUserId: 'u-commercial',
    submitToName: 'Chetan Commercial',
    billingFromCode: '1000000043',
    fromStateId: 27,
    fromStateName: 'Maharashtra',
    billingToCode: 'CHK',
    billingToName: 'Chakan Plant',
    toStateId: 27,
    toStateName: 'Maharashtra',
    attachments: [{ attachmentId: 'att-1', name: 'invoice.pdf', size: 20480, type: 'application/pdf' }],
    memoId: null,
    memoNumber: null,
    remarks: null,
    erpDocumentNumber: null,
    booking: false,
    lastErpError: null,
    slaBreached: false,
    statusSince: '2026-11-21T05:00:00.000Z',
    submittedAt: '2026-11-21T05:00:00.000Z',
    releasedAt: null,
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-21T05:00:00.000Z',
    history: [
      { status: 'draft', label: 'Draft', at: '2026-11-20T09:00:00.000Z', by: { userId: 'ba-user-1', name: 'Ravi Sharma', role: 'BA Admin' }, remarks: null },
      { status: 'S', label: 'Submitted', at: '2026-11-21T05:00:00.000Z', by: { userId: 'ba-user-1', name: 'Ravi Sharma', role: 'BA Admin' }, remarks: null },
    ],
    allowedActions: [],
    ...over,
  };
}

export function memoRow(over: Partial<MemoDetail> = {}): MemoDetail {
  return {
    id: 'memo-1',
    memoNumber: 'MEMO/1000/2026-27/000001',
    baId: 'ba-1',
    baName: 'Sharma Roadways Pvt Ltd',
    companyCode: '1000',
    financialYear: '2026-27',
    fromStateId: 27,
    fromStateName: 'Maharashtra',
    toStateId: 29,
    toStateName: 'Karnataka',
    invoiceIds: ['inv-1'],
    invoiceCount: 1,
    taxableAmount: '100000.00',
    cgst: '9000.00',
    sgst: '9000.00',
    igst: '0.00',
    td: '2000.00',
    totalAmount: '118000.00',
    netPayable: '116000.00',
    advanceAmount: '16000.00',
    balance: '100000.00',
    comments: 'November memo',
    submittedAt: '2026-11-22T06:30:00.000Z',
    submittedBy: { userId: 'ba-user-1', name: 'Ravi Sharma' },
    invoices: [invoiceRow({ memoId: 'memo-1', memoNumber: 'MEMO/1000/2026-27/000001' })],
    advances: [
      { advanceId: 'adv-1', amount: '16000.00', reference: 'UTR123456', paidOn: '2026-11-23', recordedAt: '2026-11-23T10:00:00.000Z', by: { userId: 'u-acc', name: 'Anil Accounts', role: 'MLL Accounts' } },
    ],
    ...over,
  };
}

/**
 * The console's fake provider answering `invoices` and `memos` lists and getOne from the given rows. The rows
 * are read at each call, so a test can change them to mimic what the API answers after a command.
 */
export function billHubDataProvider(data: { invoices?: InvoiceRow[]; memos?: MemoRow[] } = {}): FakeDataProvider {
  const dp = sapDataProvider({ invoices: data.invoices ?? [], memos: data.memos ?? [] });
  const base = dp.getOne.getMockImplementation()!;
  dp.getOne.mockImplementation(async (resource: string, params: { id: unknown }) => {
    const rows = resource === 'invoices' ? data.invoices : resource === 'memos' ? data.memos : undefined;
    if (!rows) return base(resource, params);
    const found = rows.find((r) => r.id === params.id);
    if (!found) throw Object.assign(new Error('Not found'), { status: 404 });
    return { data: found };
  });
  return dp;
}
