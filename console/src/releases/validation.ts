import type { z } from 'zod';
import {
  dateSchema,
  deviceTypeSchema,
  featureClassSchema,
  featureDescSchema,
  releaseMessages,
  versionSchema,
} from '../../../domain/src/releases/fields';
import { messages } from '../../../domain/src/validation/fields';

/** react-admin validators from the domain's release schemas: the form says what the API would say. */
type Validator = (value: unknown) => string | undefined;

const rule =
  (schema: z.ZodType): Validator =>
  (value) => {
    const parsed = schema.safeParse(value ?? undefined);
    return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? messages.required);
  };

export const validateVersion = rule(versionSchema);
export const validateDeviceType = rule(deviceTypeSchema);
export const validateFeatureClass = rule(featureClassSchema);
export const validateDate = rule(dateSchema);
export const validateFeatureDesc = rule(featureDescSchema);
/** An entry's own date may stay empty: it then takes the release date. */
export const validateEntryDate: Validator = (value) =>
  value === undefined || value === null || value === '' ? undefined : validateDate(value);

type Entries = { featureDesc?: string }[] | undefined;

/**
 * At least one new feature or bug fix, reported on the new-features list. An input validator that reads the
 * whole form: react-admin cannot combine form-level and input-level validation.
 */
export const validateSomethingListed = (_value: unknown, values: Record<string, unknown>): string | undefined => {
  const count = ((values['newFeatures'] as Entries) ?? []).length + ((values['bugFixes'] as Entries) ?? []).length;
  return count === 0 ? releaseMessages.nothingListed : undefined;
};
