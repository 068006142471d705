import type { ReferenceRow } from './types';

export type ZoneRow = ReferenceRow<{ name: string; stateIds: number[] }>;

/** The country's logistics zones; every state and union territory (id = GST state code) lies in exactly one. */
export const ZONES: readonly ZoneRow[] = [
  { id: 1, name: 'North', stateIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 38] },
  { id: 2, name: 'South', stateIds: [29, 31, 32, 33, 34, 35, 36, 37] },
  { id: 3, name: 'East', stateIds: [10, 19, 20, 21] },
  { id: 4, name: 'West', stateIds: [24, 26, 27, 30] },
  { id: 5, name: 'Central', stateIds: [22, 23] },
  { id: 6, name: 'North-East', stateIds: [11, 12, 13, 14, 15, 16, 17, 18] },
];
