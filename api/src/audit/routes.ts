import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import { baStreamId } from '../../../domain/src/onboarding';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { activityOfBa, searchActivity } from '../../../projections/src/activity-log/activity-log.queries';
import { principalOf } from '../http/auth';
import { parseListQuery, sendList } from '../http/simple-rest';
import { baIdParam, listScope, loadVisibleBa } from '../onboarding/access';
import { auditReaders } from './access';
import { stateAsOf, withMasterNames } from './as-of';
import { auditEventRow, exportFileName, writeAuditWorkbook, type BaAuditExport } from './export';

/**
 * What auditors (and MLL-ADMIN) check for themselves (issue 6): a search across BAs' activity logs, a BA as
 * of any instant, and the export of a BA's activity log and events. The chain verification is
 * `POST /api/audit/verify` (anchor-routes.ts).
 */
export type AuditRoutesDeps = { pool: Pool; store: EventStore };

const instant = z.iso.datetime({ offset: true, error: 'Give a date and time in ISO 8601 with its zone, e.g. 2025-11-03T10:30:00+05:30' });

const searchFilter = z
  .object({
    actor: z.string().trim().max(200),
    action: z.string().trim().max(200),
    from: instant,
    to: instant,
    baId: z.string().max(100).regex(/^[A-Za-z0-9_-]+$/, { error: 'Unknown BA id' }),
  })
  .partial()
  .strict();

const SEARCH_SORT_FIELDS = ['at', 'id', 'action', 'role', 'actorName', 'companyName'] as const;

/** One query value: a repeated parameter (an array under the simple parser) is refused like a bad one. */
function parseQuery<T extends z.ZodType>(schema: T, req: Request): z.output<T> {
  const parsed = schema.safeParse(req.query);
  if (!parsed.success) throw new DomainError('validation', 'Invalid request parameters', fieldErrors(parsed.error));
  return parsed.data;
}

const asOfQuery = z.object({ at: instant });
const exportQuery = z.object({ format: z.enum(['xlsx', 'json'], { error: 'format must be xlsx or json' }).default('xlsx') });

export function auditRoutes(deps: AuditRoutesDeps): Router {
  const { pool, store } = deps;
  const router = Router();
  const auditors = auditReaders();

  router.get('/audit/activity', auditors, async (req, res) => {
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: SEARCH_SORT_FIELDS,
      defaultSort: { field: 'at', order: 'DESC' },
      filter: searchFilter,
      defaultPageSize: 25,
    });
    if (filter.from && filter.to && Date.parse(filter.from) > Date.parse(filter.to))
      throw new DomainError('validation', 'Invalid list filter', { 'filter.to': 'must not be before from' });
    // The caller's chosen company code (or all of theirs), exactly as the BA list is scoped.
    const { companyCodes } = listScope(principalOf(res));
    const { rows, total } = await searchActivity(pool, { companyCodes, filter, sort, range });
    sendList(res, 'audit-activity', range, rows, total);
  });

  router.get('/business-associates/:id/as-of', auditors, async (req, res) => {
    const id = baIdParam(req);
    // Visibility first, against the stream as it is now (a 404 says nothing about the date asked).
    await loadVisibleBa(store, principalOf(res), id);
    const { at } = parseQuery(asOfQuery, req);
    res.json(await withMasterNames(pool, stateAsOf(id, await store.readStream(baStreamId(id)), new Date(at))));
  });

  router.get('/business-associates/:id/audit-export', auditors, async (req, res) => {
    const id = baIdParam(req);
    await loadVisibleBa(store, principalOf(res), id);
    const { format } = parseQuery(exportQuery, req);
    const now = new Date();
    // Both read before the first byte goes out: a failure is still a plain problem answer, not a cut file.
    const [activityLog, events] = await Promise.all([activityOfBa(pool, id), store.readStream(baStreamId(id))]);
    const data: BaAuditExport = { baId: id, exportedAt: now.toISOString(), activityLog, events: events.map(auditEventRow) };
    res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(id, now, format)}"`);
    if (format === 'json') return void res.json(data);
    res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    await writeAuditWorkbook(res, data);
  });

  return router;
}
