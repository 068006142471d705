import { Router } from 'express';
import { z } from 'zod';
import {
  CRM_UNAVAILABLE_MESSAGE,
  CrmUnavailableError,
  MAX_OPPORTUNITY_SEARCH,
  type CrmPort,
  type Opportunity,
} from '../../../domain/src/crm/port';
import { RFP_STAFF } from '../../../domain/src/rfp/roles';
import { DomainError } from '../../../domain/src/shared/errors';
import { requireAuth } from '../http/auth';
import { HttpError } from '../http/problem';
import { parseListQuery, sendList } from '../http/simple-rest';

/**
 * Customer opportunities from the CRM, for step 1 of the RFP wizard (spec 001 §2): staff search them and look
 * one up by id. Thin: the CRM port answers (platform/src/crm/http-crm.ts against CRM_URL, the sandbox CRM under
 * `npm start`); nothing is stored.
 * - GET /api/opportunities?q=… (or simple-rest `filter={"q":…}`): ids starting with q or customer names
 *   containing it, newest first, at most 50 (a picker, not a report: Content-Range counts what can be shown);
 * - GET /api/opportunities/:id[?sourceSystem=SCM]: one opportunity; an id the CRM does not know is 404 with the
 *   CRM's own message, which the wizard shows as it is (spec 001 §5).
 * The CRM down (or not configured) is 503 "The CRM is not available…", never a 500.
 */
export type OpportunityRouteDeps = {
  /** Null: no CRM configured (the api started without CRM_API_KEY in production); every call answers 503. */
  crm: CrmPort | null;
  log?: (line: string) => void;
};

/** react-admin needs an `id`: the CRM's opportunity id. */
export type OpportunityRecord = Opportunity & { id: string };
const record = (o: Opportunity): OpportunityRecord => ({ id: o.casshOppId, ...o });

const query = z.string().trim().max(100, { error: 'Please enter at most 100 characters' });
const listFilter = z.object({ q: query }).partial().strict();
const idParam = z
  .string()
  .trim()
  .min(1, { error: 'Please enter an opportunity id' })
  .max(50, { error: 'Please enter a valid opportunity id' });
const sourceSystem = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,20}$/, { error: 'Please choose a valid source system' })
  .optional();

const invalid = (field: string, error: z.ZodError) => {
  const message = error.issues[0]?.message ?? 'Invalid input';
  return new DomainError('validation', message, { [field]: message });
};

export function opportunityRoutes(deps: OpportunityRouteDeps): Router {
  const router = Router();
  const staff = requireAuth({ roles: RFP_STAFF, app: 'console' });
  const log = deps.log ?? (() => undefined);

  /** The CRM's answer, or 503 when it cannot give one (the reason goes to the log, not to the user). */
  async function ask<T>(call: (crm: CrmPort) => Promise<T>): Promise<T> {
    if (!deps.crm) throw new HttpError(503, CRM_UNAVAILABLE_MESSAGE);
    try {
      return await call(deps.crm);
    } catch (e) {
      if (e instanceof CrmUnavailableError) {
        log(`CRM unavailable: ${e.message}`);
        throw new HttpError(503, CRM_UNAVAILABLE_MESSAGE);
      }
      throw e;
    }
  }

  router.get('/opportunities', staff, async (req, res) => {
    const { range, filter } = parseListQuery(req.query, {
      sortFields: ['receiveDate'],
      defaultSort: { field: 'receiveDate', order: 'DESC' },
      filter: listFilter,
      defaultPageSize: 20,
    });
    const direct = query.safeParse(req.query['q'] ?? '');
    if (!direct.success) throw invalid('q', direct.error);
    const q = filter.q ?? direct.data;
    // The CRM answers one page from the start: ask for everything up to this page's end and cut.
    const wanted = Math.min(MAX_OPPORTUNITY_SEARCH, range.offset + range.limit);
    const found =
      range.offset < MAX_OPPORTUNITY_SEARCH ? await ask((crm) => crm.searchOpportunities(q, { limit: wanted })) : null;
    const rows = (found?.opportunities ?? []).slice(range.offset, range.offset + range.limit).map(record);
    sendList(res, 'opportunities', range, rows, Math.min(found?.total ?? 0, MAX_OPPORTUNITY_SEARCH));
  });

  router.get('/opportunities/:id', staff, async (req, res) => {
    const id = idParam.safeParse(req.params['id']);
    if (!id.success) throw invalid('id', id.error);
    const systemGiven = req.query['sourceSystem'];
    const system = sourceSystem.safeParse(typeof systemGiven === 'string' && systemGiven !== '' ? systemGiven : undefined);
    if (!system.success) throw invalid('sourceSystem', system.error);
    const lookup = await ask((crm) => crm.opportunity(id.data, system.data ? { sourceSystem: system.data } : {}));
    // The CRM's words, as they are: the wizard shows the server's message (spec 001 §5).
    if (lookup.status === 'fail') throw new DomainError('not_found', lookup.message);
    res.json(record(lookup.opportunity));
  });

  return router;
}
