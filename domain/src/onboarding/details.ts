import { z } from 'zod';
import { CITIES, SERVICES, STATES } from '../masters/catalog';
import { emptyToNull, fields, messages } from '../validation/fields';

/**
 * The company-details step of the registration payload (spec 000 §3). Empty text is stored as null.
 * Mandatory here means "needed to submit"; a draft may be saved with gaps (see `submittableDetails`).
 */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToNull, schema.nullable().optional());
const fleet = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : typeof v === 'number' ? String(v) : v),
  fields.integer.transform(Number).nullable().optional(),
);
/**
 * Master ids arrive as numbers or digit strings (form selects send strings). Anything else is refused rather
 * than coerced: `Number(true)` is 1 and `Number([2])` is 2, which would silently pick a service.
 */
const known = (ids: readonly number[], message: string) =>
  z.preprocess(
    (v) =>
      v === null || v === undefined || (typeof v === 'string' && v.trim() === '')
        ? null
        : typeof v === 'string' && /^\s*\d+\s*$/.test(v)
          ? Number(v)
          : v,
    z
      .number({ error: message })
      .refine((n) => ids.includes(n), { error: message })
      .nullable()
      .optional(),
  );

export const companyDetailsSchema = z.object({
  companyName: optional(fields.text),
  panNumber: optional(z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), fields.pan)),
  contactPersonName: optional(fields.name),
  cinNumber: optional(z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), fields.cin)),
  serviceId: known(SERVICES.map((s) => s.id), 'Please select a service'),
  stateId: known(STATES.map((s) => s.id), 'Please select a state'),
  cityId: known(CITIES.map((c) => c.id), 'Please select a city'),
  addressLine1: optional(fields.text),
  addressLine2: optional(fields.text),
  pinCode: optional(fields.pinCode),
  companyLandline: optional(fields.text.regex(/^[0-9 -]{6,15}$/, { error: 'Please enter a valid landline number' })),
  contactPersonMobileNumber: optional(fields.mobile),
  ownFleet: fleet,
  attachedFleet: fleet,
});

export type CompanyDetailsInput = z.input<typeof companyDetailsSchema>;

export type CompanyDetails = {
  companyName: string | null;
  panNumber: string | null;
  contactPersonName: string | null;
  cinNumber: string | null;
  serviceId: number | null;
  stateId: number | null;
  cityId: number | null;
  addressLine1: string | null;
  addressLine2: string | null;
  pinCode: string | null;
  companyLandline: string | null;
  contactPersonMobileNumber: string | null;
  ownFleet: number | null;
  attachedFleet: number | null;
};

export const COMPANY_DETAIL_FIELDS = [
  'companyName',
  'panNumber',
  'contactPersonName',
  'cinNumber',
  'serviceId',
  'stateId',
  'cityId',
  'addressLine1',
  'addressLine2',
  'pinCode',
  'companyLandline',
  'contactPersonMobileNumber',
  'ownFleet',
  'attachedFleet',
] as const satisfies readonly (keyof CompanyDetails)[];

/** Fields a BA must fill in before it may submit (CIN, second address line, landline and fleets are optional). */
export const REQUIRED_FOR_SUBMIT = [
  'companyName',
  'panNumber',
  'contactPersonName',
  'serviceId',
  'stateId',
  'cityId',
  'addressLine1',
  'pinCode',
  'contactPersonMobileNumber',
] as const satisfies readonly (keyof CompanyDetails)[];

/** Parses raw input into complete details with every absent field as null. */
export function parseCompanyDetails(
  input: unknown,
): { ok: true; details: CompanyDetails } | { ok: false; error: z.ZodError } {
  const parsed = companyDetailsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error };
  const details = Object.fromEntries(COMPANY_DETAIL_FIELDS.map((f) => [f, parsed.data[f] ?? null])) as CompanyDetails;
  return { ok: true, details };
}

/** The fields still missing for a submission, with the message to show beside each. */
export function missingForSubmit(details: CompanyDetails | null): Record<string, string> {
  const missing: Record<string, string> = {};
  for (const f of REQUIRED_FOR_SUBMIT) if (details === null || details[f] === null) missing[f] = messages.required;
  return missing;
}

/** A city must lie in the chosen state. */
export function cityStateMismatch(details: CompanyDetails): Record<string, string> {
  if (details.cityId === null || details.stateId === null) return {};
  const city = CITIES.find((c) => c.id === details.cityId);
  return city && city.stateId !== details.stateId ? { cityId: 'The city does not belong to the selected state' } : {};
}
