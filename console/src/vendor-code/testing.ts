import type { BlockRow, VendorCodeCounts, VendorCodeRow } from './types';
import { fakeDataProvider, type FakeData, type FakeDataProvider } from '../testing/fakes';

/**
 * Test doubles of the SAP area's UI tests: rows in the contract's shapes, the console's fake data provider
 * answering the area's simple-rest resources and masters, and a fetch stub that can answer files (blob()).
 */
export function vendorCodeRow(over: Partial<VendorCodeRow> = {}): VendorCodeRow {
  return {
    id: 'ba-1:1000',
    baId: 'ba-1',
    companyCode: '1000',
    companyName: 'Sharma Roadways Pvt Ltd',
    panNumber: 'ABCDE1234F',
    status: 'not-requested',
    parentCode: null,
    childCodes: [],
    vendorCategory: null,
    vendorCategoryStatus: 'none',
    vendorCategorySetBy: null,
    reconAccount: null,
    withholdingTax: null,
    waitingForErp: false,
    lastErpError: null,
    rejection: null,
    blocked: false,
    requestedAt: null,
    updatedAt: '2026-11-20T06:30:00.000Z',
    ...over,
  };
}

export function blockRow(over: Partial<BlockRow> = {}): BlockRow {
  return {
    id: 'blk-1',
    action: 'block',
    baId: 'ba-1',
    companyName: 'Sharma Roadways Pvt Ltd',
    pan: 'ABCDE1234F',
    scope: 'parent',
    companyCode: '1000',
    vendorCode: '1000000001',
    reasonId: '1',
    reason: 'Fraud suspected',
    comments: 'Duplicate invoices',
    fileName: 'evidence.pdf',
    fileType: 'application/pdf',
    endDate: null,
    status: 'pending',
    requestedBy: { userId: 'user-other', name: 'Anil Accounts', role: 'MLL Accounts' },
    requestedAt: '2026-11-20T06:30:00.000Z',
    decidedBy: null,
    decidedAt: null,
    remarks: null,
    waitingForErp: false,
    lastErpError: null,
    erpMessage: null,
    appliedAt: null,
    endedAt: null,
    updatedAt: '2026-11-20T06:30:00.000Z',
    ...over,
  };
}

export const sapCounts = (over: Partial<VendorCodeCounts> = {}): VendorCodeCounts => ({
  all: 12,
  requested: 3,
  verificationPending: 2,
  verified: 4,
  processed: 5,
  nucleusVendor: 7,
  ...over,
});

/** The masters the SAP dialogs offer. */
export const SAP_MASTERS: Record<string, { id: number; [k: string]: unknown }[]> = {
  'block-reasons': [
    { id: 1, reason: 'Fraud suspected', status: 'active' },
    { id: 2, reason: 'Contract ended', status: 'active' },
  ],
  'erp-reject-reasons': [{ id: 1, reason: 'PAN mismatch', status: 'active' }],
  'payment-terms': [
    { id: 3, paymentTermCode: 'NT30', description: 'Net 30 days', status: 'active' },
    { id: 4, paymentTermCode: 'NT45', description: 'Net 45 days', status: 'active' },
  ],
  'vendor-types': [{ id: 5, type: 'Transporter', status: 'active' }],
  'vendor-recon-accounts': [{ id: 6, accountCode: '2110001', description: 'Domestic vendors', status: 'active' }],
  'tax-types': [{ id: 7, taxType: 'TDS', taxCode: 'C1', taxName: '194C', status: 'active' }],
};

/** The console's fake provider, also answering `resources` (vendor-codes, blocks, nucleus-vendors, masters). */
export function sapDataProvider(resources: Record<string, { id: unknown }[]> = {}, data: FakeData = {}): FakeDataProvider {
  const dp = fakeDataProvider(data);
  const base = dp.getList.getMockImplementation()!;
  const all: Record<string, { id: unknown }[]> = { ...SAP_MASTERS, ...resources };
  dp.getList.mockImplementation(async (resource: string, params: unknown) => {
    const rows = all[resource];
    return rows ? { data: rows, total: rows.length } : base(resource, params);
  });
  return dp;
}

export type StubReply = { status?: number; body?: unknown; blob?: Blob; headers?: Record<string, string> };
export type StubRoute = (url: URL, init: RequestInit & { headers: Headers; method: string }) => StubReply | undefined;

/** A fetch for jsdom answering JSON or files (blob()), 404 for anything the route does not know. */
export function stubFetch(route: StubRoute) {
  const mock = jest.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://console.test');
    const headers = new Headers(init.headers ?? undefined);
    const reply = route(url, { ...init, headers, method: init.method ?? 'GET' }) ?? {
      status: 404,
      body: { message: 'Not found' },
    };
    const status = reply.status ?? 200;
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    const blob = reply.blob ?? new Blob([text], { type: 'application/json' });
    return {
      status,
      statusText: String(status),
      ok: status >= 200 && status < 300,
      headers: new Headers(reply.headers ?? {}),
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
      blob: async () => blob,
    };
  });
  (globalThis as { fetch?: unknown }).fetch = mock;
  return mock;
}

/** Records what saveBlob saved (file names), without a real download. */
export function captureDownloads(): string[] {
  const names: string[] = [];
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:sap'), revokeObjectURL: jest.fn() });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}

export const xlsx = (name: string) =>
  new File([new Uint8Array([0x50, 0x4b, 3, 4])], name, {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
