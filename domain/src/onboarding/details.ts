import { z } from 'zod';
import { LEGACY_CITIES, LEGACY_SERVICES, LEGACY_STATES } from '../masters/legacy-catalog';
import type { ReferencedItem } from '../masters/references';
import { emptyToNull, fields, messages } from '../validation/fields';
import { pincodeStateErrors } from '../validation/pincodes';

/**
 * The company-details step of the registration payload (spec 000 §3). Empty text is stored as null.
 * Mandatory here means "needed to submit"; a draft may be saved with gaps (see `submittableDetails`).
 */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToNull, schema.nullable().optional());
/** The rule decisions recorded before issue 8 ran (replayed without references): any whole number. */
const legacyFleet = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : typeof v === 'number' ? String(v) : v),
  fields.integer.transform(Number).nullable().optional(),
);
export const referenceMessages = {
  serviceId: 'Please select a service',
  stateId: 'Please select a state',
  cityId: 'Please select a city',
  mismatch: 'The city does not belong to the selected state',
} as const;

/**
 * Master ids arrive as numbers or digit strings (form selects send strings). Anything else is refused rather
 * than coerced: `Number(true)` is 1 and `Number([2])` is 2, which would silently pick a service. The schema
 * checks the id's shape only; whether the item exists, is active and fits is the references' question
 * (`referenceErrors`). `legacyIds` is the frozen catalogue's list, for replayed decisions only.
 */
const masterId = (message: string, legacyIds?: readonly number[]) =>
  z.preprocess(
    (v) =>
      v === null || v === undefined || (typeof v === 'string' && v.trim() === '')
        ? null
        : typeof v === 'string' && /^\s*\d+\s*$/.test(v)
          ? Number(v)
          : v,
    z
      .number({ error: message })
      .refine((n) => (legacyIds ? legacyIds.includes(n) : Number.isSafeInteger(n) && n > 0), { error: message })
      .nullable()
      .optional(),
  );

const detailsSchema = (legacy: boolean) =>
  z.object({
    companyName: optional(fields.text),
    panNumber: optional(z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), fields.pan)),
    contactPersonName: optional(fields.name),
    cinNumber: optional(z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), fields.cin)),
    serviceId: masterId(referenceMessages.serviceId, legacy ? LEGACY_SERVICES.map((s) => s.id) : undefined),
    stateId: masterId(referenceMessages.stateId, legacy ? LEGACY_STATES.map((s) => s.id) : undefined),
    cityId: masterId(referenceMessages.cityId, legacy ? LEGACY_CITIES.map((c) => c.id) : undefined),
    addressLine1: optional(fields.address),
    addressLine2: optional(fields.address),
    pinCode: optional(fields.pinCode),
    companyLandline: optional(fields.text.regex(/^[0-9 -]{6,15}$/, { error: 'Please enter a valid landline number' })),
    contactPersonMobileNumber: optional(fields.mobile),
    // Issue 8 bounds fleets (0–100000); replayed decisions keep the unbounded rule they were made with.
    ownFleet: legacy ? legacyFleet : optional(fields.fleetSize),
    attachedFleet: legacy ? legacyFleet : optional(fields.fleetSize),
  });

/** The company details' field rules (the portal's form and the API): master ids by shape only. */
export const companyDetailsSchema = detailsSchema(false);
/** The same rules with the frozen catalogue's ids, as decisions recorded before issue 7 were made. */
const legacyCompanyDetailsSchema = detailsSchema(true);

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

/**
 * Parses raw input into complete details with every absent field as null. `legacy`: master ids must be in the
 * frozen catalogue (a replayed decision, see legacy-catalog.ts); otherwise their shape is all that is checked.
 */
export function parseCompanyDetails(
  input: unknown,
  options: { legacy?: boolean } = {},
): { ok: true; details: CompanyDetails } | { ok: false; error: z.ZodError } {
  const parsed = (options.legacy ? legacyCompanyDetailsSchema : companyDetailsSchema).safeParse(input);
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

/** A city must lie in the chosen state. `city` is the chosen city as the masters know it (undefined: unknown). */
export function cityStateMismatch(
  details: CompanyDetails,
  city: { stateId?: number | null } | null | undefined,
): Record<string, string> {
  if (details.cityId === null || details.stateId === null) return {};
  return city && city.stateId !== details.stateId ? { cityId: referenceMessages.mismatch } : {};
}

/** The frozen catalogue's city-in-state rule, for replayed decisions only (legacy-catalog.ts). */
export const legacyCityStateMismatch = (details: CompanyDetails): Record<string, string> =>
  cityStateMismatch(details, LEGACY_CITIES.find((c) => c.id === details.cityId));

export type { ReferencedItem };

/** The service, state and city the details name, resolved (null where the details name none or no such item exists). */
export type CompanyDetailsReferences = {
  service: ReferencedItem | null;
  state: ReferencedItem | null;
  city: ReferencedItem | null;
};

const referencedItem = z.object({
  id: z.union([z.number(), z.string()]),
  status: z.enum(['active', 'inactive']),
  stateId: z.number().nullable().optional(),
});
const referencesSchema = z.object({
  service: referencedItem.nullable(),
  state: referencedItem.nullable(),
  city: referencedItem.nullable(),
});

/**
 * Company details travel into the onboarding workflow as one value (the `saveDetails` update's `details`), so
 * the references resolved for them ride along under this key: the API puts them there for the workflow's
 * validator, the deciding activity replaces them with its own. The field rules drop the key.
 */
export const REFERENCES_KEY = 'references';

export const withReferences = (details: object, references: CompanyDetailsReferences): Record<string, unknown> => ({
  ...details,
  [REFERENCES_KEY]: references,
});

/** The references the details carry, or undefined for details sent without (a decision replayed from before). */
export function referencesIn(details: unknown): CompanyDetailsReferences | undefined {
  if (typeof details !== 'object' || details === null || !(REFERENCES_KEY in details)) return undefined;
  const parsed = referencesSchema.safeParse((details as Record<string, unknown>)[REFERENCES_KEY]);
  // Only the API and the activity put them there; anything else resolves nothing, so every id is refused.
  return parsed.success ? parsed.data : { service: null, state: null, city: null };
}

/**
 * Whether the service, state and city the details name exist, are active and fit together (spec: the city
 * lies in the selected state). The details name an id; the reference must be that very item.
 */
export function referenceErrors(details: CompanyDetails, references: CompanyDetailsReferences): Record<string, string> {
  const errors: Record<string, string> = {};
  const usable = (id: number | null, ref: ReferencedItem | null) =>
    id === null || (ref !== null && String(ref.id) === String(id) && ref.status === 'active');
  if (!usable(details.serviceId, references.service)) errors.serviceId = referenceMessages.serviceId;
  if (!usable(details.stateId, references.state)) errors.stateId = referenceMessages.stateId;
  if (!usable(details.cityId, references.city)) errors.cityId = referenceMessages.cityId;
  if (Object.keys(errors).length > 0) return errors;
  return { ...cityStateMismatch(details, references.city), ...pincodeStateMismatch(details) };
}

/**
 * The PIN code must lie in the chosen state (pincodes.ts, keyed by the state's id, so nothing beyond the
 * details is needed). Part of `referenceErrors`, i.e. of live decisions only: replayed ones never had it.
 */
export const pincodeStateMismatch = (details: Pick<CompanyDetails, 'pinCode' | 'stateId'>): Record<string, string> =>
  pincodeStateErrors(details.pinCode, details.stateId);
