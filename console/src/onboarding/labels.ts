import { COMPANY_DETAIL_FIELDS } from '../../../domain/src/onboarding/details';

/** Readable labels for the company-details fields (spec 000 §3, the registration payload). */
export const DETAIL_LABELS: Record<string, string> = {
  companyName: 'Company name',
  panNumber: 'PAN',
  contactPersonName: 'Contact person',
  cinNumber: 'CIN',
  serviceId: 'Service',
  stateId: 'State',
  cityId: 'City',
  addressLine1: 'Address line 1',
  addressLine2: 'Address line 2',
  pinCode: 'Pincode',
  companyLandline: 'Landline',
  contactPersonMobileNumber: 'Contact mobile number',
  ownFleet: 'Own fleet',
  attachedFleet: 'Attached fleet',
};

export const fieldLabel = (field: string): string => DETAIL_LABELS[field] ?? field;

/** Changed fields are listed in the form's order, unknown ones last. */
export const fieldOrder = (field: string): number => {
  const i = COMPANY_DETAIL_FIELDS.indexOf(field as (typeof COMPANY_DETAIL_FIELDS)[number]);
  return i < 0 ? COMPANY_DETAIL_FIELDS.length : i;
};

/** The master whose item each id field names (the API resource). */
export const NAMED_ID_FIELDS = { serviceId: 'services', stateId: 'states', cityId: 'cities' } as const;

/** Names of master items by field, as the masters API gave them: `{ cityId: Map { 2701 → 'Mumbai' } }`. */
export type IdNames = Partial<Record<string, ReadonlyMap<number, string>>>;

/** A changed value as a person reads it: service, state and city by name (the id while names load). */
export function fieldValue(field: string, value: unknown, names: IdNames = {}): unknown {
  const named = names[field];
  return named && typeof value === 'number' ? (named.get(value) ?? value) : value;
}
