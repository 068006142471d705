import type { ReferenceRow } from './types';

export type VendorTypeRow = ReferenceRow<{ type: string }>;

const TYPES = [
  'Transporter',
  'Fleet Owner',
  'Broker',
  'Warehouse Service Provider',
  'Freight Forwarder',
  'Customs Broker',
  'Courier Partner',
  'Last Mile Partner',
  'Manpower Contractor',
  'Packaging Supplier',
  'Utility or Government',
  'Other Company',
] as const;

export const VENDOR_TYPES: readonly VendorTypeRow[] = TYPES.map((type, i) => ({ id: i + 1, type }));
