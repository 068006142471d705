import { Router } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import { getMemo, listMemos, MEMO_SORT_FIELDS, type MemoRow, type MemoScope } from '../../../projections/src/memos/memos.queries';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { intFilter, parseListQuery, sendList } from '../http/simple-rest';
import { INVOICE_READERS } from '../invoices/reads';
import { isBaCaller, listScope } from '../onboarding/access';

/**
 * Bill-Hub memo reads (issue 11): the list (react-admin simple-rest) and one memo with its invoices and
 * advances. A BA reads its own memos; staff and the Auditor the memos of their company codes; anything else is
 * 404. The memo commands and the PDF (api/src/memos/commands.ts) are mounted before these routes.
 */
export type MemoReadDeps = { pool: Pool };

const text = (max: number) => z.string().trim().min(1).max(max);
export const memoListFilter = z
  .object({ baId: text(100), companyCode: text(20), q: text(100), fromStateId: intFilter, toStateId: intFilter })
  .partial()
  .strict();

const idParam = z.uuid();
export const memoNotFound = () => new DomainError('not_found', 'Memo not found');

export function memoScope(p: Principal): MemoScope {
  const scope = listScope(p);
  return scope.baId !== undefined ? { baId: scope.baId } : { companyCodes: scope.companyCodes };
}

export function mayReadMemo(p: Principal, memo: Pick<MemoRow, 'baId' | 'companyCode'>): boolean {
  if (isBaCaller(p)) return p.baId !== null && p.baId === memo.baId;
  return p.companyCodes.includes(memo.companyCode);
}

export function memoReadRoutes(deps: MemoReadDeps): Router {
  const { pool } = deps;
  const router = Router();
  const readers = requireAuth({ roles: INVOICE_READERS, billHub: true });

  router.get('/memos', readers, async (req, res) => {
    const p = principalOf(res);
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: MEMO_SORT_FIELDS,
      defaultSort: { field: 'submittedAt', order: 'DESC' },
      filter: memoListFilter,
      defaultPageSize: 25,
    });
    const { rows, total } = await listMemos(pool, { scope: memoScope(p), filter, sort, range });
    sendList(res, 'memos', range, rows, total);
  });

  router.get('/memos/:id', readers, async (req, res) => {
    const p = principalOf(res);
    const id = idParam.safeParse(req.params['id']);
    const memo = id.success ? await getMemo(pool, id.data) : null;
    if (!memo || !mayReadMemo(p, memo)) throw memoNotFound();
    res.json(memo);
  });

  return router;
}
