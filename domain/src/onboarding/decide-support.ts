import type { z } from 'zod';
import { isBaRole, mayReviewStage, SYSTEM_ROLE } from '../identity/roles';
import type { CommandMetadata } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { fieldErrors, safeText } from '../validation/fields';
import type { FieldChange } from './events';

/** Helpers every part of the onboarding decider shares (decide.ts, decide-items.ts, submission.ts, change-requests.ts). */

export const INVALID_FIELDS = 'Please correct the highlighted fields';
export const REMARKS_REQUIRED = 'Remarks are required to reject';

/** The BA's own users, or the system acting for it (seed, registration, timers). */
export const actsForBa = (meta: CommandMetadata): boolean => meta.actor.role === SYSTEM_ROLE || isBaRole(meta.actor.role);

/** Staff who review onboarding items: anyone who may decide either review stage (REVIEW_STAGE_ROLES 1 ∪ 2). */
export const isItemReviewer = (meta: CommandMetadata): boolean =>
  mayReviewStage([meta.actor.role], 1) || mayReviewStage([meta.actor.role], 2);

export const invalid = (errors: Record<string, string>): DomainError => new DomainError('validation', INVALID_FIELDS, errors);

/** Parses raw input, or the validation refusal with one message per field. */
export function parseOrRefuse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> | DomainError {
  const parsed = schema.safeParse(input);
  return parsed.success ? parsed.data : invalid(fieldErrors(parsed.error));
}

const remarksSchema = safeText();

/** Trimmed remarks (null when blank), required to reject; checked by the free-text rules. */
export function parseRemarks(raw: string | null | undefined, required: boolean): string | null | DomainError {
  const trimmed = typeof raw === 'string' ? raw.trim() : '';
  if (trimmed === '') return required ? new DomainError('validation', REMARKS_REQUIRED, { remarks: REMARKS_REQUIRED }) : null;
  const parsed = remarksSchema.safeParse(trimmed);
  if (parsed.success) return parsed.data;
  // The schema sees a bare string, so its issues have no path: key them by the command's field name.
  const message = parsed.error.issues[0]?.message ?? 'Invalid remarks';
  return new DomainError('validation', message, { remarks: message });
}

/** Field-by-field before/after of two versions of an item (absent before = null), compared by value. */
export function changesOf<T extends object>(before: T | null | undefined, after: T): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [field, value] of Object.entries(after)) {
    const was = before ? ((before as Record<string, unknown>)[field] ?? null) : null;
    if (JSON.stringify(was) !== JSON.stringify(value ?? null)) changes[field] = { before: was, after: value ?? null };
  }
  return changes;
}

/** The decision time's calendar day (YYYY-MM-DD, UTC), for "today or later" rules. */
export const dayOf = (meta: CommandMetadata): string => meta.at.slice(0, 10);
