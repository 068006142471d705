import type { ChildCodeStatus, VendorCodeCounts, VendorCodeRow, VendorCodeStatus } from './types';

/** The SAP dashboard's tabs (spec 000 §2 "ERP (SAP) routes" :type), in the spec's order, with their count keys. */
export type SapTabType = 'all' | 'requested' | 'verification-pending' | 'verified' | 'processed' | 'nucleus-vendor';

export type SapTab = { type: SapTabType; label: string; countKey: keyof VendorCodeCounts };

export const SAP_TABS: readonly SapTab[] = [
  { type: 'all', label: 'All BA', countKey: 'all' },
  { type: 'requested', label: 'Requested BA', countKey: 'requested' },
  { type: 'verification-pending', label: 'SAP Verification Pending', countKey: 'verificationPending' },
  { type: 'verified', label: 'SAP Verified', countKey: 'verified' },
  { type: 'processed', label: 'SAP Code Created', countKey: 'processed' },
  { type: 'nucleus-vendor', label: 'Nucleus Vendor Codes', countKey: 'nucleusVendor' },
];

export const isSapTab = (value: string | undefined): value is SapTabType =>
  SAP_TABS.some((t) => t.type === value);

export const VENDOR_CODE_STATUS_LABELS: Record<VendorCodeStatus, string> = {
  'not-requested': 'Not requested',
  requested: 'Requested',
  'verification-pending': 'Verification pending',
  verified: 'Verified',
  processed: 'Processed',
  rejected: 'Rejected',
};

export const VENDOR_CODE_STATUS_COLORS: Record<VendorCodeStatus, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  'not-requested': 'default',
  requested: 'info',
  'verification-pending': 'warning',
  verified: 'info',
  processed: 'success',
  rejected: 'error',
};

export const CHILD_STATUS_LABELS: Record<ChildCodeStatus, string> = {
  'not-requested': 'Not requested',
  requested: 'Requested',
  created: 'Created',
  refused: 'Refused by ERP',
};

export const CATEGORY_STATUS_LABELS: Record<VendorCodeRow['vendorCategoryStatus'], string> = {
  none: 'Not set',
  pending: 'Awaiting approval',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** "2 of 3" child codes created. */
export function childSummary(row: Pick<VendorCodeRow, 'childCodes'>): string {
  const total = row.childCodes.length;
  if (total === 0) return '—';
  const created = row.childCodes.filter((c) => c.childCode).length;
  return `${created} of ${total}`;
}
