import type { ZodType } from 'zod';
import { messages } from '../../../domain/src/validation/fields';

/**
 * The forms check fields with the domain's zod rules, the very ones the API runs, so a message shown here is
 * the one the server would give. An empty mandatory field says so rather than naming the pattern.
 */
export function checkField(schema: ZodType, value: string, required = true): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return required ? messages.required : undefined;
  const result = schema.safeParse(trimmed);
  return result.success ? undefined : (result.error.issues[0]?.message ?? messages.required);
}

export type Errors<K extends string> = Partial<Record<K, string>>;

/** Drops the fields without a message, so "no errors" is an empty object. */
export const withoutEmpty = <K extends string>(errors: Errors<K>): Errors<K> =>
  Object.fromEntries(Object.entries(errors).filter(([, v]) => Boolean(v))) as Errors<K>;

export const hasErrors = (errors: Record<string, string | undefined>): boolean =>
  Object.values(errors).some(Boolean);
