import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors, fields, messages, MAX_TEXT_LENGTH, patterns } from '../../../domain/src/validation/fields';
import { accountMessages } from './accounts';

/** Body fields the user screens share, with the spec's patterns and messages (spec 000 §5). */
const trimmed = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), schema);

export const personName = z
  .string({ error: messages.required })
  .trim()
  .min(1, { error: messages.required })
  .max(MAX_TEXT_LENGTH, { error: messages.tooLong })
  .regex(patterns.name, { error: messages.name });

export const emailId = trimmed(fields.email).transform((v) => v.toLowerCase());
export const mobileNo = trimmed(fields.mobile);

/** A reason for a block or unblock: free text, optional where the spec's screen sends none. */
export const reason = fields.text.optional();

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new DomainError('validation', accountMessages.invalid, fieldErrors(parsed.error));
  return parsed.data;
}

/** The e-mail id is what a user signs in with: it changes only through the verified contact-change flow. */
export const emailChangeRefused = 'The e-mail id cannot be changed here. Please send the user an e-mail / mobile change link';

export function assertSameEmail(body: unknown, current: string): void {
  const sent = (body as { emailId?: unknown } | null)?.emailId;
  if (typeof sent === 'string' && sent.trim() !== '' && sent.trim().toLowerCase() !== current)
    throw new DomainError('rule', emailChangeRefused, { emailId: emailChangeRefused });
}

/** Opaque ids in paths: anything implausible is simply not found. */
export const idParam = z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/);
