import { allHandlersFinished, condition, continueAsNew, log, proxyActivities, setHandler, uuid4, workflowInfo } from '@temporalio/workflow';
import { decideMemo, initialMemoState, type MemoCommand, type MemoState } from '../../../domain/src/memos/decide';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalFailure } from '../onboarding/refusal';
import { COMMAND_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { createCommandLock } from '../shared/command-lock';
import { commandFailure, refuseIfLate } from '../shared/deadline';
import type { createMemoActivities } from './activities';
import { awaitMemoSubmittedUpdate, memoStateQuery, recordAdvanceUpdate, type AdvanceArgs, type MemoInput, type MemoUpdateResult } from './messages';

type Activities = ReturnType<typeof createMemoActivities>;
const { claimMemoInvoices, assignMemoNumber, recordMemoSubmitted, handleMemoCommand } = proxyActivities<Activities>(COMMAND_ACTIVITY_OPTIONS);

/**
 * One memo (`memo-<memoId>`): claims its invoices on the BA's claims stream, then takes the next number of the
 * company code's financial year, then records MemoSubmitted — in this order, so a refused claim consumes no
 * number and a crash between steps resumes with idempotent retries (same memoId, same command ids) instead of
 * leaving a gap. Afterwards it stays open for the advance payments accounts record against the memo (continued
 * as new when its history grows long; `resumed` skips the submission then).
 */
export async function memoWorkflow(input: MemoInput & { resumed?: MemoUpdateResult }): Promise<MemoUpdateResult> {
  const { workflowId } = workflowInfo();
  let state: MemoState = input.resumed?.state ?? initialMemoState;
  let lastGlobalPosition = input.resumed?.lastGlobalPosition ?? 0;
  let startRefusal: unknown = null;
  const abandoned = !input.resumed && typeof input.deadline === 'number' && Date.now() > input.deadline;

  const now = (): string => new Date(Date.now()).toISOString();
  const envelope = (actor: Actor, ctx: { causedBy: string | null; correlationId: string }, companyCode: string | null) => ({
    memoId: input.memoId,
    actor,
    commandId: uuid4(),
    correlationId: ctx.correlationId,
    causedBy: ctx.causedBy,
    workflowId,
    companyCode,
    at: now(),
  });
  const { exclusive, idle } = createCommandLock();
  const unwrap = (error: unknown): unknown => commandFailure(error, 'memo', (message, attrs) => log.error(message, { ...attrs, workflowId }));
  const result = (): MemoUpdateResult => ({ state, lastGlobalPosition });
  const statusNow = (): MemoState['status'] => state.status;

  setHandler(awaitMemoSubmittedUpdate, async () => {
    await condition(() => state.status !== 'none' || startRefusal !== null || abandoned);
    if (startRefusal !== null) throw startRefusal;
    if (state.status === 'none') refuseIfLate(input.deadline);
    return result();
  });
  setHandler(memoStateQuery, () => result());
  setHandler(
    recordAdvanceUpdate,
    (a: AdvanceArgs) =>
      exclusive(async () => {
        refuseIfLate(a.deadline);
        try {
          const r = await handleMemoCommand({
            ...envelope(a.actor, { causedBy: a.requestId, correlationId: a.correlationId }, state.companyCode),
            command: advanceCommand(a),
          });
          state = r.state;
          if (r.lastGlobalPosition > 0) lastGlobalPosition = r.lastGlobalPosition;
        } catch (error) {
          throw unwrap(error);
        }
        return result();
      }),
    {
      validator: (a: AdvanceArgs) => {
        refuseIfLate(a?.deadline);
        if (typeof a?.actor?.userId !== 'string' || typeof a.actor.role !== 'string') throw refusalFailure(new DomainError('forbidden', 'The acting user is unknown'));
        // Another advance is being recorded: the handler decides on the state it leaves.
        if (!idle()) return;
        const decided = decideMemo(advanceCommand(a), state, { at: now(), actor: a.actor });
        if (decided instanceof DomainError) throw refusalFailure(decided);
      },
    },
  );

  if (abandoned) {
    await condition(allHandlersFinished);
    return result();
  }
  if (!input.resumed) {
    try {
      await exclusive(async () => {
        const ctx = { causedBy: input.memoId, correlationId: input.correlationId };
        const group = await claimMemoInvoices({ ...envelope(input.submittedBy, ctx, null), baId: input.baId, invoiceIds: input.invoiceIds });
        const { memoNumber, financialYear } = await assignMemoNumber({ ...envelope(input.submittedBy, ctx, group.companyCode), companyCode: group.companyCode });
        const r = await recordMemoSubmitted({
          ...envelope(input.submittedBy, ctx, group.companyCode),
          memo: {
            memoId: input.memoId,
            memoNumber,
            baId: input.baId,
            companyCode: group.companyCode,
            financialYear,
            fromStateId: group.fromStateId,
            toStateId: group.toStateId,
            invoiceIds: group.invoiceIds,
            totals: group.totals,
            comments: input.comments,
            submittedBy: input.submittedBy,
          },
        });
        state = r.state;
        lastGlobalPosition = Math.max(lastGlobalPosition, r.lastGlobalPosition, group.lastGlobalPosition);
      });
    } catch (error) {
      // Refused (404/409/422/400): the claim was not made, so nothing was recorded and no number taken.
      startRefusal = unwrap(error);
      await condition(allHandlersFinished);
      return result();
    }
  }
  if (statusNow() !== 'submitted') return result();

  // Open for advances; a long history continues as new with the state it has reached.
  await condition(() => workflowInfo().continueAsNewSuggested && idle());
  await condition(allHandlersFinished);
  return continueAsNew<typeof memoWorkflow>({ ...input, resumed: result() });

  function advanceCommand(a: AdvanceArgs): MemoCommand {
    return { type: 'RecordAdvancePayment', advanceId: a.requestId, amount: a?.amount ?? '', reference: a?.reference ?? '', paidOn: a?.paidOn ?? '' };
  }
}
