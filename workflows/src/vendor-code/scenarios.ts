import type { Client } from '@temporalio/client';
import type { Actor } from '../../../domain/src/shared/events';
import type { VendorCodeState } from '../../../domain/src/vendor-code/state';
import { waitFor } from '../../../tests/support/wait';
import { getVendorCodeState, sendVendorCodeCommand } from './client';
import type { VendorCodeInput } from './messages';

/**
 * The vendor-code journeys the golden history is recorded from (and tests may drive), kept next to the
 * workflow so the recording is exactly what they prove. They need a worker with an ERP (the sandbox).
 */

export const vendorCodeActors = {
  accounts: { userId: 'u-accounts', role: 'MLL Accounts', name: 'Accounts' } satisfies Actor,
  head: { userId: 'u-head', role: 'MLL Accounts_HEAD', name: 'Head' } satisfies Actor,
};

/** ERP retries and polls of a few hundred milliseconds, for tests and recordings. */
export const fastErp: Pick<VendorCodeInput, 'erpRetry' | 'erpPoll'> = {
  erpRetry: { initialMs: 200, maxMs: 1_000 },
  erpPoll: { initialMs: 100, maxMs: 400 },
};

type Target = { baId: string; companyCode: string };

/** The lifecycle's state once `done` says so (polled; the ERP answers asynchronously). */
const settled = (client: Client, target: Target, what: string, done: (s: VendorCodeState) => boolean, timeoutMs: number) =>
  waitFor(async () => {
    const s = await getVendorCodeState(client, target.baId, target.companyCode);
    return s && done(s) ? s : undefined;
  }, timeoutMs).catch((error: unknown) => {
    throw new Error(`vendor code ${target.baId}/${target.companyCode}: no ${what} (${String(error)})`);
  });

/**
 * For a verified BA (e.g. `seedVerifiedBa`, GST row in state 27): the parent code requested (Accounts) and
 * assigned by the ERP; the vendor category set (Accounts) and approved by a second person (Accounts head),
 * carried to the ERP; one child code for state 27 requested and assigned. Request ids are `<prefix>-<n>`.
 * Answers the state once no ERP job is left open.
 */
export async function parentCategoryChild(
  client: Client,
  taskQueue: string,
  target: Target,
  options: { requestIdPrefix?: string; timeoutMs?: number } = {},
): Promise<VendorCodeState> {
  const prefix = options.requestIdPrefix ?? `${target.baId}-${target.companyCode}`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  let n = 0;
  const send = (command: Parameters<typeof sendVendorCodeCommand>[3], actor: Actor) =>
    sendVendorCodeCommand(client, taskQueue, target, command, { actor, requestId: `${prefix}-${++n}`, erp: fastErp });
  const idle = (s: VendorCodeState) => Object.keys(s.jobs).length === 0;

  await send({ type: 'RequestParentCode' }, vendorCodeActors.accounts);
  await settled(client, target, 'parent code', (s) => s.parent.parentCode !== null && idle(s), timeoutMs);
  await send({ type: 'SetVendorCategory', vendorCategoryId: 1 }, vendorCodeActors.accounts);
  await send({ type: 'ApproveVendorCategory' }, vendorCodeActors.head);
  await settled(client, target, 'vendor category in the ERP', idle, timeoutMs);
  await send({ type: 'RequestChildCode', stateId: 27, paymentTermsId: 4 }, vendorCodeActors.accounts);
  return settled(client, target, 'child code', (s) => Boolean(s.children['27']?.childCode) && idle(s), timeoutMs);
}
