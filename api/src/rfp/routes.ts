import type { Client } from '@temporalio/client';
import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { CRM_UNAVAILABLE_MESSAGE, CrmUnavailableError, type CrmPort } from '../../../domain/src/crm/port';
import { biddingDeadlineOf } from '../../../domain/src/rfp/decide';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { ALL_STATUSES, RFP_LIST_PAGE_SIZE, RFP_STATUSES, type RfpStepNumber } from '../../../domain/src/rfp/model';
import type { RfpAction } from '../../../domain/src/rfp/roles';
import { parseRfpStep2 } from '../../../domain/src/rfp/rules';
import { stepForExistingRfp } from '../../../domain/src/rfp/wizard';
import { DomainError } from '../../../domain/src/shared/errors';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { fields as fieldRules } from '../../../domain/src/validation/fields';
import type { BlobStore } from '../../../platform/src/files';
import { baResponses, COMPARISON_BYS, type ComparisonGroup } from '../../../projections/src/rfps/comparison';
import {
  activityOf,
  awardsForBa,
  awardsOf,
  comparison,
  getRfp,
  getRfpForBa,
  invitationsOf,
  listLanes,
  listRfps,
  listRfpsForBa,
  MAX_LANE_PAGE_SIZE,
  quotesOf,
  type RfpRecord,
} from '../../../projections/src/rfps/rfps.queries';
import { waitForProjections } from '../../../projections/src/runner';
import {
  awardRfp,
  closeRfp,
  closeRfpBidding,
  createRfpDraft,
  floatRfp,
  inviteBackhaul,
  reopenRfp,
  saveRfpStep,
  submitLaneResponses,
  type RfpCommandContext,
  type RfpUpdateResult,
} from '../../../workflows/src/rfp/client';
import { principalOf, type Principal } from '../http/auth';
import { HttpError } from '../http/problem';
import { parseListQuery, sendList } from '../http/simple-rest';
import { listScope, requestIds } from '../onboarding/access';
import { actorFor, baIdOf, companyCodeForNewRfp, isBa, notFound, rfpAccess, rfpCodeParam, rfpRouteMessages } from './access';
import { headerDataFor } from './columns';
import { rfpFileRoutes } from './file-routes';
import { verifiedBaIds } from './rfp-data';
import { suggestedBas } from './suggested-bas';
import type { RfpCommandAnswer, RfpStaffView } from './views';

/**
 * The RFP routes (issue 10, spec 001 §7): the staff dashboard and wizard, floating, comparison, award, close,
 * reopen and backhaul in the console; the BA's RFPs, lanes and lane responses in the portal. Every change goes
 * through the RFP's workflow (workflows/src/rfp/client.ts), which answers the decider's refusals as
 * DomainErrors; reads come from the read models (projections/src/rfps). Files: file-routes.ts.
 */
export type RfpRoutesDeps = {
  pool: Pool;
  temporal: Client;
  taskQueue: string;
  blobStore: BlobStore;
  maxBytes: number;
  commandTimeoutMs: number;
  projectionWaitMs?: number;
  /** The CRM a draft's opportunity is looked up in again (null: not configured, creation answers 503). */
  crm: CrmPort | null;
  log?: (line: string) => void;
};

/** The helpers both route modules share. */
export type RfpRouteKit = {
  deps: RfpRoutesDeps;
  /** The RFP of the path as staff of the caller's company codes see it; 404 otherwise. */
  staffRfp: (req: Request, p: Principal) => Promise<RfpRecord>;
  /** Who acts and the request's ids, for a workflow command. */
  contextOf: (req: Request, p: Principal, action: RfpAction) => RfpCommandContext;
  /** Waits (bounded) until the read models show the command's events. */
  settled: (result: RfpUpdateResult) => Promise<boolean>;
  /** The RFP as staff open it, after the command (read-your-writes). */
  staffAnswer: (code: string, p: Principal, result: RfpUpdateResult | null) => Promise<RfpCommandAnswer>;
};

const text = z.string().trim().max(100);
const staffListFilter = z
  .object({
    rfpCode: text,
    casshOppId: text,
    // The spec's name for the opportunity id filter.
    casshId: text,
    status: z.enum([...RFP_STATUSES, ALL_STATUSES], { error: 'Please choose a status from the list' }),
    dateFrom: fieldRules.date,
    dateTo: fieldRules.date,
    from: fieldRules.date,
    to: fieldRules.date,
  })
  .partial()
  .strict();

/** Step 1 fields staff may change after the CRM filled them (ARCHITECTURE notes); the rest are the CRM's. */
const STAFF_EDITABLE_HEADER = [
  'oppDescription',
  'productDescription',
  'totalLogisticsSpent',
  'contactPerson',
  'contactDetails',
  'customerAddress',
  'verticalName',
  'sourceState',
  'destinationState',
  'serviceType',
  'subServiceType',
] as const;

const oppId = z.string({ error: 'Please enter an opportunity id' }).trim().min(1, { error: 'Please enter an opportunity id' }).max(50);
const sourceSystem = z.string().trim().regex(/^[A-Za-z0-9_-]{1,20}$/, { error: 'Please choose a valid source system' }).optional();

const floatBody = z.object({
  baIds: z.array(z.string().trim().min(1).max(100)).max(5000).default([]),
  comments: z.string().max(1000).nullish(),
  floatToAll: z.boolean().default(false),
});
const awardBody = z.object({
  lanes: z
    .array(
      z.object({
        laneId: z.string().trim().min(1).max(40),
        shares: z.array(z.object({ baId: z.string().trim().min(1).max(100), sharePercent: z.number() })).min(1).max(100),
      }),
    )
    .max(10_000),
});
const reopenBody = z
  .object({ dueDate: fieldRules.date.optional(), dueAt: z.iso.datetime({ offset: true }).optional() })
  .refine((b) => b.dueDate !== undefined || b.dueAt !== undefined, { error: rfpRouteMessages.dueDate, path: ['dueDate'] });
const backhaulBody = z.object({ baId: z.string().trim().min(1).max(100), isInvited: z.boolean() });
const closeBody = z.object({ remarks: z.string().max(1000).nullish() });
const responsesBody = z.object({
  round: z.number().int().min(1),
  quotes: z.record(z.string().max(40), z.record(z.string().max(64), z.string().max(1000).nullable())),
});

/** A body checked by `schema`, or 400 with the fields' messages. */
function bodyOf<T>(schema: z.ZodType<T>, req: Request): T {
  const parsed = schema.safeParse(req.body ?? {});
  if (parsed.success) return parsed.data;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.map(String).join('.') || 'body'] ??= issue.message;
  throw new DomainError('validation', Object.values(errors)[0] ?? rfpMessages.invalid, errors);
}

/** `?page=&perPage=` of the lane grid and the comparison (page from 0). */
function pageQuery(req: Request): { page: number; perPage: number } {
  const num = (v: unknown, fallback: number) => (typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : fallback);
  return { page: num(req.query['page'], 0), perPage: Math.min(MAX_LANE_PAGE_SIZE, Math.max(1, num(req.query['perPage'], 100))) };
}

/** The BA-response comparison's page of BAs: `page` from 0, `perPage` 10 by default, at most 50. */
function baPageQuery(req: Request): { page: number; perPage: number } {
  const { page } = pageQuery(req);
  const asked = req.query['perPage'];
  const perPage = typeof asked === 'string' && /^\d{1,3}$/.test(asked) ? Math.min(50, Math.max(1, Number(asked))) : 10;
  return { page, perPage };
}

const laneFilter = z.record(z.string(), z.union([z.string(), z.number()]).transform(String));

/** JSON text of a query parameter, or undefined when it is not JSON. */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `filter` (JSON object of column → text) and `sort=<column>&order=ASC|DESC` of the lane grid. */
function laneQuery(req: Request): { filter: Record<string, string>; sort?: { field: string; order: string } } {
  const raw = req.query['filter'];
  const parsed = typeof raw === 'string' && raw !== '' ? laneFilter.safeParse(jsonOf(raw)) : { success: true as const, data: {} };
  if (!parsed.success) throw new DomainError('validation', rfpRouteMessages.invalidLaneQuery, { filter: rfpRouteMessages.invalidLaneQuery });
  const field = req.query['sort'];
  const order = req.query['order'] === 'DESC' ? 'DESC' : 'ASC';
  return { filter: parsed.data, ...(typeof field === 'string' && field !== '' ? { sort: { field, order } } : {}) };
}

export function rfpRoutes(deps: RfpRoutesDeps): Router {
  const { pool } = deps;
  const router = Router();
  const waitMs = deps.projectionWaitMs ?? 2000;
  const log = deps.log ?? (() => undefined);

  const kit: RfpRouteKit = {
    deps,
    async staffRfp(req, p) {
      const record = await getRfp(pool, rfpCodeParam(req), { companyCodes: p.companyCodes });
      if (!record) throw notFound();
      return record;
    },
    contextOf(req, p, action) {
      const ids = requestIds(req);
      return { actor: actorFor(p, action), requestId: ids.requestId, correlationId: ids.correlationId, timeoutMs: deps.commandTimeoutMs };
    },
    async settled(result) {
      return result.lastGlobalPosition === 0 || waitForProjections(pool, result.lastGlobalPosition, { timeoutMs: waitMs, names: ['rfps'] });
    },
    async staffAnswer(code, p, result) {
      if (result) await kit.settled(result);
      const record = await getRfp(pool, code, { companyCodes: p.companyCodes });
      // The read model has not caught up within the wait: the workflow's summary says what happened.
      if (!record) return { rfpCode: code, ...(result ? { summary: result.summary } : {}) };
      return staffView(record);
    },
  };

  /** The RFP as the console opens it: record, the wizard's step and flags (spec 001 §4), BAs and award. */
  async function staffView(record: RfpRecord): Promise<RfpStaffView> {
    const [invitations, awards] = await Promise.all([invitationsOf(pool, record.rfpCode), awardsOf(pool, record.rfpCode)]);
    const wizard = stepForExistingRfp({
      rfpType: record.rfpType,
      step1: true,
      step2: record.steps[2] !== null,
      step3: record.steps[3] ? { laneCount: record.laneCount } : null,
      step4: record.steps[4] !== null,
    });
    return { id: record.rfpCode, ...record, wizard, invitations, awards };
  }

  /** The opportunity as the CRM has it now; its own message when it does not know it (shown as it is). */
  async function opportunityOf(id: string, system: string | undefined) {
    if (!deps.crm) throw new HttpError(503, CRM_UNAVAILABLE_MESSAGE);
    try {
      const found = await deps.crm.opportunity(id, system ? { sourceSystem: system } : {});
      if (found.status === 'fail') throw new DomainError('validation', found.message, { casshOppId: found.message });
      return found.opportunity;
    } catch (e) {
      if (e instanceof CrmUnavailableError) {
        log(`CRM unavailable: ${e.message}`);
        throw new HttpError(503, CRM_UNAVAILABLE_MESSAGE);
      }
      throw e;
    }
  }

  /**
   * Step 1's header: the opportunity looked up again on the server (its values are the CRM's, whatever the
   * form says), the RFP code, and the fields staff may edit.
   */
  async function headerFrom(body: Record<string, unknown>, rfpCode: unknown, fallbackOppId?: string) {
    const id = oppId.safeParse(body['casshOppId'] ?? fallbackOppId);
    if (!id.success) throw new DomainError('validation', id.error.issues[0]?.message ?? 'Please enter an opportunity id', { casshOppId: 'Required' });
    const system = sourceSystem.safeParse(body['sourceSystem'] ?? undefined);
    if (!system.success) throw new DomainError('validation', 'Please choose a valid source system', { sourceSystem: 'Invalid' });
    const opportunity = await opportunityOf(id.data, system.data);
    const edits = Object.fromEntries(STAFF_EDITABLE_HEADER.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
    return { ...opportunity, ...edits, rfpCode };
  }

  router.get('/rfps', rfpAccess.read(), async (req, res) => {
    const p = principalOf(res);
    if (isBa(p)) {
      const { range } = parseListQuery(req.query, {
        sortFields: ['invitedAt'],
        defaultSort: { field: 'invitedAt', order: 'DESC' },
        filter: z.object({}).strict(),
        defaultPageSize: RFP_LIST_PAGE_SIZE,
      });
      const page = Math.floor(range.offset / range.limit);
      const { rows, total } = await listRfpsForBa(pool, baIdOf(p), page, range.limit);
      return sendList(res, 'rfps', { offset: page * range.limit, limit: range.limit }, rows.map((r) => ({ id: r.rfpCode, ...r })), total);
    }
    const { range, filter: f } = parseListQuery(req.query, {
      sortFields: ['createdAt'],
      defaultSort: { field: 'createdAt', order: 'DESC' },
      filter: staffListFilter,
      defaultPageSize: 25,
    });
    const page = Math.floor(range.offset / range.limit);
    const { rows, total } = await listRfps(pool, {
      companyCodes: listScope(p).companyCodes,
      filter: {
        ...(f.rfpCode ? { rfpCode: f.rfpCode } : {}),
        ...((f.casshOppId ?? f.casshId) ? { casshOppId: f.casshOppId ?? f.casshId } : {}),
        ...(f.status ? { status: f.status } : {}),
        dateFrom: f.dateFrom ?? f.from ?? null,
        dateTo: f.dateTo ?? f.to ?? null,
        // Today in India: the 61-day window of the dashboard's date filter counts back from it.
        today: indiaDateAt(Date.now()),
      },
      page,
      perPage: range.limit,
    });
    sendList(res, 'rfps', { offset: page * range.limit, limit: range.limit }, rows.map((r) => ({ id: r.rfpCode, ...r })), total);
  });

  router.post('/rfps', rfpAccess.staff(), async (req, res) => {
    const p = principalOf(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const companyCode = companyCodeForNewRfp(p);
    if (typeof body['rfpCode'] !== 'string' || body['rfpCode'].trim() === '')
      throw new DomainError('validation', 'Please enter the RFP code', { rfpCode: 'Please enter the RFP code' });
    const rfpCode = body['rfpCode'].trim();
    const header = await headerFrom(body, rfpCode);
    const result = await createRfpDraft(deps.temporal, deps.taskQueue, header, { ...kit.contextOf(req, p, 'create'), companyCode });
    res.status(201).json(await kit.staffAnswer(rfpCode, p, result));
  });

  router.get('/rfps/:code', rfpAccess.read(), async (req, res) => {
    const p = principalOf(res);
    if (isBa(p)) {
      const baId = baIdOf(p);
      const code = rfpCodeParam(req);
      const rfp = await getRfpForBa(pool, code, baId);
      if (!rfp) throw notFound();
      return res.json({ id: rfp.rfpCode, ...rfp, awards: await awardsForBa(pool, code, baId) });
    }
    res.json(await staffView(await kit.staffRfp(req, p)));
  });

  router.get('/rfps/:code/activity', rfpAccess.staffRead(), async (req, res) => {
    const record = await kit.staffRfp(req, principalOf(res));
    res.json(await activityOf(pool, record.rfpCode, pageQuery(req)));
  });

  router.put('/rfps/:code/steps/:n', rfpAccess.staff(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const step = Number(req.params['n']);
    if (![1, 2, 3, 4, 5].includes(step)) throw new DomainError('validation', 'Please choose a step from 1 to 5', { step: 'Invalid' });
    const body = (req.body ?? {}) as Record<string, unknown>;
    const code = record.rfpCode;
    let result: RfpUpdateResult;
    if (step === 1) {
      const header = await headerFrom(body, code, record.casshOppId);
      result = await saveRfpStep(deps.temporal, code, 1, header, kit.contextOf(req, p, 'editDraft'));
    } else if (step === 2) {
      const parsed = parseRfpStep2(body);
      if ('errors' in parsed) throw new DomainError('validation', Object.values(parsed.errors)[0] ?? rfpMessages.invalid, parsed.errors);
      // The columns are checked against the masters before anything is saved, then saved as step 3.
      const { columns } = await headerDataFor(pool, parsed.data);
      await saveRfpStep(deps.temporal, code, 2, parsed.data, kit.contextOf(req, p, 'editDraft'));
      result = await saveRfpStep(deps.temporal, code, 3, { headerData: columns }, { ...kit.contextOf(req, p, 'editDraft'), requestId: `${requestIds(req).requestId}:3` });
    } else if (step === 3) {
      // The sheet's columns are the server's, from the step-2 choice and the masters: a client cannot invent them.
      const step2 = record.steps[2];
      if (!step2) throw new DomainError('rule', rfpRouteMessages.noColumns);
      const { columns } = await headerDataFor(pool, step2);
      result = await saveRfpStep(deps.temporal, code, 3, { headerData: columns }, kit.contextOf(req, p, 'editDraft'));
    } else {
      result = await saveRfpStep(deps.temporal, code, step as RfpStepNumber, body, kit.contextOf(req, p, 'editDraft'));
    }
    res.json(await kit.staffAnswer(code, p, result));
  });

  // The wizard's suggested BAs (suggested-bas.ts): of the RFP's company code, which staff see only if it is theirs.
  router.get('/rfps/:code/suggested-bas', rfpAccess.staff(), async (req, res) => {
    const record = await kit.staffRfp(req, principalOf(res));
    res.json({ rfpCode: record.rfpCode, bas: await suggestedBas(pool, record.rfpCode) });
  });

  router.get('/rfps/:code/lanes', rfpAccess.read(), async (req, res) => {
    const p = principalOf(res);
    const code = rfpCodeParam(req);
    const query = { ...pageQuery(req), ...laneQuery(req) };
    if (isBa(p)) {
      const baId = baIdOf(p);
      const rfp = await getRfpForBa(pool, code, baId);
      if (!rfp) throw notFound();
      const { rows, total } = await listLanes(pool, code, { ...query, quotesOf: { baId, round: rfp.round } });
      return res.json({ rows, total, round: rfp.round, columns: rfp.columns });
    }
    const record = await kit.staffRfp(req, p);
    const { rows, total } = await listLanes(pool, record.rfpCode, query);
    res.json({ rows, total, round: record.round, columns: record.columns });
  });

  router.post('/rfps/:code/float', rfpAccess.staff(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const body = bodyOf(floatBody, req);
    // "Float to all": every verified BA of the RFP's company code, besides any named.
    const baIds = body.floatToAll ? [...new Set([...body.baIds, ...(await verifiedBaIds(pool, record.companyCode ?? ''))])] : body.baIds;
    const payload = { baIds, comments: body.comments ?? '', floatToAll: body.floatToAll, rfpType: record.rfpType };
    const result = await floatRfp(deps.temporal, record.rfpCode, payload, kit.contextOf(req, p, 'float'));
    res.json({ message: floatedMessage(result), rfp: await kit.staffAnswer(record.rfpCode, p, result) });
  });

  router.post('/rfps/:code/close-bidding', rfpAccess.deciders(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const result = await closeRfpBidding(deps.temporal, record.rfpCode, kit.contextOf(req, p, 'closeBidding'));
    res.json(await kit.staffAnswer(record.rfpCode, p, result));
  });

  router.post('/rfps/:code/award', rfpAccess.deciders(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const body = bodyOf(awardBody, req);
    const lanes = Object.fromEntries(body.lanes.map((l) => [l.laneId, l.shares]));
    const result = await awardRfp(deps.temporal, record.rfpCode, lanes, kit.contextOf(req, p, 'award'));
    res.json(await kit.staffAnswer(record.rfpCode, p, result));
  });

  router.post('/rfps/:code/close', rfpAccess.deciders(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const body = bodyOf(closeBody, req);
    const result = await closeRfp(deps.temporal, record.rfpCode, body.remarks ?? null, kit.contextOf(req, p, 'close'));
    res.json(await kit.staffAnswer(record.rfpCode, p, result));
  });

  router.post('/rfps/:code/reopen', rfpAccess.deciders(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const body = bodyOf(reopenBody, req);
    // A due date (YYYY-MM-DD) means bidding closes at the end of that day in India, as for the first round.
    const dueAt = body.dueAt ?? biddingDeadlineOf(body.dueDate as string);
    const result = await reopenRfp(deps.temporal, record.rfpCode, dueAt, kit.contextOf(req, p, 'reopen'));
    res.json(await kit.staffAnswer(record.rfpCode, p, result));
  });

  router.post('/rfps/:code/backhaul-invitations', rfpAccess.staff(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const body = bodyOf(backhaulBody, req);
    const result = await inviteBackhaul(deps.temporal, record.rfpCode, body, kit.contextOf(req, p, 'inviteBackhaul'));
    await kit.settled(result);
    res.json({ message: rfpMessages.inviteSent, invitations: await invitationsOf(pool, record.rfpCode) });
  });

  router.get('/rfps/:code/comparison', rfpAccess.staffRead(), async (req, res) => {
    const record = await kit.staffRfp(req, principalOf(res));
    const by = req.query['by'] ?? 'all';
    if (!(COMPARISON_BYS as readonly unknown[]).includes(by)) throw new DomainError('validation', rfpRouteMessages.comparisonBy, { by: rfpRouteMessages.comparisonBy });
    const roundText = req.query['round'];
    const round = typeof roundText === 'string' && /^\d{1,4}$/.test(roundText) ? Number(roundText) : record.round;
    const grouping = by as (typeof COMPARISON_BYS)[number];
    if (req.query['view'] === 'ba') {
      // The BA-response comparison (spec 001 §2): the same groups seen per BA, so every group is read.
      const groups: ComparisonGroup[] = [];
      for (let page = 0; ; page += 1) {
        const part = await comparison(pool, record.rfpCode, round, grouping, { page, perPage: MAX_LANE_PAGE_SIZE });
        groups.push(...part.groups);
        if (part.groups.length === 0 || groups.length >= part.total) break;
      }
      // Paged by BA (10 by default): a BA's row lists its standing in every group, so 50 BAs over 5,000 lanes
      // answered at once ran to 40 MB. The ranks still come from every BA's quotes, read above.
      const bas = baResponses(groups);
      const { page, perPage } = baPageQuery(req);
      res.json({ rfpCode: record.rfpCode, round, by: grouping, total: bas.length, bas: bas.slice(page * perPage, (page + 1) * perPage) });
      return;
    }
    res.json(await comparison(pool, record.rfpCode, round, grouping, pageQuery(req)));
  });

  router.get('/rfps/:code/responses/mine', rfpAccess.bidders(), async (req, res) => {
    const baId = baIdOf(principalOf(res));
    const rfp = await getRfpForBa(pool, rfpCodeParam(req), baId);
    if (!rfp) throw notFound();
    const roundText = req.query['round'];
    // Earlier rounds stay readable; a round that is not yet there has no quotes.
    const round = typeof roundText === 'string' && /^\d{1,4}$/.test(roundText) ? Math.min(Number(roundText), rfp.round) : rfp.round;
    res.json({ round, quotes: await quotesOf(pool, rfp.rfpCode, round, baId) });
  });

  router.put('/rfps/:code/responses/mine', rfpAccess.bidders(), async (req, res) => {
    const p = principalOf(res);
    const baId = baIdOf(p);
    const rfp = await getRfpForBa(pool, rfpCodeParam(req), baId);
    if (!rfp) throw notFound();
    const body = bodyOf(responsesBody, req);
    const result = await submitLaneResponses(deps.temporal, rfp.rfpCode, { baId, round: body.round, quotes: body.quotes }, kit.contextOf(req, p, 'respond'));
    await kit.settled(result);
    res.json({ message: rfpMessages.laneResponseSaved, round: body.round, quotes: await quotesOf(pool, rfp.rfpCode, body.round, baId) });
  });

  router.use(rfpFileRoutes(kit));
  return router;
}

/** The float's answer: the spec gives no text for it. */
function floatedMessage(result: RfpUpdateResult): string {
  return `RFP floated to ${result.summary.baIds.length} BA${result.summary.baIds.length === 1 ? '' : 's'}`;
}

