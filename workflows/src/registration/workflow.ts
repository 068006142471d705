import {
  allHandlersFinished,
  condition,
  log,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { RegisterUser } from '../../../domain/src/identity/users';
import type { RegistrationCommand } from '../../../domain/src/registration/commands';
import {
  adminNameFromEmail,
  BA_ADMIN_APPLICATIONS,
  decide,
  refusalFor,
} from '../../../domain/src/registration/decide';
import type { RegistrationEvent } from '../../../domain/src/registration/events';
import { evolve, initialState, type RegistrationState } from '../../../domain/src/registration/state';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { onboardingWorkflowId, type OnboardingInput } from '../onboarding/messages';
import { refusalFailure } from '../onboarding/refusal';
import { createCommandLock } from '../shared/command-lock';
import { COMMAND_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { commandFailure, refuseIfLate } from '../shared/deadline';
import { decidesInActivity } from '../shared/patches';
// Types only: neither the activity code nor the onboarding workflow's module enters this one.
import type { onboardingWorkflow } from '../onboarding/workflow';
import type { createRegistrationActivities } from './activities';
import {
  awaitStartedUpdate,
  completeUpdate,
  DEFAULT_REGISTRATION_TTL_MS,
  stateQuery,
  type CompleteArgs,
  type CompleteResult,
  type RegistrationInput,
  type RegistrationUpdateResult,
} from './messages';

const { handleRegistrationCommand, registerBaAdminUser } = proxyActivities<
  ReturnType<typeof createRegistrationActivities>
>(COMMAND_ACTIVITY_OPTIONS);

/** The timer's identity in event metadata: an expiry is recorded by the system, not a person. */
const EXPIRY_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Registration expiry' };

/**
 * A refused activity arrives wrapped (ActivityFailure → ApplicationFailure): the refusal is passed on as is; a
 * fault that outlived the retry bound becomes a logged CommandFailed (shared/deadline.ts).
 */
const unwrapRefusal = (error: unknown): unknown =>
  commandFailure(error, 'registration', (message, attrs) =>
    log.error(message, { ...attrs, workflowId: workflowInfo().workflowId }),
  );

/**
 * One self-registration: records its start, then waits for the API to report both codes matched (the
 * `complete` update) or for its lifetime to run out. Completion registers the BA Admin, records the
 * completion and starts the BA's onboarding lifecycle as an abandoned child (it outlives this workflow).
 * Expiry records RegistrationExpired and nothing else: no user, no BA, nothing deleted.
 */
export async function registrationWorkflow(input: RegistrationInput): Promise<RegistrationUpdateResult> {
  const { workflowId } = workflowInfo();
  const ttlMs = input.ttlMs ?? DEFAULT_REGISTRATION_TTL_MS;
  const expiresAt = Date.now() + ttlMs;
  /** True when the run first got to work after the start's deadline (a worker was down): see RegistrationInput. */
  const abandoned = typeof input.deadline === 'number' && Date.now() > input.deadline;
  let state: RegistrationState = initialState;
  let lastGlobalPosition = 0;

  // One command at a time (a FIFO lock that stays deterministic under replay): the expiry timer and a
  // completion cannot both pass on the same 'started' state.
  const { exclusive, idle } = createCommandLock();

  const context = (actor: Actor, ctx: { requestId: string | null; correlationId: string }) => ({
    actor,
    commandId: uuid4(),
    correlationId: ctx.correlationId,
    requestId: ctx.requestId,
    workflowId,
    companyCode: input.companyCode,
    at: new Date(Date.now()).toISOString(),
  });

  /**
   * The activity decides (with today's field rules and company list) and appends; the state moves on by the
   * events it returns, so a replay follows history whatever rules change. Runs recorded before the patch
   * decided here first: they replay that way.
   */
  async function execute(
    command: RegistrationCommand,
    actor: Actor,
    ctx: { requestId: string | null; correlationId: string },
  ): Promise<void> {
    if (!decidesInActivity()) {
      const decided = decide(command, state);
      if (decided instanceof DomainError) throw refusalFailure(decided);
      if (decided.length === 0) return;
    }
    try {
      const c = context(actor, ctx);
      const result = await handleRegistrationCommand({ ...c, registrationId: input.registrationId, command });
      state = result.events.reduce((s: RegistrationState, e: RegistrationEvent) => evolve(s, e), state);
      if (result.lastGlobalPosition > 0) lastGlobalPosition = result.lastGlobalPosition;
    } catch (error) {
      throw unwrapRefusal(error);
    }
  }

  const completeCommand: RegistrationCommand = {
    type: 'CompleteRegistration',
    baId: input.baId,
    userId: input.userId,
  };

  /** The user first: an e-mail taken since the API checked refuses the completion before anything is recorded. */
  async function complete(args: CompleteArgs): Promise<CompleteResult> {
    // Before the user is registered, a completion that lost the race to the expiry is refused: from the state
    // alone (history), the field rules are the activity's.
    const refused = decidesInActivity() ? refusalFor(state) : decide(completeCommand, state);
    if (refused instanceof DomainError) throw refusalFailure(refused);
    const { baId, userId, email, mobileNo, companyCode } = input;
    const register: RegisterUser = {
      type: 'RegisterUser',
      userId,
      username: email,
      name: adminNameFromEmail(email),
      // The API stored the password as a credential; only its id is in this history (runs recorded before
      // issue 6 carried the hash: their replay never re-runs the activity, so the missing id is harmless).
      credentialId: args.credentialId ?? null,
      roles: ['BA Admin'],
      applications: BA_ADMIN_APPLICATIONS,
      companyCodes: [companyCode],
      baId,
      mobileNo,
    };
    let userPosition: number;
    try {
      const registered = await registerBaAdminUser({ ...context(args.actor, args), command: register });
      userPosition = registered.lastGlobalPosition;
    } catch (error) {
      throw unwrapRefusal(error);
    }
    await execute(completeCommand, args.actor, args);

    const onboarding: OnboardingInput = {
      baId,
      companyCode,
      adminUserId: userId,
      mobileNo,
      email,
      actor: args.actor,
      correlationId: args.correlationId,
      requestId: args.requestId,
    };
    // The BA's lifecycle runs for months; this workflow ends now. ABANDON keeps the child running after us.
    await startChild<typeof onboardingWorkflow>('onboardingWorkflow', {
      workflowId: onboardingWorkflowId(baId),
      args: [onboarding],
      parentClosePolicy: 'ABANDON',
    });
    return { registrationId: input.registrationId, userId, baId, userPosition, lastGlobalPosition };
  }

  setHandler(awaitStartedUpdate, async () => {
    await condition(() => state.status !== 'none' || abandoned);
    if (state.status === 'none') refuseIfLate(input.deadline);
    return { state, lastGlobalPosition };
  });
  setHandler(
    completeUpdate,
    (args) =>
      exclusive(() => {
        refuseIfLate(args.deadline);
        return complete(args);
      }),
    {
    // Validators must not change anything: they only ask the pure decider, so a late or repeated completion
    // is refused synchronously and nothing is appended. Temporal does not replay them, so they may use
    // today's rules; the handler's path may not.
    validator: (args) => {
      refuseIfLate(args?.deadline);
      if (typeof args?.credentialId !== 'string' || args.credentialId === '' || typeof args.actor?.userId !== 'string')
        throw refusalFailure(new DomainError('validation', 'A password credential and an actor are required'));
      // The expiry timer holds the lock: the handler decides on the state it leaves.
      if (!idle()) return;
      const decided = decide(completeCommand, state);
      if (decided instanceof DomainError) throw refusalFailure(decided);
    },
    },
  );
  setHandler(stateQuery, () => state);

  if (abandoned) {
    // The start's caller gave up before any worker took it and was told nothing happened: record nothing.
    await condition(allHandlersFinished);
    return { state, lastGlobalPosition };
  }
  const { registrationId, challengeId, mobileNo, email, companyCode } = input;
  const start: RegistrationCommand = {
    type: 'StartRegistration',
    ...{ registrationId, challengeId, mobileNo, email, companyCode },
    expiresAt: new Date(expiresAt).toISOString(),
  };
  await exclusive(() => execute(start, input.actor, input));

  // Completion or the deadline, whichever comes first; a completion under way holds the lock, so the expiry
  // waits for it and then finds the registration completed (or, if the completion was refused, expires it).
  // (At least 1 ms: a zero timeout would mean "no timer" to older SDK semantics.)
  const settled = await condition(() => state.status !== 'started', Math.max(1, expiresAt - Date.now()));
  if (!settled) {
    const system = { requestId: null, correlationId: input.correlationId };
    await exclusive(async () => {
      if (state.status === 'started') await execute({ type: 'ExpireRegistration' }, EXPIRY_ACTOR, system);
    });
  }
  // Let the completion answer its caller before the run closes.
  await condition(allHandlersFinished);
  return { state, lastGlobalPosition };
}
