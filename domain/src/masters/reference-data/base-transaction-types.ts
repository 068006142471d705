import type { ReferenceRow } from './types';

export type BaseTransactionTypeRow = ReferenceRow<{ code: string; name: string }>;

/** The basis a BA's charge is quoted and billed on (rates in RFPs and invoices refer to it). */
export const BASE_TRANSACTION_TYPES: readonly BaseTransactionTypeRow[] = [
  { id: 1, code: 'FTL', name: 'Full truck load (per trip)' },
  { id: 2, code: 'PTL', name: 'Part truck load (per kg)' },
  { id: 3, code: 'KM', name: 'Per kilometre' },
  { id: 4, code: 'DED', name: 'Dedicated vehicle (fixed per month)' },
  { id: 5, code: 'PKG', name: 'Per package' },
  { id: 6, code: 'PLT', name: 'Per pallet' },
  { id: 7, code: 'SQFT', name: 'Per square foot per month (warehousing)' },
  { id: 8, code: 'CBM', name: 'Per cubic metre' },
  { id: 9, code: 'HR', name: 'Per hour (manpower)' },
  { id: 10, code: 'SHP', name: 'Per shipment' },
];
