import type { ReferenceRow } from './types';

export type ServiceRow = ReferenceRow<{ name: string; slug: string; serviceDesc: string }>;

/** What a BA offers. Ids 1–4 are those of the fixed catalogue before the Masters capability (events store them). */
export const SERVICES: readonly ServiceRow[] = [
  { id: 1, name: 'Transportation', slug: 'transportation', serviceDesc: 'Full and part truck loads by road' },
  { id: 2, name: 'Warehousing', slug: 'warehousing', serviceDesc: 'Storage, handling and distribution centres' },
  { id: 3, name: 'Freight Forwarding', slug: 'freight-forwarding', serviceDesc: 'Ocean and air freight, customs and port handling' },
  { id: 4, name: 'Last Mile Delivery', slug: 'last-mile-delivery', serviceDesc: 'Delivery to the consignee in the city' },
  { id: 5, name: 'Manpower Services', slug: 'manpower-services', serviceDesc: 'Loaders, pickers and drivers on contract' },
  { id: 6, name: 'Packaging', slug: 'packaging', serviceDesc: 'Packing material, crates and returnable packaging' },
];
