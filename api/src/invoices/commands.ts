import { stateNameOf } from '../../../domain/src/masters/reference-data/states';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { BA_ROLES, INVOICE_ACCOUNTS, INVOICE_COMMERCIAL, type Role } from '../../../domain/src/identity/roles';
import { invoiceMessages as m, MAX_INVOICE_ATTACHMENT_BYTES } from '../../../domain/src/invoices/messages';
import { parseInvoiceFields } from '../../../domain/src/invoices/fields';
import type { InvoiceFields } from '../../../domain/src/invoices/events';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import type { BlobStore } from '../../../platform/src/files';
import { getInvoice, toInvoiceRow, type InvoiceRow } from '../../../projections/src/invoices/invoices.queries';
import { findUserById } from '../../../projections/src/identity/users.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { activeLocations, childCodesOf, commercialUsers, vendorBlocked } from '../../../workflows/src/invoices/resolve';
import {
  addInvoiceAttachment,
  createInvoiceDraft,
  invoiceCommand,
  waitForInvoiceBooking,
  type InvoiceRequest,
  type InvoiceUpdateResult,
} from '../../../workflows/src/invoices/client';
import type { InvoiceCaller } from '../../../workflows/src/invoices/client';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { receiveUpload } from '../http/uploads';
import { requestIds } from '../onboarding/access';

/**
 * Bill-Hub invoice commands (issue 11): the BA's drafts, submissions and attachments, the staff transitions,
 * each through the invoice's workflow `invoice-<id>`. Answers carry the invoice as the read model shows it once
 * it has caught up with the command. Mounted before the reads (api/src/invoices/reads.ts).
 */
export type InvoiceCommandDeps = {
  pool: Pool;
  temporal: Client;
  taskQueue: string;
  blobStore: BlobStore;
  commandTimeoutMs: number;
  projectionWaitMs?: number;
};

const INVOICE_ID_NAMESPACE = '2f0b8f7e-6a1d-4d8e-9b1c-7e3a5c9d1f42';
const REJECTERS: readonly Role[] = [...new Set([...INVOICE_COMMERCIAL, ...INVOICE_ACCOUNTS])];
const REVOKERS: readonly Role[] = [...BA_ROLES, ...INVOICE_ACCOUNTS];
const idParam = z.uuid();
const notFound = () => new DomainError('not_found', m.notFound);

const actorOf = (p: Principal, roles: readonly Role[]): Actor => ({
  userId: p.userId,
  role: p.roles.find((r) => roles.includes(r)) ?? roles[0] ?? 'MLL-ADMIN',
  name: p.name,
});

const fieldsOrRefuse = (body: unknown): InvoiceFields => {
  const parsed = parseInvoiceFields(body);
  if ('errors' in parsed) throw new DomainError('validation', Object.values(parsed.errors)[0] ?? m.invalid, parsed.errors);
  return parsed.fields;
};

export function invoiceCommandRoutes(deps: InvoiceCommandDeps): Router {
  const { pool } = deps;
  const router = Router();
  // Bill-Hub routes: child Bill-Hub users (billHubOnly) may use them.
  const ba = requireAuth({ roles: BA_ROLES, app: 'portal', billHub: true });
  const commercial = requireAuth({ roles: INVOICE_COMMERCIAL, app: 'console' });
  const accounts = requireAuth({ roles: INVOICE_ACCOUNTS, app: 'console' });
  const rejecters = requireAuth({ roles: REJECTERS, app: 'console' });
  const revokers = requireAuth({ roles: REVOKERS, billHub: true });
  const waitMs = deps.projectionWaitMs ?? 2000;

  /** The caller as the workflow needs it: its BA and, for a child Bill-Hub user, its GST state. */
  async function callerOf(req: Request, p: Principal, roles: readonly Role[], tag: string): Promise<InvoiceCaller> {
    const ids = requestIds(req);
    const isBa = p.roles.some((r) => (BA_ROLES as readonly string[]).includes(r));
    const user = isBa ? await findUserById(pool, p.userId) : null;
    return {
      actor: actorOf(p, roles),
      actorBaId: isBa ? p.baId : null,
      billHubStateId: user?.billHubStateId ?? null,
      // The HTTP request is the update: a retried request with the same Idempotency-Key is the same update.
      requestId: `${tag}:${p.userId}:${ids.requestId}`,
      correlationId: ids.correlationId,
      timeoutMs: deps.commandTimeoutMs,
    };
  }

  /**
   * The invoice the path names if the caller may see it: a BA its own (drafts included), staff their company
   * codes and never a draft or a discarded one. Anything else is 404, so existence does not leak.
   */
  async function visible(req: Request, p: Principal): Promise<InvoiceRow> {
    const id = idParam.safeParse(req.params['id']);
    const record = id.success ? await getInvoice(pool, id.data) : null;
    if (!record) throw notFound();
    const row = toInvoiceRow(record);
    const isBa = p.roles.some((r) => (BA_ROLES as readonly string[]).includes(r));
    if (isBa) {
      if (row.baId !== p.baId) throw notFound();
    } else if (row.status === 'draft' || row.status === 'discarded' || !p.companyCodes.includes(row.companyCode ?? '')) throw notFound();
    return row;
  }

  /** The read model's row once it shows the command's position (the row may lag by the wait at most). */
  async function rowAfter(id: string, result: InvoiceUpdateResult): Promise<InvoiceRow | null> {
    const position = result.lastGlobalPosition;
    if (position > 0) await waitForProjections(pool, position, { timeoutMs: waitMs, names: ['invoices'] });
    const record = await getInvoice(pool, id);
    return record ? toInvoiceRow(record) : null;
  }

  async function run(req: Request, roles: readonly Role[], request: (row: InvoiceRow) => InvoiceRequest | Promise<InvoiceRequest>, p: Principal) {
    const row = await visible(req, p);
    const caller = await callerOf(req, p, roles, req.path.split('/').pop() ?? 'command');
    const result = await invoiceCommand(deps.temporal, row.id, await request(row), caller);
    return { id: row.id, result };
  }

  router.get('/invoices/form-options', ba, async (_req, res) => {
    const p = principalOf(res);
    const user = await findUserById(pool, p.userId);
    const states = user?.billHubStateId ?? null;
    const children = (await childCodesOf(pool, p.baId ?? '')).filter((c) => states === null || c.stateId === states);
    const companyCodes = [...new Set(children.map((c) => c.companyCode))];
    const users = (await Promise.all(companyCodes.map((c) => commercialUsers(pool, c)))).flat();
    const seen = new Set<string>();
    res.json({
      billingFrom: children.map((c) => ({ code: c.code, companyCode: c.companyCode, stateId: c.stateId, stateName: c.stateName })),
      billingTo: (await activeLocations(pool)).map((l) => ({ code: l.code, name: l.name, stateId: l.stateId, stateName: stateNameOf(l.stateId) })),
      commercialUsers: users.filter((u) => !seen.has(u.userId) && seen.add(u.userId)),
    });
  });

  router.post('/invoices', ba, async (req, res) => {
    const p = principalOf(res);
    if (!p.baId) throw new DomainError('forbidden', m.forbidden);
    const fields = fieldsOrRefuse(req.body);
    // Refused before a workflow starts: a blocked vendor's users create nothing.
    if (await vendorBlocked(pool, p.baId)) throw new DomainError('forbidden', m.vendorBlocked);
    const ids = requestIds(req);
    if (ids.key && ids.fingerprint) await bindIdempotencyKey(pool, p.userId, ids.key, ids.fingerprint);
    const invoiceId = ids.key ? uuidv5(`${p.userId}:${ids.key}`, INVOICE_ID_NAMESPACE) : randomUUID();
    const caller = await callerOf(req, p, BA_ROLES, 'create');
    const result = await createInvoiceDraft(deps.temporal, deps.taskQueue, { invoiceId, baId: p.baId, fields }, caller);
    res.status(201).json({ id: invoiceId, status: 'draft', message: m.saved, invoice: await rowAfter(invoiceId, result) });
  });

  router.put('/invoices/:id', ba, async (req, res) => {
    const { id, result } = await run(req, BA_ROLES, () => ({ kind: 'save', fields: fieldsOrRefuse(req.body) }), principalOf(res));
    res.json({ message: m.saved, invoice: await rowAfter(id, result) });
  });

  router.post('/invoices/:id/submit', ba, async (req, res) => {
    const p = principalOf(res);
    const hasBody = req.body && typeof req.body === 'object' && Object.keys(req.body as object).length > 0;
    const { id, result } = await run(
      req,
      BA_ROLES,
      async () => {
        // After the visibility check (another BA's invoice stays 404); the workflow checks it again when deciding.
        if (p.baId && (await vendorBlocked(pool, p.baId))) throw new DomainError('forbidden', m.vendorBlocked);
        return { kind: 'submit', fields: hasBody ? fieldsOrRefuse(req.body) : null };
      },
      p,
    );
    res.json({ message: m.submitted, invoice: await rowAfter(id, result) });
  });

  router.post('/invoices/:id/discard', ba, async (req, res) => {
    await run(req, BA_ROLES, () => ({ kind: 'discard' }), principalOf(res));
    res.json({ message: m.discarded });
  });

  router.post('/invoices/:id/acknowledge', commercial, async (req, res) => {
    const { id, result } = await run(req, INVOICE_COMMERCIAL, () => ({ kind: 'acknowledge' }), principalOf(res));
    res.json({ message: m.acknowledged, invoice: await rowAfter(id, result) });
  });

  router.post('/invoices/:id/verify', commercial, async (req, res) => {
    const { id, result } = await run(req, INVOICE_COMMERCIAL, () => ({ kind: 'verify' }), principalOf(res));
    res.json({ message: m.verified, invoice: await rowAfter(id, result) });
  });

  router.post('/invoices/:id/book', accounts, async (req, res) => {
    const started = Date.now();
    const { id } = await run(req, INVOICE_ACCOUNTS, () => ({ kind: 'book' }), principalOf(res));
    // The ERP's answer within what is left of the command's time; else 202 and the row says booking.
    const left = Math.max(0, deps.commandTimeoutMs - (Date.now() - started) - waitMs);
    const outcome = await waitForInvoiceBooking(deps.temporal, id, left);
    if (outcome && outcome.state.status === 'V') throw new DomainError('validation', outcome.state.lastErpError ?? 'The ERP refused the invoice');
    if (outcome && outcome.state.status === 'B') return res.json({ message: m.booked, invoice: await rowAfter(id, outcome) });
    const record = await getInvoice(pool, id);
    res.status(202).json({ message: m.bookingRequested, invoice: record ? toInvoiceRow(record) : null });
  });

  router.post('/invoices/:id/release', accounts, async (req, res) => {
    const { id, result } = await run(req, INVOICE_ACCOUNTS, () => ({ kind: 'release' }), principalOf(res));
    res.json({ message: m.released, invoice: await rowAfter(id, result) });
  });

  router.post('/invoices/:id/reject', rejecters, async (req, res) => {
    const remarks = typeof req.body?.remarks === 'string' ? req.body.remarks : '';
    const { id, result } = await run(req, REJECTERS, () => ({ kind: 'reject', remarks }), principalOf(res));
    res.json({ message: m.rejected, invoice: await rowAfter(id, result) });
  });

  router.post('/invoices/:id/revoke', revokers, async (req, res) => {
    const remarks = typeof req.body?.remarks === 'string' ? req.body.remarks : null;
    const { id, result } = await run(req, REVOKERS, () => ({ kind: 'revoke', remarks }), principalOf(res));
    res.json({ message: m.revoked, invoice: await rowAfter(id, result) });
  });

  router.post('/invoices/:id/attachments', ba, async (req, res) => {
    const p = principalOf(res);
    const row = await visible(req, p);
    // Checked before the upload is read: a sixth file is refused without storing a byte.
    if (row.attachments.length >= 5) throw new DomainError('validation', m.tooManyFiles);
    const { file } = await receiveUpload(req, { blobStore: deps.blobStore, kinds: 'invoiceAttachment', maxBytes: MAX_INVOICE_ATTACHMENT_BYTES });
    const attachment = { attachmentId: randomUUID(), name: file.name, size: file.size, type: file.type, sha256: file.sha256 };
    const caller = await callerOf(req, p, BA_ROLES, 'attach');
    const result = await addInvoiceAttachment(deps.temporal, row.id, attachment, caller);
    await rowAfter(row.id, result);
    res.status(201).json({ message: m.fileUploaded, attachment: { attachmentId: attachment.attachmentId, name: file.name, size: file.size, type: file.type } });
  });

  router.delete('/invoices/:id/attachments/:attachmentId', ba, async (req, res) => {
    const attachmentId = String(req.params['attachmentId'] ?? '');
    const { id, result } = await run(req, BA_ROLES, () => ({ kind: 'detach', attachmentId }), principalOf(res));
    await rowAfter(id, result);
    res.json({ message: m.fileDeleted });
  });

  return router;
}
