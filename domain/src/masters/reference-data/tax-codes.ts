import type { ReferenceRow } from './types';

export type TaxCodeRow = ReferenceRow<{ taxCode: string; description: string; taxRate: number }>;

/** GST input tax codes: within the state CGST + SGST, across states IGST, and reverse charge (GTA). */
export const TAX_CODES: readonly TaxCodeRow[] = [
  { id: 1, taxCode: 'G0', description: 'GST exempt or nil rated', taxRate: 0 },
  { id: 2, taxCode: 'G1', description: 'GST 5% (CGST 2.5% + SGST 2.5%)', taxRate: 5 },
  { id: 3, taxCode: 'G2', description: 'GST 12% (CGST 6% + SGST 6%)', taxRate: 12 },
  { id: 4, taxCode: 'G3', description: 'GST 18% (CGST 9% + SGST 9%)', taxRate: 18 },
  { id: 5, taxCode: 'G4', description: 'GST 28% (CGST 14% + SGST 14%)', taxRate: 28 },
  { id: 6, taxCode: 'I0', description: 'IGST exempt or nil rated', taxRate: 0 },
  { id: 7, taxCode: 'I1', description: 'IGST 5%', taxRate: 5 },
  { id: 8, taxCode: 'I2', description: 'IGST 12%', taxRate: 12 },
  { id: 9, taxCode: 'I3', description: 'IGST 18%', taxRate: 18 },
  { id: 10, taxCode: 'I4', description: 'IGST 28%', taxRate: 28 },
  { id: 11, taxCode: 'R1', description: 'GST 5% under reverse charge (goods transport agency)', taxRate: 5 },
  { id: 12, taxCode: 'R3', description: 'GST 18% under reverse charge', taxRate: 18 },
];
