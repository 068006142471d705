import type { ReferenceRow } from './types';

export type ExemptionReasonRow = ReferenceRow<{ reasonCode: string; description: string }>;

/** Why tax is withheld at a lower rate or not at all (the ERP's withholding-tax exemption reason). */
export const EXEMPTION_REASONS: readonly ExemptionReasonRow[] = [
  { id: 1, reasonCode: 'A', description: 'Lower or nil deduction certificate under section 197' },
  { id: 2, reasonCode: 'B', description: 'Declaration under section 197A (Form 15G or 15H)' },
  { id: 3, reasonCode: 'T', description: 'Transporter declaration under section 194C(6)' },
  { id: 4, reasonCode: 'Y', description: 'Payment below the threshold of the section' },
  { id: 5, reasonCode: 'Z', description: 'Payee exempt under section 10 or a notification' },
  { id: 6, reasonCode: 'G', description: 'Payee is a government or statutory body' },
  { id: 7, reasonCode: 'D', description: 'Non-resident with treaty relief (DTAA)' },
];
