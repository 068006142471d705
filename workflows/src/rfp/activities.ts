import type { Pool } from 'pg';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { RfpCommand } from '../../../domain/src/rfp/commands';
import { rfpDecider } from '../../../domain/src/rfp/decide';
import { rfpStreamId } from '../../../domain/src/rfp/events';
import type { Actor } from '../../../domain/src/shared/events';
import { isVendorBlocked } from '../../../projections/src/blocks/blocks.queries';
import { refusalsAsFailures } from '../onboarding/refusal';
import type { RfpClientCommand } from './messages';
import { summaryOf, type RfpSummary } from './summary';

/** What the workflow decides before the activity runs, so every attempt writes the same events. */
export type HandleRfpCommandArgs = {
  rfpCode: string;
  command: RfpCommand | RfpClientCommand;
  actor: Actor;
  /** Chosen by the workflow (deterministically): event ids derive from it, so a retry appends nothing new. */
  commandId: string;
  correlationId: string;
  /** The HTTP request (update id) that caused it, null for the workflow's own steps (the due-date timer). */
  requestId: string | null;
  workflowId: string;
  /** Decision time (ISO), workflow time: the quote deadline is judged against it. */
  at: string;
  /** The creator's company code, for CreateRfpDraft only (the RFP's company code in the read models). */
  companyCode?: string | null;
};

/** The summary, not the events: an upload of 5,000 lanes must not travel back through the workflow's history. */
export type HandleRfpCommandResult = { summary: RfpSummary; version: number; lastGlobalPosition: number; eventTypes: string[] };

export type RfpActivityDeps = {
  store: EventStore;
  /** The block read model (vendor_blocks), asked whether a quoting BA is blocked. */
  pool?: Pool;
};

export function createRfpActivities({ store, pool }: RfpActivityDeps) {
  /**
   * Whether the BA is blocked is the portal's block read model's word (projections/src/blocks, vendor_blocks),
   * read at the quote's turn; the RFP stream does not know it, and a caller's say-so is never taken.
   */
  async function withBlockedFlag(command: RfpCommand | RfpClientCommand): Promise<RfpCommand> {
    if (command.type !== 'SubmitLaneResponses') return command;
    if (!pool) throw new Error('RFP activities need the PostgreSQL pool to know whether a BA is blocked (createActivities({ pool }))');
    const baBlocked = typeof command.baId === 'string' && (await isVendorBlocked(pool, { baId: command.baId }));
    return { ...command, baBlocked };
  }

  return {
    /**
     * One RFP command through the decider against the RFP's stream (`rfp-<rfpCode>`), appended with ids from the
     * workflow's command id. A refusal is a non-retryable failure the workflow passes on; a ConcurrencyError or a
     * lost database is thrown as is and retried (bounded, shared/activity-options.ts).
     */
    async handleRfpCommand(args: HandleRfpCommandArgs): Promise<HandleRfpCommandResult> {
      return refusalsAsFailures(async () => {
        const command = await withBlockedFlag(args.command);
        const result = await handleCommand(store, rfpStreamId(args.rfpCode), rfpDecider, command, {
          actor: args.actor,
          at: args.at,
          // The draft's first event carries its creator's company code (the staff list's scope); others none.
          companyCode: args.companyCode ?? null,
          correlationId: args.correlationId,
          causationId: null,
          workflowId: args.workflowId,
          requestId: args.requestId,
          commandId: args.commandId,
        });
        return {
          summary: summaryOf(result.state),
          version: result.version,
          lastGlobalPosition: result.lastGlobalPosition,
          eventTypes: result.events.map((e) => e.type),
        };
      });
    },
  };
}

export type RfpActivities = ReturnType<typeof createRfpActivities>;
