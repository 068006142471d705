import { Router } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { STAFF_ROLES } from '../../../domain/src/identity/roles';
import { listTasks } from '../../../projections/src/tasks/tasks.queries';
import { principalOf, requireAuth } from '../http/auth';
import { listScope } from '../onboarding/access';
import { parseListQuery, sendList } from '../http/simple-rest';

const TASK_SORT_FIELDS = [
  'id',
  'baId',
  'companyCode',
  'companyName',
  'stage',
  'submission',
  'createdAt',
  'ageSeconds',
  'slaDueAt',
  'overdue',
] as const;

/** "My Pending Task": the open review tasks the caller's roles may decide, within their company codes. */
export function taskRoutes({ pool }: { pool: Pool }): Router {
  const router = Router();
  router.get('/tasks', requireAuth({ roles: STAFF_ROLES, app: 'console' }), async (req, res) => {
    const p = principalOf(res);
    const { sort, range } = parseListQuery(req.query, {
      sortFields: TASK_SORT_FIELDS,
      defaultSort: { field: 'createdAt', order: 'ASC' },
      filter: z.object({}).strict(),
    });
    const { rows, total } = await listTasks(pool, {
      roles: p.roles,
      // Narrowed like every list: the active company code, or all of the caller's.
      companyCodes: listScope(p).companyCodes,
      userId: p.userId,
      range,
      sort,
    });
    sendList(res, 'tasks', range, rows, total);
  });
  return router;
}
