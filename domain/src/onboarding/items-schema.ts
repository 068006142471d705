import { z } from 'zod';
import { emptyToNull, fields, messages, safeText } from '../validation/fields';
import { pincodeStateErrors } from '../validation/pincodes';
import type { BankAccount, Concession, GstRegistration, VerticalMapping } from './items';

/**
 * The field rules of the onboarding items (spec 000 §3, §5), shared by the decider, the API and the portal's
 * forms. Each schema takes raw form input (strings, blanks) and yields the item's shape (items.ts); rules that
 * need more than the item itself (the BA's PAN, the other GST rows, the masters) are the decider's.
 */

const trimmed = (v: unknown): unknown => (typeof v === 'string' ? v.trim() : v);
/** Blank → null, then `schema` (whose own error for null is "This field is required"). */
const required = <T extends z.ZodType>(schema: T) => z.preprocess((v) => emptyToNull(trimmed(v)) ?? null, schema);
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => emptyToNull(trimmed(v)) ?? null, schema.nullable());
const upper = (v: unknown): unknown => (typeof v === 'string' ? v.trim().toUpperCase() : v);

export const itemMessages = {
  stateId: 'Please select a state',
  cityId: 'Please select a city',
  gstType: 'Please select the GST type',
  gstNoRequired: 'Please enter the GSTIN',
  gstNoNotRegistered: 'A business that is not GST registered has no GSTIN',
  gstinState: 'GSTIN does not match the selected state',
  gstinPan: "GSTIN does not contain the company's PAN",
  documentTypeId: 'Please select a document type',
  validTillRequired: 'Please enter the validity date',
  validTillPast: 'The validity date must be today or later',
  exemptionRate: 'Please enter a rate from 0 to 100',
  exemptionPeriod: 'The exemption must not end before it starts',
  exemptionReasonId: 'Please select an exemption reason',
  verticalsRequired: 'Please select at least one vertical',
  masterIds: 'Please select from the list',
} as const;

/** A master id as a number or digit string (form selects send strings); anything else is refused, not coerced. */
const masterId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int({ error: message }).positive({ error: message }),
  );
const optionalMasterId = (message: string) =>
  z.preprocess((v) => (v === undefined || v === '' || v === null ? null : v), masterId(message).nullable());

// Bank account ------------------------------------------------------------------------------------------------

/** Spec 000 §3 "Bank detail": account number 9–15 digits, IFSC upper-cased, MICR optional (9 digits). */
export const bankAccountSchema = z.object({
  accountNo: required(fields.accountNumber),
  ifscCode: required(z.preprocess(upper, fields.ifsc)),
  micrNo: optional(fields.micr),
  accountName: required(fields.text),
  bankName: required(fields.text),
  bankBranch: required(fields.text),
}) satisfies z.ZodType<BankAccount>;

// GST / place of business ------------------------------------------------------------------------------------

export const GST_TYPES = ['', '0', '1', '2', '3'] as const;
/** Spec 000 §3 "GST type labels". */
export const GST_TYPE_LABELS: Record<GstRegistration['gstType'], string> = {
  '': 'GST Registered',
  '0': 'Not Registered',
  '1': 'Composition Dealer',
  '2': 'Registered with RCM',
  '3': 'Special Economic Zone',
};

/** The GST state code a state's GSTINs start with: the states master's id is that code (states.ts). */
export const gstStateCodeOf = (stateId: number, gstStateCode?: string | null): string =>
  gstStateCode ?? String(stateId).padStart(2, '0');

/** The GST row's fields one by one (for forms validating a single field). */
export const gstRegistrationFields = z.object({
  stateId: masterId(itemMessages.stateId),
  // '' is a real value here (GST Registered), so no blank-to-null for the type; absent means not chosen.
  gstType: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.enum(GST_TYPES, { error: itemMessages.gstType })),
  gstNo: optional(z.preprocess(upper, fields.gstin)),
  addressLine1: required(fields.address),
  addressLine2: optional(fields.address),
  pinCode: required(fields.pinCode),
  cityId: masterId(itemMessages.cityId),
  bankAccountId: optional(z.string()),
  vendorCategory: optional(fields.text),
});

/**
 * The GST row with the rules it can check alone: a GSTIN exactly when the type is a registered one, starting
 * with the state's GST code (the master's id, see gstStateCodeOf), and a PIN code in the state.
 */
export const gstRegistrationSchema = gstRegistrationFields.superRefine((row, ctx) => {
  if (row.gstType === '0' && row.gstNo !== null)
    ctx.addIssue({ code: 'custom', path: ['gstNo'], message: itemMessages.gstNoNotRegistered });
  if (row.gstType !== '0' && row.gstNo === null)
    ctx.addIssue({ code: 'custom', path: ['gstNo'], message: itemMessages.gstNoRequired });
  if (row.gstNo !== null && !row.gstNo.startsWith(gstStateCodeOf(row.stateId)))
    ctx.addIssue({ code: 'custom', path: ['gstNo'], message: itemMessages.gstinState });
  for (const [field, message] of Object.entries(pincodeStateErrors(row.pinCode, row.stateId)))
    ctx.addIssue({ code: 'custom', path: [field], message });
}) satisfies z.ZodType<GstRegistration>;

/** The GSTIN carries the PAN at positions 3–12 (1-based). Null when it does; the message otherwise. */
export const gstinPanMismatch = (gstNo: string | null, panNumber: string | null): string | null =>
  gstNo !== null && panNumber !== null && gstNo.slice(2, 12) !== panNumber ? itemMessages.gstinPan : null;

// Documents ----------------------------------------------------------------------------------------------------

/** The form fields of a document upload (the file itself is checked by the upload rules, files.ts). */
export const documentMetaSchema = z.object({
  documentTypeId: masterId(itemMessages.documentTypeId),
  kind: z.preprocess((v) => (v === undefined || v === null || v === '' ? 'onboarding' : v), z.enum(['onboarding', 'additional'], { error: itemMessages.documentTypeId })),
  documentNumber: optional(safeText(50)),
  validTill: optional(fields.date),
  stateId: optionalMasterId(itemMessages.stateId),
});

export const storedFileSchema = z.object({
  name: z.string().min(1),
  size: z.number().int().nonnegative(),
  type: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** What UploadDocument carries: the form fields and the file the API stored first. */
export const documentUploadSchema = documentMetaSchema.extend({ file: storedFileSchema });

// Concessions --------------------------------------------------------------------------------------------------

const rate = fields.amount.refine((v) => Number(v) <= 100, { error: itemMessages.exemptionRate });

/** Spec 000 §3 "Concession / exemption": a lower-deduction certificate with its period and rate. */
export const concessionSchema = z
  .object({
    exemptionNumber: required(fields.text),
    exemptionRate: required(rate),
    exemptionFrom: required(fields.date),
    exemptionTo: required(fields.date),
    exemptionReasonId: masterId(itemMessages.exemptionReasonId),
    exemptionThreshold: required(z.preprocess((v) => (typeof v === 'number' ? String(v) : v), fields.amount)),
    withHoldingTaxType: required(fields.text),
    withHoldingTaxCode: required(fields.text),
    sectionCode: required(fields.text),
  })
  .refine((c) => c.exemptionFrom <= c.exemptionTo, { error: itemMessages.exemptionPeriod, path: ['exemptionTo'] });

/** What SaveConcession carries: the fields and, except when an update keeps the old certificate, the file. */
export const concessionCommandSchema = z.intersection(concessionSchema, z.object({ file: storedFileSchema.optional() }));

export type ConcessionFields = Omit<Concession, 'file' | 'isInternalUpload'>;

// Vertical mapping ---------------------------------------------------------------------------------------------

const idList = z.preprocess(
  (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map((x) => (typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : x)) : v),
  z.array(z.number({ error: itemMessages.masterIds }).int({ error: itemMessages.masterIds }).positive({ error: itemMessages.masterIds }), {
    error: itemMessages.masterIds,
  }).transform((ids) => [...new Set(ids)]),
);

/** Spec 000 §3 "vertical mapping": master ids; at least one vertical. Duplicates are dropped. */
export const verticalMappingSchema = z.object({
  verticalIds: idList.refine((ids) => ids.length > 0, { error: itemMessages.verticalsRequired }),
  subServiceIds: idList,
  vehicleTypeIds: idList,
  zoneIds: idList,
  pickupZoneIds: idList,
  deliveryZoneIds: idList,
}) satisfies z.ZodType<VerticalMapping>;
