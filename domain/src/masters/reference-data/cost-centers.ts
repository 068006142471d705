import type { ReferenceRow } from './types';

export type CostCenterRow = ReferenceRow<{ costCenterCode: string; description: string; companyCode: string }>;

/** Cost centres a BA's invoices are booked to, per company code: one per line of business and region. */
export const COST_CENTERS: readonly CostCenterRow[] = [
  { id: 1, costCenterCode: 'TRWEST1000', description: 'Transportation - West', companyCode: '1000' },
  { id: 2, costCenterCode: 'TRSOUTH1000', description: 'Transportation - South', companyCode: '1000' },
  { id: 3, costCenterCode: 'TRNORTH1000', description: 'Transportation - North', companyCode: '1000' },
  { id: 4, costCenterCode: 'TREAST1000', description: 'Transportation - East', companyCode: '1000' },
  { id: 5, costCenterCode: 'WHWEST1000', description: 'Warehousing - West', companyCode: '1000' },
  { id: 6, costCenterCode: 'WHSOUTH1000', description: 'Warehousing - South', companyCode: '1000' },
  { id: 7, costCenterCode: 'WHNORTH1000', description: 'Warehousing - North', companyCode: '1000' },
  { id: 8, costCenterCode: 'LMD1000', description: 'Last mile delivery', companyCode: '1000' },
  { id: 9, costCenterCode: 'ADMIN1000', description: 'Corporate administration', companyCode: '1000' },
  { id: 10, costCenterCode: 'FFOCEAN2000', description: 'Freight forwarding - ocean', companyCode: '2000' },
  { id: 11, costCenterCode: 'FFAIR2000', description: 'Freight forwarding - air', companyCode: '2000' },
  { id: 12, costCenterCode: 'CUSTOMS2000', description: 'Customs clearance', companyCode: '2000' },
  { id: 13, costCenterCode: 'ADMIN2000', description: 'Corporate administration', companyCode: '2000' },
];
