import {
  isGrpcServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
} from '@temporalio/client';

/*
 * Client side of "commands never hang" (issue 6), used by the three lifecycles' clients. Client code only.
 *
 * A command gets `timeoutMs`. The workflow receives a deadline `margin` before the API stops waiting, and its
 * validator and handler refuse the command after it (workflows/src/shared/deadline.ts). When the wait runs
 * out, the update's stage at the server decides what the user is told:
 * - not admitted, or only admitted (no workflow task took it; e.g. the worker is down) and still so after a
 *   settle window in which a workflow task begun before the deadline would have been recorded: it will be
 *   refused whenever a worker takes it, so "nothing was changed" is true → CommandTimeoutError 'not-applied';
 * - accepted (a handler has it): it may still be applied → 'pending';
 * - completed meanwhile: its answer, as if it had come in time;
 * - the server cannot say (unreachable): 'pending', since we cannot promise anything.
 */

export type CommandTimeoutOutcome = 'not-applied' | 'pending';

export const commandTimeoutMessages: Record<CommandTimeoutOutcome, string> = {
  'not-applied': 'The system could not take your request in time. Nothing was changed; please try again.',
  pending:
    'The system is taking longer than usual with your request, and it may still be applied. Please reload in a moment to see whether it was before trying again.',
};

/** A command that did not answer within its deadline; `outcome` says what the user may rely on. */
export class CommandTimeoutError extends Error {
  /** `reason`: what the status probe saw (for the operator's log and failing tests), never shown to users. */
  constructor(
    readonly outcome: CommandTimeoutOutcome,
    readonly reason = '',
  ) {
    super(commandTimeoutMessages[outcome]);
    this.name = 'CommandTimeoutError';
  }
}

/** A command whose activity failed for good (retries exhausted, or a permanent fault); the operator has the log. */
export class CommandFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandFailedError';
  }
}

/** COMMAND_TIMEOUT's default: a command through a workflow answers within this, else 503. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

/** How long a command may take, given to every client call the API makes (undefined: wait as long as it takes). */
export type CommandTimeout = { timeoutMs?: number };

/** Between the workflow's deadline and the end of the caller's wait: clock skew and the workflow task in flight. */
export const deadlineMargin = (timeoutMs: number): number => Math.min(1000, Math.floor(timeoutMs / 5));

/** How long, after the wait, an admitted update may take to be accepted by a task begun before its deadline. */
const SETTLE_MS = 2500;
/** How far the server's clock may be from ours when comparing a run's start with our send time. */
const CLOCK_SKEW_MS = 1000;
/** Bound on each status call made after the wait. */
const PROBE_MS = 2500;

// UpdateWorkflowExecutionLifecycleStage (temporal.api.enums.v1).
const ADMITTED = 1;
const ACCEPTED = 2;
const COMPLETED = 3;
// gRPC status codes.
const CANCELLED = 1;
const DEADLINE_EXCEEDED = 4;
const NOT_FOUND = 5;

export type UpdateTarget = {
  workflowId: string;
  updateId: string;
  /** Update-with-start: the run began with this command, so a run started after sending proves nothing. */
  start?: boolean;
};

/**
 * Sends a command with a deadline: `send` gets the deadline to put in the workflow's arguments (undefined when
 * `timeoutMs` is) and runs under a gRPC deadline and an abort signal, so no call outlives the wait.
 */
export async function withCommandDeadline<T>(
  client: Client,
  timeoutMs: number | undefined,
  target: UpdateTarget,
  send: (deadline: number | undefined) => Promise<T>,
): Promise<T> {
  if (timeoutMs === undefined) return send(undefined);
  const sentAt = Date.now();
  const giveUpAt = sentAt + timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const { connection } = client;
    return await connection.withDeadline(giveUpAt, () =>
      connection.withAbortSignal(controller.signal, () => send(giveUpAt - deadlineMargin(timeoutMs))),
    );
  } catch (error) {
    if (!isTimeout(error)) throw error;
    return await settle<T>(client, target, sentAt);
  } finally {
    clearTimeout(timer);
  }
}

function isTimeout(error: unknown): boolean {
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  return isGrpcServiceError(error) && (error.code === DEADLINE_EXCEEDED || error.code === CANCELLED);
}

type Stage = number | 'not-found' | 'unknown';
type Probe = { stage: Stage; reason: string };

// UpdateWorkflowExecutionLifecycleStage UNSPECIFIED: the server answered without saying.
const UNSPECIFIED = 0;
/** How close to the window's end a cancelled poll counts as the window having run out (timer granularity). */
const DEADLINE_SLACK_MS = 100;
/** Pause between probes when the server could not say (a transient error on a loaded machine). */
const REPROBE_PAUSE_MS = 200;

/**
 * The update's stage at the server, waiting up to `waitMs` for `atLeast`; a wait that runs out reads as
 * `ifTimeout`. A probe that fails otherwise (unavailable, overloaded, an empty answer) is tried again while
 * the window lasts: a loaded server's hiccup must not turn "never applied" into "cannot say".
 */
async function stageOf(client: Client, target: UpdateTarget, atLeast: number, waitMs: number, ifTimeout: Stage): Promise<Probe> {
  const until = Date.now() + waitMs;
  let reason = 'no probe';
  while (Date.now() < until) {
    try {
      const response = await client.connection.withDeadline(until, () =>
        client.workflowService.pollWorkflowExecutionUpdate({
          namespace: client.options.namespace,
          updateRef: { workflowExecution: { workflowId: target.workflowId }, updateId: target.updateId },
          identity: client.options.identity,
          waitPolicy: { lifecycleStage: atLeast },
        }),
      );
      const stage = response.stage ?? UNSPECIFIED;
      if (stage !== UNSPECIFIED) return { stage, reason: `stage ${stage}` };
      reason = 'empty answer';
    } catch (error) {
      if (isGrpcServiceError(error) && error.code === NOT_FOUND) return { stage: 'not-found', reason: 'not found' };
      if (isGrpcServiceError(error) && error.code === DEADLINE_EXCEEDED) return { stage: ifTimeout, reason: 'wait ran out' };
      // Our own deadline ending the long poll may surface as CANCELLED rather than DEADLINE_EXCEEDED (seen on a
      // loaded machine: "gRPC 1: Call cancelled" at the end of the window): once the window is over, that too
      // means the update did not reach the stage in time. A cancellation before then is retried as transient.
      if (isGrpcServiceError(error) && error.code === CANCELLED && Date.now() >= until - DEADLINE_SLACK_MS)
        return { stage: ifTimeout, reason: 'wait ran out (cancelled at the deadline)' };
      reason = isGrpcServiceError(error) ? `gRPC ${error.code}: ${error.details}` : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(REPROBE_PAUSE_MS, Math.max(0, until - Date.now()))));
  }
  return { stage: 'unknown', reason };
}

async function settle<T>(client: Client, target: UpdateTarget, sentAt: number): Promise<T> {
  // One probe, waiting for acceptance: the workflow refuses the command in any task begun after its deadline,
  // so an update not accepted by the end of the settle window can no longer be applied. (A first probe for
  // "admitted" only added a call that, on a loaded machine, timed out and turned "never applied" into "unknown".)
  const { stage, reason } = await stageOf(client, target, ACCEPTED, SETTLE_MS, ADMITTED);
  if (stage === COMPLETED) {
    // Answered meanwhile: the answer (or its refusal) as if it had come in time.
    const handle = client.workflow.getHandle(target.workflowId).getUpdateHandle<T>(target.updateId);
    try {
      return await client.connection.withDeadline(Date.now() + PROBE_MS, () => handle.result());
    } catch (error) {
      if (isTimeout(error)) throw new CommandTimeoutError('pending', 'completed, answer not read in time');
      throw error;
    }
  }
  if (stage === ADMITTED) throw new CommandTimeoutError('not-applied', reason);
  if (stage === 'not-found') {
    // Refused, never admitted, or lost by the server: never applied. Unless the run has continued as new since
    // we sent it: the update may have completed in the previous run, which this run does not know.
    if (!target.start && (await runStartedSince(client, target.workflowId, sentAt))) {
      throw new CommandTimeoutError('pending', 'not found, and the run continued as new since');
    }
    throw new CommandTimeoutError('not-applied', reason);
  }
  throw new CommandTimeoutError('pending', reason);
}

/** True when the workflow's current run began after `since` (or we cannot tell). */
async function runStartedSince(client: Client, workflowId: string, since: number): Promise<boolean> {
  try {
    const { startTime } = await client.connection.withDeadline(Date.now() + PROBE_MS, () =>
      client.workflow.getHandle(workflowId).describe(),
    );
    return startTime.getTime() >= since - CLOCK_SKEW_MS;
  } catch (error) {
    return !(error instanceof WorkflowNotFoundError);
  }
}
