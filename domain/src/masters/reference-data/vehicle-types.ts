import type { ReferenceRow } from './types';

export type VehicleTypeRow = ReferenceRow<{ name: string }>;

/** The trucks Indian road freight is quoted by: body length, body type and payload. */
const NAMES = [
  'Two Wheeler',
  'Three Wheeler Electric Loader',
  'Tata Ace',
  'Pickup 8 ft',
  'Tata 407',
  '14 ft Container',
  '17 ft Container',
  '19 ft Container',
  '20 ft Container',
  '22 ft Container',
  '24 ft Container',
  '32 ft SXL Container',
  '32 ft MXL Container',
  '19 ft Open Body',
  '22 ft Open Body',
  'Taurus 10 Wheeler',
  'Taurus 12 Wheeler',
  'Taurus 14 Wheeler',
  '20 ft Trailer',
  '40 ft Trailer',
  'Low Bed Trailer',
  'Car Carrier',
  '19 ft Reefer',
  '32 ft Reefer',
  'Tanker',
  'Tipper',
] as const;

export const VEHICLE_TYPES: readonly VehicleTypeRow[] = NAMES.map((name, i) => ({ id: i + 1, name }));
