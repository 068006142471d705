import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import type { BlockCommand, VendorBlockCommand } from '../../../domain/src/block/commands';
import { blockDecider, blockMessages, decideBlock, initialBlockState, vendorBlockDecider, type BlockState } from '../../../domain/src/block/decide';
import {
  blockStreamId,
  vendorBlockStreamId,
  type BlockAction,
  type BlockErpOperation,
  type BlockEvent,
  type BlockLevel,
  type VendorBlockEvent,
} from '../../../domain/src/block/events';
import { ErpUnavailableError, type ErpPort, type ErpRequestStatus, type ErpVendor } from '../../../domain/src/erp/port';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { CommandMetadata } from '../../../domain/src/shared/decider';
import { fold } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalsAsFailures } from '../onboarding/refusal';
import type { MasterLookup } from '../shared/master-references';
import type { BlockInput } from './messages';

/** What every recording activity carries: decided in workflow code, so every attempt writes the same events. */
export type BlockEnvelope = {
  requestId: string;
  actor: Actor;
  /** Chosen by the workflow: event ids derive from it, so a retry appends nothing new. */
  commandId: string;
  correlationId: string;
  /** The HTTP request (update id) that caused it, null for the workflow's own steps. */
  causedBy: string | null;
  workflowId: string;
  companyCode: string | null;
  at: string;
};

export type BlockActivityResult = { events: BlockEvent[]; state: BlockState; lastGlobalPosition: number };
export type ErpCallResult<T> = { ok: true; value: T } | { ok: false; outage: true; error: string } | { ok: false; outage: false; error: string };

const metaOf = (a: BlockEnvelope, commandId: string): CommandMetadata & { commandId: string } => ({
  actor: a.actor,
  at: a.at,
  companyCode: a.companyCode,
  correlationId: a.correlationId,
  causationId: null,
  workflowId: a.workflowId,
  requestId: a.causedBy,
  commandId,
});

export type BlockActivityDeps = {
  store: EventStore;
  /** business_associates (the BA's PAN and company code), vendor_codes when present. */
  pool?: Pool;
  masters: MasterLookup;
  erp?: ErpPort;
};

/** The vendor code a request names, found in the portal's vendor_codes read model first, else asked of the ERP. */
async function resolveVendorCode(
  deps: BlockActivityDeps,
  input: Pick<BlockInput, 'baId' | 'pan' | 'level' | 'companyCode' | 'childCode'>,
): Promise<{ vendorCode: string; companyCode: string; pan: string } | null> {
  let pan = input.pan?.trim().toUpperCase() || null;
  let companyCode = input.companyCode?.trim() || null;
  if (input.baId) {
    if (!deps.pool) throw new Error('block activities need the PostgreSQL pool to find a BA (createActivities({ pool }))');
    const { rows } = await deps.pool.query<{ pan_number: string | null; company_code: string }>(
      'SELECT pan_number, company_code FROM business_associates WHERE id = $1',
      [input.baId],
    );
    const ba = rows[0];
    if (!ba) throw new DomainError('not_found', 'Business associate not found');
    pan = ba.pan_number?.toUpperCase() ?? null;
    companyCode = companyCode ?? ba.company_code;
    const known = companyCode ? await fromVendorCodes(deps.pool, input.baId, companyCode, input.level, input.childCode) : null;
    if (known && pan) return { vendorCode: known, companyCode: companyCode ?? '', pan };
  }
  if (!pan) return null;
  if (!deps.erp) throw new Error('block activities need the ERP port (createActivities({ erp }))');
  const vendors = await deps.erp.vendorsByPan(pan);
  const match = pickVendor(vendors, input.level, companyCode, input.childCode);
  return match ? { vendorCode: match.vendorCode, companyCode: match.companyCode, pan } : null;
}

export function pickVendor(vendors: readonly ErpVendor[], level: BlockLevel, companyCode: string | null, childCode: string | null): ErpVendor | null {
  const inCode = vendors.filter((v) => companyCode === null || v.companyCode === companyCode);
  if (level === 'parent') return inCode.find((v) => v.kind === 'parent') ?? null;
  if (!childCode) return null;
  return inCode.find((v) => v.kind === 'child' && v.vendorCode === childCode) ?? null;
}

/**
 * The vendor_codes read model (helper VC's) when it exists: read as jsonb so a column it names differently only
 * means "not found here" and the ERP is asked instead.
 */
async function fromVendorCodes(pool: Pool, baId: string, companyCode: string, level: BlockLevel, childCode: string | null): Promise<string | null> {
  try {
    const exists = await pool.query<{ t: string | null }>(`SELECT to_regclass('vendor_codes')::text AS t`);
    if (!exists.rows[0]?.t) return null;
    const { rows } = await pool.query<{ row: Record<string, unknown> }>(
      'SELECT to_jsonb(v) AS row FROM vendor_codes v WHERE v.ba_id = $1 AND v.company_code = $2',
      [baId, companyCode],
    );
    const row = rows[0]?.row;
    if (!row) return null;
    if (level === 'parent') {
      const parent = row['parent_code'];
      return typeof parent === 'string' && parent ? parent : null;
    }
    const children = row['child_codes'];
    if (!childCode || !Array.isArray(children)) return null;
    const found = children.some((c) => c && typeof c === 'object' && (c as Record<string, unknown>)['childCode'] === childCode);
    return found ? childCode : null;
  } catch {
    return null;
  }
}

/** An ERP call whose outage is an answer (the workflow records it and backs off), not a fault to retry here. */
async function erpCall<T>(call: () => Promise<T>): Promise<ErpCallResult<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof ErpUnavailableError) return { ok: false, outage: true, error: error.message };
    // A 4xx from the ERP: our request was wrong for it; retrying the same request cannot help.
    if (error instanceof Error && !(error instanceof TypeError)) return { ok: false, outage: false, error: error.message };
    throw error;
  }
}

export function createBlockActivities(deps: BlockActivityDeps) {
  const { store } = deps;

  /** Closes the request on the vendor code's stream when its outcome is known (idempotent). */
  async function closeOnVendor(a: BlockEnvelope, state: BlockState, events: readonly BlockEvent[], wasEnding: boolean): Promise<number> {
    if (!state.scope || !state.action) return 0;
    const outcome = events.some((e) => e.type === 'BlockRejected')
      ? 'rejected'
      : events.some((e) => e.type === 'ErpRequestRefused')
        ? 'refused'
        : events.some((e) => e.type === 'BlockApplied')
          ? 'applied'
          : null;
    if (!outcome) return 0;
    const ref = { vendorCode: state.scope.vendorCode, baId: state.baId, pan: state.pan ?? '', companyCode: state.scope.companyCode, level: state.scope.level };
    const command: VendorBlockCommand = wasEnding
      ? { type: 'CloseVendorBlockRequest', ...ref, requestId: a.requestId, action: 'unblock', outcome, auto: true }
      : { type: 'CloseVendorBlockRequest', ...ref, requestId: a.requestId, action: state.action, outcome };
    if (wasEnding && outcome !== 'applied') return 0;
    const closed = await handleCommand(store, vendorBlockStreamId(ref.vendorCode), vendorBlockDecider, command, metaOf(a, `${a.commandId}:vendor`));
    return closed.lastGlobalPosition;
  }

  return {
    /**
     * Records a new request: the vendor code resolved (vendor_codes, else the ERP by PAN), the reason from the
     * block-reasons master, the request decided (nothing appended if refused), then the vendor code's slot
     * taken (409 / 422 there), then BlockRequested. A retry finds its events in place.
     */
    async recordBlockRequest(args: BlockEnvelope & { input: BlockInput }): Promise<BlockActivityResult & { vendorCode: string }> {
      return refusalsAsFailures(async () => {
        const { input } = args;
        const resolved = await resolveVendorCode(deps, input);
        if (!resolved) throw new DomainError('rule', blockMessages.noVendorCode);
        const [reasonItem] = await deps.masters('block-reasons', [input.reasonId]);
        const reasonName = reasonItem && reasonItem.status === 'active' ? reasonItem['reason'] : null;
        const command: BlockCommand = {
          type: 'RequestBlock',
          requestId: input.requestId,
          action: input.action,
          baId: input.baId,
          pan: resolved.pan,
          scope: { level: input.level, companyCode: resolved.companyCode, vendorCode: resolved.vendorCode },
          reasonId: input.reasonId,
          reason: typeof reasonName === 'string' ? reasonName : null,
          comments: input.comments,
          file: input.file,
          endDate: input.endDate,
        };
        const meta = metaOf({ ...args, companyCode: resolved.companyCode }, args.commandId);
        // Decided first without appending: a refused request must not take the vendor code's slot.
        const decided = decideBlock(command, initialBlockState, meta);
        if (decided instanceof DomainError) {
          // A retry after the request was recorded decides against an existing stream: answer from the stream.
          const stored = await store.readStream(blockStreamId(input.requestId));
          if (stored.length === 0) throw decided;
        }
        await handleCommand(
          store,
          vendorBlockStreamId(resolved.vendorCode),
          vendorBlockDecider,
          {
            type: 'OpenVendorBlockRequest',
            vendorCode: resolved.vendorCode,
            baId: input.baId,
            pan: resolved.pan,
            companyCode: resolved.companyCode,
            level: input.level,
            requestId: input.requestId,
            action: input.action,
          },
          metaOf({ ...args, companyCode: resolved.companyCode }, `${args.commandId}:vendor`),
        );
        const result = await handleCommand(store, blockStreamId(input.requestId), blockDecider, command, meta);
        return { events: result.events, state: result.state, lastGlobalPosition: result.lastGlobalPosition, vendorCode: resolved.vendorCode };
      });
    },

    /** One command on the request's stream; its outcome (rejected, refused, applied) closes it on the vendor's. */
    async handleBlockCommand(args: BlockEnvelope & { command: BlockCommand; ending?: boolean }): Promise<BlockActivityResult> {
      return refusalsAsFailures(async () => {
        const result = await handleCommand(store, blockStreamId(args.requestId), blockDecider, args.command, metaOf(args, args.commandId));
        // Also on a retry (replayed): the vendor's close is idempotent, and may be what the first attempt missed.
        const closedAt = await closeOnVendor(args, result.state, result.events, args.ending === true);
        // The later of the two: a reader waiting for it sees the vendor's blocked state too.
        return { events: result.events, state: result.state, lastGlobalPosition: Math.max(result.lastGlobalPosition, closedAt) };
      });
    },

    /** The end date came: BlockEnded, with `unblock` only while the vendor is still blocked by this request. */
    async endBlock(args: BlockEnvelope & { vendorCode: string }): Promise<BlockActivityResult> {
      return refusalsAsFailures(async () => {
        const vendor = fold(
          vendorBlockDecider,
          (await store.readStream(vendorBlockStreamId(args.vendorCode))).map((e) => ({ type: e.type, data: e.data }) as VendorBlockEvent),
        );
        const result = await handleCommand(
          store,
          blockStreamId(args.requestId),
          blockDecider,
          { type: 'EndBlock', stillBlockedByThis: vendor.blocked && vendor.blockedBy === args.requestId },
          metaOf(args, args.commandId),
        );
        return { events: result.events, state: result.state, lastGlobalPosition: result.lastGlobalPosition };
      });
    },

    /** Submits the operation with its idempotency key: an outage is answered, not thrown. */
    async submitBlockToErp(args: {
      requestKey: string;
      operation: BlockErpOperation;
      vendorCode: string;
      companyCode: string;
      level: BlockLevel;
    }): Promise<ErpCallResult<{ requestId: string }>> {
      const erp = deps.erp;
      if (!erp) throw ApplicationFailure.retryable('The worker has no ERP adapter (createActivities({ erp }))', 'ErpNotConfigured');
      return erpCall(() => erp.submit(args.requestKey, { op: args.operation, vendorCode: args.vendorCode, companyCode: args.companyCode, scope: args.level }));
    },

    async blockErpStatus(args: { erpRequestId: string }): Promise<ErpCallResult<ErpRequestStatus>> {
      const erp = deps.erp;
      if (!erp) throw ApplicationFailure.retryable('The worker has no ERP adapter (createActivities({ erp }))', 'ErpNotConfigured');
      return erpCall(() => erp.status(args.erpRequestId));
    },
  };
}

export type BlockActivities = ReturnType<typeof createBlockActivities>;
export type { BlockAction };
