import type { Validator } from 'react-admin';
import { masterSchema, type MasterDefinition, type MasterField } from '../../../domain/src/masters/definitions';

type Mode = 'create' | 'update';

/** A form value as the API would receive it: untouched means null, text trimmed (enum '' is a real value). */
const asSent = (field: MasterField, v: unknown): unknown =>
  v === undefined ? null : typeof v === 'string' && field.kind !== 'enum' ? v.trim() : v;

/** The fields of a master the API takes on create and update; the form also holds id, status, updatedAt. */
export function masterBody(def: MasterDefinition, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(def.fields.map((field) => [field.name, asSent(field, values[field.name])]));
}

const schemas = new Map<string, ReturnType<typeof masterSchema>>();

/** The master's own zod schema (domain/src/masters/definitions.ts), the one the API runs; built once. */
function schemaOf(def: MasterDefinition, mode: Mode) {
  const key = `${def.resource}|${mode}`;
  let schema = schemas.get(key);
  if (!schema) {
    schema = masterSchema(def, mode);
    schemas.set(key, schema);
  }
  return schema;
}

/**
 * The input's validator: the field's rule from the master's schema, so the browser shows the server's
 * words before anything is sent. Marked required for the label's asterisk when the field is.
 */
export function fieldValidator(def: MasterDefinition, field: MasterField, mode: Mode): Validator {
  const validate = (value: unknown) => {
    const rule = schemaOf(def, mode).shape[field.name];
    if (!rule) return undefined;
    const parsed = rule.safeParse(asSent(field, value));
    return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? undefined);
  };
  return Object.assign(validate, { isRequired: field.required });
}

/** Every field's message at once, `{ field: message }` (what the form would show on save). */
export function masterErrors(def: MasterDefinition, mode: Mode, values: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of def.fields) {
    const message = fieldValidator(def, field, mode)(values[field.name], values, {} as never);
    if (typeof message === 'string') errors[field.name] = message;
  }
  return errors;
}
