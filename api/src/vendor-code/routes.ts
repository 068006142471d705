import { Router, type Request, type Response } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import { AUDITOR_ROLE, BA_ROLES, SAP_APPROVERS, SAP_REQUESTERS, STAFF_ROLES, type Role } from '../../../domain/src/identity/roles';
import { itemsOf } from '../../../domain/src/onboarding/state';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors } from '../../../domain/src/validation/fields';
import type { VendorCodeCommand } from '../../../domain/src/vendor-code/commands';
import { SAP_CODE_REQUESTED, vendorCodeMessages } from '../../../domain/src/vendor-code/decide';
import { describeVendorCodeEvent } from '../../../domain/src/vendor-code/describe';
import { vendorCodeStreamId, type VendorCodeEvent } from '../../../domain/src/vendor-code/events';
import { vendorCodeStatus, type VendorCodeState } from '../../../domain/src/vendor-code/state';
import {
  countVendorCodes,
  getVendorCode,
  listVendorCodes,
  listVendorCodesOfBa,
  VENDOR_CODE_SORT_FIELDS,
  type VendorCodeRow,
} from '../../../projections/src/vendor-codes/vendor-codes.queries';
import { loadOnboardingStateFrom } from '../../../workflows/src/onboarding/activities';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../../workflows/src/shared/command-deadline';
import { masterLookup } from '../../../workflows/src/shared/master-references';
import { baFactsOf, withReferences } from '../../../workflows/src/vendor-code/activities';
import { sendVendorCodeCommand } from '../../../workflows/src/vendor-code/client';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { parseListQuery, sendList } from '../http/simple-rest';
import { baIdParam, isBaCaller, listScope, notFound, requestIds } from '../onboarding/access';

/**
 * The ERP vendor codes over HTTP (issue 9): staff commands through the BA's vendor-code workflow for a company
 * code (`vendor-code-<baId>-<companyCode>`, started by the first command), the SAP dashboard list and counts,
 * one row, its history, and the BA's own view. Every answer after a command is the read-model row once the
 * projections include the write (bounded wait), else the row as the workflow's state says.
 */
export type VendorCodeRoutesDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  waitForProjections: (position: number, timeoutMs: number) => Promise<boolean>;
  projectionWaitMs: number;
  commandTimeoutMs?: number;
};

/** SAP readers: every staff role and the auditor (read-only). */
export const SAP_READERS: readonly Role[] = [...STAFF_ROLES, AUDITOR_ROLE];
const SAP_ACTORS: readonly Role[] = [...new Set([...SAP_REQUESTERS, ...SAP_APPROVERS])];

const CORRECT_FIELDS = 'Please correct the highlighted fields';
const notFoundRow = () => new DomainError('not_found', 'Vendor code record not found');

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new DomainError('validation', CORRECT_FIELDS, fieldErrors(parsed.error));
  return parsed.data;
}

const companyCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,10}$/, { error: 'Please select a company from the list' })
  .optional();
const id = (message: string) => z.coerce.number({ error: message }).int({ error: message }).positive({ error: message });
const remarks = z.string().max(260, { error: vendorCodeMessages.remarksTooLong });

const bodies = {
  'request-parent': z.object({ companyCode }),
  'request-child': z.object({ companyCode, stateId: id('Please select a state'), paymentTermsId: id(vendorCodeMessages.paymentTerms) }),
  'payment-terms': z.object({ companyCode, stateId: id('Please select a state'), paymentTermsId: id(vendorCodeMessages.paymentTerms) }),
  'vendor-category': z.object({
    companyCode,
    action: z.enum(['set', 'approve', 'reject'], { error: 'action must be set, approve or reject' }),
    vendorCategoryId: id(vendorCodeMessages.vendorCategory).optional(),
    remarks: remarks.nullish(),
  }),
  'recon-account': z.object({ companyCode, reconAccountId: id(vendorCodeMessages.reconAccount) }),
  'withholding-tax': z.object({ companyCode, taxCodeId: id(vendorCodeMessages.taxCode) }),
  reject: z.object({
    companyCode,
    reasonId: id(vendorCodeMessages.reason),
    remarks: remarks.nullish(),
    sendToBa: z.boolean({ error: 'sendToBa must be true or false' }),
  }),
} as const;

const SUCCESS: Record<string, string> = {
  'request-parent': SAP_CODE_REQUESTED,
  'request-child': 'Child code requested successfully',
  'payment-terms': 'Payment terms updated successfully',
  'vendor-category:set': 'Vendor category saved successfully',
  'vendor-category:approve': 'Vendor category approved successfully',
  'vendor-category:reject': 'Vendor category rejected successfully',
  'recon-account': 'Reconciliation account changed successfully',
  'withholding-tax': 'Withholding tax updated successfully',
  reject: 'Request rejected successfully',
};

const rowIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,100}:[A-Za-z0-9]{1,10}$/);
const listFilter = z
  .object({
    tab: z.enum(['all', 'requested', 'verification-pending', 'verified', 'processed']).optional(),
    baId: z.string().max(100).optional(),
    q: z.string().max(100).optional(),
  })
  .strict();

/** The row the workflow's state gives, when the read model has not caught up within the wait. */
function rowFromState(
  base: { baId: string; companyCode: string; companyName: string | null; panNumber: string | null },
  gst: { stateId: number; gstNo: string | null }[],
  s: VendorCodeState,
  at: string,
): VendorCodeRow {
  const children = new Map<number, VendorCodeRow['childCodes'][number]>();
  for (const g of gst)
    children.set(g.stateId, { stateId: g.stateId, stateName: null, gstNo: g.gstNo, childCode: null, paymentTermsCode: null, status: 'not-requested' });
  for (const c of Object.values(s.children))
    children.set(c.stateId, {
      stateId: c.stateId,
      stateName: null,
      gstNo: c.gstNo,
      childCode: c.childCode,
      paymentTermsCode: c.paymentTermsCode || null,
      status: c.status === 'assigned' ? 'created' : c.status,
    });
  const jobs = Object.values(s.jobs);
  return {
    id: `${base.baId}:${base.companyCode}`,
    ...base,
    status: vendorCodeStatus(s, gst.map((g) => g.stateId)),
    parentCode: s.parent.parentCode,
    childCodes: [...children.values()].sort((a, b) => a.stateId - b.stateId),
    vendorCategory: s.vendorCategory.name,
    vendorCategoryStatus: s.vendorCategory.status,
    vendorCategorySetBy: s.vendorCategory.setBy,
    reconAccount: s.reconAccount?.code ?? null,
    withholdingTax: s.withholdingTax ? { taxType: s.withholdingTax.taxType, taxCode: s.withholdingTax.taxCode } : null,
    waitingForErp: jobs.length > 0,
    lastErpError: jobs.find((j) => j.lastError)?.lastError ?? null,
    rejection:
      s.parent.status === 'rejected' && s.rejection
        ? { reason: s.rejection.reason, remarks: s.rejection.remarks, sendToBa: s.rejection.sendToBa, at }
        : null,
    blocked: false,
    requestedAt: s.parent.requestedAt,
    updatedAt: at,
  };
}

export function vendorCodeRoutes(deps: VendorCodeRoutesDeps): Router {
  const { pool, store, temporal } = deps;
  const masters = masterLookup(pool);
  const router = Router();
  const readers = requireAuth({ roles: SAP_READERS, app: 'console' });
  const actors = requireAuth({ roles: SAP_ACTORS, app: 'console' });

  /** The BA and the company code the caller acts on: 404 unless the BA exists and the code is one of the caller's. */
  async function target(p: Principal, baId: string, requested: string | undefined) {
    const { state: ba } = await loadOnboardingStateFrom(store, baId);
    if (ba.status === 'none' || ba.companyCode === null) throw notFound();
    const code = requested ?? ba.companyCode;
    const known = code === ba.companyCode || itemsOf(ba).otherApplications[code] !== undefined;
    if (!known && !p.companyCodes.includes(ba.companyCode)) throw notFound();
    if (!p.companyCodes.includes(code)) throw notFound();
    const facts = baFactsOf(ba, code);
    if (!facts.verified) throw new DomainError('rule', vendorCodeMessages.notVerified(code));
    return { ba, companyCode: code, facts };
  }

  const roleFor = (p: Principal, allowed: readonly string[]): string => {
    const role = p.roles.find((r) => allowed.includes(r));
    if (!role) throw new DomainError('forbidden', vendorCodeMessages.forbidden);
    return role;
  };

  async function run(req: Request, res: Response, verb: keyof typeof bodies): Promise<void> {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const body = parseBody(bodies[verb], req.body) as Record<string, unknown> & { companyCode?: string };
    const { ba, companyCode: code, facts } = await target(p, baId, body.companyCode);
    let command: VendorCodeCommand;
    let allowed: readonly string[] = SAP_REQUESTERS;
    let success = SUCCESS[verb] ?? '';
    switch (verb) {
      case 'request-parent':
        command = { type: 'RequestParentCode', ba: facts };
        break;
      case 'request-child':
        command = { type: 'RequestChildCode', stateId: Number(body['stateId']), paymentTermsId: Number(body['paymentTermsId']), ba: facts };
        break;
      case 'payment-terms':
        command = { type: 'SetPaymentTerms', stateId: Number(body['stateId']), paymentTermsId: Number(body['paymentTermsId']), ba: facts };
        break;
      case 'vendor-category': {
        const action = body['action'] as 'set' | 'approve' | 'reject';
        success = SUCCESS[`vendor-category:${action}`] ?? '';
        if (action === 'set') {
          if (body['vendorCategoryId'] === undefined)
            throw new DomainError('validation', CORRECT_FIELDS, { vendorCategoryId: vendorCodeMessages.vendorCategory });
          command = { type: 'SetVendorCategory', vendorCategoryId: Number(body['vendorCategoryId']), ba: facts };
        } else {
          allowed = SAP_APPROVERS;
          command =
            action === 'approve'
              ? { type: 'ApproveVendorCategory', ba: facts }
              : { type: 'RejectVendorCategory', remarks: typeof body['remarks'] === 'string' ? body['remarks'] : '', ba: facts };
        }
        break;
      }
      case 'recon-account':
        command = { type: 'ChangeReconAccount', reconAccountId: Number(body['reconAccountId']), ba: facts };
        break;
      case 'withholding-tax':
        command = { type: 'UpdateWithholdingTax', taxCodeId: Number(body['taxCodeId']), ba: facts };
        break;
      case 'reject':
        command = {
          type: 'RejectVendorCodeRequest',
          reasonId: Number(body['reasonId']),
          remarks: typeof body['remarks'] === 'string' ? body['remarks'] : null,
          sendToBa: body['sendToBa'] === true,
          ba: facts,
        };
        break;
      default:
        throw notFoundRow();
    }
    const role = roleFor(p, allowed);
    // The masters resolved for the workflow's validator (the activity resolves them again).
    command = await withReferences(masters, facts, command);
    const ids = requestIds(req);
    if (ids.key !== null && ids.fingerprint !== null) await bindIdempotencyKey(pool, p.userId, ids.key, ids.fingerprint);
    const requestId = ids.key !== null ? `${p.userId}:${ids.key}` : ids.requestId;
    const result = await sendVendorCodeCommand(
      temporal,
      deps.taskQueue,
      { baId, companyCode: code },
      command,
      {
        actor: { userId: p.userId, role, name: p.name },
        requestId,
        correlationId: ids.correlationId,
        timeoutMs: deps.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      },
    );
    const position = result.lastGlobalPosition;
    const caughtUp = position === 0 || (await deps.waitForProjections(position, deps.projectionWaitMs));
    const row = caughtUp ? await getVendorCode(pool, `${baId}:${code}`) : null;
    const vendorCode =
      row ??
      rowFromState(
        { baId, companyCode: code, companyName: ba.details?.companyName ?? null, panNumber: ba.details?.panNumber ?? null },
        facts.gstRows,
        result.state,
        new Date().toISOString(),
      );
    res.json({ message: success, vendorCode });
  }

  for (const verb of Object.keys(bodies) as (keyof typeof bodies)[]) {
    router.post(`/business-associates/:id/vendor-codes/${verb}`, actors, async (req, res) => run(req, res, verb));
  }

  router.get('/vendor-codes', readers, async (req, res) => {
    const p = principalOf(res);
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: VENDOR_CODE_SORT_FIELDS,
      defaultSort: { field: 'updatedAt', order: 'DESC' },
      filter: listFilter,
    });
    const { rows, total } = await listVendorCodes(pool, { scope: listScope(p), filter, sort, range });
    sendList(res, 'vendor-codes', range, rows, total);
  });

  router.get('/vendor-codes/counts', readers, async (_req, res) => {
    res.json(await countVendorCodes(pool, listScope(principalOf(res))));
  });

  async function visibleRow(p: Principal, raw: unknown): Promise<VendorCodeRow> {
    const parsed = rowIdSchema.safeParse(raw);
    if (!parsed.success) throw notFoundRow();
    const row = await getVendorCode(pool, parsed.data);
    if (!row || !p.companyCodes.includes(row.companyCode)) throw notFoundRow();
    return row;
  }

  router.get('/vendor-codes/:id', readers, async (req, res) => {
    res.json(await visibleRow(principalOf(res), req.params['id']));
  });

  router.get('/vendor-codes/:id/history', readers, async (req, res) => {
    const row = await visibleRow(principalOf(res), req.params['id']);
    const events = await store.readStream(vendorCodeStreamId(row.baId, row.companyCode));
    const entries = events
      .map((e) => {
        const { what, detail } = describeVendorCodeEvent({ type: e.type, data: e.data } as VendorCodeEvent);
        const actor = e.metadata.actor;
        return {
          id: e.globalPosition,
          type: e.type,
          time: e.metadata.at,
          actor: { userId: actor.userId, name: actor.name ?? null, role: actor.role },
          what,
          detail,
        };
      })
      .reverse();
    res.json(entries);
  });

  // The BA's own rows (its portal shows parent and child codes and a returned request's reason); staff see the
  // rows of their company codes.
  router.get('/business-associates/:id/vendor-codes', requireAuth({ roles: [...BA_ROLES, ...SAP_READERS] }), async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    if (isBaCaller(p)) {
      if (p.baId !== baId) throw notFound();
      const rows = await listVendorCodesOfBa(pool, baId);
      // A rejection not sent to the BA is internal.
      res.json(rows.map((r) => (r.rejection && !r.rejection.sendToBa ? { ...r, rejection: null } : r)));
      return;
    }
    const rows = await listVendorCodesOfBa(pool, baId, p.companyCodes);
    if (rows.length === 0) {
      // Nothing of the caller's codes: a BA they may not see is not found (its existence does not leak).
      const { state: ba } = await loadOnboardingStateFrom(store, baId);
      if (ba.status === 'none' || ba.companyCode === null || !p.companyCodes.includes(ba.companyCode)) throw notFound();
    }
    res.json(rows);
  });

  return router;
}
