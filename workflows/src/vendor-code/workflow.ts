import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import type { VendorCodeCommand } from '../../../domain/src/vendor-code/commands';
import { DEFAULT_ERP_RETRY, vendorCodeDecider } from '../../../domain/src/vendor-code/decide';
import type { VendorCodeEvent } from '../../../domain/src/vendor-code/events';
import { evolveVendorCode, initialVendorCodeState, type VendorCodeState } from '../../../domain/src/vendor-code/state';
import { refusalFailure } from '../onboarding/refusal';
import { createCommandLock } from '../shared/command-lock';
import { COMMAND_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { commandFailure, refuseIfLate } from '../shared/deadline';
import { recentAnswers } from '../shared/recent-answers';
import type { createVendorCodeActivities } from './activities';
import {
  DEFAULT_ERP_POLL,
  vendorCodeCommandUpdate,
  vendorCodeStateQuery,
  type VendorCodeCarry,
  type VendorCodeInput,
  type VendorCodeUpdateResult,
} from './messages';

type Activities = ReturnType<typeof createVendorCodeActivities>;
// Types only: the activity code never enters the workflow bundle.
const { handleVendorCodeCommand, loadVendorCodeState } = proxyActivities<Activities>(COMMAND_ACTIVITY_OPTIONS);
/**
 * The ERP call: one attempt per activity run as far as the ERP is concerned (an outage comes back as an answer
 * the workflow records and retries on its own backoff); Temporal retries only faults of our own side (the
 * database), without bound, since the lifecycle must outlive them.
 */
const { callErp } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'],
  },
});

/** Whoever records the ERP's answers. */
const ERP_ACTOR: Actor = { userId: 'system', role: 'system', name: 'ERP' };
const RECENT_REQUESTS = 100;

/**
 * One BA's vendor codes under one company code (`vendor-code-<baId>-<companyCode>`), started by the first
 * command (update-with-start). Staff commands are updates decided by the pure decider (validator: at once,
 * nothing appended on a refusal; handler: the activity decides again against the stream, with the BA's facts
 * and masters resolved now). Every request the ERP must carry out is an open job in the state; the main loop
 * works them one at a time: submit with the job's key, poll until done (backoff), record each answer as an
 * event. An outage is recorded (ErpCallFailed, "waiting for ERP") and retried 2 s doubling to 10 min. A killed
 * worker resumes from history: a submission repeated after a crash names the same key, so the ERP never makes
 * a second vendor.
 */
export async function vendorCodeWorkflow(input: VendorCodeInput): Promise<VendorCodeUpdateResult> {
  const { workflowId } = workflowInfo();
  const decider = vendorCodeDecider(input.baId, input.companyCode);
  const retry = input.erpRetry ?? DEFAULT_ERP_RETRY;
  const poll = input.erpPoll ?? DEFAULT_ERP_POLL;
  let state: VendorCodeState = input.carry?.state ?? initialVendorCodeState;
  let lastGlobalPosition = input.carry?.lastGlobalPosition ?? 0;
  let revision = 0;

  const { exclusive, idle } = createCommandLock();

  const now = () => new Date(Date.now()).toISOString();

  const apply = (events: readonly VendorCodeEvent[], position: number, at: string) => {
    state = events.reduce((s, e) => evolveVendorCode(s, e, at), state);
    if (position > 0) lastGlobalPosition = position;
    revision++;
  };

  async function execute(
    command: VendorCodeCommand,
    actor: Actor,
    ctx: { requestId: string | null; correlationId: string },
  ): Promise<VendorCodeUpdateResult> {
    const at = now();
    try {
      const result = await handleVendorCodeCommand({
        baId: input.baId,
        companyCode: input.companyCode,
        command,
        actor,
        commandId: uuid4(),
        correlationId: ctx.correlationId,
        requestId: ctx.requestId,
        workflowId,
        at,
      });
      apply(result.events, result.lastGlobalPosition, at);
    } catch (error) {
      throw commandFailure(error, command.type, (message, attrs) => log.error(message, { ...attrs, workflowId }));
    }
    return { state, lastGlobalPosition };
  }

  const recent = recentAnswers<VendorCodeUpdateResult>(input.carry?.recent, RECENT_REQUESTS);
  const answered = recent.answered;

  setHandler(
    vendorCodeCommandUpdate,
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
      validator: (args) => {
        if (answered(args)) return;
        refuseIfLate(typeof args === 'object' && args ? args.deadline : undefined);
        const actor: Partial<Actor> | undefined = typeof args === 'object' && args ? args.actor : undefined;
        if (typeof actor?.userId !== 'string' || typeof actor.role !== 'string' || actor.role === 'system')
          throw refusalFailure(new DomainError('forbidden', 'The acting user is unknown'));
        const command: Partial<VendorCodeCommand> | undefined = args.command;
        if (typeof command?.type !== 'string' || command.type === 'RecordErpOutcome')
          throw refusalFailure(new DomainError('validation', 'Unknown command'));
        // An ERP answer or another command is being recorded: the handler decides on the state it leaves.
        if (!idle()) return;
        const decided = decider.decide(args.command, state, {
          actor: args.actor,
          at: now(),
          companyCode: input.companyCode,
          correlationId: args.correlationId,
          causationId: null,
          workflowId,
          requestId: args.requestId,
        });
        if (decided instanceof DomainError) throw refusalFailure(decided);
      },
    },
  );
  setHandler(vendorCodeStateQuery, () => state);

  const system = { requestId: null, correlationId: input.correlationId };
  /** Consecutive "still pending" answers per job: the poll interval doubles with them. */
  const pendingPolls = new Map<string, number>();
  const sleepUnlessChanged = async (ms: number) => {
    const seen = revision;
    await condition(() => revision !== seen, Math.max(1, ms));
  };

  for (;;) {
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      const carry: VendorCodeCarry = { state, lastGlobalPosition, recent: recent.entries() };
      return continueAsNew<typeof vendorCodeWorkflow>({ ...input, carry });
    }
    const job = Object.values(state.jobs)[0];
    if (!job) {
      const seen = revision;
      await condition(() => revision !== seen || workflowInfo().continueAsNewSuggested);
      continue;
    }
    if (job.retryAt !== null && Date.parse(job.retryAt) > Date.now()) {
      await sleepUnlessChanged(Date.parse(job.retryAt) - Date.now());
      continue;
    }
    const outcome = await callErp({ baId: input.baId, companyCode: input.companyCode, requestKey: job.requestKey });
    if (outcome.kind === 'pending') {
      const polls = (pendingPolls.get(job.requestKey) ?? 0) + 1;
      pendingPolls.set(job.requestKey, polls);
      await sleepUnlessChanged(Math.min(poll.maxMs, poll.initialMs * 2 ** Math.min(20, polls - 1)));
      continue;
    }
    pendingPolls.delete(job.requestKey);
    try {
      await exclusive(async () => {
        if (outcome.kind === 'gone') {
          // The stream says the job is closed although this state does not: take the stream's word.
          const loaded = await loadVendorCodeState({ baId: input.baId, companyCode: input.companyCode });
          state = loaded.state;
          lastGlobalPosition = Math.max(lastGlobalPosition, loaded.lastGlobalPosition);
          revision++;
          return;
        }
        await execute({ type: 'RecordErpOutcome', requestKey: job.requestKey, outcome, retry }, ERP_ACTOR, system);
      });
    } catch (error) {
      // Logged by execute (CommandFailed): the lifecycle outlives it and tries again in a while.
      log.warn('recording an ERP answer failed; trying again', { workflowId, requestKey: job.requestKey, error: String(error) });
      await sleepUnlessChanged(retry.initialMs);
    }
  }
}
