import { cityById, serviceById, stateById } from '../../../domain/src/masters/catalog';
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

const NAMED_IDS: Record<string, (id: number) => string | undefined> = {
  serviceId: (id) => serviceById(id)?.name,
  stateId: (id) => stateById(id)?.name,
  cityId: (id) => cityById(id)?.name,
};

/** A changed value as a person reads it: service, state and city by name. */
export function fieldValue(field: string, value: unknown): unknown {
  const named = NAMED_IDS[field];
  return named && typeof value === 'number' ? (named(value) ?? value) : value;
}
