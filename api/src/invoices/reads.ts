import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { AUDITOR_ROLE, BA_ROLES, STAFF_ROLES, type Role } from '../../../domain/src/identity/roles';
import type { InvoiceAction } from '../../../domain/src/invoices/commands';
import { allowedActions, evolveInvoice, initialInvoiceState } from '../../../domain/src/invoices/decide';
import { INVOICE_EVENT_TYPES, invoiceStreamId, type InvoiceEvent } from '../../../domain/src/invoices/events';
import { DomainError } from '../../../domain/src/shared/errors';
import type { BlobStore } from '../../../platform/src/files';
import { invoiceHistory } from '../../../projections/src/invoices/history';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../projections/src/invoices/invoice-events';
import {
  getInvoice,
  INVOICE_SORT_FIELDS,
  listInvoices,
  toInvoiceRow,
  type InvoiceRecord,
  type InvoiceRow,
  type InvoiceScope,
} from '../../../projections/src/invoices/invoices.queries';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { HttpError } from '../http/problem';
import { intFilter, parseListQuery, sendList } from '../http/simple-rest';
import { sendFile } from '../http/uploads';
import { isBaCaller, listScope } from '../onboarding/access';

/**
 * Bill-Hub invoice reads (issue 11): the list (react-admin simple-rest), one invoice with its history and the
 * caller's allowed actions, and its attachments. A BA reads its own invoices, drafts included; staff and the
 * Auditor read the invoices of their company codes once submitted. Anything else is 404, as if it did not exist.
 * The commands (api/src/invoices/commands.ts) are mounted before these routes.
 */
export type InvoiceReadDeps = { pool: Pool; store: EventStore; blobStore: BlobStore };

/** BA users (Bill-Hub-only ones included), every staff role and the Auditor; each route scopes what they see. */
export const INVOICE_READERS: readonly Role[] = [...BA_ROLES, ...STAFF_ROLES, AUDITOR_ROLE];

export const invoiceNotFound = () => new DomainError('not_found', 'Invoice not found');

const statusSchema = z.enum(INVOICE_STATUSES as unknown as [InvoiceStatus, ...InvoiceStatus[]]);
const flag = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());
const text = (max: number) => z.string().trim().min(1).max(max);
const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Please enter a valid date (YYYY-MM-DD)' });

export const invoiceListFilter = z
  .object({
    status: z.union([statusSchema, z.array(statusSchema).min(1).max(INVOICE_STATUSES.length)]),
    q: text(100),
    baId: text(100),
    companyCode: text(20),
    fromStateId: intFilter,
    toStateId: intFilter,
    dateFrom: dateText,
    dateTo: dateText,
    memoId: text(100),
    memoCandidates: flag,
    slaBreached: flag,
  })
  .partial()
  .strict();

/** Invoice ids are uuids; anything else is simply not found (and never reaches SQL). */
const idParam = z.uuid();
const INVOICE_TYPES: ReadonlySet<string> = new Set(INVOICE_EVENT_TYPES);
const attachmentIdParam = z.string().min(1).max(100);

/**
 * What the caller may do with the invoice now, for the buttons: helper A's `allowedActions` (the decider's own
 * rules, so a button is offered exactly when the command would pass) over the state folded from the invoice's
 * stream, which the route reads anyway for the history. The Auditor and staff without an invoice role: nothing.
 */
export function allowedInvoiceActions(events: readonly StoredEvent[], p: Principal): InvoiceAction[] {
  const state = events
    .filter((e) => INVOICE_TYPES.has(e.type))
    .reduce((s, e) => evolveInvoice(s, { type: e.type, data: e.data } as InvoiceEvent), initialInvoiceState);
  return allowedActions(state, { roles: p.roles, baId: p.baId, userId: p.userId });
}

/** Whose invoices the caller's lists hold: a BA its own; staff the chosen company code or all of theirs. */
export function invoiceScope(p: Principal): InvoiceScope {
  const scope = listScope(p);
  return scope.baId !== undefined ? { baId: scope.baId } : { companyCodes: scope.companyCodes };
}

/** Whether the caller may see this invoice at all (staff: every company code of theirs, never a draft). */
export function mayReadInvoice(p: Principal, invoice: Pick<InvoiceRow, 'baId' | 'companyCode' | 'status'>): boolean {
  if (isBaCaller(p)) return p.baId !== null && p.baId === invoice.baId;
  if (invoice.status === 'draft' || invoice.status === 'discarded') return false;
  return invoice.companyCode !== null && p.companyCodes.includes(invoice.companyCode);
}

export function invoiceReadRoutes(deps: InvoiceReadDeps): Router {
  const { pool, store, blobStore } = deps;
  const router = Router();
  const readers = requireAuth({ roles: INVOICE_READERS, billHub: true });

  async function visibleInvoice(req: Request, p: Principal): Promise<InvoiceRecord> {
    const id = idParam.safeParse(req.params['id']);
    const record = id.success ? await getInvoice(pool, id.data) : null;
    if (!record || !mayReadInvoice(p, record)) throw invoiceNotFound();
    return record;
  }

  router.get('/invoices', readers, async (req, res) => {
    const p = principalOf(res);
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: INVOICE_SORT_FIELDS,
      defaultSort: { field: 'invoiceDate', order: 'DESC' },
      filter: invoiceListFilter,
      defaultPageSize: 25,
    });
    const { rows, total } = await listInvoices(pool, { scope: invoiceScope(p), filter, sort, range });
    sendList(res, 'invoices', range, rows, total);
  });

  router.get('/invoices/:id', readers, async (req, res) => {
    const p = principalOf(res);
    const record = await visibleInvoice(req, p);
    const events = await store.readStream(invoiceStreamId(record.id));
    res.json({ ...toInvoiceRow(record), history: invoiceHistory(events), allowedActions: allowedInvoiceActions(events, p) });
  });

  router.get('/invoices/:id/attachments/:attachmentId', readers, async (req, res) => {
    const record = await visibleInvoice(req, principalOf(res));
    const attachmentId = attachmentIdParam.safeParse(req.params['attachmentId']);
    const file = attachmentId.success ? record.files.find((f) => f.attachmentId === attachmentId.data) : undefined;
    if (!file) throw new HttpError(404, 'File not found');
    await sendFile(res, blobStore, file, { inline: req.query['inline'] === '1' });
  });

  return router;
}
