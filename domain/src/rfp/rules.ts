import { z } from 'zod';
import { dateWindowMessages, dateWindowProblem } from '../validation/date-window';
import { fieldErrors, fields, messages, safeText } from '../validation/fields';
import { rfpMessages } from './messages';
import {
  ALL_STATUSES,
  BA_SEARCH_TYPES,
  RFP_STATUSES,
  DEFAULT_SOURCE_SYSTEM,
  RFP_TYPES,
  type FloatPayload,
  type RfpHeader,
  type RfpStep2,
  type RfpStep4,
  type RfpStep5,
} from './model';

/**
 * The rules of spec 001 §5 for the wizard's steps, as zod schemas the API, the console wizard and the decider
 * share. Every text obeys the text rule (no leading - = @ # & ^ + | % < ' ", at most 260 characters).
 */

/** What a dropdown holds before the user picks a value (spec: "must not be the unselected marker"). */
export const UNSELECTED = 'Select';
export const isUnselected = (v: string): boolean => v.trim() === '' || v.trim().toLowerCase() === UNSELECTED.toLowerCase();

export const rfpRuleMessages = {
  rfpCode: 'RFP code must be 1 to 40 letters, digits, hyphens or underscores',
  sourceState: 'Please select the source state',
  destinationState: 'Please select the destination state',
  serviceType: 'Please select the service type',
  subServiceType: 'Please select the sub-service type',
  vehicleHireType: 'Please select a vehicle hire type',
  rfpType: 'Please select an RFP type',
  mllProperties: 'Please choose at least one MLL property',
  baProperties: 'Please choose at least one BA property',
  propertyKey: 'A property key must be a letter followed by letters, digits or underscores',
} as const;

/** The stream id and the download names carry the code, so it is kept to a file-name-safe alphabet. */
export const RFP_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
export const PROPERTY_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Trimmed; '' is "not filled" and reported as required. */
const required = () => z.string({ error: messages.required }).trim().min(1, { error: messages.required });
const requiredText = () => required().pipe(safeText());
const requiredWith = (schema: z.ZodType<string, string>) => required().pipe(schema);

/** Optional but pattern-checked when filled: empty and whitespace-only become null. */
const optional = (schema: z.ZodType<string, string>) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    schema.nullish().transform((v) => v ?? null),
  );

const selected = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((v) => !isUnselected(v), { error: message, abort: true })
    .pipe(safeText());

/** Spec 001 §5 "RFP step 1". */
export const rfpHeaderSchema = z.object({
  rfpCode: required().regex(RFP_CODE_PATTERN, { error: rfpRuleMessages.rfpCode }),
  casshOppId: requiredText(),
  oppDescription: requiredText(),
  // An amount like totalLogisticsSpent; the spec lists it as required only, the CRM sends digits.
  rfpValue: requiredWith(fields.amount),
  receiveDate: requiredWith(fields.date),
  dueDate: requiredWith(fields.date),
  // "Pattern not shown" for the three optional fields: a description is free text, a spend is an amount,
  // a person is a name.
  productDescription: optional(fields.text),
  casshAccId: requiredText(),
  customerName: requiredText(),
  totalLogisticsSpent: optional(fields.amount),
  contactPerson: optional(fields.name),
  contactDetails: requiredText(),
  customerAddress: requiredText(),
  customerReceiveDate: requiredWith(fields.date),
  customerDueDate: requiredWith(fields.date),
  sourceState: selected(rfpRuleMessages.sourceState),
  destinationState: selected(rfpRuleMessages.destinationState),
  verticalName: optional(fields.text),
  serviceType: selected(rfpRuleMessages.serviceType),
  subServiceType: selected(rfpRuleMessages.subServiceType),
  sourceSystem: optional(fields.text).transform((v) => v ?? DEFAULT_SOURCE_SYSTEM),
}) satisfies z.ZodType<RfpHeader, unknown>;

/** Forms send ids as text: a digit string is read as the number it spells. */
const positiveId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : v),
    z.number({ error: message }).int({ error: message }).positive({ error: message }),
  );

const propertyKey = z.string({ error: rfpRuleMessages.propertyKey }).regex(PROPERTY_KEY_PATTERN, { error: rfpRuleMessages.propertyKey });
/** A list of property keys, each once, in the order chosen. */
const keyList = (min: number, message: string) =>
  z
    .array(propertyKey, { error: message })
    .min(min, { error: message })
    .max(200)
    .transform((keys) => [...new Set(keys)]);

/**
 * Spec 001 §5: "Type and vehicle must be positive. Property lists must be non-empty." The lists are the MLL and
 * BA properties (the lane's columns); dynamic info is extra and may be empty.
 */
export const rfpStep2Schema = z.object({
  vehicleHireType: positiveId(rfpRuleMessages.vehicleHireType),
  typeId: positiveId(rfpRuleMessages.rfpType),
  rfpType: z.enum(RFP_TYPES, { error: rfpRuleMessages.rfpType }),
  mllProperties: keyList(1, rfpRuleMessages.mllProperties),
  baProperties: keyList(1, rfpRuleMessages.baProperties),
  dynamicInfo: keyList(0, rfpRuleMessages.propertyKey).default([]),
}) satisfies z.ZodType<RfpStep2, unknown>;

const optionalText = z
  .string()
  .trim()
  .pipe(safeText())
  .nullish()
  .transform((v) => v ?? '');

export const baSelectionItemSchema = z.object({
  baId: z.string().trim().min(1).max(100).nullish().transform((v) => v ?? null),
  baName: z.string().trim().pipe(safeText()),
  individual: z.union([z.literal(1), z.literal(0), z.literal(-1)]),
  action: z.enum(['add', 'delete']),
  typeOfSearch: z.enum(BA_SEARCH_TYPES),
  typeValue: z.string().trim().pipe(safeText()),
  serviceType: z.string().trim().pipe(safeText()).nullish().transform((v) => v ?? null),
  isSuggestedBa: z.boolean().default(false),
});
const selection = z.array(baSelectionItemSchema).max(5000).default([]);

export const rfpStep4Schema = z.object({
  cityBasedBa: selection,
  baList: selection,
  comment: optionalText,
  isSubmitToNewBa: z.boolean().default(false),
  isTnCDownloadable: z.boolean().default(false),
}) satisfies z.ZodType<RfpStep4, unknown>;

export const rfpStep5Schema = z.object({
  selectedMix: selection,
  cityWiseSelectedBa: selection,
  entireBaList: z.boolean().default(false),
}) satisfies z.ZodType<RfpStep5, unknown>;

/** Spec 001 §3 float payload, plus the bidding deadline when the caller sets one other than the due date's end. */
export const floatPayloadSchema = z.object({
  baIds: z
    .array(z.string().trim().min(1).max(100))
    .max(5000)
    .default([])
    .transform((ids) => [...new Set(ids)]),
  comments: z
    .string({ error: rfpMessages.comments })
    .trim()
    .pipe(safeText())
    .nullish()
    .transform((v) => v ?? ''),
  floatToAll: z.boolean().default(false),
  rfpType: z.enum(RFP_TYPES, { error: rfpRuleMessages.rfpType }),
}) satisfies z.ZodType<FloatPayload, unknown>;

export type Parsed<T> = { data: T } | { errors: Record<string, string> };

export function parseWith<T>(schema: z.ZodType<T, unknown>, input: unknown): Parsed<T> {
  const result = schema.safeParse(input);
  return result.success ? { data: result.data } : { errors: fieldErrors(result.error) };
}

export const parseRfpHeader = (input: unknown): Parsed<RfpHeader> => parseWith(rfpHeaderSchema, input);
export const parseRfpStep2 = (input: unknown): Parsed<RfpStep2> => parseWith(rfpStep2Schema, input);

/** The RFP dashboard's filters (spec 001 §2: rfpCode, casshId, status, date); null or '' is "any". */
export type RfpListFilter = { rfpCode?: string | null; casshId?: string | null; status?: string | null; from?: string | null; to?: string | null };

/**
 * Why a dashboard filter is refused (`{ field: message }`), or null. The date range obeys the 61-day window of
 * spec 001 §5; `today` is the India date of the request.
 */
export function rfpListFilterProblems(filter: RfpListFilter, today: string): Record<string, string> | null {
  const errors: Record<string, string> = {};
  const status = filter.status ?? '';
  if (status !== '' && status !== ALL_STATUSES && !(RFP_STATUSES as readonly string[]).includes(status)) errors['status'] = 'Please choose a status from the list';
  for (const key of ['rfpCode', 'casshId'] as const) {
    const parsed = safeText().safeParse(filter[key] ?? '');
    if (!parsed.success) errors[key] = parsed.error.issues[0]?.message ?? messages.leadingCharacter;
  }
  const problem = dateWindowProblem(filter.from || null, filter.to || null, today);
  if (problem) errors[problem === 'startAfterEnd' ? 'to' : 'from'] = dateWindowMessages[problem];
  return Object.keys(errors).length > 0 ? errors : null;
}
