import type { Pool } from 'pg';
import { handleCommand, type HandleResult } from '../../../domain/src/event-store/handle-command';
import { ConcurrencyError, type EventStore } from '../../../domain/src/event-store/port';
import { memoFinancialYear } from '../../../domain/src/memos/amounts';
import {
  groupMemoInvoices,
  memoClaimsDecider,
  memoDecider,
  memoSequenceDecider,
  type MemoCommand,
  type MemoGroup,
  type MemoState,
} from '../../../domain/src/memos/decide';
import {
  memoClaimsStreamId,
  memoSequenceStreamId,
  memoStreamId,
  type MemoClaimsEvent,
  type MemoEvent,
  type MemoSubmitted,
} from '../../../domain/src/memos/events';
import { foldInvoiceView, type MemoInvoiceView } from '../../../domain/src/memos/invoice-view';
import type { CommandMetadata } from '../../../domain/src/shared/decider';
import { fold } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor, DomainEvent } from '../../../domain/src/shared/events';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { refusalsAsFailures } from '../onboarding/refusal';

/** What every memo activity carries: decided in workflow code, so every attempt writes the same events. */
export type MemoEnvelope = {
  memoId: string;
  actor: Actor;
  /** Chosen by the workflow: event ids derive from it, so a retry appends nothing new. */
  commandId: string;
  correlationId: string;
  causedBy: string | null;
  workflowId: string;
  companyCode: string | null;
  at: string;
};

export type MemoActivityDeps = { store: EventStore; pool?: Pool };

const metaOf = (a: MemoEnvelope, commandId = a.commandId): CommandMetadata & { commandId: string } => ({
  actor: a.actor,
  at: a.at,
  companyCode: a.companyCode,
  correlationId: a.correlationId,
  causationId: null,
  workflowId: a.workflowId,
  requestId: a.causedBy,
  commandId,
});

const asDomain = (e: { type: string; data: unknown }): DomainEvent => ({ type: e.type, data: e.data });

/** Streams shared by many memos (claims of a BA, numbers of a company code) meet concurrent appends: decide again. */
const CONFLICT_RETRIES = 50;
async function onFreshState<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 20 * Math.min(attempt + 1, 5))));
    }
  }
}

export function createMemoActivities(deps: MemoActivityDeps) {
  const { store } = deps;

  const invoiceViews = async (ids: readonly string[]): Promise<MemoInvoiceView[]> =>
    Promise.all(ids.map(async (id) => foldInvoiceView(id, (await store.readStream(`invoice-${id}`)).map(asDomain))));

  /** The numbers of the memos that hold some invoices already (their MemoSubmitted may be a moment away). */
  async function numbersOf(memoIds: readonly string[]): Promise<Record<string, string>> {
    const found: Record<string, string> = {};
    for (const memoId of memoIds) {
      for (let i = 0; i < 20 && found[memoId] === undefined; i++) {
        const submitted = (await store.readStream(memoStreamId(memoId))).find((e) => e.type === 'MemoSubmitted');
        const number = (submitted?.data as MemoSubmitted['data'] | undefined)?.memoNumber;
        if (number) found[memoId] = number;
        else await new Promise((r) => setTimeout(r, 100));
      }
    }
    return found;
  }

  return {
    /**
     * Checks the invoices on their own streams (strongly consistent) and claims them for the memo on the BA's
     * claims stream. Refusals: 404/422 (grouping), 409 (already in another memo). A retry after the claim was
     * recorded finds it and answers the same group.
     */
    async claimMemoInvoices(args: MemoEnvelope & { baId: string; invoiceIds: string[] }): Promise<MemoGroup & { lastGlobalPosition: number }> {
      return refusalsAsFailures(async () => {
        const claimsStream = memoClaimsStreamId(args.baId);
        const claims = fold(memoClaimsDecider, (await store.readStream(claimsStream)).map((e) => asDomain(e) as MemoClaimsEvent));
        const views = await invoiceViews(args.invoiceIds);
        const already = views.length > 0 && views.every((v) => claims.claimedBy[v.invoiceId] === args.memoId);
        // Already claimed by this memo (a retry): the invoices may have moved on since; keep the claimed group.
        const group = groupMemoInvoices(args.baId, already ? views.map((v) => ({ ...v, status: 'S' as const })) : views);
        if (group instanceof Error) throw group;
        const byId = new Map(views.map((v) => [v.invoiceId, v.invoiceNumber]));
        const invoices = group.invoiceIds.map((invoiceId) => ({ invoiceId, invoiceNumber: byId.get(invoiceId) ?? invoiceId }));
        const claim = (memoNumbers: Record<string, string>) =>
          handleCommand(store, claimsStream, memoClaimsDecider, { type: 'ClaimMemoInvoices', memoId: args.memoId, baId: args.baId, invoices, memoNumbers }, metaOf(args));
        const result = await onFreshState(async () => {
          try {
            return await claim({});
          } catch (error) {
            if (!(error instanceof DomainError) || error.code !== 'conflict') throw error;
            // Refused: name the memos that hold the invoices (claims only grow, so the refusal stands).
            const current = fold(memoClaimsDecider, (await store.readStream(claimsStream)).map((e) => asDomain(e) as MemoClaimsEvent));
            const holders = [...new Set(group.invoiceIds.map((id) => current.claimedBy[id]).filter((m): m is string => !!m && m !== args.memoId))];
            return claim(await numbersOf(holders));
          }
        });
        return { ...group, lastGlobalPosition: result.lastGlobalPosition };
      });
    },

    /** The next number of the company code's financial year (the memo date's); the same memo gets its number back. */
    async assignMemoNumber(args: MemoEnvelope & { companyCode: string }): Promise<{ memoNumber: string; financialYear: string }> {
      return refusalsAsFailures(async () => {
        const financialYear = memoFinancialYear(indiaDateAt(args.at));
        const stream = memoSequenceStreamId(args.companyCode, financialYear);
        const result = await onFreshState(() =>
          handleCommand(store, stream, memoSequenceDecider, { type: 'AssignMemoNumber', memoId: args.memoId, companyCode: args.companyCode, financialYear }, metaOf(args)),
        );
        const memoNumber = result.state.byMemo[args.memoId];
        if (!memoNumber) throw new Error(`memo ${args.memoId} has no number after its assignment`);
        return { memoNumber, financialYear };
      });
    },

    async recordMemoSubmitted(args: MemoEnvelope & { memo: MemoSubmitted['data'] }): Promise<{ state: MemoState; lastGlobalPosition: number }> {
      return refusalsAsFailures(async () => {
        const r = await handleCommand(store, memoStreamId(args.memoId), memoDecider, { type: 'SubmitMemo', memo: args.memo }, metaOf(args));
        return { state: r.state, lastGlobalPosition: r.lastGlobalPosition };
      });
    },

    async handleMemoCommand(args: MemoEnvelope & { command: MemoCommand }): Promise<{ events: MemoEvent[]; state: MemoState; lastGlobalPosition: number }> {
      return refusalsAsFailures(async () => {
        const r: HandleResult<MemoState, MemoEvent> = await handleCommand(store, memoStreamId(args.memoId), memoDecider, args.command, metaOf(args));
        return { events: r.events, state: r.state, lastGlobalPosition: r.lastGlobalPosition };
      });
    },
  };
}

export type MemoActivities = ReturnType<typeof createMemoActivities>;
