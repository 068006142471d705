import type { ReferenceRow } from './types';

export type SectionCodeRow = ReferenceRow<{ sectionCode: string; description: string }>;

/** Income-tax sections under which tax is deducted at source (TDS) from vendor payments. */
export const SECTION_CODES: readonly SectionCodeRow[] = [
  { id: 1, sectionCode: '194C', description: 'Payments to contractors and sub-contractors (incl. transport)' },
  { id: 2, sectionCode: '194J', description: 'Fees for professional or technical services' },
  { id: 3, sectionCode: '194J(a)', description: 'Fees for technical services, royalty for films, call centres' },
  { id: 4, sectionCode: '194J(b)', description: 'Fees for professional services, royalty, non-compete fees' },
  { id: 5, sectionCode: '194I(a)', description: 'Rent for plant, machinery or equipment' },
  { id: 6, sectionCode: '194I(b)', description: 'Rent for land, building or furniture' },
  { id: 7, sectionCode: '194H', description: 'Commission or brokerage' },
  { id: 8, sectionCode: '194Q', description: 'Purchase of goods above the annual threshold' },
  { id: 9, sectionCode: '194A', description: 'Interest other than interest on securities' },
  { id: 10, sectionCode: '194O', description: 'Payments by e-commerce operators to participants' },
  { id: 11, sectionCode: '194R', description: 'Benefits or perquisites of a business or profession' },
  { id: 12, sectionCode: '195', description: 'Other sums paid to non-residents' },
  { id: 13, sectionCode: '206AA', description: 'Higher rate where the deductee has not furnished a PAN' },
];
