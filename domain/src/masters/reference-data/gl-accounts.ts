import type { ReferenceRow } from './types';

export type GlAccountRow = ReferenceRow<{ glAccountCode: string; description: string }>;

/** General-ledger accounts vendor invoices and their taxes are posted to. */
const ACCOUNTS: readonly (readonly [string, string])[] = [
  ['410010', 'Freight outward - road'],
  ['410020', 'Freight inward - road'],
  ['410030', 'Freight - rail and coastal'],
  ['410040', 'Freight - ocean and air'],
  ['410050', 'Loading and unloading charges'],
  ['410060', 'Detention and halting charges'],
  ['410070', 'Toll charges'],
  ['410080', 'Last mile delivery charges'],
  ['420010', 'Warehouse rent'],
  ['420020', 'Warehouse handling charges'],
  ['420030', 'Packing material'],
  ['430010', 'Contract manpower charges'],
  ['440010', 'Customs clearance charges'],
  ['450010', 'Vehicle hire charges'],
  ['125010', 'Input CGST'],
  ['125020', 'Input SGST'],
  ['125030', 'Input IGST'],
  ['125040', 'Input GST under reverse charge'],
  ['225010', 'TDS payable - 194C'],
  ['225020', 'TDS payable - 194J'],
  ['225030', 'TDS payable - 194I'],
  ['225040', 'TDS payable - 194H'],
  ['225050', 'TDS payable - 194Q'],
];

export const GL_ACCOUNTS: readonly GlAccountRow[] = ACCOUNTS.map(([glAccountCode, description], i) => ({
  id: i + 1,
  glAccountCode,
  description,
}));
