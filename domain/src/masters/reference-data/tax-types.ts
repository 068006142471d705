import type { ReferenceRow } from './types';

export type TaxTypeRow = ReferenceRow<{
  taxType: string;
  taxCode: string;
  taxName: string;
  taxRate: number;
  sectionCode: string;
  description: string;
}>;

/**
 * Withholding-tax (TDS) types and codes as the ERP keeps them: the type per section, the code per rate.
 * Rates are those of the Income-tax Act for residents with a PAN (206AA where there is none).
 */
const tax = (id: number, taxType: string, taxCode: string, sectionCode: string, taxRate: number, taxName: string, description: string): TaxTypeRow => ({
  id,
  taxType,
  taxCode,
  taxName,
  taxRate,
  sectionCode,
  description,
});

export const TAX_TYPES: readonly TaxTypeRow[] = [
  tax(1, 'WC', 'C1', '194C', 1, 'TDS 194C Individual or HUF', 'Contractor who is an individual or a Hindu undivided family'),
  tax(2, 'WC', 'C2', '194C', 2, 'TDS 194C Others', 'Contractor that is a company, firm, LLP or other entity'),
  tax(3, 'WC', 'C0', '194C', 0, 'TDS 194C Transporter exempt', 'Transporter owning up to ten goods carriages who gave a declaration under 194C(6)'),
  tax(4, 'WJ', 'J1', '194J(a)', 2, 'TDS 194J Technical services', 'Fees for technical services'),
  tax(5, 'WJ', 'J2', '194J(b)', 10, 'TDS 194J Professional services', 'Fees for professional services'),
  tax(6, 'WI', 'I1', '194I(a)', 2, 'TDS 194I Rent on machinery', 'Rent for plant, machinery or equipment (incl. vehicles hired without operator)'),
  tax(7, 'WI', 'I2', '194I(b)', 10, 'TDS 194I Rent on property', 'Rent for land, building or furniture (warehouses)'),
  tax(8, 'WH', 'H1', '194H', 2, 'TDS 194H Commission', 'Commission or brokerage'),
  tax(9, 'WQ', 'Q1', '194Q', 0.1, 'TDS 194Q Purchase of goods', 'Purchase of goods above 50 lakh rupees a year'),
  tax(10, 'WA', 'A1', '194A', 10, 'TDS 194A Interest', 'Interest other than interest on securities'),
  tax(11, 'WN', 'N1', '195', 20, 'TDS 195 Non-resident', 'Sums paid to non-residents (before treaty relief)'),
  tax(12, 'WZ', 'Z1', '206AA', 20, 'TDS 206AA No PAN', 'Higher rate where the deductee has not furnished a PAN'),
];
