import { log } from '@temporalio/workflow';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalFailure } from '../onboarding/refusal';
import { createCommandLock, type CommandLock } from './command-lock';
import { commandFailure, refuseIfLate } from './deadline';

/*
 * The command wiring the request workflows with an ERP step (block, invoice) set up the same way. Workflow code
 * only (it logs through the workflow's replay-aware logger).
 *
 * Only synchronous pieces live here. Each workflow keeps its own `exclusive(async () => …)` blocks and awaits:
 * a shared async wrapper would add promise steps, and two chains resumed by one activation (a timer and an
 * activity result) could then issue their commands in another order than the recorded histories hold.
 */

/** The FIFO command lock (command-lock.ts) and `unwrap`, which turns a failed activity into the update's answer. */
export type CommandWiring = CommandLock & { unwrap: (error: unknown) => unknown };

/** `what` names the command in the operator's log ("invoice", "block request"), with the workflow's id. */
export function createCommandWiring(what: string, workflowId: string): CommandWiring {
  return {
    ...createCommandLock(),
    unwrap: (error) => commandFailure(error, what, (message, attrs) => log.error(message, { ...attrs, workflowId })),
  };
}

/**
 * An update validator's first checks, in this order: the command's deadline (refuseIfLate), then an acting user
 * with an id and a role. Returns that user.
 */
export function callerOf(args: { deadline?: unknown; actor?: unknown } | undefined): Actor {
  refuseIfLate(args?.deadline);
  const actor = args?.actor as Partial<Actor> | undefined;
  if (typeof actor?.userId !== 'string' || typeof actor.role !== 'string')
    throw refusalFailure(new DomainError('forbidden', 'The acting user is unknown'));
  return actor as Actor;
}
