import {
  allHandlersFinished,
  condition,
  log,
  proxyActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { ContactChangeCommand } from '../../../domain/src/contact-change/commands';
import {
  decideContactChange,
  evolveContactChange,
  initialContactChangeState,
  isClosed,
  type ContactChangeState,
} from '../../../domain/src/contact-change/decide';
import type { ContactChangeEvent } from '../../../domain/src/contact-change/events';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalFailure } from '../onboarding/refusal';
import { createCommandLock } from '../shared/command-lock';
import { COMMAND_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { commandFailure, refuseIfLate } from '../shared/deadline';
import { decidesInActivity } from '../shared/patches';
import type { createContactChangeActivities } from './activities';
import {
  awaitRequestedUpdate,
  cancelUpdate,
  checkIdentityUpdate,
  completeUpdate,
  contactChangeStateQuery,
  DEFAULT_CONTACT_CHANGE_TTL_MS,
  otpSentUpdate,
  type CancelArgs,
  type CheckIdentityArgs,
  type CompleteArgs,
  type ContactChangeInput,
  type ContactChangeUpdateResult,
  type OtpSentArgs,
  type StepContext,
} from './messages';

// Types only: the activity code (pg, node built-ins) never enters the workflow bundle.
const { handleContactChangeCommand, completeContactChange } = proxyActivities<ReturnType<typeof createContactChangeActivities>>(
  COMMAND_ACTIVITY_OPTIONS,
);

/** The timer's identity in event metadata: an expired link is recorded by the system, not a person. */
const TIMER_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Contact change link timer' };

/**
 * One contact change: records the request, then takes the link holder's steps as updates until the change
 * completes, the identity check locks it (5 failed tries), a newer change for the user cancels it, or its
 * timer expires it (CONTACT_CHANGE_TTL).
 * The decider state lives here, so validators refuse a step synchronously and nothing is appended.
 */
export async function contactChangeWorkflow(input: ContactChangeInput): Promise<ContactChangeUpdateResult> {
  const { workflowId } = workflowInfo();
  const ttlMs = input.ttlMs ?? DEFAULT_CONTACT_CHANGE_TTL_MS;
  let state: ContactChangeState = initialContactChangeState;
  let lastGlobalPosition = 0;
  /** True when the run first got to work after the start's deadline (a worker was down): see ContactChangeInput. */
  const abandoned = typeof input.deadline === 'number' && Date.now() > input.deadline;

  const now = (): string => new Date(Date.now()).toISOString();
  const envelope = (actor: Actor, ctx: { requestId: string | null; correlationId: string }, at: string) => ({
    changeId: input.changeId,
    actor,
    commandId: uuid4(),
    correlationId: ctx.correlationId,
    requestId: ctx.requestId,
    workflowId,
    companyCode: input.companyCode,
    at,
  });

  // One step at a time: each decides on the state every earlier step left behind (a FIFO lock that stays
  // deterministic under replay), so two concurrent identity failures cannot both count as attempt 4.
  const { exclusive, idle } = createCommandLock();

  /**
   * A refused activity is an answer (the stream moved under us), not a fault to retry; a fault that outlived
   * the retry bound fails the step (CommandFailed), logged for the operator.
   */
  const unwrapRefusal = (error: unknown): unknown =>
    commandFailure(error, 'contact change', (message, attrs) => log.error(message, { ...attrs, workflowId }));

  /** A step's turn under the lock: refused if its deadline passed while it waited (its caller gave up). */
  const inTurn = <T>(deadline: unknown, fn: () => Promise<T>): Promise<T> =>
    exclusive(() => {
      refuseIfLate(deadline);
      return fn();
    });

  function decideNow(command: ContactChangeCommand, at: string): ContactChangeEvent[] {
    const decided = decideContactChange(command, state, { at });
    if (decided instanceof DomainError) throw refusalFailure(decided);
    return decided;
  }

  const apply = (events: readonly ContactChangeEvent[], position: number) => {
    state = events.reduce(evolveContactChange, state);
    if (position > 0) lastGlobalPosition = position;
  };

  /**
   * The activity decides (with today's field rules, at the workflow's `at`) and appends; the state moves on by
   * the events it returns, so a replay follows history whatever rules change. Runs recorded before the patch
   * decided here first: they replay that way.
   */
  async function execute(
    command: ContactChangeCommand,
    actor: Actor,
    ctx: { requestId: string | null; correlationId: string },
  ): Promise<ContactChangeUpdateResult> {
    const at = now();
    if (!decidesInActivity() && decideNow(command, at).length === 0) return { state, lastGlobalPosition };
    try {
      const result = await handleContactChangeCommand({ ...envelope(actor, ctx, at), command });
      apply(result.events, result.lastGlobalPosition);
    } catch (error) {
      throw unwrapRefusal(error);
    }
    return { state, lastGlobalPosition };
  }

  async function complete(args: CompleteArgs): Promise<ContactChangeUpdateResult> {
    const at = now();
    // Decided here, before the user's stream changes: the completion reads only the state (history) and the
    // workflow's clock, no field rule, so replay stays deterministic when rules change.
    decideNow({ type: 'CompleteContactChange', challengeId: args.challengeId }, at);
    try {
      const result = await completeContactChange({
        ...envelope(args.actor, args, at),
        userId: state.userId ?? '',
        challengeId: args.challengeId,
        // The addresses the verified codes went to, from history: never from the request.
        newEmail: state.newEmail ?? '',
        newMobile: state.newMobile ?? '',
        // Runs recorded before issue 6 carried the hash here; their replay never re-runs the activity.
        credentialId: args.credentialId,
      });
      apply(result.events, result.lastGlobalPosition);
    } catch (error) {
      throw unwrapRefusal(error);
    }
    return { state, lastGlobalPosition };
  }

  /**
   * Validators must not change anything: they only ask the pure decider. Temporal does not replay them, so
   * they may use today's rules; the handler's path may not.
   */
  const validate = (args: StepContext, command: ContactChangeCommand): void => {
    refuseIfLate(typeof args === 'object' && args ? args.deadline : undefined);
    const actor: Partial<Actor> | undefined = typeof args === 'object' && args ? args.actor : undefined;
    if (typeof actor?.userId !== 'string' || typeof actor.role !== 'string')
      throw refusalFailure(new DomainError('forbidden', 'The acting user is unknown'));
    // Another step holds the lock and may move the state: the handler decides in this step's turn.
    if (idle()) decideNow(command, now());
  };

  const identity = (a: CheckIdentityArgs): ContactChangeCommand => ({ type: 'CheckContactIdentity', matched: a.matched === true });
  setHandler(checkIdentityUpdate, (a) => inTurn(a.deadline, () => execute(identity(a), a.actor, a)), {
    validator: (a) => validate(a, identity(a)),
  });
  const otpSent = (a: OtpSentArgs): ContactChangeCommand => ({
    type: 'RecordContactOtpSent',
    newEmail: a.newEmail,
    newMobile: a.newMobile,
    challengeId: a.challengeId,
    resend: a.resend === true,
  });
  setHandler(otpSentUpdate, (a) => inTurn(a.deadline, () => execute(otpSent(a), a.actor, a)), {
    validator: (a) => validate(a, otpSent(a)),
  });
  setHandler(completeUpdate, (a) => inTurn(a.deadline, () => complete(a)), {
    validator: (a) => {
      if (typeof a?.credentialId !== 'string' || a.credentialId === '')
        throw refusalFailure(new DomainError('validation', 'A new password is required', { newPassword: 'Required' }));
      validate(a, { type: 'CompleteContactChange', challengeId: a.challengeId });
    },
  });
  const cancel = (a: CancelArgs): ContactChangeCommand => ({ type: 'CancelContactChange', supersededBy: a.supersededBy });
  setHandler(cancelUpdate, (a) => inTurn(a.deadline, () => execute(cancel(a), a.actor, a)), {
    validator: (a) => validate(a, cancel(a)),
  });
  setHandler(awaitRequestedUpdate, async () => {
    await condition(() => state.status !== 'none' || abandoned);
    if (state.status === 'none') refuseIfLate(input.deadline);
    return { state, lastGlobalPosition };
  });
  setHandler(contactChangeStateQuery, () => state);

  if (abandoned) {
    // The start's caller gave up before any worker took it and was told nothing happened: record nothing.
    await condition(allHandlersFinished);
    return { state, lastGlobalPosition };
  }
  await exclusive(() =>
    execute(
      {
        type: 'RequestContactChange',
        changeId: input.changeId,
        baId: input.baId,
        userId: input.userId,
        tokenHash: input.tokenHash,
        requestedBy: input.requestedBy,
        expiresAt: new Date(Date.now() + ttlMs).toISOString(),
      },
      input.requestedBy,
      input,
    ),
  );

  const remaining = Date.parse(state.expiresAt ?? now()) - Date.now();
  const closedInTime = remaining > 0 && (await condition(() => isClosed(state), remaining));
  if (!closedInTime) {
    // Under the lock, and only if still open: a step may have just taken the lock and completed the change.
    const system = { requestId: null, correlationId: input.correlationId };
    await exclusive(async () => {
      if (!isClosed(state)) await execute({ type: 'ExpireContactChange' }, TIMER_ACTOR, system);
    });
  }
  // Let the update that closed the change answer its caller before the run closes.
  await condition(allHandlersFinished);
  return { state, lastGlobalPosition };
}
