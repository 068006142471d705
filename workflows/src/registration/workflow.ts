import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { RegisterUser } from '../../../domain/src/identity/users';
import type { RegistrationCommand } from '../../../domain/src/registration/commands';
import { adminNameFromEmail, BA_ADMIN_APPLICATIONS, decide } from '../../../domain/src/registration/decide';
import type { RegistrationEvent } from '../../../domain/src/registration/events';
import { evolve, initialState, type RegistrationState } from '../../../domain/src/registration/state';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { onboardingWorkflowId, type OnboardingInput } from '../onboarding/messages';
import { refusalFailure } from '../onboarding/refusal';
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
>({
  // An append takes milliseconds; a retry is idempotent (same command id, same event ids).
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});

/** The timer's identity in event metadata: an expiry is recorded by the system, not a person. */
const EXPIRY_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Registration expiry' };

/** A refused activity arrives wrapped (ActivityFailure → ApplicationFailure): pass the refusal on as is. */
function unwrapRefusal(error: unknown): unknown {
  const refused = error instanceof ActivityFailure && error.cause instanceof ApplicationFailure;
  return refused && error.cause.nonRetryable ? error.cause : error;
}

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
  let state: RegistrationState = initialState;
  let lastGlobalPosition = 0;

  // One command at a time (a FIFO lock that stays deterministic under replay): the expiry timer and a
  // completion cannot both pass on the same 'started' state.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };

  const context = (actor: Actor, ctx: { requestId: string | null; correlationId: string }) => ({
    actor,
    commandId: uuid4(),
    correlationId: ctx.correlationId,
    requestId: ctx.requestId,
    workflowId,
    companyCode: input.companyCode,
    at: new Date(Date.now()).toISOString(),
  });

  /** Decides in memory; only when the decider accepts does the activity append, then the state moves on. */
  async function execute(
    command: RegistrationCommand,
    actor: Actor,
    ctx: { requestId: string | null; correlationId: string },
  ): Promise<void> {
    const decided = decide(command, state);
    if (decided instanceof DomainError) throw refusalFailure(decided);
    if (decided.length === 0) return;
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
    const refused = decide(completeCommand, state);
    if (refused instanceof DomainError) throw refusalFailure(refused);
    const { baId, userId, email, mobileNo, companyCode } = input;
    const register: RegisterUser = {
      type: 'RegisterUser',
      userId,
      username: email,
      name: adminNameFromEmail(email),
      passwordHash: args.passwordHash,
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
    await condition(() => state.status !== 'none');
    return { state, lastGlobalPosition };
  });
  setHandler(completeUpdate, (args) => exclusive(() => complete(args)), {
    // Validators must not change anything: they only ask the pure decider, so a late or repeated completion
    // is refused synchronously and nothing is appended.
    validator: (args) => {
      if (typeof args?.passwordHash !== 'string' || args.passwordHash === '' || typeof args.actor?.userId !== 'string')
        throw refusalFailure(new DomainError('validation', 'A password hash and an actor are required'));
      const decided = decide(completeCommand, state);
      if (decided instanceof DomainError) throw refusalFailure(decided);
    },
  });
  setHandler(stateQuery, () => state);

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
