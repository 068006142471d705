import { Router } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import { AUDITOR_ROLE, STAFF_ROLES, type Role } from '../../../domain/src/identity/roles';
import { nucleusVendorStreamId } from '../../../domain/src/mass-upload/events';
import { DomainError } from '../../../domain/src/shared/errors';
import {
  getNucleusVendor,
  listNucleusVendors,
  NUCLEUS_VENDOR_SORT_FIELDS,
} from '../../../projections/src/nucleus-vendors/nucleus-vendors.queries';
import { principalOf, requireAuth } from '../http/auth';
import { parseListQuery, sendList } from '../http/simple-rest';
import { listScope } from '../onboarding/access';

/**
 * Nucleus vendors (vendors in the ERP that were not onboarded through the portal, recorded by mass uploads):
 * GET /api/nucleus-vendors (simple-rest, id = PAN) and GET /api/nucleus-vendors/:pan (the row and its events as
 * history). Every staff role and auditors read them (console), scoped to the caller's company codes (the
 * active one, or all the caller's) like the BA list.
 */
const READERS: readonly Role[] = [...STAFF_ROLES, AUDITOR_ROLE];

const listFilter = z
  .object({
    q: z.string().trim().max(100),
    companyName: z.string().trim().max(100),
    pan: z.string().trim().max(10),
    vendorCode: z.string().trim().max(20),
    id: z.union([z.string().max(10), z.array(z.string().max(10)).max(100)]),
  })
  .partial()
  .strict();

const panParam = z.string().regex(/^[A-Za-z]{5}\d{4}[A-Za-z]$/);
const notFound = () => new DomainError('not_found', 'No such nucleus vendor');

/** What the history shows of an event (time, actor, what, detail). */
function historyEntry(e: { type: string; data: unknown; metadata: { at: string; actor: { userId: string; role: string; name?: string } }; globalPosition: number }) {
  const d = e.data as Record<string, unknown>;
  const what: Record<string, string> = {
    NucleusVendorRecorded: d['row'] === 'child' ? 'Child row uploaded' : 'Parent row uploaded',
    NucleusVendorCodeAssigned: d['row'] === 'child' ? 'Child code assigned' : 'Parent code assigned',
    ErpRequestRefused: 'Refused by the ERP',
    NucleusVendorNotInErp: 'Not found in the ERP',
  };
  const detail =
    e.type === 'NucleusVendorCodeAssigned'
      ? `${String(d['vendorCode'])} (company code ${String(d['companyCode'])}${d['stateCode'] ? `, state ${String(d['stateCode'])}` : ''})`
      : e.type === 'ErpRequestRefused'
        ? String(d['message'] ?? '')
        : e.type === 'NucleusVendorRecorded'
          ? `${String(d['kind'])} upload ${String(d['uploadId'])}`
          : String(d['companyCode'] ?? '');
  return {
    position: e.globalPosition,
    at: e.metadata.at,
    actor: e.metadata.actor.name ?? e.metadata.actor.userId,
    role: e.metadata.actor.role,
    type: e.type,
    what: what[e.type] ?? e.type,
    detail,
    data: e.data,
  };
}

export function nucleusVendorRoutes(deps: { pool: Pool; store: EventStore }): Router {
  const router = Router();
  const readers = requireAuth({ roles: READERS, app: 'console' });

  router.get('/nucleus-vendors', readers, async (req, res) => {
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: NUCLEUS_VENDOR_SORT_FIELDS,
      defaultSort: { field: 'name', order: 'ASC' },
      filter: listFilter,
    });
    const ids = filter.id === undefined ? undefined : Array.isArray(filter.id) ? filter.id : [filter.id];
    const { companyCodes } = listScope(principalOf(res));
    const { rows, total } = await listNucleusVendors(deps.pool, {
      q: filter.q,
      companyName: filter.companyName,
      pan: filter.pan,
      vendorCode: filter.vendorCode,
      ids: ids?.map((i) => i.toUpperCase()),
      companyCodes,
      sort,
      range,
    });
    sendList(res, 'nucleus-vendors', range, rows, total);
  });

  router.get('/nucleus-vendors/:pan', readers, async (req, res) => {
    const pan = panParam.safeParse(req.params['pan']);
    if (!pan.success) throw notFound();
    // A single read sees every company code of the caller, not only the active one (as the BA's single read).
    const row = await getNucleusVendor(deps.pool, pan.data.toUpperCase(), principalOf(res).companyCodes);
    if (!row) throw notFound();
    const events = await deps.store.readStream(nucleusVendorStreamId(row.pan));
    res.json({ ...row, history: events.map(historyEntry).reverse() });
  });

  return router;
}
