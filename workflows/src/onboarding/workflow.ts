import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import { decide } from '../../../domain/src/onboarding/decide';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import { evolve, initialState, type OnboardingState } from '../../../domain/src/onboarding/state';
import type { CommandMetadata } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { COMMAND_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { commandFailure, refuseIfLate } from '../shared/deadline';
import { decidesInActivity } from '../shared/patches';
import type { createOnboardingActivities } from './activities';
import {
  approveUpdate,
  awaitCreatedUpdate,
  DEFAULT_REVIEW_SLA_MS,
  RECENT_REQUESTS,
  rejectUpdate,
  saveDetailsUpdate,
  stateQuery,
  submitUpdate,
  type ActionContext,
  type OnboardingCarry,
  type ReviewDecisionArgs,
  type SaveDetailsArgs,
  type OnboardingInput,
  type OnboardingUpdateResult,
} from './messages';
import { refusalFailure } from './refusal';

// Types only: the activity code (pg, uuid, node built-ins) never enters the workflow bundle.
const { handleOnboardingCommand } = proxyActivities<ReturnType<typeof createOnboardingActivities>>(
  COMMAND_ACTIVITY_OPTIONS,
);

/** The timer's identity in event metadata: an overdue review is recorded by the system, not a person. */
const SLA_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Review SLA' };

/** The review a decision is awaited for, as a comparable key; null when nobody needs to decide. */
const waitingFor = (s: OnboardingState): string | null =>
  s.status === 'inprogress' && s.stage !== null ? `${s.submission}:${s.stage}` : null;

/**
 * One BA's onboarding lifecycle: creates the BA, then takes BA actions and staff decisions as updates until
 * the BA is verified. The decider state lives here (evolved from the events the activity returns), so update
 * validators can refuse a command synchronously and nothing is appended.
 */
export async function onboardingWorkflow(input: OnboardingInput): Promise<OnboardingUpdateResult> {
  const { workflowId } = workflowInfo();
  const reviewSlaMs = input.reviewSlaMs ?? DEFAULT_REVIEW_SLA_MS;
  let state: OnboardingState = input.carry?.state ?? initialState;
  let lastGlobalPosition = input.carry?.lastGlobalPosition ?? 0;
  let stageSince: number | null = input.carry?.stageSince ?? null;
  /** Bumped on every change, so the main loop can wait for "anything happened". */
  let revision = 0;

  const meta = (actor: Actor, ctx: { requestId: string | null; correlationId: string }): CommandMetadata => ({
    actor,
    at: new Date(Date.now()).toISOString(),
    companyCode: state.companyCode ?? input.companyCode,
    correlationId: ctx.correlationId,
    causationId: null,
    workflowId,
    requestId: ctx.requestId,
  });

  // One command at a time: a handler decides on the state every earlier command left behind, so two
  // concurrent approvals cannot both pass on a stale state. A promise chain is a FIFO lock that stays
  // deterministic under replay.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };

  /**
   * The activity decides (against the stream, with today's field rules and catalogue) and appends; the state
   * moves on by the events it returns, so a replay follows history even after a rule or a reference row
   * changed. A refusal comes back as the activity's non-retryable failure. Runs recorded before the patch
   * decided here first and called the activity only for a decision that appends: they replay that way.
   */
  async function execute(
    command: OnboardingCommand,
    actor: Actor,
    ctx: { requestId: string | null; correlationId: string },
  ): Promise<OnboardingUpdateResult> {
    const m = meta(actor, ctx);
    if (!decidesInActivity()) {
      const decided = decide(command, state, m);
      if (decided instanceof DomainError) throw refusalFailure(decided);
      if (decided.length === 0) return { state, lastGlobalPosition };
    }
    try {
      const result = await handleOnboardingCommand({
        baId: input.baId,
        command,
        actor,
        commandId: uuid4(),
        correlationId: ctx.correlationId,
        requestId: ctx.requestId,
        workflowId,
        companyCode: m.companyCode,
        at: m.at,
      });
      apply(result.events, m.at);
      if (result.lastGlobalPosition > 0) lastGlobalPosition = result.lastGlobalPosition;
    } catch (error) {
      // The decider refused (or the stream moved under us): a refusal, not an activity fault. A fault that
      // outlived the retry bound fails this command only (CommandFailed), logged for the operator.
      throw commandFailure(error, command.type, (message, attrs) => log.error(message, { ...attrs, workflowId }));
    }
    return { state, lastGlobalPosition };
  }

  function apply(events: readonly OnboardingEvent[], at: string): void {
    const before = waitingFor(state);
    state = events.reduce(evolve, state);
    const after = waitingFor(state);
    if (after !== before) stageSince = after === null ? null : Date.parse(at);
    revision++;
  }

  /**
   * Validators must not change anything: they only ask the pure decider. Temporal does not replay them (an
   * accepted update is in history), so they may use today's rules and catalogue; the handler's path may not.
   */
  const validate = <A extends ActionContext>(toCommand: (args: A) => OnboardingCommand, args: A): void => {
    const actor: Partial<Actor> | undefined = typeof args === 'object' && args ? args.actor : undefined;
    if (typeof actor?.userId !== 'string' || typeof actor.role !== 'string')
      throw refusalFailure(new DomainError('forbidden', 'The acting user is unknown'));
    const decided = decide(toCommand(args), state, meta(args.actor, args));
    if (decided instanceof DomainError) throw refusalFailure(decided);
  };

  /** Answers of the latest commands by request id, carried across continue-as-new (see OnboardingCarry). */
  const recent = new Map<string, OnboardingUpdateResult>(input.carry?.recent ?? []);
  const remember = (requestId: string, result: OnboardingUpdateResult): void => {
    recent.set(requestId, result);
    if (recent.size > RECENT_REQUESTS) recent.delete(recent.keys().next().value as string);
  };
  const answered = (args: unknown): OnboardingUpdateResult | undefined => {
    const requestId = typeof args === 'object' && args ? (args as Partial<ActionContext>).requestId : undefined;
    return typeof requestId === 'string' ? recent.get(requestId) : undefined;
  };

  // Handlers: the validator answers refusals at once; the activity decides again under the lock because the
  // state may have moved between validation and its turn. A command whose deadline passed while it waited
  // (worker down, a long queue) is refused at either point: its caller was told nothing changed.
  const handle = <A extends ActionContext>(toCommand: (args: A) => OnboardingCommand) => ({
    handler: (args: A): Promise<OnboardingUpdateResult> => {
      const earlier = answered(args);
      if (earlier) return Promise.resolve(earlier);
      return exclusive(async () => {
        refuseIfLate(args.deadline);
        const result = await execute(toCommand(args), args.actor, args);
        remember(args.requestId, result);
        return result;
      });
    },
    validator: (args: A) => {
      if (answered(args)) return;
      refuseIfLate(typeof args === 'object' && args ? args.deadline : undefined);
      validate(toCommand, args);
    },
  });

  const save = handle((a: SaveDetailsArgs) => ({ type: 'SaveCompanyDetails', details: a.details }));
  setHandler(saveDetailsUpdate, save.handler, { validator: save.validator });
  const submit = handle(() => ({ type: 'SubmitOnboarding' }));
  setHandler(submitUpdate, submit.handler, { validator: submit.validator });
  const approve = handle((a: ReviewDecisionArgs) => ({
    type: 'ApproveReviewStage',
    stage: a.stage,
    remarks: a.remarks ?? null,
  }));
  setHandler(approveUpdate, approve.handler, { validator: approve.validator });
  const reject = handle((a: ReviewDecisionArgs) => ({
    type: 'RejectReviewStage',
    stage: a.stage,
    remarks: a.remarks ?? null,
  }));
  setHandler(rejectUpdate, reject.handler, { validator: reject.validator });
  setHandler(awaitCreatedUpdate, async () => {
    await condition(() => state.status !== 'none');
    return { state, lastGlobalPosition, startedBy: input.requestId };
  });
  setHandler(stateQuery, () => state);

  if (!input.carry) {
    const { baId, companyCode, adminUserId, mobileNo, email } = input;
    const create: OnboardingCommand = {
      type: 'CreateBusinessAssociate',
      ...{ baId, companyCode, adminUserId, mobileNo, email },
    };
    await exclusive(() => execute(create, input.actor, input));
  }

  const suggested = () => {
    const { continueAsNewSuggested, historyLength } = workflowInfo();
    const limit = input.continueAsNewAfterHistoryLength;
    return continueAsNewSuggested || (limit !== undefined && historyLength > limit);
  };
  while (state.status !== 'verified') {
    const waiting = waitingFor(state);
    const stage = state.stage;
    if (waiting !== null && stage !== null && stageSince !== null && !state.overdueStages.includes(stage)) {
      const dueAt = stageSince + reviewSlaMs;
      const remaining = dueAt - Date.now();
      const decidedOrSuggested = () => waitingFor(state) !== waiting || suggested();
      const moved = remaining > 0 && (await condition(decidedOrSuggested, remaining));
      if (!moved) {
        // Under the lock, and only if the same review still waits: a decision may have just taken the lock.
        const overdue: OnboardingCommand = {
          type: 'MarkReviewOverdue',
          submission: state.submission,
          stage,
          dueAt: new Date(dueAt).toISOString(),
        };
        const system = { requestId: null, correlationId: input.correlationId };
        try {
          await exclusive(async () => {
            if (waitingFor(state) === waiting) await execute(overdue, SLA_ACTOR, system);
          });
        } catch (error) {
          // Logged by execute; the lifecycle must outlive it: try again in a while unless a decision comes first.
          if (!(error instanceof ApplicationFailure)) throw error;
          await condition(() => waitingFor(state) !== waiting || suggested(), '1 minute');
        }
        continue;
      }
    } else {
      const seen = revision;
      await condition(() => revision !== seen || suggested());
    }
    if (suggested()) {
      await condition(allHandlersFinished);
      const carry: OnboardingCarry = { state, lastGlobalPosition, stageSince, recent: [...recent] };
      return continueAsNew<typeof onboardingWorkflow>({ ...input, carry });
    }
  }
  // Let the update that verified the BA answer its caller before the run closes.
  await condition(allHandlersFinished);
  return { state, lastGlobalPosition };
}
