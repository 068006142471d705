import { RFP_TYPE_IDS } from './rfp-types';
import type { ReferenceRow } from './types';
import { VEHICLE_HIRE_TYPE_IDS } from './vehicle-hire-types';

export type RfpRequiredFlagRow = ReferenceRow<{
  hireTypeId: number;
  rfpTypeId: number;
  isRequiredByMll: boolean;
  isRequiredByBa: boolean;
  description: string;
}>;

const { dedicated, adHoc, monthlyFixed, tripBased } = VEHICLE_HIRE_TYPE_IDS;
const { standard, 'non-standard': nonStandard, single } = RFP_TYPE_IDS;

const row = (
  id: number,
  [hireTypeId, rfpTypeId]: readonly [number, number],
  isRequiredByMll: boolean,
  isRequiredByBa: boolean,
  description: string,
): RfpRequiredFlagRow => ({ id, hireTypeId, rfpTypeId, isRequiredByMll, isRequiredByBa, description });

const EVERY_LANE = 'the fleet is committed to the whole network, so every lane is quoted';
const OWN_LANES = 'BAs quote the lanes they serve';
const OWN_SHEET = 'the customer sheet sets its own columns';
const ONE_LANE = 'one lane, described and quoted in full';

/**
 * Spec 001 §7 "Required flags by hireTypeId and rfpTypeId", one row per pair. isRequiredByMll: every lane of
 * the step-3 sheet must fill MLL's required properties; isRequiredByBa: a BA's bid must quote every lane (its
 * required properties) rather than only the lanes the BA serves. Each description says why.
 */
export const RFP_REQUIRED_FLAGS: readonly RfpRequiredFlagRow[] = [
  row(1, [dedicated, standard], true, true, `Dedicated standard RFP: ${EVERY_LANE}`),
  row(2, [adHoc, standard], true, false, `Spot standard RFP: ${OWN_LANES}`),
  row(3, [monthlyFixed, standard], true, true, `Monthly fixed standard RFP: ${EVERY_LANE}`),
  row(4, [tripBased, standard], true, false, `Trip based standard RFP: ${OWN_LANES}`),
  row(5, [dedicated, nonStandard], false, false, `Dedicated non-standard RFP: ${OWN_SHEET}`),
  row(6, [adHoc, nonStandard], false, false, `Spot non-standard RFP: ${OWN_SHEET}`),
  row(7, [monthlyFixed, nonStandard], false, false, `Monthly fixed non-standard RFP: ${OWN_SHEET}`),
  row(8, [tripBased, nonStandard], false, false, `Trip based non-standard RFP: ${OWN_SHEET}`),
  row(9, [dedicated, single], true, true, `Dedicated single RFP: ${ONE_LANE}`),
  row(10, [adHoc, single], true, true, `Spot single RFP: ${ONE_LANE}`),
  row(11, [monthlyFixed, single], true, true, `Monthly fixed single RFP: ${ONE_LANE}`),
  row(12, [tripBased, single], true, true, `Trip based single RFP: ${ONE_LANE}`),
];
