import type { ReferenceRow } from './types';

export type VerticalRow = ReferenceRow<{ name: string; description: string }>;

/** The customers' industries a BA is mapped to (RFPs carry the vertical of the customer). */
export const VERTICALS: readonly VerticalRow[] = [
  { id: 1, name: 'Automotive', description: 'Vehicle makers and their suppliers: inbound parts and finished vehicles' },
  { id: 2, name: 'Farm Equipment', description: 'Tractors and farm machinery' },
  { id: 3, name: 'Consumer Goods', description: 'FMCG and consumer durables distribution' },
  { id: 4, name: 'E-commerce', description: 'Fulfilment, line haul and last mile for online retail' },
  { id: 5, name: 'Pharma and Healthcare', description: 'Temperature-controlled and regulated shipments' },
  { id: 6, name: 'Engineering', description: 'Capital goods, industrial equipment and project cargo' },
  { id: 7, name: 'Steel and Metals', description: 'Coils, sheets and bulk metal' },
  { id: 8, name: 'Chemicals', description: 'Packed and bulk chemicals, including hazardous goods' },
  { id: 9, name: 'Retail', description: 'Store replenishment from distribution centres' },
  { id: 10, name: 'Telecom and Electronics', description: 'High-value electronics and network equipment' },
  { id: 11, name: 'Cold Chain', description: 'Food, dairy and frozen goods in reefers' },
];
