import { Router } from 'express';
import type { Pool } from 'pg';
import { AUDITOR_ROLE, BA_ROLES, STAFF_ROLES, type Role } from '../../../domain/src/identity/roles';
import { DomainError } from '../../../domain/src/shared/errors';
import { getBusinessAssociate } from '../../../projections/src/business-associates/business-associates.queries';
import { indianToday, PERIODS, type Period } from '../../../projections/src/performance/periods';
import { performanceOf } from '../../../projections/src/performance/performance.queries';
import { principalOf, requireAuth } from '../http/auth';
import { baIdParam, isBaCaller, mayAccessBa, notFound } from '../onboarding/access';
import { homeOf } from './home';

/**
 * The performance dashboard and the verified BA's home (issue 11), both read-only over the read models:
 * `ba_performance` (projections/src/performance) and the BA's vendor codes, RFPs, invoices, documents and
 * notifications. `now` is injectable so tests can pin "today".
 */
export type PerformanceRoutesDeps = { pool: Pool; now?: () => Date };

export const performanceMessages = { period: 'period must be month, quarter or year' } as const;

const READERS: readonly Role[] = [...BA_ROLES, ...STAFF_ROLES, AUDITOR_ROLE];

export function performanceRoutes(deps: PerformanceRoutesDeps): Router {
  const { pool } = deps;
  const now = deps.now ?? (() => new Date());
  const router = Router();

  router.get('/performance/:id', requireAuth({ roles: READERS }), async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const raw = req.query['period'] ?? 'month';
    if (typeof raw !== 'string' || !(PERIODS as readonly string[]).includes(raw))
      throw new DomainError('validation', performanceMessages.period, { period: performanceMessages.period });
    // A BA sees only itself; staff a BA of their company codes; anything else is not found (existence does not leak).
    if (isBaCaller(p)) {
      if (p.baId !== baId) throw notFound();
    } else {
      const ba = await getBusinessAssociate(pool, baId);
      if (!ba || !mayAccessBa(p, ba)) throw notFound();
    }
    res.json(await performanceOf(pool, baId, raw as Period, indianToday(now())));
  });

  router.get('/home', requireAuth({ roles: BA_ROLES, app: 'portal' }), async (_req, res) => {
    const p = principalOf(res);
    if (p.baId === null) throw notFound();
    const at = now();
    res.json(await homeOf(pool, { baId: p.baId, userId: p.userId, today: indianToday(at), now: at }));
  });

  return router;
}
