import { allHandlersFinished, condition, proxyActivities, setHandler, sleep, uuid4, workflowInfo } from '@temporalio/workflow';
import type { InvoiceAction } from '../../../domain/src/invoices/commands';
import { actionProblem, evolveInvoice, initialInvoiceState, type InvoiceState } from '../../../domain/src/invoices/decide';
import { INVOICE_SLA_MS, type InvoiceEvent, type InvoiceStatus } from '../../../domain/src/invoices/events';
import { invoiceTotals } from '../../../domain/src/invoices/fields';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalFailure } from '../onboarding/refusal';
import { COMMAND_ACTIVITY_OPTIONS, ERP_ACTIVITY_OPTIONS } from '../shared/activity-options';
import { callerOf, createCommandWiring } from '../shared/command-wiring';
import { refuseIfLate } from '../shared/deadline';
import type { createInvoiceActivities, InvoiceRecordCommand } from './activities';
import {
  awaitDraftedUpdate,
  DEFAULT_INVOICE_TIMING,
  invoiceCommandUpdate,
  invoiceStateQuery,
  type InvoiceContext,
  type InvoiceInput,
  type InvoiceRequest,
  type InvoiceUpdateResult,
} from './messages';

type Activities = ReturnType<typeof createInvoiceActivities>;

// Types only: the activity code (pg, the ERP adapter) never enters the workflow bundle.
const { handleInvoiceRequest, recordInvoiceEvent } = proxyActivities<Activities>(COMMAND_ACTIVITY_OPTIONS);
// As the block workflow: ERP outages are answers (recorded, backed off); activity retries only cover a lost worker.
const { submitInvoiceToErp, invoiceErpStatus } = proxyActivities<Activities>(ERP_ACTIVITY_OPTIONS);

const SYSTEM_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Invoice workflow' };
const SLA_ACTOR: Actor = { userId: 'system', role: 'system', name: 'Invoice SLA timer' };

const ACTION_OF: Record<InvoiceRequest['kind'], InvoiceAction> = {
  save: 'edit',
  submit: 'submit',
  discard: 'discard',
  attach: 'attach',
  detach: 'attach',
  acknowledge: 'acknowledge',
  verify: 'verify',
  book: 'book',
  release: 'release',
  reject: 'reject',
  revoke: 'revoke',
};
const TERMINAL: readonly (InvoiceStatus | 'none')[] = ['P', 'R', 'discarded'];

/**
 * One invoice (`invoice-<invoiceId>`) from its draft to its release: records the draft from its input, then
 * one command at a time (FIFO lock) from the `command` update; books a verified invoice in the ERP with a
 * deterministic key (outages recorded and retried with backoff, a pending posting polled); and keeps an SLA
 * timer per status entered, recording InvoiceSlaBreached once when the status outlives it.
 */
export async function invoiceWorkflow(input: InvoiceInput): Promise<InvoiceUpdateResult> {
  const { workflowId } = workflowInfo();
  const timing = { ...DEFAULT_INVOICE_TIMING, ...input.timing };
  let state: InvoiceState = initialInvoiceState;
  let lastGlobalPosition = 0;
  let statusSince = Date.now();
  let startRefusal: unknown = null;
  let bookingRound = 0;
  const abandoned = typeof input.deadline === 'number' && Date.now() > input.deadline;

  const now = (): string => new Date(Date.now()).toISOString();
  const envelope = (ctx: Pick<InvoiceContext, 'actor' | 'actorBaId' | 'billHubStateId' | 'correlationId'> & { causedBy: string | null }) => ({
    invoiceId: input.invoiceId,
    actor: ctx.actor,
    actorBaId: ctx.actorBaId,
    billHubStateId: ctx.billHubStateId,
    commandId: uuid4(),
    correlationId: ctx.correlationId,
    causedBy: ctx.causedBy,
    workflowId,
    at: now(),
  });

  const { exclusive, idle, unwrap } = createCommandWiring('invoice', workflowId);
  const apply = (events: readonly InvoiceEvent[], position: number) => {
    const before = state.status;
    state = events.reduce(evolveInvoice, state);
    if (state.status !== before) statusSince = Date.now();
    if (position > 0) lastGlobalPosition = position;
  };
  const result = (): InvoiceUpdateResult => ({ state, lastGlobalPosition });
  const current = (): InvoiceState => state;

  const system = { actor: SYSTEM_ACTOR, actorBaId: null, billHubStateId: null, correlationId: input.correlationId, causedBy: null };
  const record = (command: InvoiceRecordCommand, actor = SYSTEM_ACTOR) =>
    exclusive(async () => {
      try {
        const r = await recordInvoiceEvent({ ...envelope({ ...system, actor }), command });
        apply(r.events, r.lastGlobalPosition);
      } catch (error) {
        throw unwrap(error);
      }
    });

  setHandler(
    invoiceCommandUpdate,
    (a) =>
      exclusive(async () => {
        refuseIfLate(a.deadline);
        try {
          const r = await handleInvoiceRequest({ ...envelope({ ...a, causedBy: a.requestId }), baId: input.baId, request: a.request });
          apply(r.events, r.lastGlobalPosition);
        } catch (error) {
          throw unwrap(error);
        }
        return result();
      }),
    {
      validator: (a) => {
        const actor = callerOf(a);
        const action = ACTION_OF[a.request?.kind as InvoiceRequest['kind']] as InvoiceAction | undefined;
        if (!action) throw refusalFailure(new DomainError('validation', 'Unknown invoice command'));
        // Another command is being recorded: the handler's activity decides on the state it leaves.
        if (!idle()) return;
        const problem = actionProblem(action, state, { roles: [actor.role], baId: a.actorBaId ?? null, userId: actor.userId });
        if (problem) throw refusalFailure(problem);
      },
    },
  );
  setHandler(awaitDraftedUpdate, async () => {
    await condition(() => state.status !== 'none' || startRefusal !== null || abandoned);
    if (startRefusal !== null) throw startRefusal;
    if (state.status === 'none') refuseIfLate(input.deadline);
    return result();
  });
  setHandler(invoiceStateQuery, () => result());

  if (abandoned) {
    await condition(allHandlersFinished);
    return result();
  }
  try {
    await exclusive(async () => {
      const r = await handleInvoiceRequest({
        ...envelope({ ...input, causedBy: input.requestId }),
        baId: input.baId,
        request: { kind: 'create', fields: input.fields },
      });
      apply(r.events, r.lastGlobalPosition);
    });
  } catch (error) {
    // Refused (400 fields, 403 blocked vendor, 409 number already used): nothing recorded.
    startRefusal = unwrap(error);
    await condition(allHandlersFinished);
    return result();
  }

  for (;;) {
    const s = current();
    if (TERMINAL.includes(s.status)) break;
    if (s.booking) {
      await bookInErp();
      continue;
    }
    const status = s.status as InvoiceStatus;
    const changed = () => current().status !== status || current().booking;
    const sla = timing.slaMs?.[status] ?? INVOICE_SLA_MS[status];
    if (sla !== undefined && !s.slaBreached) {
      const since = statusSince;
      const wait = since + sla - Date.now();
      const moved = wait > 0 ? await condition(changed, wait) : changed();
      if (!moved) {
        await record({ type: 'RecordInvoiceSlaBreach', status, since: new Date(since).toISOString(), dueAt: new Date(since + sla).toISOString() }, SLA_ACTOR);
      }
      continue;
    }
    await condition(changed);
  }
  await condition(allHandlersFinished);
  return result();

  /** Posts (retrying outages with backoff under the same key) and polls until the ERP answers done or rejected. */
  async function bookInErp(): Promise<void> {
    const r = state.record;
    if (!r || !r.companyCode || !r.financialYear) {
      await record({ type: 'RecordInvoiceErpRefused', message: 'The invoice has no company code or financial year to post' });
      return;
    }
    // The contract's key `invoice-<id>-book`; a booking asked again after the ERP refused one is a new request
    // to the ERP (the same key would only repeat its refusal), so later rounds add their number.
    const requestKey = `invoice-${input.invoiceId}-book${bookingRound > 0 ? `-${bookingRound}` : ''}`;
    let attempt = state.erpAttempts;
    let backoff = timing.retryInitialMs;
    const outage = async (error: string) => {
      attempt += 1;
      const retryAt = new Date(Date.now() + backoff).toISOString();
      await record({ type: 'RecordInvoiceErpCallFailed', requestKey, error, attempt, retryAt });
      await sleep(backoff);
      backoff = Math.min(backoff * 2, timing.retryMaxMs);
    };
    let erpRequestId: string | null = null;
    while (erpRequestId === null) {
      const submitted = await submitInvoiceToErp({
        requestKey,
        vendorCode: r.billingFromCode,
        companyCode: r.companyCode,
        invoiceNumber: r.invoiceNumber,
        invoiceDate: r.invoiceDate,
        financialYear: r.financialYear,
        amount: invoiceTotals(r).netPayable,
      });
      if (submitted.ok) {
        erpRequestId = submitted.value.requestId;
        await record({ type: 'RecordInvoiceErpSubmitted', requestKey, erpRequestId });
      } else if (submitted.outage) await outage(submitted.error);
      else {
        bookingRound += 1;
        await record({ type: 'RecordInvoiceErpRefused', message: submitted.error });
        return;
      }
    }
    let poll = timing.pollInitialMs;
    for (;;) {
      const status = await invoiceErpStatus({ erpRequestId });
      if (!status.ok) {
        if (status.outage) {
          await outage(status.error);
          continue;
        }
        bookingRound += 1;
        await record({ type: 'RecordInvoiceErpRefused', message: status.error });
        return;
      }
      const answer = status.value;
      if (answer.state === 'pending') {
        await sleep(poll);
        poll = Math.min(Math.round(poll * 1.5), timing.pollMaxMs);
        continue;
      }
      if (answer.state === 'done') await record({ type: 'RecordInvoiceBooked', erpDocumentNumber: answer.documentNumber ?? answer.vendorCode });
      else {
        bookingRound += 1;
        await record({ type: 'RecordInvoiceErpRefused', message: answer.message });
      }
      return;
    }
  }
}
