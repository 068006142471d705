/**
 * One error type for the whole back end, with codes mapped to HTTP statuses once (api/src/http/problem.ts).
 * `validation` → 400, `forbidden` → 403, `not_found` → 404, `conflict` → 409, `rule` → 422.
 */
export type DomainErrorCode = 'validation' | 'forbidden' | 'not_found' | 'conflict' | 'rule';

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  /** Field-level messages for `validation`, keyed by field name. */
  readonly errors: Record<string, string> | undefined;

  constructor(code: DomainErrorCode, message: string, errors?: Record<string, string>) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.errors = errors;
  }

  toJSON(): { code: DomainErrorCode; message: string; errors?: Record<string, string> } {
    return this.errors ? { code: this.code, message: this.message, errors: this.errors } : { code: this.code, message: this.message };
  }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
