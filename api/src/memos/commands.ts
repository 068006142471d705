import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { BA_ROLES, INVOICE_ACCOUNTS, type Role } from '../../../domain/src/identity/roles';
import { memoMessages } from '../../../domain/src/memos/decide';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { isVendorBlocked } from '../../../projections/src/blocks/blocks.queries';
import { getMemo, type MemoDetail } from '../../../projections/src/memos/memos.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { recordAdvancePayment, submitMemo } from '../../../workflows/src/memos/client';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { INVOICE_READERS } from '../invoices/reads';
import { isBaCaller, requestIds } from '../onboarding/access';
import { mayReadMemo, memoNotFound } from './reads';
import { memoPdfFilename, renderMemoPdf } from './pdf';

/**
 * Bill-Hub memo commands (issue 11): a BA submits a memo of its invoices (workflow `memo-<memoId>`: claim,
 * number, record), accounts record advance payments against it, and anyone who may read the memo downloads
 * its PDF. Mounted before the memo reads (api/src/memos/reads.ts), whose access rule it shares.
 */
export type MemoCommandDeps = {
  pool: Pool;
  temporal: Client;
  taskQueue: string;
  commandTimeoutMs: number;
  projectionWaitMs?: number;
  /** Tests: an uncompressed PDF whose text can be searched. */
  compressPdf?: boolean;
};

/** Wire contract (mirrors domain/src/rfp/messages.ts baBlocked). */
export const VENDOR_BLOCKED_MESSAGE = 'Your vendor code is blocked. You cannot submit invoices';
const MEMO_ID_NAMESPACE = '3c0f5a4e-8d6b-4f7e-9a1c-2b7d5e9f0a13';
const ADVANCE_ID_NAMESPACE = '5e2a9c7b-1f4d-4b8a-8c3e-6d9f0b2a4c15';

const submitBody = z.object({
  invoiceIds: z.array(z.uuid({ error: memoMessages.invoiceNotFound }), { error: memoMessages.noInvoices }).min(1, { error: memoMessages.noInvoices }).max(500),
  comments: z.string().max(1000).nullish(),
});
const textValue = z.union([z.string(), z.number()]).transform(String).optional();
const advanceBody = z.object({ amount: textValue, reference: textValue, paidOn: textValue });
const idParam = z.uuid();

const actorOf = (p: Principal, roles: readonly Role[]): Actor => ({
  userId: p.userId,
  role: p.roles.find((r) => roles.includes(r)) ?? roles[0] ?? 'BA User',
  name: p.name,
});

/** A stable id for a retried request (same user, same Idempotency-Key), else a fresh one. */
const idFor = (p: Principal, key: string | null, namespace: string): string => (key ? uuidv5(`${p.userId}:${key}`, namespace) : randomUUID());

export function memoCommandRoutes(deps: MemoCommandDeps): Router {
  const { pool } = deps;
  const router = Router();
  const bas = requireAuth({ roles: BA_ROLES, billHub: true });
  const accounts = requireAuth({ roles: INVOICE_ACCOUNTS, app: 'console' });
  const readers = requireAuth({ roles: INVOICE_READERS, billHub: true });
  const waitMs = deps.projectionWaitMs ?? 2000;

  async function visibleMemo(req: Request, p: Principal): Promise<MemoDetail> {
    const id = idParam.safeParse(req.params['id']);
    const memo = id.success ? await getMemo(pool, id.data) : null;
    if (!memo || !mayReadMemo(p, memo)) throw memoNotFound();
    return memo;
  }

  /** The read model's memo once it shows the position (the command's answer carries the row the lists show). */
  async function memoAfter(id: string, position: number): Promise<MemoDetail | null> {
    if (position > 0) await waitForProjections(pool, position, { timeoutMs: waitMs, names: ['memos'] });
    return getMemo(pool, id);
  }

  router.post('/memos', bas, async (req, res) => {
    const p = principalOf(res);
    if (!isBaCaller(p) || !p.baId) throw new DomainError('forbidden', 'Only a business associate can submit a memo');
    const body = submitBody.safeParse(req.body ?? {});
    if (!body.success) {
      const message = body.error.issues[0]?.message ?? memoMessages.noInvoices;
      throw new DomainError('validation', message, { invoiceIds: message });
    }
    if (await isVendorBlocked(pool, { baId: p.baId })) throw new DomainError('forbidden', VENDOR_BLOCKED_MESSAGE);
    const ids = requestIds(req);
    if (ids.key && ids.fingerprint) await bindIdempotencyKey(pool, p.userId, ids.key, ids.fingerprint);
    const memoId = idFor(p, ids.key, MEMO_ID_NAMESPACE);
    const result = await submitMemo(
      deps.temporal,
      deps.taskQueue,
      {
        memoId,
        baId: p.baId,
        invoiceIds: body.data.invoiceIds,
        comments: body.data.comments?.trim() || null,
        submittedBy: actorOf(p, BA_ROLES),
        correlationId: ids.correlationId,
      },
      { timeoutMs: deps.commandTimeoutMs },
    );
    const memo = await memoAfter(memoId, result.lastGlobalPosition);
    res.status(201).json({ id: memoId, memoNumber: result.state.memoNumber, message: memoMessages.submitted, memo });
  });

  router.post('/memos/:id/advances', accounts, async (req, res) => {
    const p = principalOf(res);
    const memo = await visibleMemo(req, p);
    const body = advanceBody.safeParse(req.body ?? {});
    if (!body.success) throw new DomainError('validation', memoMessages.advanceAmount, { amount: memoMessages.advanceAmount });
    const ids = requestIds(req);
    if (ids.key && ids.fingerprint) await bindIdempotencyKey(pool, p.userId, ids.key, ids.fingerprint);
    // The decider checks the fields and the balance (400 / 422) in the workflow's validator: nothing recorded then.
    const result = await recordAdvancePayment(deps.temporal, memo.id, {
      actor: actorOf(p, INVOICE_ACCOUNTS),
      requestId: idFor(p, ids.key, ADVANCE_ID_NAMESPACE),
      correlationId: ids.correlationId,
      amount: body.data.amount ?? '',
      reference: body.data.reference ?? '',
      paidOn: body.data.paidOn ?? '',
      timeoutMs: deps.commandTimeoutMs,
    });
    res.status(201).json({ message: memoMessages.advanceRecorded, memo: (await memoAfter(memo.id, result.lastGlobalPosition)) ?? memo });
  });

  router.get('/memos/:id/pdf', readers, async (req, res) => {
    const memo = await visibleMemo(req, principalOf(res));
    const pdf = await renderMemoPdf(memo, { compress: deps.compressPdf ?? true });
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `attachment; filename="${memoPdfFilename(memo.memoNumber)}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(pdf);
  });

  return router;
}
