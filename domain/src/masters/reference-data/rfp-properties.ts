import type { RfpPropertyOwner, RfpValueType } from '../definitions';
import { RFP_TYPE_IDS } from './rfp-types';
import type { ReferenceRow } from './types';

export type RfpPropertyRow = ReferenceRow<{
  key: string;
  label: string;
  owner: RfpPropertyOwner;
  valueType: RfpValueType;
  options: string | null;
  isRequired: boolean;
  columnOrder: number;
  rfpTypeIds: number[];
}>;

const { standard, 'non-standard': nonStandard, single } = RFP_TYPE_IDS;
const EVERY_TYPE = [standard, nonStandard, single];
/** A single RFP asks for one lane: on its one known distance a per-km rate adds nothing to the trip rate. */
const MANY_LANES = [standard, nonStandard];

type Extra = { options?: string; isRequired?: boolean; rfpTypeIds?: number[] };

const property = (
  id: number,
  key: string,
  label: string,
  owner: RfpPropertyOwner,
  valueType: RfpValueType,
  columnOrder: number,
  { options, isRequired = false, rfpTypeIds = EVERY_TYPE }: Extra = {},
): RfpPropertyRow => ({
  id,
  key,
  label,
  owner,
  valueType,
  options: options ?? null,
  isRequired,
  columnOrder,
  rfpTypeIds,
});

const required = { isRequired: true };

/**
 * The lane columns of an RFP (spec 001 §2 step 2: mllProperties, baProperties, dynamicInfo). MLL describes
 * the lane (its columns come first), the BA quotes it (the only columns a BA may edit in the lane grid), and
 * dynamic info carries the commercial terms a lane is quoted under. Column orders leave gaps so that an added
 * property can sit between two existing ones.
 */
export const RFP_PROPERTIES: readonly RfpPropertyRow[] = [
  property(1, 'fromCity', 'From City', 'mll', 'text', 10, required),
  property(2, 'toCity', 'To City', 'mll', 'text', 20, required),
  property(3, 'vehicleType', 'Vehicle Type', 'mll', 'text', 30, required),
  property(4, 'distanceKm', 'Distance (km)', 'mll', 'number', 40, required),
  property(5, 'tripsPerMonth', 'Trips per Month', 'mll', 'number', 50, required),
  property(6, 'loadTonnes', 'Load (tonnes)', 'mll', 'number', 60),
  property(7, 'materialType', 'Material Type', 'mll', 'select', 70, {
    options:
      'FMCG, Automotive Parts, Steel, Cement, Chemicals, Agri Produce, Electronics, Pharmaceuticals, Furniture, Other',
  }),
  property(8, 'ratePerTrip', 'Rate per Trip (INR)', 'ba', 'number', 110, required),
  property(9, 'ratePerKm', 'Rate per km (INR)', 'ba', 'number', 120, { rfpTypeIds: MANY_LANES }),
  property(10, 'transitDays', 'Transit Time (days)', 'ba', 'number', 130, required),
  property(11, 'vehiclesAvailable', 'Vehicles Available', 'ba', 'number', 140, required),
  property(12, 'detentionPerDay', 'Detention per Day (INR)', 'ba', 'number', 150),
  property(13, 'remarks', 'Remarks', 'ba', 'text', 160),
  property(14, 'fuelClause', 'Fuel Clause', 'dynamic', 'select', 210, {
    options: 'Fixed rate, Diesel price linked',
  }),
  property(15, 'paymentTerms', 'Payment Terms', 'dynamic', 'select', 220, {
    options: '30 days, 45 days, 60 days, 90 days',
  }),
  property(16, 'loadingUnloading', 'Loading and Unloading', 'dynamic', 'select', 230, {
    options: 'Customer scope, BA scope',
  }),
];
