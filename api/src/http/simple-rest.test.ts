import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import { contentRange, intFilter, MAX_PAGE_SIZE, parseListQuery } from './simple-rest';

const options = {
  sortFields: ['id', 'companyName', 'updatedAt'] as const,
  defaultSort: { field: 'updatedAt' as const, order: 'DESC' as const },
  filter: z.object({ status: z.string().optional(), cityId: intFilter.optional() }).strict(),
};

const refusal = (query: Record<string, string>): DomainError => {
  try {
    parseListQuery(query, options);
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('parseListQuery', () => {
  it('reads react-admin’s sort, inclusive range and filter', () => {
    const q = parseListQuery(
      { sort: '["companyName","ASC"]', range: '[25,49]', filter: '{"status":"verified","cityId":"2701"}' },
      options,
    );
    expect(q).toEqual({
      sort: { field: 'companyName', order: 'ASC' },
      range: { offset: 25, limit: 25 },
      filter: { status: 'verified', cityId: 2701 },
    });
  });

  it('falls back to the default sort and a first page of ten', () => {
    expect(parseListQuery({}, options)).toEqual({
      sort: { field: 'updatedAt', order: 'DESC' },
      range: { offset: 0, limit: 10 },
      filter: {},
    });
  });

  it(`caps the page at ${MAX_PAGE_SIZE} rows`, () => {
    expect(parseListQuery({ range: '[0,100000]' }, options).range).toEqual({ offset: 0, limit: MAX_PAGE_SIZE });
  });

  it('refuses a sort field that is not sortable (no free text reaches SQL)', () => {
    const e = refusal({ sort: '["password_hash","ASC"]' });
    expect(e.code).toBe('validation');
    expect(Object.keys(e.errors ?? {})).toEqual(['sort.0']);
  });

  it('refuses a sort order other than ASC or DESC', () => {
    expect(refusal({ sort: '["id","ASC; DROP TABLE users"]' }).errors).toHaveProperty(['sort.1']);
  });

  it('refuses text that is not JSON, naming the parameter', () => {
    expect(refusal({ range: '0-24' }).errors).toEqual({ range: 'range must be valid JSON' });
  });

  it('refuses a backwards or negative range', () => {
    expect(refusal({ range: '[10,5]' }).errors).toHaveProperty('range');
    expect(refusal({ range: '[-1,5]' }).errors).toHaveProperty(['range.0']);
  });

  it('refuses a parameter given twice', () => {
    expect(() => parseListQuery({ range: ['[0,9]', '[0,9]'] } as never, options)).toThrow(DomainError);
  });

  it('ignores cleared filter inputs (empty text or null)', () => {
    expect(parseListQuery({ filter: '{"status":"","cityId":null}' }, options).filter).toEqual({});
  });

  it('refuses unknown or malformed filters with field errors', () => {
    expect(refusal({ filter: '{"nope":1}' }).errors).toEqual({ 'filter.nope': 'Unknown filter' });
    expect(refusal({ filter: '{"cityId":"Mumbai"}' }).errors).toEqual({ 'filter.cityId': 'must be a whole number' });
  });
});

describe('contentRange', () => {
  it('names the resource, the inclusive range served and the total', () => {
    expect(contentRange('business-associates', 0, 25, 319)).toBe('business-associates 0-24/319');
    expect(contentRange('business-associates', 300, 19, 319)).toBe('business-associates 300-318/319');
  });

  it('uses the unsatisfied form for an empty page, still ending in the total', () => {
    expect(contentRange('tasks', 0, 0, 0)).toBe('tasks */0');
    expect(contentRange('tasks', 50, 0, 12)).toBe('tasks */12');
  });
});
