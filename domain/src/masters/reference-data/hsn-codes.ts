import type { ReferenceRow } from './types';

export type HsnCodeRow = ReferenceRow<{ hsnCode: string; description: string; gstRate: number }>;

/**
 * Services accounting codes (SAC, chapter 99 of the HSN) a logistics vendor invoices under, with the GST rate
 * a vendor usually charges on them (goods transport by a GTA at 5%, storage and handling at 18%).
 */
export const HSN_CODES: readonly HsnCodeRow[] = [
  { id: 1, hsnCode: '9965', description: 'Goods transport services', gstRate: 5 },
  { id: 2, hsnCode: '996511', description: 'Road transport services of goods by trucks, trailers and other vehicles', gstRate: 5 },
  { id: 3, hsnCode: '996512', description: 'Rail transport services of goods', gstRate: 5 },
  { id: 4, hsnCode: '996521', description: 'Coastal and transoceanic water transport services of goods', gstRate: 5 },
  { id: 5, hsnCode: '996531', description: 'Air transport services of goods', gstRate: 18 },
  { id: 6, hsnCode: '996601', description: 'Rental of road vehicles, including trucks, with operator', gstRate: 18 },
  { id: 7, hsnCode: '9967', description: 'Supporting services in transport', gstRate: 18 },
  { id: 8, hsnCode: '996711', description: 'Container handling services', gstRate: 18 },
  { id: 9, hsnCode: '996719', description: 'Other cargo handling services', gstRate: 18 },
  { id: 10, hsnCode: '996721', description: 'Refrigerated storage services', gstRate: 18 },
  { id: 11, hsnCode: '996722', description: 'Bulk liquid or gas storage services', gstRate: 18 },
  { id: 12, hsnCode: '996729', description: 'Other storage and warehousing services', gstRate: 18 },
  { id: 13, hsnCode: '996791', description: 'Goods transport agency services for road transport', gstRate: 5 },
  { id: 14, hsnCode: '996792', description: 'Goods transport agency services for other modes of transport', gstRate: 18 },
  { id: 15, hsnCode: '996793', description: 'Other goods transport services', gstRate: 18 },
  { id: 16, hsnCode: '9968', description: 'Postal and courier services', gstRate: 18 },
  { id: 17, hsnCode: '996812', description: 'Courier services', gstRate: 18 },
  { id: 18, hsnCode: '996813', description: 'Local delivery services', gstRate: 18 },
  { id: 19, hsnCode: '997212', description: 'Rental or leasing of non-residential property (warehouses)', gstRate: 18 },
  { id: 20, hsnCode: '998519', description: 'Other employment and labour supply services', gstRate: 18 },
  { id: 21, hsnCode: '998540', description: 'Packaging services', gstRate: 18 },
];
