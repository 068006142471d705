import type { ReferenceRow } from './types';

export type StateRow = ReferenceRow<{ name: string; stateCode: string; gstStateCode: string; isUnionTerritory: boolean }>;

/**
 * The 28 states and 8 union territories. The id is the GST state code (the first two digits of a GSTIN), so a
 * GSTIN names its state's id. Codes no longer issued are left out: 25 (Daman and Diu) and 28 (Andhra Pradesh
 * before 2014), as is 97 (Other Territory), which is no state. State codes are the registration-plate codes.
 */
const state = (id: number, name: string, stateCode: string, isUnionTerritory = false): StateRow => ({
  id,
  name,
  stateCode,
  gstStateCode: String(id).padStart(2, '0'),
  isUnionTerritory,
});

export const STATES: readonly StateRow[] = [
  state(1, 'Jammu and Kashmir', 'JK', true),
  state(2, 'Himachal Pradesh', 'HP'),
  state(3, 'Punjab', 'PB'),
  state(4, 'Chandigarh', 'CH', true),
  state(5, 'Uttarakhand', 'UK'),
  state(6, 'Haryana', 'HR'),
  state(7, 'Delhi', 'DL', true),
  state(8, 'Rajasthan', 'RJ'),
  state(9, 'Uttar Pradesh', 'UP'),
  state(10, 'Bihar', 'BR'),
  state(11, 'Sikkim', 'SK'),
  state(12, 'Arunachal Pradesh', 'AR'),
  state(13, 'Nagaland', 'NL'),
  state(14, 'Manipur', 'MN'),
  state(15, 'Mizoram', 'MZ'),
  state(16, 'Tripura', 'TR'),
  state(17, 'Meghalaya', 'ML'),
  state(18, 'Assam', 'AS'),
  state(19, 'West Bengal', 'WB'),
  state(20, 'Jharkhand', 'JH'),
  state(21, 'Odisha', 'OD'),
  state(22, 'Chhattisgarh', 'CG'),
  state(23, 'Madhya Pradesh', 'MP'),
  state(24, 'Gujarat', 'GJ'),
  state(26, 'Dadra and Nagar Haveli and Daman and Diu', 'DD', true),
  state(27, 'Maharashtra', 'MH'),
  state(29, 'Karnataka', 'KA'),
  state(30, 'Goa', 'GA'),
  state(31, 'Lakshadweep', 'LD', true),
  state(32, 'Kerala', 'KL'),
  state(33, 'Tamil Nadu', 'TN'),
  state(34, 'Puducherry', 'PY', true),
  state(35, 'Andaman and Nicobar Islands', 'AN', true),
  state(36, 'Telangana', 'TG'),
  state(37, 'Andhra Pradesh', 'AP'),
  state(38, 'Ladakh', 'LA', true),
];

const NAMES = new Map(STATES.map((s) => [s.id, s.name]));
/** The state's name for its id (the GST state code), null when unknown or absent. */
export const stateNameOf = (id: number | null | undefined): string | null => (id === null || id === undefined ? null : (NAMES.get(id) ?? null));
