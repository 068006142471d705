import type { ReferenceRow } from './types';

export type CollectionRow = ReferenceRow<{ collectionCode: string; name: string; description: string }>;

/** How freight is collected on a consignment note (lorry receipt), as Indian road transport writes it. */
export const COLLECTIONS: readonly CollectionRow[] = [
  { id: 1, collectionCode: 'PAID', name: 'Paid', description: 'Freight paid by the consignor at booking' },
  { id: 2, collectionCode: 'TOPAY', name: 'To Pay', description: 'Freight collected from the consignee at delivery' },
  { id: 3, collectionCode: 'TBB', name: 'To Be Billed', description: 'Freight billed to the customer on account' },
  { id: 4, collectionCode: 'COD', name: 'Cash on Delivery', description: 'Value of the goods collected at delivery and remitted' },
  { id: 5, collectionCode: 'FOC', name: 'Free of Charge', description: 'No freight charged (returns, samples)' },
];
