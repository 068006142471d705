import type { ReferenceRow } from './types';

export type VendorReconAccountRow = ReferenceRow<{ accountCode: string; description: string }>;

/** Reconciliation accounts (general-ledger accounts for trade payables) a vendor's postings roll up to. */
export const VENDOR_RECON_ACCOUNTS: readonly VendorReconAccountRow[] = [
  { id: 1, accountCode: '210010', description: 'Trade payables - transporters' },
  { id: 2, accountCode: '210020', description: 'Trade payables - warehouse service providers' },
  { id: 3, accountCode: '210030', description: 'Trade payables - MSME vendors' },
  { id: 4, accountCode: '210040', description: 'Trade payables - manpower contractors' },
  { id: 5, accountCode: '210050', description: 'Trade payables - related parties' },
  { id: 6, accountCode: '210060', description: 'Trade payables - import vendors' },
  { id: 7, accountCode: '210070', description: 'Trade payables - capital goods' },
  { id: 8, accountCode: '210080', description: 'Trade payables - utilities and government' },
];
