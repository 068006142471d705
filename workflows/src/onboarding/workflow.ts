import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import { decide } from '../../../domain/src/onboarding/decide';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import { evolve, initialState, type OnboardingState } from '../../../domain/src/onboarding/state';
import type { CommandMetadata } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import {
  DOCUMENT_EXPIRY_WORKFLOW_TYPE,
  documentExpiryChild,
  validTillChangedSignal,
  type DocumentExpiryInput,
} from '../document-expiry/messages';
import { createCommandLock } from '../shared/command-lock';
import { COMMAND_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { commandFailure, refuseIfLate } from '../shared/deadline';
import { decidesInActivity } from '../shared/patches';
import { recentAnswers } from '../shared/recent-answers';
import type { createOnboardingActivities } from './activities';
import {
  approveUpdate,
  awaitCreatedUpdate,
  commandUpdate,
  CONTINUES_AFTER_VERIFICATION,
  DEFAULT_REVIEW_SLA_MS,
  RECENT_REQUESTS,
  rejectUpdate,
  saveDetailsUpdate,
  stateQuery,
  submitUpdate,
  type ActionContext,
  type CommandArgs,
  type OnboardingCarry,
  type ReviewDecisionArgs,
  type SaveDetailsArgs,
  type OnboardingInput,
  type OnboardingUpdateResult,
} from './messages';
import { refusalFailure } from './refusal';

// Types only: the activity code (pg, uuid, node built-ins) never enters the workflow bundle.
const { handleOnboardingCommand, loadOnboardingState } = proxyActivities<ReturnType<typeof createOnboardingActivities>>(
  COMMAND_ACTIVITY_OPTIONS,
);

/**
 * A command that names master items but arrived without them resolved (the API resolves them for an early
 * check; tests and timers may not): the validator cannot judge it, so the activity, which always resolves
 * them, decides alone. Nothing is appended by a refusal either way.
 */
function lacksMasters(command: OnboardingCommand): boolean {
  switch (command.type) {
    case 'SubmitOnboarding':
      return command.documentTypes === undefined;
    case 'UploadDocument':
      return command.documentType === undefined;
    case 'SaveGstRegistration':
      return command.state === undefined || command.city === undefined;
    case 'SaveConcession':
      return command.exemptionReason === undefined;
    case 'SaveVerticalMapping':
      return command.references === undefined;
    case 'ApplyForCompanyCode':
      return command.company === undefined;
    default:
      return false;
  }
}

/** The lifecycle's own commands: never accepted through the generic `command` update. */
const LIFECYCLE_ONLY: ReadonlySet<OnboardingCommand['type']> = new Set(['CreateBusinessAssociate', 'MarkReviewOverdue']);


/** The timer's identity in event metadata: an overdue review is recorded by the system, not a person. */
const SLA_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Review SLA' };

/** The review a decision is awaited for, as a comparable key; null when nobody needs to decide. */
const waitingFor = (s: OnboardingState): string | null =>
  s.status === 'inprogress' && s.stage !== null ? `${s.submission}:${s.stage}` : null;

/**
 * One BA's onboarding lifecycle: creates the BA (or, resumed, loads it from its stream), then takes BA actions
 * and staff decisions as updates. Runs since issue 8 keep running after verification (items, other company
 * codes, change requests, expiry reminders), continuing as new as their history grows; runs recorded before
 * ended at verification. The decider state lives here (evolved from the events the activity returns), so update
 * validators can refuse a command synchronously and nothing is appended.
 */
export async function onboardingWorkflow(input: OnboardingInput): Promise<OnboardingUpdateResult> {
  const { workflowId } = workflowInfo();
  const reviewSlaMs = input.reviewSlaMs ?? DEFAULT_REVIEW_SLA_MS;
  // Asked once, before anything else is recorded: runs from before issue 8 end at verification and replay so.
  const sinceIssue8 = patched(CONTINUES_AFTER_VERIFICATION);
  const continuesAfterVerification = sinceIssue8 && input.endAtVerification !== true;
  /** A resumed run (see OnboardingInput.resume) knows nothing until its state is loaded from the stream. */
  let loading = input.resume === true && !input.carry;
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

  // One command at a time (shared/command-lock.ts): two concurrent approvals cannot both pass on a stale state.
  const { exclusive, idle } = createCommandLock();

  // A resumed run loads its state first, queued on the lock before any handler exists: an update delivered
  // with the start is dispatched as soon as its handler is set, and must wait for the state it is decided on.
  const loaded = loading
    ? exclusive(async () => {
        const from = await loadOnboardingState({ baId: input.baId });
        state = from.state;
        lastGlobalPosition = from.lastGlobalPosition;
        loading = false;
        revision++;
      })
    : null;

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
      if (sinceIssue8) await startExpiryTimers(result.events, ctx.correlationId);
    } catch (error) {
      // The decider refused (or the stream moved under us): a refusal, not an activity fault. A fault that
      // outlived the retry bound fails this command only (CommandFailed), logged for the operator.
      throw commandFailure(error, command.type, (message, attrs) => log.error(message, { ...attrs, workflowId }));
    }
    return { state, lastGlobalPosition };
  }

  /**
   * Each document approved with a validity date gets its expiry timers (workflows/src/document-expiry), as a
   * child that outlives this run (ABANDON: continue-as-new must not cancel it). One per document: when the
   * same document is approved again while its timer runs, the timer is told the new date instead.
   */
  async function startExpiryTimers(events: readonly OnboardingEvent[], correlationId: string): Promise<void> {
    for (const event of events) {
      if (event.type !== 'DocumentReviewed' || event.data.decision !== 'approved') continue;
      const current = state.documents?.[event.data.docId];
      const validTill = event.data.approvedTill ?? current?.document.validTill ?? null;
      if (!current || validTill === null) continue;
      const { reminderDaysBefore, dayMs } = input.documentExpiry ?? {};
      const timer: DocumentExpiryInput = {
        baId: input.baId,
        docId: event.data.docId,
        validTill,
        documentTypeName: current.document.documentTypeName,
        correlationId,
        ...(reminderDaysBefore === undefined ? {} : { reminderDaysBefore }),
        ...(dayMs === undefined ? {} : { dayMs }),
      };
      const child = documentExpiryChild(timer);
      try {
        await startChild(DOCUMENT_EXPIRY_WORKFLOW_TYPE, child);
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        await getExternalWorkflowHandle(child.workflowId).signal(validTillChangedSignal, { validTill });
      }
    }
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
    // A resumed run has no state yet, or a command holding the lock is about to move it: the activity decides
    // against the stream when this command's turn comes.
    if (loading || !idle()) return;
    const command = toCommand(args);
    if (sinceIssue8 && lacksMasters(command)) return;
    const decided = decide(command, state, meta(args.actor, args));
    if (decided instanceof DomainError) throw refusalFailure(decided);
  };

  /** Answers of the latest commands by request id, carried across continue-as-new (see OnboardingCarry). */
  const recent = recentAnswers<OnboardingUpdateResult>(input.carry?.recent, RECENT_REQUESTS);
  const remember = recent.remember;
  const answered = recent.answered;

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
  const command = handle((a: CommandArgs): OnboardingCommand => {
    const given: Partial<OnboardingCommand> | undefined = typeof a === 'object' && a ? a.command : undefined;
    if (typeof given?.type !== 'string' || LIFECYCLE_ONLY.has(given.type))
      throw refusalFailure(new DomainError('validation', 'Unknown command'));
    return a.command;
  });
  setHandler(commandUpdate, command.handler, { validator: command.validator });
  setHandler(awaitCreatedUpdate, async () => {
    await condition(() => state.status !== 'none');
    return { state, lastGlobalPosition, startedBy: input.requestId };
  });
  setHandler(stateQuery, () => state);

  if (loaded) {
    await loaded;
  } else if (!input.carry) {
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
  while (continuesAfterVerification || state.status !== 'verified') {
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
      const carry: OnboardingCarry = { state, lastGlobalPosition, stageSince, recent: recent.entries() };
      return continueAsNew<typeof onboardingWorkflow>({ ...input, carry });
    }
  }
  // Let the update that verified the BA answer its caller before the run closes.
  await condition(allHandlersFinished);
  return { state, lastGlobalPosition };
}
