import type { Request, Response } from 'express';
import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors } from '../../../domain/src/validation/fields';

/**
 * The list conventions of ra-data-simple-rest: `?sort=["field","ASC"]&range=[0,24]&filter={...}`, answered
 * with a JSON array and `Content-Range: <resource> 0-24/319`. Ranges are inclusive, as react-admin sends them.
 */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;

export type SortOrder = 'ASC' | 'DESC';
export type Sort<Field extends string = string> = { field: Field; order: SortOrder };
export type Range = { offset: number; limit: number };
export type ListQuery<Filter, Field extends string = string> = { sort: Sort<Field>; range: Range; filter: Filter };

export type ListQueryOptions<Filter extends z.ZodType, Field extends string> = {
  sortFields: readonly Field[];
  defaultSort: Sort<Field>;
  filter: Filter;
  /** Page size when the caller sends no range. */
  defaultPageSize?: number;
};

/** Query values arrive as JSON text; a value repeated in the query string (an array) is refused. */
const jsonParam = (name: string) =>
  z
    .string({ error: `${name} must be JSON text` })
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `${name} must be valid JSON` });
        return z.NEVER;
      }
    })
    .optional();

const rangeSchema = z
  .tuple([z.number().int().min(0), z.number().int().min(0)], { error: 'range must be [start, end]' })
  .refine(([start, end]) => end >= start, { error: 'range end must not be before its start' });

/** A cleared filter input arrives as '' or null: it means "no filter", not "match the empty value". */
function withoutBlanks(filter: unknown): unknown {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return filter;
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== '' && v !== null));
}

/**
 * The sort/range/filter envelope of one list: built once per set of sort fields, not per request (building
 * and compiling zod schemas was a visible share of a list request's CPU in the issue-12 profile).
 */
const envelopes = new Map<string, z.ZodType>();
function envelopeOf(sortFields: readonly string[]): z.ZodType {
  const key = sortFields.join('\u0000');
  let schema = envelopes.get(key);
  if (!schema) {
    const fieldsSchema = z.enum(sortFields as unknown as [string, ...string[]], {
      error: `sort field must be one of ${sortFields.join(', ')}`,
    });
    const sortSchema = z.tuple([fieldsSchema, z.enum(['ASC', 'DESC'], { error: 'sort order must be ASC or DESC' })], {
      error: 'sort must be ["field", "ASC" | "DESC"]',
    });
    schema = z.object({
      sort: jsonParam('sort').pipe(sortSchema.optional()),
      range: jsonParam('range').pipe(rangeSchema.optional()),
      filter: jsonParam('filter').pipe(z.unknown()),
    });
    envelopes.set(key, schema);
  }
  return schema;
}

type Envelope<Field extends string> = { sort?: [Field, SortOrder]; range?: [number, number]; filter?: unknown };

export function parseListQuery<Filter extends z.ZodType, Field extends string>(
  query: Request['query'],
  options: ListQueryOptions<Filter, Field>,
): ListQuery<z.output<Filter>, Field> {
  const schema = envelopeOf(options.sortFields) as z.ZodType<Envelope<Field>>;
  const raw = schema.safeParse({ sort: query['sort'], range: query['range'], filter: query['filter'] });
  if (!raw.success) throw new DomainError('validation', 'Invalid list parameters', fieldErrors(raw.error));

  const filter = options.filter.safeParse(withoutBlanks(raw.data.filter ?? {}));
  if (!filter.success) {
    const errors = Object.fromEntries(Object.entries(fieldErrors(filter.error)).map(([k, v]) => [`filter.${k}`, v]));
    // A strict filter names the keys it does not know: report each under its own name.
    for (const issue of filter.error.issues) {
      if (issue.code !== 'unrecognized_keys') continue;
      delete errors['filter._'];
      for (const key of issue.keys) errors[`filter.${key}`] = 'Unknown filter';
    }
    throw new DomainError('validation', 'Invalid list filter', errors);
  }

  const [start, end] = raw.data.range ?? [0, (options.defaultPageSize ?? DEFAULT_PAGE_SIZE) - 1];
  // Capped silently rather than refused: react-admin then shows what it got, and Content-Range says so.
  const limit = Math.min(end - start + 1, MAX_PAGE_SIZE);
  const [field, order] = raw.data.sort ?? [options.defaultSort.field, options.defaultSort.order];
  return { sort: { field, order }, range: { offset: start, limit }, filter: filter.data };
}

/** `business-associates 0-24/319`; an empty page is `*\/total`, the unsatisfied-range form of RFC 9110. */
export function contentRange(resource: string, offset: number, count: number, total: number): string {
  return count > 0 ? `${resource} ${offset}-${offset + count - 1}/${total}` : `${resource} */${total}`;
}

export function sendList<T>(res: Response, resource: string, range: Range, rows: readonly T[], total: number): void {
  res.setHeader('Content-Range', contentRange(resource, range.offset, rows.length, total));
  res.json(rows);
}

/** Filters arrive as JSON: numbers may come as numbers or digit strings from URL-built filters. */
export const intFilter = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }),
);
