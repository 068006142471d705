import { allHandlersFinished, condition, proxyActivities, setHandler, sleep, uuid4, workflowInfo } from '@temporalio/workflow';
import type { BlockCommand } from '../../../domain/src/block/commands';
import {
  blockEndsAt,
  decideBlock,
  erpRequestKey,
  evolveBlock,
  initialBlockState,
  type BlockState,
} from '../../../domain/src/block/decide';
import type { BlockErpOperation, BlockEvent } from '../../../domain/src/block/events';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalFailure } from '../onboarding/refusal';
import { COMMAND_ACTIVITY_OPTIONS, ERP_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { callerOf, createCommandWiring } from '../shared/command-wiring';
import { refuseIfLate } from '../shared/deadline';
import type { createBlockActivities } from './activities';
import {
  approveUpdate,
  awaitRequestedUpdate,
  blockStateQuery,
  DEFAULT_BLOCK_TIMING,
  rejectUpdate,
  type BlockInput,
  type BlockUpdateResult,
  type DecisionContext,
} from './messages';

type Activities = ReturnType<typeof createBlockActivities>;

// Types only: the activity code (pg, the ERP adapter) never enters the workflow bundle.
const { recordBlockRequest, handleBlockCommand, endBlock } = proxyActivities<Activities>(COMMAND_ACTIVITY_OPTIONS);
// ERP outages are answers (ErpCallFailed recorded, backed off); activity retries only cover a lost worker.
const { submitBlockToErp, blockErpStatus } = proxyActivities<Activities>(ERP_ACTIVITY_OPTIONS);

/** The system's identity in events the workflow records by itself (ERP answers, the end date). */
const SYSTEM_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Block workflow' };
const TIMER_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Block end-date timer' };

/**
 * One block or unblock request (`block-<requestId>`): records it (the vendor code resolved, the vendor code's
 * slot taken), waits for a second person's approve or reject update, then applies it in the ERP with a
 * deterministic idempotency key — an outage is recorded (ErpCallFailed) and retried with backoff, a pending ERP
 * request is polled — and for a block with an end date, sleeps until that day and unblocks through the same
 * trail as the system.
 */
export async function blockWorkflow(input: BlockInput): Promise<BlockUpdateResult> {
  const { workflowId } = workflowInfo();
  const timing = { ...DEFAULT_BLOCK_TIMING, ...input.timing };
  let state: BlockState = initialBlockState;
  let lastGlobalPosition = 0;
  let vendorCode: string | null = null;
  let startRefusal: unknown = null;
  const abandoned = typeof input.deadline === 'number' && Date.now() > input.deadline;

  const now = (): string => new Date(Date.now()).toISOString();
  const envelope = (actor: Actor, ctx: { causedBy: string | null; correlationId: string }) => ({
    requestId: input.requestId,
    actor,
    commandId: uuid4(),
    correlationId: ctx.correlationId,
    causedBy: ctx.causedBy,
    workflowId,
    companyCode: state.scope?.companyCode ?? input.companyCode,
    at: now(),
  });

  const { exclusive, idle, unwrap } = createCommandWiring('block request', workflowId);
  const apply = (events: readonly BlockEvent[], position: number) => {
    state = events.reduce(evolveBlock, state);
    if (position > 0) lastGlobalPosition = position;
  };
  const result = (): BlockUpdateResult => ({ state, lastGlobalPosition });
  // Read through a function: TypeScript narrows `state` and cannot see the activities change it.
  const statusNow = (): BlockState['status'] => state.status;

  async function execute(command: BlockCommand, actor: Actor, ctx: { causedBy: string | null; correlationId: string }, ending = false) {
    try {
      const r = await handleBlockCommand({ ...envelope(actor, ctx), command, ending });
      apply(r.events, r.lastGlobalPosition);
    } catch (error) {
      throw unwrap(error);
    }
    return result();
  }
  const system = { causedBy: null, correlationId: input.correlationId };
  const record = (command: BlockCommand, ending = false) => exclusive(() => execute(command, SYSTEM_ACTOR, system, ending));

  const validate = (args: DecisionContext, command: BlockCommand): void => {
    const actor = callerOf(args);
    // An ERP answer or another decision is being recorded: the handler decides on the state it leaves.
    if (!idle()) return;
    const decided = decideBlock(command, state, { at: now(), actor });
    if (decided instanceof DomainError) throw refusalFailure(decided);
  };
  const decision = (a: DecisionContext, command: BlockCommand) =>
    exclusive(() => {
      refuseIfLate(a.deadline);
      return execute(command, a.actor, { causedBy: a.requestId, correlationId: a.correlationId });
    });
  setHandler(approveUpdate, (a) => decision(a, { type: 'ApproveBlock' }), { validator: (a) => validate(a, { type: 'ApproveBlock' }) });
  setHandler(rejectUpdate, (a) => decision(a, { type: 'RejectBlock', remarks: a.remarks }), {
    validator: (a) => validate(a, { type: 'RejectBlock', remarks: a?.remarks }),
  });
  setHandler(awaitRequestedUpdate, async () => {
    await condition(() => state.status !== 'none' || startRefusal !== null || abandoned);
    if (startRefusal !== null) throw startRefusal;
    if (state.status === 'none') refuseIfLate(input.deadline);
    return result();
  });
  setHandler(blockStateQuery, () => result());

  if (abandoned) {
    await condition(allHandlersFinished);
    return result();
  }
  try {
    await exclusive(async () => {
      const r = await recordBlockRequest({ ...envelope(input.requestedBy, { causedBy: input.requestId, correlationId: input.correlationId }), input });
      vendorCode = r.vendorCode;
      apply(r.events, r.lastGlobalPosition);
    });
  } catch (error) {
    // Refused (409 one request per vendor code, 422 not blocked / no vendor code, 400): nothing recorded.
    startRefusal = unwrap(error);
    await condition(allHandlersFinished);
    return result();
  }

  await condition(() => state.status !== 'pending');
  if (state.status === 'approved') await applyInErp(state.action ?? 'block', false);

  if (state.status === 'applied' && state.action === 'block' && state.endDate) {
    const endsAt = input.endAfterMs !== undefined ? Date.now() + input.endAfterMs : Date.parse(blockEndsAt(state.endDate));
    const wait = endsAt - Date.now();
    if (wait > 0) await sleep(wait);
    await exclusive(async () => {
      try {
        const r = await endBlock({ ...envelope(TIMER_ACTOR, system), vendorCode: vendorCode ?? state.scope?.vendorCode ?? '' });
        apply(r.events, r.lastGlobalPosition);
      } catch (error) {
        throw unwrap(error);
      }
    });
    if (statusNow() === 'ending') await applyInErp('unblock', true);
  }
  await condition(allHandlersFinished);
  return result();

  /** Submits (retrying outages with backoff under the same key) and polls until the ERP answers done or rejected. */
  async function applyInErp(operation: BlockErpOperation, ending: boolean): Promise<void> {
    const scope = state.scope;
    if (!scope) return;
    const requestKey = erpRequestKey(input.requestId, operation, ending);
    let attempt = state.erpAttempts;
    let backoff = timing.retryInitialMs;
    const outage = async (error: string) => {
      attempt += 1;
      const retryAt = new Date(Date.now() + backoff).toISOString();
      await record({ type: 'RecordErpCallFailed', requestKey, operation, error, attempt, retryAt }, ending);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, timing.retryMaxMs);
    };
    let erpRequestId: string | null = null;
    while (erpRequestId === null) {
      const submitted = await submitBlockToErp({ requestKey, operation, vendorCode: scope.vendorCode, companyCode: scope.companyCode, level: scope.level });
      if (submitted.ok) {
        erpRequestId = submitted.value.requestId;
        await record({ type: 'RecordErpSubmitted', requestKey, operation, erpRequestId }, ending);
      } else if (submitted.outage) await outage(submitted.error);
      else {
        await record({ type: 'RecordErpRefused', requestKey, operation, message: submitted.error }, ending);
        return;
      }
    }
    let poll = timing.pollInitialMs;
    for (;;) {
      const status = await blockErpStatus({ erpRequestId });
      if (!status.ok) {
        if (status.outage) {
          await outage(status.error);
          continue;
        }
        await record({ type: 'RecordErpRefused', requestKey, operation, message: status.error }, ending);
        return;
      }
      const answer = status.value;
      if (answer.state === 'pending') {
        await sleep(poll);
        poll = Math.min(Math.round(poll * 1.5), timing.pollMaxMs);
        continue;
      }
      if (answer.state === 'done') await record({ type: 'RecordBlockApplied', operation, vendorCode: answer.vendorCode || scope.vendorCode }, ending);
      else await record({ type: 'RecordErpRefused', requestKey, operation, message: answer.message }, ending);
      return;
    }
  }
}
