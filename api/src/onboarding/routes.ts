import { Router, type Response } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import {
  AUDITOR_ROLE,
  BA_ROLES,
  REVIEW_STAGE_ROLES,
  STAFF_ROLES,
  type Role,
} from '../../../domain/src/identity/roles';
import { baStreamId, parseCompanyDetails, refusals } from '../../../domain/src/onboarding';
import { referenceErrors, withReferences } from '../../../domain/src/onboarding/details';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import { itemsOf, type OnboardingState } from '../../../domain/src/onboarding/state';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { listActivity } from '../../../projections/src/activity-log/activity-log.queries';
import {
  getBusinessAssociate,
  getBusinessAssociatesByIds,
  listBusinessAssociates,
  statusCounts,
  type BusinessAssociateRow,
} from '../../../projections/src/business-associates/business-associates.queries';
import { countTasks } from '../../../projections/src/tasks/tasks.queries';
import { countPendingAdditionalDocuments } from '../../../projections/src/onboarding-items/items.queries';
import { readHashedText } from '../../../platform/src/event-store/hash';
import { sendOnboardingAction, type OnboardingAction } from '../../../workflows/src/onboarding/client';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../../workflows/src/shared/command-deadline';
import {
  masterLookup,
  resolveCompanyDetailReferences,
  resolveDocumentTypes,
} from '../../../workflows/src/shared/master-references';
import { BA_ACTIVITY_SORT_FIELDS, BA_HIDDEN_EVENT_TYPES, baViewOf } from '../audit/ba-activity-view';
import type { BaCounts } from '../contract';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { HttpError, messages } from '../http/problem';
import { intFilter, parseListQuery, sendList } from '../http/simple-rest';
import { baIdParam, isBaCaller, listScope, loadVisibleBa, mayAccessBa, notFound, requestIds } from './access';
import { loadBaForCaller } from './item-commands';
import { claimPan, releaseClaims, releaseOtherPans } from './pan-claims';

/**
 * Onboarding over HTTP: the BA list and page (read models), and the four commands, which become workflow
 * updates so the answer (accepted, or refused with a reason) is known before we reply.
 */
export type OnboardingRoutesDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  /** Resolves true once every projection has passed `position`, false after `timeoutMs`. */
  waitForProjections: (position: number, timeoutMs: number) => Promise<boolean>;
  /** How long a command waits for its own write to reach the read model before answering from the workflow. */
  projectionWaitMs: number;
  /** COMMAND_TIMEOUT: past it a command answers 503 (default 10 s). */
  commandTimeoutMs?: number;
  /** The worker's task queue: a lifecycle that completed at verification (before issue 8) is resumed there. */
  taskQueue?: string;
};

const STAFF_AND_AUDITOR: readonly Role[] = [...STAFF_ROLES, AUDITOR_ROLE];
const EVERYONE: readonly Role[] = [...BA_ROLES, ...STAFF_AND_AUDITOR];
const REVIEWERS: readonly Role[] = [...new Set([...REVIEW_STAGE_ROLES[1], ...REVIEW_STAGE_ROLES[2]])];
/** The auditors' replay of raw events; MLL-ADMIN may use it too. */
const EVENT_READERS: readonly Role[] = [AUDITOR_ROLE, 'MLL-ADMIN'];

const text = (max: number) => z.string().trim().max(max);

const baFilter = z
  .object({
    status: text(40),
    tab: text(40),
    stage: z.union([z.literal(1), z.literal(2), z.enum(['1', '2'])], { error: 'Stage must be 1 or 2' }),
    q: text(260),
    companyName: text(260),
    panNumber: text(20),
    cityId: intFilter,
    companyCode: text(4),
    mobileNo: z.string().trim().regex(/^\d{1,10}$/, { error: 'Mobile number takes digits only' }),
    verticalId: intFilter,
    locationId: intFilter,
    // react-admin's getMany: filter={"id":[...]}.
    id: z.union([z.string().max(100), z.array(z.string().max(100)).max(100)]),
  })
  .partial()
  .strict();

const BA_SORT_FIELDS = [
  'id',
  'companyCode',
  'status',
  'stage',
  'companyName',
  'panNumber',
  'contactPersonName',
  'cityName',
  'stateName',
  'serviceName',
  'submission',
  'overdue',
  'createdAt',
  'submittedAt',
  'updatedAt',
] as const;

const ACTIVITY_SORT_FIELDS = ['id', 'at', 'action', 'status', 'role', 'actorName'] as const;
const oneOrMany = (max: number) => z.union([text(max), z.array(text(max)).max(40)]);
/** The activity log's filters (issue 8): kind of activity (event types), description text, status, time. */
const activityFilter = z
  .object({
    action: oneOrMany(60),
    q: text(260),
    status: oneOrMany(20),
    from: z.iso.datetime({ offset: true, error: 'from must be an ISO date-time' }),
    to: z.iso.datetime({ offset: true, error: 'to must be an ISO date-time' }),
  })
  .partial()
  .strict();
const EVENT_SORT_FIELDS = ['version', 'globalPosition'] as const;

const stageSchema = z.union([z.literal(1), z.literal(2)], { error: 'Stage must be 1 or 2' });
/** Absent: the BA's first company code; another code: the application the BA made for it (company-codes). */
const companyCodeField = z
  .string({ error: 'Please select a company from the list' })
  .trim()
  .regex(/^[A-Za-z0-9]{1,10}$/, { error: 'Please select a company from the list' })
  .optional();
const submitBody = z.object({ companyCode: companyCodeField });
const approveBody = z.object({
  companyCode: companyCodeField,
  stage: stageSchema,
  remarks: z.string().max(260, { error: 'Maximum 260 characters allowed' }).nullable().optional(),
});
const rejectBody = z.object({
  companyCode: companyCodeField,
  stage: stageSchema,
  remarks: z
    .string({ error: refusals.remarksRequired })
    .max(260, { error: 'Maximum 260 characters allowed' })
    .refine((v) => v.trim() !== '', { error: refusals.remarksRequired }),
});

const CORRECT_FIELDS = 'Please correct the highlighted fields';

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new DomainError('validation', CORRECT_FIELDS, fieldErrors(parsed.error));
  return parsed.data;
}

/** What a command answers when the read model has not caught up in time: the workflow's own state. */
function fromState(baId: string, s: OnboardingState): Partial<BusinessAssociateRow> & { id: string } {
  return {
    id: baId,
    companyCode: s.companyCode ?? '',
    status: s.status === 'none' ? 'pending' : s.status,
    stage: s.stage,
    submission: s.submission,
    remarks: s.remarks,
    welcomeMessage: s.welcomeMessage,
    details: s.details,
    companyName: s.details?.companyName ?? null,
    panNumber: s.details?.panNumber ?? null,
  };
}

/** The caller's role that the action is taken in: the first of theirs that the action allows. */
function actingRole(p: Principal, allowed: readonly string[]): string {
  const role = p.roles.find((r) => allowed.includes(r));
  if (!role) throw new HttpError(403, messages.forbidden);
  return role;
}

export function onboardingRoutes(deps: OnboardingRoutesDeps): Router {
  const { pool, store, temporal } = deps;
  const masters = masterLookup(pool);
  const router = Router();

  async function visibleRow(p: Principal, id: string): Promise<BusinessAssociateRow> {
    const row = await getBusinessAssociate(pool, id);
    if (!row || !mayAccessBa(p, row)) throw notFound();
    return row;
  }

  async function runCommand(
    res: Response,
    baId: string,
    action: OnboardingAction,
    role: string,
    ids: ReturnType<typeof requestIds>,
  ) {
    const p = principalOf(res);
    // Scoped to the caller, so two users who happen to pick the same key never share a request id.
    const requestId = ids.requestId.startsWith(`${p.userId}:`) ? ids.requestId : `${p.userId}:${ids.requestId}`;
    // The key is the update id: bound to this request, so another request under it is refused, not answered.
    if (ids.key !== null && ids.fingerprint !== null) await bindIdempotencyKey(pool, p.userId, ids.key, ids.fingerprint);
    const result = await sendOnboardingAction(temporal, baId, action, {
      actor: { userId: p.userId, role, name: p.name },
      requestId,
      correlationId: ids.correlationId,
      timeoutMs: deps.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}),
    });
    // Read-your-writes: answer with the list row the console and portal show, once it includes this write.
    // Position 0: nothing was appended (details unchanged), so the row is as current as it gets.
    const position = result.lastGlobalPosition;
    const caughtUp = position === 0 || (await deps.waitForProjections(position, deps.projectionWaitMs));
    const row = caughtUp ? await getBusinessAssociate(pool, baId) : null;
    res.json(row ?? fromState(baId, result.state));
  }

  router.get('/business-associates', requireAuth({ roles: EVERYONE }), async (req, res) => {
    const p = principalOf(res);
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: BA_SORT_FIELDS,
      defaultSort: { field: 'updatedAt', order: 'DESC' },
      filter: baFilter,
    });
    if (filter.id !== undefined) {
      // getMany: a handful of ids in one query, each visible as a single read would be (not the active code).
      const ids = [...new Set(Array.isArray(filter.id) ? filter.id : [filter.id])];
      const rows = await getBusinessAssociatesByIds(
        pool,
        ids,
        isBaCaller(p) ? { companyCodes: p.companyCodes, baId: p.baId } : { companyCodes: p.companyCodes },
      );
      return sendList(res, 'business-associates', { offset: 0, limit: rows.length }, rows, rows.length);
    }
    const { id: _ids, ...rest } = filter;
    const { rows, total } = await listBusinessAssociates(pool, {
      ...listScope(p),
      caller: { userId: p.userId, roles: p.roles },
      filter: { ...rest, stage: rest.stage === undefined ? undefined : Number(rest.stage) },
      sort,
      range,
    });
    sendList(res, 'business-associates', range, rows, total);
  });

  router.get('/business-associates/:id', requireAuth({ roles: EVERYONE }), async (req, res) => {
    res.json(await visibleRow(principalOf(res), baIdParam(req)));
  });

  router.get('/business-associates/:id/activity-log', requireAuth({ roles: EVERYONE }), async (req, res) => {
    const id = baIdParam(req);
    const p = principalOf(res);
    await visibleRow(p, id);
    // A BA reads its log without internal entries, remarks and staff identities (api/src/audit/ba-activity-view.ts).
    const baView = isBaCaller(p);
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: baView ? BA_ACTIVITY_SORT_FIELDS : ACTIVITY_SORT_FIELDS,
      defaultSort: { field: 'id', order: 'ASC' },
      filter: activityFilter,
      defaultPageSize: 25,
    });
    const { rows, total } = await listActivity(pool, id, {
      range,
      sort,
      filter,
      excludeEventTypes: baView ? BA_HIDDEN_EVENT_TYPES : [],
    });
    sendList(res, 'activity-log', range, baView ? rows.map(baViewOf) : rows, total);
  });

  // The raw stream, straight from the event store: what an auditor replays and checks the hash chain of.
  const auditors = requireAuth({ roles: EVENT_READERS, app: 'console' });
  router.get('/business-associates/:id/events', auditors, async (req, res) => {
    const id = baIdParam(req);
    await loadVisibleBa(store, principalOf(res), id);
    const { sort, range } = parseListQuery(req.query, {
      sortFields: EVENT_SORT_FIELDS,
      defaultSort: { field: 'version', order: 'ASC' },
      filter: z.object({}).strict(),
      defaultPageSize: 100,
    });
    const events = await store.readStream(baStreamId(id));
    if (sort.order === 'DESC') events.reverse();
    const slice = events.slice(range.offset, range.offset + range.limit);
    // Every field the hash covers, as hashed (PostgreSQL's jsonb text, the recorded time in microseconds), so
    // a reader recomputes each hash from this response alone (computeEventHash, `audit:verify --from-api`).
    const hashed = await readHashedText(pool, slice.map((e) => e.eventId));
    const page = slice.map((e) => ({
      id: e.eventId,
      eventId: e.eventId,
      streamId: e.streamId,
      version: e.version,
      globalPosition: e.globalPosition,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      recordedAt: e.recordedAt,
      recordedMicros: hashed.get(e.eventId)?.recordedMicros ?? null,
      dataText: hashed.get(e.eventId)?.dataText ?? null,
      metadataText: hashed.get(e.eventId)?.metadataText ?? null,
      prevHash: e.prevHash,
      hash: e.hash,
    }));
    sendList(res, 'events', range, page, events.length);
  });

  router.get('/ba-counts', requireAuth({ roles: STAFF_AND_AUDITOR, app: 'console' }), async (_req, res) => {
    const p = principalOf(res);
    // The badges count what the lists show: the active company code, or all of the caller's ("All").
    const { companyCodes } = listScope(p);
    const [counts, myPendingTasks, additionalDocumentsPending] = await Promise.all([
      statusCounts(pool, companyCodes),
      countTasks(pool, { roles: p.roles, companyCodes, userId: p.userId }),
      countPendingAdditionalDocuments(pool, companyCodes),
    ]);
    res.json({ ...counts, myPendingTasks, additionalDocumentsPending } satisfies BaCounts);
  });

  const baUsers = requireAuth({ roles: BA_ROLES, app: 'portal' });
  router.post('/business-associates/:id/details', baUsers, async (req, res) => {
    const id = baIdParam(req);
    const ids = requestIds(req);
    const p = principalOf(res);
    const state = await loadVisibleBa(store, p, id);
    // Validated here too (the activity decides again) so a bad form never costs a workflow round trip: the
    // field rules, then the service, state and city as the masters hold them (they exist, are active, fit).
    const parsed = parseCompanyDetails(req.body ?? {});
    if (!parsed.ok) throw new DomainError('validation', CORRECT_FIELDS, fieldErrors(parsed.error));
    const references = await resolveCompanyDetailReferences(masters, parsed.details);
    const refused = referenceErrors(parsed.details, references);
    if (Object.keys(refused).length > 0) throw new DomainError('validation', CORRECT_FIELDS, refused);
    // The parsed form (unknown keys dropped, empty text as null) is what travels into the workflow history,
    // with the references for the workflow's validator (the activity resolves its own).
    const details = withReferences(parsed.details, references);
    // The same PAN may not be registered twice under one company code: claimed first (race-free), given back
    // if the save is refused, and the BA's old PAN released once the new one is saved.
    const pan = parsed.details.panNumber;
    const codes = [state.companyCode ?? '', ...Object.keys(itemsOf(state).otherApplications)].filter((c) => c !== '');
    const claimed = pan ? await claimPan(pool, id, pan, codes) : [];
    try {
      await runCommand(res, id, { kind: 'saveDetails', details }, actingRole(p, BA_ROLES), ids);
    } catch (error) {
      await releaseClaims(pool, id, claimed);
      throw error;
    }
    await releaseOtherPans(pool, id, pan);
  });

  router.post('/business-associates/:id/submit', baUsers, async (req, res) => {
    const id = baIdParam(req);
    const ids = requestIds(req);
    const p = principalOf(res);
    const { companyCode } = parseBody(submitBody, req.body);
    await loadVisibleBa(store, p, id);
    // The documents master as it is now, so the workflow's validator refuses an incomplete submission at once.
    const documentTypes = await resolveDocumentTypes(masters);
    const command: OnboardingCommand = { type: 'SubmitOnboarding', documentTypes, ...(companyCode ? { companyCode } : {}) };
    await runCommand(res, id, { kind: 'command', command }, actingRole(p, BA_ROLES), ids);
  });

  const reviewers = requireAuth({ roles: REVIEWERS, app: 'console' });
  for (const verb of ['approve', 'reject'] as const) {
    router.post(`/business-associates/:id/${verb}`, reviewers, async (req, res) => {
      const id = baIdParam(req);
      const ids = requestIds(req);
      const p = principalOf(res);
      const body = verb === 'approve' ? parseBody(approveBody, req.body) : parseBody(rejectBody, req.body);
      // A role that may never decide this stage is refused before we look at the BA at all.
      const role = actingRole(p, REVIEW_STAGE_ROLES[body.stage]);
      // Staff of another company code may decide the BA's application for that code.
      await loadBaForCaller(store, p, id, body.companyCode);
      const decision = { stage: body.stage, remarks: body.remarks ?? null, ...(body.companyCode ? { companyCode: body.companyCode } : {}) };
      const command: OnboardingCommand =
        verb === 'approve' ? { type: 'ApproveReviewStage', ...decision } : { type: 'RejectReviewStage', ...decision };
      await runCommand(res, id, { kind: 'command', command }, role, ids);
    });
  }

  return router;
}
