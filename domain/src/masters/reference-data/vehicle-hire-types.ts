import type { ReferenceRow } from './types';

export type VehicleHireTypeRow = ReferenceRow<{ name: string; code: string }>;

/** How a customer hires the trucks an RFP asks for (spec 001 §1 "vehicle hire types exist"). */
export const VEHICLE_HIRE_TYPES: readonly VehicleHireTypeRow[] = [
  { id: 1, name: 'Dedicated', code: 'DEDICATED' },
  { id: 2, name: 'Ad hoc / Spot', code: 'ADHOC' },
  { id: 3, name: 'Monthly fixed', code: 'MONTHLY' },
  { id: 4, name: 'Trip based', code: 'TRIP' },
];

/** Ids of the rows above, for the required-flags rows that refer to them. */
export const VEHICLE_HIRE_TYPE_IDS = { dedicated: 1, adHoc: 2, monthlyFixed: 3, tripBased: 4 } as const;
