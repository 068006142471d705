import { createHash, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { appliedMessage, blockMessages, type BlockState } from '../../../domain/src/block/decide';
import { AUDITOR_ROLE, BLOCK_APPROVERS, BLOCK_REQUESTERS, STAFF_ROLES, type Role } from '../../../domain/src/identity/roles';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { fields as fieldRules } from '../../../domain/src/validation/fields';
import type { BlobStore } from '../../../platform/src/files';
import {
  BLOCK_SORT_FIELDS,
  getBlock,
  listBlocks,
  toBlockRow,
  type BlockRecord,
  type BlockRow,
} from '../../../projections/src/blocks/blocks.queries';
import { getBusinessAssociate } from '../../../projections/src/business-associates/business-associates.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { decideBlockRequest, startBlockRequest, waitForBlockOutcome } from '../../../workflows/src/block/client';
import type { BlockUpdateResult } from '../../../workflows/src/block/messages';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { HttpError } from '../http/problem';
import { parseListQuery, sendList } from '../http/simple-rest';
import { receiveUpload, sendFile } from '../http/uploads';
import { listScope, mayAccessBa, requestIds } from '../onboarding/access';

/**
 * Block and unblock of vendor codes (issue 9): staff ask (multipart with the attachment), a second person
 * approves or rejects, the workflow `block-<requestId>` applies it in the ERP. Reads from the `blocks` read model.
 */
export type BlockRoutesDeps = {
  pool: Pool;
  temporal: Client;
  taskQueue: string;
  blobStore: BlobStore;
  maxBytes: number;
  commandTimeoutMs: number;
  projectionWaitMs?: number;
};

/** Every staff role and the auditor read the blocks list (read-only for the auditor). */
const READERS: readonly Role[] = [...STAFF_ROLES, AUDITOR_ROLE];
const REQUEST_ID_NAMESPACE = '8b6f3f0c-4a3e-4c1e-9d65-0b8d3c1f2a77';

const listFilter = z
  .object({
    status: z.enum(['pending', 'approved', 'applied', 'rejected', 'refused', 'ended']),
    baId: z.string().trim().min(1).max(100),
    pan: z.string().trim().min(1).max(20),
    action: z.enum(['block', 'unblock']),
  })
  .partial()
  .strict();

const idParam = z.uuid();
const notFound = () => new DomainError('not_found', blockMessages.notFound);

const requestFields = z.object({
  baId: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/).optional(),
  pan: z.string().trim().toUpperCase().regex(/^[A-Z]{5}[0-9]{4}[A-Z]$/, { error: 'Please enter a valid PAN' }).optional(),
  action: z.enum(['block', 'unblock'], { error: 'Please choose block or unblock' }),
  scope: z.enum(['parent', 'child'], { error: 'Please choose parent or child' }),
  companyCode: z.string().trim().min(1).max(20).optional(),
  childCode: z.string().trim().min(1).max(40).optional(),
  reasonId: z.string({ error: blockMessages.reason }).trim().regex(/^\d{1,9}$/, { error: blockMessages.reason }),
  comments: z.string({ error: blockMessages.comments }).trim().min(1, { error: blockMessages.comments }).max(1000),
  endDate: fieldRules.date.optional(),
});
const TEXT_FIELDS = ['baId', 'pan', 'action', 'scope', 'companyCode', 'childCode', 'reasonId', 'comments', 'endDate'] as const;

const rejectBody = z.object({ remarks: z.string({ error: blockMessages.remarks }).trim().min(1, { error: blockMessages.remarks }).max(1000) });

/** The role the caller acts in: the first of `roles` it holds. */
const actorOf = (p: Principal, roles: readonly Role[]): Actor => ({
  userId: p.userId,
  role: p.roles.find((r) => roles.includes(r)) ?? roles[0] ?? 'MLL-ADMIN',
  name: p.name,
});

const emptyToUndefined = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v);

/** The row as the workflow holds it, when the read model has not caught up. */
const fromState = (id: string, s: BlockState, companyName: string | null): BlockRow => ({
  id,
  action: s.action ?? 'block',
  baId: s.baId,
  companyName,
  pan: s.pan ?? '',
  scope: s.scope?.level ?? 'parent',
  companyCode: s.scope?.companyCode ?? '',
  vendorCode: s.scope?.vendorCode ?? '',
  reasonId: s.reasonId ?? '',
  reason: s.reason ?? '',
  comments: s.comments ?? '',
  fileName: s.file?.name ?? null,
  fileType: s.file?.type ?? null,
  endDate: s.endDate,
  status: s.status === 'none' || s.status === 'ending' ? (s.status === 'none' ? 'pending' : 'applied') : s.status,
  requestedBy: { userId: s.requestedBy?.userId ?? '', name: s.requestedBy?.name ?? null, role: s.requestedBy?.role ?? '' },
  requestedAt: new Date().toISOString(),
  decidedBy: s.decidedBy ? { userId: s.decidedBy.userId, name: s.decidedBy.name ?? null, role: s.decidedBy.role } : null,
  decidedAt: null,
  remarks: s.remarks,
  waitingForErp: s.status === 'approved' || s.status === 'ending',
  lastErpError: s.lastErpError,
  erpMessage: s.erpRefusal,
  appliedAt: null,
  endedAt: null,
  updatedAt: new Date().toISOString(),
});

export function blockRoutes(deps: BlockRoutesDeps): Router {
  const { pool, blobStore } = deps;
  const router = Router();
  const readers = requireAuth({ roles: READERS, app: 'console' });
  const requesters = requireAuth({ roles: BLOCK_REQUESTERS, app: 'console' });
  const approvers = requireAuth({ roles: BLOCK_APPROVERS, app: 'console' });
  const waitMs = deps.projectionWaitMs ?? 2000;

  /** The request the path names, if the caller may see it (its company code is one of theirs); else 404. */
  async function visibleBlock(req: Request, p: Principal): Promise<BlockRecord> {
    const id = idParam.safeParse(req.params['id']);
    const record = id.success ? await getBlock(pool, id.data) : null;
    if (!record || !p.companyCodes.includes(record.companyCode)) throw notFound();
    return record;
  }

  /** The read model's row once it shows the position, else the workflow's state. */
  async function rowAfter(id: string, result: BlockUpdateResult, companyName: string | null): Promise<BlockRow> {
    const position = result.lastGlobalPosition;
    const caughtUp = position === 0 || (await waitForProjections(pool, position, { timeoutMs: waitMs, names: ['blocks'] }));
    const record = caughtUp ? await getBlock(pool, id) : null;
    return record ? toBlockRow(record) : fromState(id, result.state, companyName);
  }

  router.get('/blocks', readers, async (req, res) => {
    const p = principalOf(res);
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: BLOCK_SORT_FIELDS,
      defaultSort: { field: 'requestedAt', order: 'DESC' },
      filter: listFilter,
    });
    const { companyCodes } = listScope(p);
    const { rows, total } = await listBlocks(pool, { companyCodes, filter, sort, range });
    sendList(res, 'blocks', range, rows, total);
  });

  router.get('/blocks/:id', readers, async (req, res) => {
    res.json(toBlockRow(await visibleBlock(req, principalOf(res))));
  });

  router.get('/blocks/:id/file', readers, async (req, res) => {
    const record = await visibleBlock(req, principalOf(res));
    if (!record.file) throw new HttpError(404, 'File not found');
    await sendFile(res, blobStore, record.file, { inline: req.query['inline'] === '1' });
  });

  router.post('/blocks', requesters, async (req, res) => {
    const p = principalOf(res);
    const ids = requestIds(req);
    const { fields, file } = await receiveUpload(req, { blobStore, kinds: 'imageOrPdf', maxBytes: deps.maxBytes, textFields: TEXT_FIELDS });
    const parsed = requestFields.safeParse(Object.fromEntries(TEXT_FIELDS.map((f) => [f, emptyToUndefined(fields[f])])));
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
      throw new DomainError('validation', Object.values(errors)[0] ?? blockMessages.invalid, errors);
    }
    const f = parsed.data;
    if (!f.baId && !f.pan) throw new DomainError('validation', 'Please choose a BA or a vendor PAN', { baId: 'Required' });
    if (f.scope === 'child' && !f.childCode) throw new DomainError('validation', 'Please choose the child code', { childCode: 'Required' });
    let companyName: string | null = null;
    let companyCode = f.companyCode ?? null;
    if (f.baId) {
      const ba = await getBusinessAssociate(pool, f.baId);
      if (!ba || !mayAccessBa(p, ba)) throw new DomainError('not_found', 'Business associate not found');
      companyName = ba.companyName;
      companyCode = companyCode ?? ba.companyCode;
    }
    if (!companyCode) {
      const { companyCodes } = listScope(p);
      companyCode = companyCodes.length === 1 ? (companyCodes[0] ?? null) : null;
    }
    if (!companyCode) throw new DomainError('validation', 'Please choose the company code', { companyCode: 'Required' });
    if (!p.companyCodes.includes(companyCode)) throw new DomainError('forbidden', 'You may not act for company code ' + companyCode);
    if (ids.key) {
      const fingerprint = createHash('sha256')
        .update(JSON.stringify([req.method, '/api/blocks', f, file.sha256]))
        .digest('hex');
      await bindIdempotencyKey(pool, p.userId, ids.key, fingerprint);
    }
    const requestId = ids.key ? uuidv5(`${p.userId}:${ids.key}`, REQUEST_ID_NAMESPACE) : randomUUID();
    const result = await startBlockRequest(
      deps.temporal,
      deps.taskQueue,
      {
        requestId,
        action: f.action,
        baId: f.baId ?? null,
        pan: f.baId ? null : (f.pan ?? null),
        level: f.scope,
        companyCode,
        childCode: f.childCode ?? null,
        reasonId: f.reasonId,
        comments: f.comments,
        file,
        endDate: f.endDate ?? null,
        requestedBy: actorOf(p, BLOCK_REQUESTERS),
        correlationId: ids.correlationId,
      },
      { timeoutMs: deps.commandTimeoutMs },
    );
    const block = await rowAfter(requestId, result, companyName);
    res.status(201).json({ id: requestId, status: 'pending', message: blockMessages.requested, block });
  });

  router.post('/blocks/:id/approve', approvers, async (req, res) => {
    const p = principalOf(res);
    const started = Date.now();
    const record = await visibleBlock(req, p);
    const ids = requestIds(req);
    await decideBlockRequest(
      deps.temporal,
      record.id,
      { kind: 'approve' },
      { actor: actorOf(p, BLOCK_APPROVERS), requestId: `approve:${record.id}:${p.userId}:${ids.requestId}`, correlationId: ids.correlationId, timeoutMs: deps.commandTimeoutMs },
    );
    // The ERP's answer within what is left of the command's time; else 202 and the list shows "waiting for ERP".
    const left = Math.max(0, deps.commandTimeoutMs - (Date.now() - started) - waitMs);
    const outcome = await waitForBlockOutcome(deps.temporal, record.id, left);
    if (outcome && outcome.state.status === 'refused') {
      throw new DomainError('validation', outcome.state.erpRefusal ?? 'The ERP refused the request');
    }
    if (outcome && (outcome.state.status === 'applied' || outcome.state.status === 'ended')) {
      const block = await rowAfter(record.id, outcome, record.companyName);
      return res.json({ message: appliedMessage(record.action), block });
    }
    const block = (await getBlock(pool, record.id).then((r) => (r ? toBlockRow(r) : null))) ?? toBlockRow(record);
    res.status(202).json({ message: blockMessages.waitingForErp, block });
  });

  router.post('/blocks/:id/reject', approvers, async (req, res) => {
    const p = principalOf(res);
    const record = await visibleBlock(req, p);
    const body = rejectBody.safeParse(req.body ?? {});
    if (!body.success) throw new DomainError('validation', blockMessages.remarks, { remarks: blockMessages.remarks });
    const ids = requestIds(req);
    const result = await decideBlockRequest(
      deps.temporal,
      record.id,
      { kind: 'reject', remarks: body.data.remarks },
      { actor: actorOf(p, BLOCK_APPROVERS), requestId: `reject:${record.id}:${p.userId}:${ids.requestId}`, correlationId: ids.correlationId, timeoutMs: deps.commandTimeoutMs },
    );
    res.json({ message: blockMessages.rejected, block: await rowAfter(record.id, result, record.companyName) });
  });

  return router;
}
