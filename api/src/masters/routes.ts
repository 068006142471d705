import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { BA_DEPARTMENTS, CITIES, COMPANIES, SERVICES, STATES } from '../../../domain/src/masters/catalog';
import { DomainError } from '../../../domain/src/shared/errors';
import { publicRoute, requireAuth } from '../http/auth';
import { intFilter, parseListQuery, sendList, type ListQuery } from '../http/simple-rest';

/**
 * Reference data for the forms, from the fixed catalogue until the Masters capability exists. Read-only
 * lists in ra-data-simple-rest form. Companies are public: the registration tab lists them before sign-in.
 */
type Item = Record<string, unknown> & { id: number | string };
type CommonFilter = { id?: number | number[]; q?: string };

const common = {
  id: z.union([intFilter, z.array(intFilter).max(100)]).optional(),
  q: z.string().trim().max(100).optional(),
};

function page<T extends Item>(items: readonly T[], query: ListQuery<CommonFilter>): { rows: T[]; total: number } {
  const { filter, sort, range } = query;
  let rows = [...items];
  if (filter.id !== undefined) {
    const ids = (Array.isArray(filter.id) ? filter.id : [filter.id]).map(String);
    rows = rows.filter((r) => ids.includes(String(r.id)));
  }
  if (filter.q) {
    const q = filter.q.toLowerCase();
    rows = rows.filter((r) => String(r['name'] ?? '').toLowerCase().includes(q));
  }
  const dir = sort.order === 'ASC' ? 1 : -1;
  rows.sort((a, b) => {
    const x = a[sort.field] as string | number;
    const y = b[sort.field] as string | number;
    return (x < y ? -1 : x > y ? 1 : 0) * dir;
  });
  return { rows: rows.slice(range.offset, range.offset + range.limit), total: rows.length };
}

function listRoute<T extends Item, F extends z.ZodRawShape>(
  resource: string,
  sortFields: readonly (keyof T & string)[],
  items: (filter: z.output<z.ZodObject<F>>) => readonly T[],
  filterShape: F = {} as F,
) {
  return (req: Request, res: Response) => {
    const query = parseListQuery(req.query, {
      sortFields,
      defaultSort: { field: 'name', order: 'ASC' },
      filter: z.object({ ...filterShape, ...common }).strict(),
      defaultPageSize: 100,
    });
    const { rows, total } = page(items(query.filter as z.output<z.ZodObject<F>>), query as ListQuery<CommonFilter>);
    sendList(res, resource, query.range, rows, total);
  };
}

function oneRoute<T extends Item>(items: readonly T[], what: string) {
  return (req: Request, res: Response) => {
    const item = items.find((i) => String(i.id) === req.params['id']);
    if (!item) throw new DomainError('not_found', `${what} not found`);
    res.json(item);
  };
}

const companies = COMPANIES.map((c) => ({ id: c.companyCode, companyCode: c.companyCode, name: c.name }));

export function masterRoutes(): Router {
  const router = Router();
  const signedIn = requireAuth();
  router.get('/states', signedIn, listRoute('states', ['id', 'name', 'stateCode'], () => STATES));
  router.get('/states/:id', signedIn, oneRoute(STATES, 'State'));
  router.get(
    '/cities',
    signedIn,
    listRoute(
      'cities',
      ['id', 'name', 'stateId'],
      (f) => CITIES.filter((c) => f.stateId === undefined || c.stateId === f.stateId),
      { stateId: intFilter.optional() },
    ),
  );
  router.get('/cities/:id', signedIn, oneRoute(CITIES, 'City'));
  router.get('/services', signedIn, listRoute('services', ['id', 'name', 'slug'], () => SERVICES));
  router.get('/services/:id', signedIn, oneRoute(SERVICES, 'Service'));
  router.get('/ba-departments', signedIn, listRoute('ba-departments', ['id', 'name'], () => BA_DEPARTMENTS));
  router.get('/companies', publicRoute(), listRoute('companies', ['id', 'name', 'companyCode'], () => companies));
  router.get('/companies/:id', publicRoute(), oneRoute(companies, 'Company'));
  return router;
}
