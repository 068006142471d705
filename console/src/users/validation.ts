import type { z } from 'zod';
import { fields, messages } from '../../../domain/src/validation/fields';
import type { AppAccess } from '../shared/types';

/** The API's own words for these refusals (api/src/users/routes.ts), so both sides say the same thing. */
export const userMessages = {
  companyCodeRequired: 'Please select at least one company code',
  applicationRequired: 'Please select at least one application and role',
  duplicateAccess: 'Each application and role can be given once',
  reasonRequired: messages.required,
} as const;

type Validator = (value: unknown) => string | undefined;

/** A react-admin validator from one of the shared field schemas (domain/src/validation/fields.ts). */
const rule =
  (schema: z.ZodType): Validator =>
  (value) => {
    if (value === undefined || value === null || value === '') return undefined;
    const parsed = schema.safeParse(typeof value === 'string' ? value.trim() : value);
    return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? messages.required);
  };

const present: Validator = (value) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
    ? messages.required
    : undefined;

const all =
  (...validators: Validator[]): Validator =>
  (value) => {
    for (const validate of validators) {
      const error = validate(value);
      if (error) return error;
    }
    return undefined;
  };

export const validateName = all(present, rule(fields.name));
export const validateEmail = all(present, rule(fields.email));
export const validateMobile = all(present, rule(fields.mobile));
export const validateRequired = present;

export const validateCompanyCodes: Validator = (value) =>
  Array.isArray(value) && value.length > 0 ? undefined : userMessages.companyCodeRequired;

/** At least one application with its role, and no pair twice. */
export const validateApplications: Validator = (value) => {
  const rows = Array.isArray(value) ? (value as Partial<AppAccess>[]) : [];
  if (rows.length === 0) return userMessages.applicationRequired;
  const pairs = rows.filter((r) => r?.appId && r.roleName).map((r) => `${r.appId}|${r.roleName}`);
  return new Set(pairs).size < pairs.length ? userMessages.duplicateAccess : undefined;
};
