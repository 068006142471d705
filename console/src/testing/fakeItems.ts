import type { ActivityEntry } from '../shared/types';
import type {
  BankAccountRow,
  BaItemRows,
  ConcessionRow,
  DocumentRow,
  VerticalMappingRow,
} from '../onboarding/items/types';

/**
 * Test doubles for the BA page's item reads and commands (issue 8): rows as the API answers them and jest
 * mocks for the ItemDataProvider methods, spread into fakeDataProvider.
 */
export type FakeItems = Partial<BaItemRows>;

export const bankAccount = (over: Partial<BankAccountRow> = {}): BankAccountRow => ({
  id: 'acc-1',
  baId: 'ba-1',
  primary: true,
  accountNo: '123456789012',
  ifscCode: 'HDFC0000123',
  micrNo: null,
  accountName: 'Sharma Roadways Pvt Ltd',
  bankName: 'HDFC Bank',
  bankBranch: 'Fort, Mumbai',
  reviewStatus: 'pending',
  reviewRemarks: null,
  reviewedBy: null,
  reviewedAt: null,
  createdAt: '2025-11-02T09:00:00.000Z',
  updatedAt: '2025-11-02T09:00:00.000Z',
  ...over,
});

export const document = (over: Partial<DocumentRow> = {}): DocumentRow => ({
  id: 'doc-1',
  baId: 'ba-1',
  kind: 'onboarding',
  documentTypeId: 1,
  documentTypeName: 'PAN Card',
  documentNumber: 'ABCDE1234F',
  validTill: null,
  stateId: null,
  stateName: null,
  fileName: 'pan.pdf',
  fileSize: 1024,
  fileType: 'application/pdf',
  reviewStatus: 'pending',
  reviewRemarks: null,
  reviewedBy: null,
  approvedTill: null,
  reviewedAt: null,
  expired: false,
  uploadedAt: '2025-11-02T09:00:00.000Z',
  uploadedBy: null,
  replaces: null,
  ...over,
});

export const concession = (over: Partial<ConcessionRow> = {}): ConcessionRow => ({
  id: 'con-1',
  baId: 'ba-1',
  exemptionNumber: 'LDC-2025-001',
  exemptionRate: '1',
  exemptionFrom: '2025-04-01',
  exemptionTo: '2026-03-31',
  exemptionReasonId: 1,
  exemptionReason: 'Lower or nil deduction certificate under section 197',
  exemptionThreshold: '500000',
  withHoldingTaxType: 'C1',
  withHoldingTaxCode: 'C1',
  sectionCode: '194C',
  fileName: 'ldc.pdf',
  isInternalUpload: false,
  reviewStatus: 'pending',
  reviewRemarks: null,
  reviewedBy: null,
  reviewedAt: null,
  createdAt: '2025-11-02T09:00:00.000Z',
  updatedAt: '2025-11-02T09:00:00.000Z',
  ...over,
});

export const verticalMapping = (over: Partial<VerticalMappingRow> = {}): VerticalMappingRow => ({
  baId: 'ba-1',
  verticalIds: [1],
  subServiceIds: [],
  vehicleTypeIds: [],
  zoneIds: [4],
  pickupZoneIds: [],
  deliveryZoneIds: [],
  reviewStatus: 'approved',
  reviewRemarks: null,
  reviewedBy: null,
  reviewedAt: null,
  updatedAt: '2025-11-02T09:00:00.000Z',
  ...over,
});

/** Every item read approved (so stage 1 may be approved) unless a test says otherwise. */
const DEFAULT_ITEMS: BaItemRows = {
  'bank-accounts': [],
  'gst-registrations': [],
  documents: [],
  concessions: [],
  'vertical-mapping': null,
  'change-requests': [],
  'company-codes': [],
  duplicates: [],
};

export function fakeItemMethods(items: FakeItems = {}, log: ActivityEntry[] = []) {
  const rows: BaItemRows = { ...DEFAULT_ITEMS, ...items };
  return {
    getBaItems: jest.fn(async (_baId: unknown, path: keyof BaItemRows) => rows[path]),
    baCommand: jest.fn(async (_baId: unknown, path: string) => ({ id: path })),
    baUpload: jest.fn(async (_baId: unknown, path: string) => ({ id: path })),
    getBaFile: jest.fn(async () => new Blob(['%PDF-1.4'], { type: 'application/pdf' })),
    getActivityLogPage: jest.fn(async (_baId: unknown, { page, perPage }: { page: number; perPage: number }) => ({
      data: [...log].reverse().slice(page * perPage, page * perPage + perPage),
      total: log.length,
    })),
  };
}
