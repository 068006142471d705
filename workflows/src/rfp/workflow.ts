import { allHandlersFinished, condition, continueAsNew, log, proxyActivities, setHandler, uuid4, workflowInfo } from '@temporalio/workflow';
import { SYSTEM_ROLE } from '../../../domain/src/identity/roles';
import type { RfpCommand } from '../../../domain/src/rfp/commands';
import { RFP_TRANSITIONS } from '../../../domain/src/rfp/lifecycle';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalFailure } from '../onboarding/refusal';
import { COMMAND_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { createCommandLock } from '../shared/command-lock';
import { commandFailure, refuseIfLate } from '../shared/deadline';
import { recentAnswers } from '../shared/recent-answers';
import type { createRfpActivities } from './activities';
import {
  awaitCreatedUpdate,
  RECENT_REQUESTS,
  rfpCommandUpdate,
  rfpStateQuery,
  type RfpCarry,
  type RfpClientCommand,
  type RfpInput,
  type RfpStateView,
  type RfpUpdateResult,
} from './messages';
import { emptyRfpSummary, precheck, type RfpSummary } from './summary';

// Types only: the activity code (pg, the event store) never enters the workflow bundle.
const { handleRfpCommand } = proxyActivities<ReturnType<typeof createRfpActivities>>(COMMAND_ACTIVITY_OPTIONS);

/** The due-date timer's identity in event metadata: bidding closed by the system, not a person. */
const TIMER_ACTOR: Actor = { userId: 'system', role: SYSTEM_ROLE, name: 'RFP due-date timer' };

/** After the timer's CloseBidding failed for good (the database down past the retry bound): try again this much later. */
const TIMER_RETRY_MS = 30_000;

/** The commands people send through `command`: every RFP command but the creation, which starts the lifecycle. */
const CLIENT_COMMANDS: ReadonlySet<string> = new Set(Object.keys(RFP_TRANSITIONS).filter((type) => type !== 'CreateRfpDraft'));

/** What the validator checks of a command's shape before anything else; the decider checks its payload. */
function shapeProblem(command: Partial<RfpClientCommand> | undefined): string | null {
  if (typeof command?.type !== 'string' || !CLIENT_COMMANDS.has(command.type)) return 'Unknown command';
  if (command.type === 'SubmitLaneResponses') {
    const c = command as Partial<Extract<RfpClientCommand, { type: 'SubmitLaneResponses' }>>;
    if (typeof c.baId !== 'string' || c.baId === '' || !Number.isInteger(c.round)) return 'A lane response names its BA and round';
  }
  return null;
}

/**
 * One RFP's lifecycle (`rfp-<rfpCode>`), started by the draft's creation (update-with-start) and running for as
 * long as the RFP may be reopened: draft (wizard) → floated (bidding until the round's due date) → evaluation →
 * awarded → closed, reopen starting a new round (domain/src/rfp/lifecycle.ts). Every command is the `command`
 * update: the validator refuses at once what the summary shows (actor, role, existence, status, a quote's round
 * and deadline), the handler has the activity decide against the stream under the command lock. While floated,
 * a durable timer sleeps until the round's `dueAt` and closes bidding as the system; a reopen or a change of
 * the deadline re-arms it, and a timer that fires for a round no longer open changes nothing (the decider
 * ignores it). Continues as new when its history grows, carrying the summary only.
 */
export async function rfpWorkflow(input: RfpInput): Promise<RfpUpdateResult> {
  const { workflowId } = workflowInfo();
  let summary: RfpSummary = input.carry?.summary ?? emptyRfpSummary;
  let version = input.carry?.version ?? -1;
  let lastGlobalPosition = input.carry?.lastGlobalPosition ?? 0;
  /** Bumped on every change, so the main loop can wait for "anything happened". */
  let revision = 0;
  let startRefusal: unknown = null;
  /** The creation's answer, for the start's caller (a run continued as new answers with its summary). */
  let creation: RfpUpdateResult | null = null;
  const abandoned = !input.carry && typeof input.deadline === 'number' && Date.now() > input.deadline;

  const now = (): string => new Date(Date.now()).toISOString();
  const view = (): RfpStateView => ({ summary, version, lastGlobalPosition });

  // One command at a time (shared/command-lock.ts): the timer and a quote, or two awards, never decide on the same state.
  const { exclusive, idle } = createCommandLock();

  async function execute(command: RfpCommand | RfpClientCommand, actor: Actor, ctx: { requestId: string | null; correlationId: string }): Promise<RfpUpdateResult> {
    try {
      const result = await handleRfpCommand({
        rfpCode: input.rfpCode,
        command,
        actor,
        commandId: uuid4(),
        correlationId: ctx.correlationId,
        requestId: ctx.requestId,
        workflowId,
        at: now(),
        ...(command.type === 'CreateRfpDraft' && input.companyCode ? { companyCode: input.companyCode } : {}),
      });
      summary = result.summary;
      version = result.version;
      if (result.lastGlobalPosition > 0) lastGlobalPosition = result.lastGlobalPosition;
      revision++;
      return { ...view(), eventTypes: result.eventTypes };
    } catch (error) {
      // A refusal is passed on as is; a fault past the retry bound fails this command only (CommandFailed).
      throw commandFailure(error, command.type, (message, attrs) => log.error(message, { ...attrs, workflowId }));
    }
  }

  const recent = recentAnswers<RfpUpdateResult>(input.carry?.recent, RECENT_REQUESTS);
  const answered = recent.answered;

  setHandler(
    rfpCommandUpdate,
    (args) => {
      const earlier = answered(args);
      if (earlier) return Promise.resolve(earlier);
      return exclusive(async () => {
        refuseIfLate(args.deadline);
        const result = await execute(args.command, args.actor, args);
        recent.remember(args.requestId, result);
        return result;
      });
    },
    {
      // Validators change nothing and are not replayed: they refuse from the summary at once, nothing appended.
      validator: (args) => {
        if (answered(args)) return;
        refuseIfLate(typeof args === 'object' && args ? args.deadline : undefined);
        const actor: Partial<Actor> | undefined = typeof args === 'object' && args ? args.actor : undefined;
        // Only the due-date timer acts as the system.
        if (typeof actor?.userId !== 'string' || typeof actor.role !== 'string' || actor.role === SYSTEM_ROLE)
          throw refusalFailure(new DomainError('forbidden', 'The acting user is unknown'));
        const shape = shapeProblem(args.command);
        if (shape) throw refusalFailure(new DomainError('validation', shape));
        // Another command is being recorded: the handler's activity decides on the stream it leaves.
        if (!idle()) return;
        const command = args.command.type === 'SubmitLaneResponses' ? { ...args.command, baBlocked: false } : args.command;
        const refused = precheck(command, summary, { actor: args.actor, at: now() });
        if (refused) throw refusalFailure(refused);
      },
    },
  );
  setHandler(awaitCreatedUpdate, async () => {
    await condition(() => summary.status !== 'none' || startRefusal !== null || abandoned);
    if (startRefusal !== null) throw startRefusal;
    if (summary.status === 'none') refuseIfLate(input.deadline);
    return { ...(creation ?? { ...view(), eventTypes: [] }), startedBy: input.requestId };
  });
  setHandler(rfpStateQuery, view);

  if (abandoned) {
    // The start's caller gave up before any worker took it and was told nothing happened: record nothing.
    await condition(allHandlersFinished);
    return { ...view(), eventTypes: [] };
  }
  if (!input.carry) {
    try {
      creation = await exclusive(() =>
        execute({ type: 'CreateRfpDraft', header: input.header }, input.createdBy, { requestId: input.requestId, correlationId: input.correlationId }),
      );
    } catch (error) {
      // Refused (400 header, 403 role, 409 the RFP exists): nothing recorded, the run ends; the code may be used again.
      startRefusal = error;
      await condition(allHandlersFinished);
      return { ...view(), eventTypes: [] };
    }
  }

  const suggested = (): boolean => {
    const { continueAsNewSuggested, historyLength } = workflowInfo();
    const limit = input.continueAsNewAfterHistoryLength;
    return continueAsNewSuggested || (limit !== undefined && historyLength > limit);
  };
  const system = { requestId: null, correlationId: input.correlationId };
  /** The deadline the timer last fired for: never fired twice for the same round and instant. */
  let firedFor: string | null = null;

  for (;;) {
    if (suggested()) {
      await condition(allHandlersFinished);
      const carry: RfpCarry = { summary, version, lastGlobalPosition, recent: recent.entries() };
      return continueAsNew<typeof rfpWorkflow>({ ...input, carry });
    }
    const { status, round, dueAt } = summary;
    const deadlineKey = `${round}@${dueAt ?? ''}`;
    if (status === 'floated' && dueAt !== null && firedFor !== deadlineKey) {
      const moved = () => summary.status !== 'floated' || summary.round !== round || summary.dueAt !== dueAt || suggested();
      const remaining = Date.parse(dueAt) - Date.now();
      // Re-armed by any change of status, round or deadline (staff closed early, a reopen) before it fires.
      if (remaining > 0 && (await condition(moved, remaining))) continue;
      firedFor = deadlineKey;
      const seen = revision;
      try {
        // Names its round: if a reopen got in first, the decider leaves the new round open.
        await exclusive(() => execute({ type: 'CloseBidding', round }, TIMER_ACTOR, system));
      } catch (error) {
        log.warn('closing bidding at the due date failed; trying again', { workflowId, round, error: String(error) });
        firedFor = null;
        await condition(() => revision !== seen || suggested(), TIMER_RETRY_MS);
      }
      continue;
    }
    const seen = revision;
    await condition(() => revision !== seen || suggested());
  }
}
