import type { ErrorRequestHandler, Response } from 'express';
import { ServiceError } from '@temporalio/client';
import { ConcurrencyError, DuplicateEventIdError } from '../../../domain/src/event-store/port';
import { DomainError, type DomainErrorCode } from '../../../domain/src/shared/errors';
import { CommandFailedError, CommandTimeoutError } from '../../../workflows/src/shared/command-deadline';

/**
 * Every error leaves the API as application/problem+json (RFC 9457) with a `message` field, which is what
 * react-admin shows, and `errors: { field: message }` for field-level validation. DomainError codes are
 * mapped to statuses here and nowhere else.
 */
export type Problem = {
  type: string;
  title: string;
  status: number;
  message: string;
  errors?: Record<string, string>;
  code?: string;
};

/** An error raised by the HTTP layer itself (no session, too many requests, dependency down, ...). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
    /** Further members of the problem body a client acts on (e.g. `captchaRequired`, `attemptsLeft`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const DOMAIN_STATUS: Record<DomainErrorCode, number> = {
  validation: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rule: 422,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const messages = {
  unauthenticated: 'Session Timed out.Please login again',
  forbidden: "You don't have enough rights to view this page.",
  notFound: 'Not found',
  tooLarge: 'The request is too large',
  badJson: 'The request body is not valid JSON',
  unavailable: 'A service the portal depends on is unavailable. Please try again shortly',
  internal: 'There was a problem at our end',
  concurrent: 'This record was changed by someone else. Please reload and try again',
} as const;

export function sendProblem(
  res: Response,
  status: number,
  message: string,
  errors?: Record<string, string>,
  code?: string,
  extra?: Record<string, unknown>,
): void {
  const body: Problem = { ...extra, type: 'about:blank', title: TITLES[status] ?? 'Error', status, message };
  if (errors && Object.keys(errors).length > 0) body.errors = errors;
  if (code) body.code = code;
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}

/** PostgreSQL connection-class errors (SQLSTATE 08xxx, 57P0x) and refused sockets mean the database is down. */
function isDatabaseDown(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return code.startsWith('08') || code.startsWith('57P') || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'].includes(code);
}

export type ProblemOf = {
  status: number;
  message: string;
  errors?: Record<string, string>;
  code?: string;
  headers?: Record<string, string>;
  extra?: Record<string, unknown>;
};

/** Maps any thrown value to the problem the client sees; unknown errors become a bare 500. */
export function problemOf(err: unknown): ProblemOf {
  if (err instanceof DomainError)
    return { status: DOMAIN_STATUS[err.code], message: err.message, errors: err.errors, code: err.code };
  if (err instanceof ConcurrencyError || err instanceof DuplicateEventIdError)
    return { status: 409, message: messages.concurrent, code: 'conflict' };
  if (err instanceof HttpError)
    return { status: err.status, message: err.message, errors: err.errors, headers: err.headers, extra: err.extra };
  // A workflow command past its deadline: the message says whether it can still be applied (`code` for clients).
  if (err instanceof CommandTimeoutError) return { status: 503, message: err.message, code: `timeout-${err.outcome}` };
  if (err instanceof CommandFailedError) return { status: 503, message: err.message, code: 'command-failed' };
  if (err instanceof ServiceError || isDatabaseDown(err)) return { status: 503, message: messages.unavailable };
  // body-parser's errors carry a `type` and a `status`.
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return { status: 413, message: messages.tooLarge };
  if (type === 'entity.parse.failed') return { status: 400, message: messages.badJson };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return { status: 415, message: 'Unsupported encoding' };
  return { status: 500, message: messages.internal };
}

export type ErrorLogger = (err: unknown, status: number) => void;

/** The last middleware: turns what routes throw into problems, logging only what is our fault (5xx). */
export const problemHandler =
  (log: ErrorLogger = () => undefined): ErrorRequestHandler =>
  (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const p = problemOf(err);
    if (p.status >= 500) log(err, p.status);
    for (const [k, v] of Object.entries(p.headers ?? {})) res.setHeader(k, v);
    sendProblem(res, p.status, p.message, p.errors, p.code, p.extra);
  };
