import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import { userDecider, userStreamId, type UserCommand, type UserEvent, type UserState } from '../../../domain/src/identity/users';
import type { Actor } from '../../../domain/src/shared/events';
import { waitForProjections } from '../../../projections/src/runner';

/**
 * Runs one user command (no workflow: account changes have no timers) against the user's stream and waits,
 * bounded, until the `users` read model shows it, so the next request (a sign-in with the new password, the
 * list the admin returns to) sees the write.
 */
export type UserCommandDeps = { pool: Pool; store: EventStore; projectionWaitMs?: number };

export type UserCommandContext = {
  actor: Actor;
  /** The retried request's id: the same id appends nothing twice (event ids derive from it). */
  requestId?: string;
  correlationId?: string;
  companyCode?: string | null;
  workflowId?: string | null;
};

export async function runUserCommand(
  deps: UserCommandDeps,
  userId: string,
  command: UserCommand,
  ctx: UserCommandContext,
): Promise<{ events: UserEvent[]; state: UserState; lastGlobalPosition: number }> {
  const commandId = ctx.requestId ? `user:${userId}:${ctx.requestId}` : randomUUID();
  const result = await handleCommand(deps.store, userStreamId(userId), userDecider, command, {
    actor: ctx.actor,
    at: new Date().toISOString(),
    companyCode: ctx.companyCode ?? null,
    correlationId: ctx.correlationId ?? ctx.requestId ?? commandId,
    causationId: null,
    workflowId: ctx.workflowId ?? null,
    requestId: ctx.requestId ?? null,
    commandId,
  });
  if (result.lastGlobalPosition > 0) {
    await waitForProjections(deps.pool, result.lastGlobalPosition, { timeoutMs: deps.projectionWaitMs ?? 2000, names: ['users'] });
  }
  return { events: result.events, state: result.state, lastGlobalPosition: result.lastGlobalPosition };
}
