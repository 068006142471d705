/**
 * FROZEN: the fixed catalogue the forms ran on before the Masters capability (issue 7), kept only so that
 * lifecycles recorded before the `decide-in-activity` patch replay exactly as they ran. Their workflow code
 * decided company details and new BAs itself, against this list; a command that reaches a decider without
 * resolved master references (domain/src/onboarding/details.ts `CompanyDetailsReferences`, the `company` of
 * CreateBusinessAssociate and StartRegistration) is such a replayed decision and is checked against it.
 * Every live decision resolves its references from the masters (master_items) instead. Never edit: a changed
 * row would change how those histories replay.
 */
export type LegacyState = { id: number; name: string; stateCode: string };
export type LegacyCity = { id: number; name: string; stateId: number };
export type LegacyService = { id: number; name: string; slug: string };

export const LEGACY_STATES: readonly LegacyState[] = [
  { id: 27, name: 'Maharashtra', stateCode: 'MH' },
  { id: 29, name: 'Karnataka', stateCode: 'KA' },
  { id: 33, name: 'Tamil Nadu', stateCode: 'TN' },
  { id: 7, name: 'Delhi', stateCode: 'DL' },
  { id: 24, name: 'Gujarat', stateCode: 'GJ' },
  { id: 19, name: 'West Bengal', stateCode: 'WB' },
];

export const LEGACY_CITIES: readonly LegacyCity[] = [
  { id: 2701, name: 'Mumbai', stateId: 27 },
  { id: 2702, name: 'Pune', stateId: 27 },
  { id: 2703, name: 'Nagpur', stateId: 27 },
  { id: 2901, name: 'Bengaluru', stateId: 29 },
  { id: 2902, name: 'Mysuru', stateId: 29 },
  { id: 3301, name: 'Chennai', stateId: 33 },
  { id: 3302, name: 'Coimbatore', stateId: 33 },
  { id: 701, name: 'New Delhi', stateId: 7 },
  { id: 2401, name: 'Ahmedabad', stateId: 24 },
  { id: 2402, name: 'Surat', stateId: 24 },
  { id: 1901, name: 'Kolkata', stateId: 19 },
];

export const LEGACY_SERVICES: readonly LegacyService[] = [
  { id: 1, name: 'Transportation', slug: 'transportation' },
  { id: 2, name: 'Warehousing', slug: 'warehousing' },
  { id: 3, name: 'Freight Forwarding', slug: 'freight-forwarding' },
  { id: 4, name: 'Last Mile Delivery', slug: 'last-mile-delivery' },
];

export const LEGACY_COMPANY_CODES: readonly string[] = ['1000', '2000'];
