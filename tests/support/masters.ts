import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { handleCommand } from '../../domain/src/event-store/handle-command';
import type { EventStore } from '../../domain/src/event-store/port';
import { masterDecider } from '../../domain/src/masters/decide';
import { masterItemStreamId, type MasterCommand } from '../../domain/src/masters/events';
import { waitForProjections } from '../../projections/src/runner';

/**
 * Changes master items as an administrator would (the masters' own commands), then waits until the read
 * models show it: what a test needs to say "after the city was deactivated…". The projector must be running
 * (the API harness runs one) unless `project` brings the read models up itself.
 */
export async function changeMasters(
  deps: { store: EventStore; pool: Pool; project?: () => Promise<unknown> },
  commands: readonly MasterCommand[],
): Promise<void> {
  let position = 0;
  for (const command of commands) {
    const result = await handleCommand(deps.store, masterItemStreamId(command.master, command.id), masterDecider, command, {
      actor: { userId: 'test-mdm', role: 'MDM', name: 'Master data admin' },
      at: new Date().toISOString(),
      companyCode: null,
      correlationId: 'test-masters',
      causationId: null,
      workflowId: null,
      requestId: null,
      commandId: randomUUID(),
    });
    position = Math.max(position, result.lastGlobalPosition);
  }
  if (deps.project) await deps.project();
  else if (position > 0 && !(await waitForProjections(deps.pool, position, { timeoutMs: 10_000 })))
    throw new Error('the read models did not catch up with the master data change');
}

export const deactivate = (master: string, id: number | string): MasterCommand => ({
  type: 'SetMasterItemStatus',
  master,
  id,
  status: 'inactive',
});
