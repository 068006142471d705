import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { BlobStore } from '../../../platform/src/files';
import { AUDITOR_ROLE, BA_ROLES, STAFF_ROLES, type Role } from '../../../domain/src/identity/roles';
import { getBusinessAssociate, type BusinessAssociateRow } from '../../../projections/src/business-associates/business-associates.queries';
import { findDuplicates } from '../../../projections/src/onboarding-items/duplicates.queries';
import {
  ADDITIONAL_DOCUMENT_SORT_FIELDS,
  getBankAccount,
  getConcession,
  getConcessionFile,
  getDocument,
  getDocumentFile,
  getGstRegistration,
  getVerticalMapping,
  listAdditionalDocuments,
  listBankAccounts,
  listCompanyApplications,
  listConcessions,
  listDocuments,
  listGstRegistrations,
} from '../../../projections/src/onboarding-items/items.queries';
import { DomainError } from '../../../domain/src/shared/errors';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { parseListQuery, sendList } from '../http/simple-rest';
import { sendFile } from '../http/uploads';
import { baIdParam, isBaCaller, listScope, mayAccessBa, notFound } from './access';

/**
 * The reads of a BA's onboarding items (issue 8), simple-rest under `/api/business-associates/:id/…`, from
 * the onboarding-items read models: a BA's own users and staff of the BA's company codes; anyone else gets
 * 404, as for a BA that does not exist. The per-BA lists are short (a handful of rows), so they are read
 * whole and paged here; the staff-wide additional-documents queue pages in SQL.
 */
export type ItemReadRoutesDeps = { pool: Pool; blobStore: BlobStore };

const STAFF_AND_AUDITOR: readonly Role[] = [...STAFF_ROLES, AUDITOR_ROLE];
const EVERYONE: readonly Role[] = [...BA_ROLES, ...STAFF_AND_AUDITOR];

/** Item ids are uuids chosen by the API (older test data uses other plain ids): anything else is not found. */
const itemIdSchema = z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/);
function itemParam(req: Request, name: string, what: string): string {
  const parsed = itemIdSchema.safeParse(req.params[name]);
  if (!parsed.success) throw new DomainError('not_found', `${what} not found`);
  return parsed.data;
}

const noFilter = z.object({}).strict();
const documentFilter = z.object({ kind: z.enum(['onboarding', 'additional'], { error: 'kind must be onboarding or additional' }) }).partial().strict();
const queueFilter = z
  .object({
    reviewStatus: z.enum(['pending', 'approved', 'rejected'], { error: 'reviewStatus must be pending, approved or rejected' }),
    baId: z.string().trim().min(1).max(100),
  })
  .partial()
  .strict();

export function itemReadRoutes(deps: ItemReadRoutesDeps): Router {
  const { pool, blobStore } = deps;
  const router = Router();
  const everyone = requireAuth({ roles: EVERYONE });
  const staff = requireAuth({ roles: STAFF_AND_AUDITOR, app: 'console' });

  /** The BA of the path, if the caller may see it (read model, like the BA page). */
  async function visibleBa(req: Request, p: Principal): Promise<BusinessAssociateRow> {
    const row = await getBusinessAssociate(pool, baIdParam(req));
    if (!row || !mayAccessBa(p, row)) throw notFound();
    return row;
  }

  /** A whole short list as a simple-rest page: range applied here, total = every row. */
  function sendWhole<T>(req: Request, res: Parameters<typeof sendList>[0], resource: string, rows: readonly T[]) {
    const { range } = parseListQuery(req.query, { sortFields: ['id'], defaultSort: { field: 'id', order: 'ASC' }, filter: noFilter, defaultPageSize: 100 });
    sendList(res, resource, range, rows.slice(range.offset, range.offset + range.limit), rows.length);
  }

  router.get('/business-associates/:id/bank-accounts', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    sendWhole(req, res, 'bank-accounts', await listBankAccounts(pool, ba.id));
  });
  router.get('/business-associates/:id/bank-accounts/:accountId', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    const row = await getBankAccount(pool, ba.id, itemParam(req, 'accountId', 'Bank account'));
    if (!row) throw new DomainError('not_found', 'Bank account not found');
    res.json(row);
  });

  router.get('/business-associates/:id/gst-registrations', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    sendWhole(req, res, 'gst-registrations', await listGstRegistrations(pool, ba.id));
  });
  router.get('/business-associates/:id/gst-registrations/:gstId', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    const row = await getGstRegistration(pool, ba.id, itemParam(req, 'gstId', 'GST registration'));
    if (!row) throw new DomainError('not_found', 'GST registration not found');
    res.json(row);
  });

  router.get('/business-associates/:id/documents', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    const { range, filter } = parseListQuery(req.query, {
      sortFields: ['id'],
      defaultSort: { field: 'id', order: 'ASC' },
      filter: documentFilter,
      defaultPageSize: 100,
    });
    const rows = await listDocuments(pool, ba.id, { kind: filter.kind });
    sendList(res, 'documents', range, rows.slice(range.offset, range.offset + range.limit), rows.length);
  });
  router.get('/business-associates/:id/documents/:docId', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    const row = await getDocument(pool, ba.id, itemParam(req, 'docId', 'Document'));
    if (!row) throw new DomainError('not_found', 'Document not found');
    res.json(row);
  });
  // Shown inline (PDFs and images; sendFile makes anything else an attachment) unless ?download=1.
  router.get('/business-associates/:id/documents/:docId/file', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    const file = await getDocumentFile(pool, ba.id, itemParam(req, 'docId', 'Document'));
    if (!file) throw new DomainError('not_found', 'Document not found');
    await sendFile(res, blobStore, file, { inline: req.query['download'] !== '1' });
  });

  router.get('/business-associates/:id/concessions', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    sendWhole(req, res, 'concessions', await listConcessions(pool, ba.id));
  });
  router.get('/business-associates/:id/concessions/:concessionId', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    const row = await getConcession(pool, ba.id, itemParam(req, 'concessionId', 'Concession'));
    if (!row) throw new DomainError('not_found', 'Concession not found');
    res.json(row);
  });
  router.get('/business-associates/:id/concessions/:concessionId/file', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    const file = await getConcessionFile(pool, ba.id, itemParam(req, 'concessionId', 'Concession'));
    if (!file) throw new DomainError('not_found', 'Concession not found');
    await sendFile(res, blobStore, file, { inline: req.query['download'] !== '1' });
  });

  router.get('/business-associates/:id/vertical-mapping', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    res.json(await getVerticalMapping(pool, ba.id));
  });

  router.get('/business-associates/:id/company-codes', everyone, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    sendWhole(req, res, 'company-codes', await listCompanyApplications(pool, ba.id));
  });

  // Reviewers' warning panel: other BAs (and pending registrations) sharing an identifier with this BA.
  router.get('/business-associates/:id/duplicates', staff, async (req, res) => {
    const ba = await visibleBa(req, principalOf(res));
    sendWhole(req, res, 'duplicates', await findDuplicates(pool, ba.id));
  });

  // The staff queue of additional documents, within the caller's company codes (the active one, or all).
  router.get('/additional-documents', staff, async (req, res) => {
    const p = principalOf(res);
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: ADDITIONAL_DOCUMENT_SORT_FIELDS,
      defaultSort: { field: 'uploadedAt', order: 'ASC' },
      filter: queueFilter,
      defaultPageSize: 25,
    });
    // Staff only (the route's roles), so the scope is company codes, never a BA.
    const { companyCodes } = isBaCaller(p) ? { companyCodes: [] } : listScope(p);
    const { rows, total } = await listAdditionalDocuments(pool, { companyCodes, ...filter, sort, range });
    sendList(res, 'additional-documents', range, rows, total);
  });

  return router;
}
