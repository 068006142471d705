import { RFP_TYPE_OPTIONS, type RfpTypeCode } from '../definitions';
import type { ReferenceRow } from './types';

export type RfpTypeRow = ReferenceRow<{ name: string; code: RfpTypeCode }>;

/** Spec 001 §1 "RFP types: standard, non-standard, single", one row per code: the set is fixed. */
export const RFP_TYPES: readonly RfpTypeRow[] = RFP_TYPE_OPTIONS.map((o, i) => ({
  id: i + 1,
  name: o.name,
  code: o.id,
}));

/** Ids of the rows above, for the rows of other RFP masters that refer to them. */
export const RFP_TYPE_IDS = {
  standard: 1,
  'non-standard': 2,
  single: 3,
} as const satisfies Record<RfpTypeCode, number>;
