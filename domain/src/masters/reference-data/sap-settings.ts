import type { ReferenceRow } from './types';

export type SapSettingRow = ReferenceRow<{
  companyCode: string;
  purchaseOrganisation: string;
  accountGroup: string;
  bpRole: string;
  description: string;
}>;

/**
 * What a vendor-code request sends the ERP per company code: the purchasing organisation, the vendor account
 * group and the business-partner role (FLVN00 financial accounting, FLVN01 purchasing).
 */
export const SAP_SETTINGS: readonly SapSettingRow[] = [
  { id: 1, companyCode: '1000', purchaseOrganisation: '1000', accountGroup: 'ZTRN', bpRole: 'FLVN01', description: 'MLL Logistics - transporters' },
  { id: 2, companyCode: '1000', purchaseOrganisation: '1000', accountGroup: 'ZDOM', bpRole: 'FLVN01', description: 'MLL Logistics - domestic vendors' },
  { id: 3, companyCode: '1000', purchaseOrganisation: '1000', accountGroup: 'ZUTL', bpRole: 'FLVN00', description: 'MLL Logistics - utility and government vendors' },
  { id: 4, companyCode: '2000', purchaseOrganisation: '2000', accountGroup: 'ZTRN', bpRole: 'FLVN01', description: 'MLL Freight Services - transporters' },
  { id: 5, companyCode: '2000', purchaseOrganisation: '2000', accountGroup: 'ZDOM', bpRole: 'FLVN01', description: 'MLL Freight Services - domestic vendors' },
  { id: 6, companyCode: '2000', purchaseOrganisation: '2000', accountGroup: 'ZIMP', bpRole: 'FLVN01', description: 'MLL Freight Services - overseas agents' },
];
