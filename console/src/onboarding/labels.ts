import { COMPANY_DETAIL_FIELDS } from '../../../domain/src/onboarding/details';
import { VERTICAL_MAPPING_MASTERS } from '../../../domain/src/onboarding/items';

/**
 * Readable labels for the fields whose changes the activity log and change requests show: the company details
 * (spec 000 §3, the registration payload) and the items (bank account, GST row, concession, vertical mapping).
 */
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
  // A bank account (its saves and bank change requests record the changed fields).
  accountNo: 'Account no.',
  ifscCode: 'IFSC',
  micrNo: 'MICR',
  accountName: 'Account name',
  bankName: 'Bank name',
  bankBranch: 'Bank branch',
  // A GST / place-of-business row (state, city, address and pincode share the company's labels).
  gstType: 'GST type',
  gstNo: 'GSTIN',
  bankAccountId: 'Bank account',
  vendorCategory: 'Vendor category',
  // A concession.
  exemptionNumber: 'Exemption number',
  exemptionRate: 'Exemption rate',
  exemptionFrom: 'Exemption from',
  exemptionTo: 'Exemption to',
  exemptionReasonId: 'Exemption reason',
  exemptionThreshold: 'Exemption threshold',
  withHoldingTaxType: 'Withholding tax type',
  withHoldingTaxCode: 'Withholding tax code',
  sectionCode: 'Section code',
  // The vertical mapping's groups (its save records the changed ones).
  verticalIds: 'Verticals',
  subServiceIds: 'Sub-services',
  vehicleTypeIds: 'Vehicle types',
  zoneIds: 'Zones',
  pickupZoneIds: 'Pickup zones',
  deliveryZoneIds: 'Delivery zones',
};

export const fieldLabel = (field: string): string => DETAIL_LABELS[field] ?? field;

/** Changed fields are listed in the form's order, unknown ones last. */
export const fieldOrder = (field: string): number => {
  const i = COMPANY_DETAIL_FIELDS.indexOf(field as (typeof COMPANY_DETAIL_FIELDS)[number]);
  return i < 0 ? COMPANY_DETAIL_FIELDS.length : i;
};

/** The master whose items each id field names (the API resource): one id, or a list of them. */
export const NAMED_ID_FIELDS = {
  serviceId: 'services',
  stateId: 'states',
  cityId: 'cities',
  ...VERTICAL_MAPPING_MASTERS,
} as const;
export type NamedMaster = (typeof NAMED_ID_FIELDS)[keyof typeof NAMED_ID_FIELDS];
export const NAMED_MASTERS: readonly NamedMaster[] = [...new Set(Object.values(NAMED_ID_FIELDS))];

/** A master item as the masters API gives it: most have a name; a vehicle type is named by its type. */
export type NamedItem = { id: number; name?: string; vehicleType?: string; vehicleTypeName?: string };
export const itemName = (row: NamedItem | undefined, id: number): string =>
  row?.name ?? row?.vehicleTypeName ?? row?.vehicleType ?? String(id);

/** Names of master items by field, as the masters API gave them: `{ cityId: Map { 2701 → 'Mumbai' } }`. */
export type IdNames = Partial<Record<string, ReadonlyMap<number, string>>>;

/**
 * A changed value as a person reads it: master items by name (the id while names load), a list of them
 * comma-separated ("none" for an emptied list).
 */
export function fieldValue(field: string, value: unknown, names: IdNames = {}): unknown {
  const named = names[field];
  if (!named) return value;
  if (typeof value === 'number') return named.get(value) ?? value;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((id) => named.get(id) ?? id).join(', ');
  return value;
}
