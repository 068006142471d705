import type { ReferenceRow } from './types';

export type CompanyRow = ReferenceRow<{ companyCode: string; name: string }>;

/** The company codes a BA registers for; the id is the code (events store it). */
export const COMPANIES: readonly CompanyRow[] = [
  { id: '1000', companyCode: '1000', name: 'MLL Logistics' },
  { id: '2000', companyCode: '2000', name: 'MLL Freight Services' },
];
