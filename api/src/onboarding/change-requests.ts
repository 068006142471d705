import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import { AUDITOR_ROLE, BA_ROLES, REVIEW_STAGE_ROLES, STAFF_ROLES, type Role } from '../../../domain/src/identity/roles';
import { changeRequestMessages } from '../../../domain/src/onboarding/change-requests';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import {
  COMPANY_DETAIL_FIELDS,
  companyDetailsSchema,
  referenceErrors,
  withReferences,
  type CompanyDetails,
} from '../../../domain/src/onboarding/details';
import type { ChangeRequest } from '../../../domain/src/onboarding/items';
import { bankAccountSchema } from '../../../domain/src/onboarding/items-schema';
import { itemsOf, type OnboardingState } from '../../../domain/src/onboarding/state';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { getBusinessAssociate } from '../../../projections/src/business-associates/business-associates.queries';
import {
  getChangeRequest,
  listChangeRequests,
  type ChangeRequestRow,
} from '../../../projections/src/onboarding-items/items.queries';
import { sendOnboardingAction } from '../../../workflows/src/onboarding/client';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../../workflows/src/shared/command-deadline';
import { masterLookup, resolveCompanyDetailReferences } from '../../../workflows/src/shared/master-references';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { HttpError, messages } from '../http/problem';
import { parseListQuery, sendList } from '../http/simple-rest';
import { baIdParam, loadVisibleBa, mayAccessBa, notFound, requestIds } from './access';

/**
 * Edit Profile of a verified BA (issue 8 "Verified profile changes"), `/api/business-associates/:id/change-
 * requests`: the BA Admin proposes new company details or a new bank account; reviewers approve or reject.
 * The rules (one open request per section, two different approvers for a bank change, the second a stage-2
 * reviewer, payments held meanwhile) are the decider's (domain/src/onboarding/change-requests.ts); this module
 * parses, scopes and answers the read-model row once the projections include the write.
 */
export type ChangeRequestRoutesDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  /** The worker's task queue: a lifecycle that completed at verification (before issue 8) is resumed there. */
  taskQueue?: string;
  waitForProjections: (position: number, timeoutMs: number) => Promise<boolean>;
  projectionWaitMs: number;
  commandTimeoutMs?: number;
};

const EVERYONE: readonly Role[] = [...BA_ROLES, ...STAFF_ROLES, AUDITOR_ROLE];
const REVIEWERS: readonly Role[] = [...new Set([...REVIEW_STAGE_ROLES[1], ...REVIEW_STAGE_ROLES[2]])];
/** Change request ids made from a client's Idempotency-Key: a retried request names the same change. */
const CHANGE_REQUEST_ID_NAMESPACE = '0d7c3f0e-5a52-4f0b-9a57-3c1e9d2b6a84';
const CORRECT_FIELDS = 'Please correct the highlighted fields';
const SECTION_REQUIRED = 'Please choose what to change: company or bank';

const raiseBody = z.object({
  section: z.enum(['company', 'bank'], { error: SECTION_REQUIRED }),
  proposed: z.record(z.string(), z.unknown(), { error: 'Please give the new values' }),
});
const approveBody = z.object({ remarks: z.string().max(260, { error: 'Maximum 260 characters allowed' }).nullish() });
const rejectBody = z.object({
  remarks: z
    .string({ error: 'Remarks are required to reject' })
    .max(260, { error: 'Maximum 260 characters allowed' })
    .refine((v) => v.trim() !== '', { error: 'Remarks are required to reject' }),
});
const listFilter = z
  .object({ status: z.enum(['pending', 'first-approved', 'approved', 'rejected', 'open'], { error: 'Unknown status' }) })
  .partial()
  .strict();
const SORT_FIELDS = ['raisedAt', 'id'] as const;

/** Request ids are uuids chosen by this API (test data may use other plain ids); anything else is not found. */
const requestIdSchema = z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/);
function requestIdParam(req: Request): string {
  const parsed = requestIdSchema.safeParse(req.params['requestId']);
  if (!parsed.success) throw new DomainError('not_found', changeRequestMessages.notFound);
  return parsed.data;
}

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new DomainError('validation', CORRECT_FIELDS, fieldErrors(parsed.error));
  return parsed.data;
}

/** Errors of the proposed values, keyed by the field itself as the profile form shows them. */
const invalid = (errors: Record<string, string>) => new DomainError('validation', CORRECT_FIELDS, errors);

/**
 * A company change, checked before any workflow round trip: the field rules of the company details for the
 * fields it names, then the service, state and city of the profile it would make against the masters. The
 * parsed fields travel on with the references, as the details route sends them.
 */
async function proposedCompany(
  pool: Pool,
  raw: Record<string, unknown>,
  current: CompanyDetails | null,
): Promise<Record<string, unknown>> {
  const named = COMPANY_DETAIL_FIELDS.filter((f) => f in raw);
  if (named.length === 0) throw invalid({ proposed: changeRequestMessages.nothingChanged });
  const parsed = companyDetailsSchema.safeParse(raw);
  if (!parsed.success) throw invalid(fieldErrors(parsed.error));
  const proposed: Partial<CompanyDetails> = {};
  for (const f of named) (proposed as Record<string, unknown>)[f] = parsed.data[f] ?? null;
  const merged = { ...(current ?? {}), ...proposed } as CompanyDetails;
  const references = await resolveCompanyDetailReferences(masterLookup(pool), merged);
  const refused = referenceErrors(merged, references);
  if (Object.keys(refused).length > 0) throw invalid(refused);
  return withReferences(proposed, references);
}

/** What a command answers when the read model has not caught up in time: the request as the workflow holds it. */
function fromState(baId: string, request: ChangeRequest): ChangeRequestRow {
  const last = request.approvals[request.approvals.length - 1];
  return {
    id: request.requestId,
    baId,
    section: request.section,
    proposed: request.proposed,
    changes: request.changes,
    status: request.status,
    approvals: request.approvals,
    remarks: request.remarks,
    raisedBy: null,
    raisedAt: '',
    decidedBy: request.status === 'approved' ? (last?.by ?? null) : null,
    decidedAt: request.status === 'approved' ? (last?.at ?? null) : null,
    updatedAt: '',
  };
}

/**
 * The role a reviewer decides in: the second approval of a bank change must come from a stage-2 reviewer, so a
 * user holding both kinds of role approves it in their stage-2 role; otherwise their first reviewing role.
 */
function reviewingRole(p: Principal, request: ChangeRequest | undefined): string {
  const stage2 = p.roles.find((r) => (REVIEW_STAGE_ROLES[2] as readonly string[]).includes(r));
  if (request?.section === 'bank' && request.status === 'first-approved' && stage2) return stage2;
  const role = p.roles.find((r) => REVIEWERS.includes(r));
  if (!role) throw new HttpError(403, messages.forbidden);
  return role;
}

export function changeRequestRoutes(deps: ChangeRequestRoutesDeps): Router {
  const { pool, store, temporal } = deps;
  const router = Router();
  const everyone = requireAuth({ roles: EVERYONE });
  const baAdmin = requireAuth({ roles: ['BA Admin'], app: 'portal' });
  const reviewers = requireAuth({ roles: REVIEWERS, app: 'console' });

  /**
   * Sends the command as the caller and answers the request's row once the projections include it (or, after
   * the bounded wait, as the workflow holds it). The request id is the update id: a retry with the same
   * Idempotency-Key is the same update, answered once.
   */
  async function run(
    res: Response,
    req: Request,
    baId: string,
    requestId: string,
    command: OnboardingCommand,
    role: string,
  ): Promise<ChangeRequestRow> {
    const p = principalOf(res);
    const ids = requestIds(req);
    if (ids.key !== null && ids.fingerprint !== null) await bindIdempotencyKey(pool, p.userId, ids.key, ids.fingerprint);
    const updateId = ids.key !== null ? `${p.userId}:${ids.key}` : ids.requestId;
    const result = await sendOnboardingAction(
      temporal,
      baId,
      { kind: 'command', command },
      {
        actor: { userId: p.userId, role, name: p.name },
        requestId: updateId,
        correlationId: ids.correlationId,
        timeoutMs: deps.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
        ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}),
      },
    );
    const position = result.lastGlobalPosition;
    const caughtUp = position === 0 || (await deps.waitForProjections(position, deps.projectionWaitMs));
    const row = caughtUp ? await getChangeRequest(pool, baId, requestId) : null;
    if (row) return row;
    const request = itemsOf(result.state).changeRequests[requestId];
    if (!request) throw new DomainError('not_found', changeRequestMessages.notFound);
    return fromState(baId, request);
  }

  /** The BA of the path as its stream says now, if the caller may see it, with the open request named. */
  async function visibleRequest(
    res: Response,
    req: Request,
  ): Promise<{ baId: string; requestId: string; state: OnboardingState; request: ChangeRequest }> {
    const baId = baIdParam(req);
    const requestId = requestIdParam(req);
    const state = await loadVisibleBa(store, principalOf(res), baId);
    const request = itemsOf(state).changeRequests[requestId];
    // Unknown here means unknown to the decider too: answered without a workflow round trip.
    if (!request) throw new DomainError('not_found', changeRequestMessages.notFound);
    return { baId, requestId, state, request };
  }

  router.get('/business-associates/:id/change-requests', everyone, async (req, res) => {
    const p = principalOf(res);
    const ba = await getBusinessAssociate(pool, baIdParam(req));
    if (!ba || !mayAccessBa(p, ba)) throw notFound();
    const { range, filter } = parseListQuery(req.query, {
      sortFields: SORT_FIELDS,
      defaultSort: { field: 'raisedAt', order: 'DESC' },
      filter: listFilter,
      defaultPageSize: 25,
    });
    // A BA has a handful of requests: read whole (newest first), paged here.
    const rows = await listChangeRequests(pool, ba.id, filter.status ? { status: filter.status } : {});
    sendList(res, 'change-requests', range, rows.slice(range.offset, range.offset + range.limit), rows.length);
  });

  router.get('/business-associates/:id/change-requests/:requestId', everyone, async (req, res) => {
    const p = principalOf(res);
    const ba = await getBusinessAssociate(pool, baIdParam(req));
    if (!ba || !mayAccessBa(p, ba)) throw notFound();
    const row = await getChangeRequest(pool, ba.id, requestIdParam(req));
    if (!row) throw new DomainError('not_found', changeRequestMessages.notFound);
    res.json(row);
  });

  router.post('/business-associates/:id/change-requests', baAdmin, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const state = await loadVisibleBa(store, p, baId);
    const body = parseBody(raiseBody, req.body);
    // The decider parses again; checked here first so a bad form never costs a workflow round trip.
    let proposed: Record<string, unknown>;
    if (body.section === 'bank') {
      const account = bankAccountSchema.safeParse(body.proposed);
      if (!account.success) throw invalid(fieldErrors(account.error));
      proposed = account.data;
    } else {
      proposed = await proposedCompany(pool, body.proposed, state.details);
    }
    const ids = requestIds(req);
    const requestId = ids.key ? uuidv5(`${p.userId}:${ids.key}`, CHANGE_REQUEST_ID_NAMESPACE) : randomUUID();
    const command: OnboardingCommand = { type: 'RaiseChangeRequest', requestId, section: body.section, proposed };
    res.status(201).json(await run(res, req, baId, requestId, command, 'BA Admin'));
  });

  router.post('/business-associates/:id/change-requests/:requestId/approve', reviewers, async (req, res) => {
    const p = principalOf(res);
    parseBody(approveBody, req.body);
    const { baId, requestId, request } = await visibleRequest(res, req);
    const row = await run(res, req, baId, requestId, { type: 'ApproveChangeRequest', requestId }, reviewingRole(p, request));
    res.json({ ...row, message: changeRequestMessages.approved });
  });

  router.post('/business-associates/:id/change-requests/:requestId/reject', reviewers, async (req, res) => {
    const p = principalOf(res);
    const body = parseBody(rejectBody, req.body);
    const { baId, requestId, request } = await visibleRequest(res, req);
    const command: OnboardingCommand = { type: 'RejectChangeRequest', requestId, remarks: body.remarks.trim() };
    const row = await run(res, req, baId, requestId, command, reviewingRole(p, request));
    res.json({ ...row, message: changeRequestMessages.rejected });
  });

  return router;
}
