import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import { ErpUnavailableError, type ErpPort, type ErpRequestStatus } from '../../../domain/src/erp/port';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import { ConcurrencyError, type EventStore } from '../../../domain/src/event-store/port';
import type { InvoiceCommand } from '../../../domain/src/invoices/commands';
import { decideInvoice, decideReservation, initialInvoiceState, invoiceDecider, type InvoiceState } from '../../../domain/src/invoices/decide';
import {
  invoiceNumberStreamId,
  invoiceStreamId,
  normaliseInvoiceNumber,
  type InvoiceEvent,
  type InvoiceFields,
  type InvoiceNumberReserved,
  type InvoiceRecord,
} from '../../../domain/src/invoices/events';
import { financialYearOf } from '../../../domain/src/invoices/fields';
import type { CommandMetadata, Decider } from '../../../domain/src/shared/decider';
import { fold } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalsAsFailures } from '../onboarding/refusal';
import type { InvoiceRequest } from './messages';
import { numberUsedElsewhere, paymentsOnHold, resolveInvoiceRecord, vendorBlocked } from './resolve';

/** What every recording activity carries: decided in workflow code, so every attempt writes the same events. */
export type InvoiceEnvelope = {
  invoiceId: string;
  actor: Actor;
  actorBaId: string | null;
  billHubStateId: number | null;
  /** Chosen by the workflow: event ids derive from it, so a retry appends nothing new. */
  commandId: string;
  correlationId: string;
  causedBy: string | null;
  workflowId: string;
  at: string;
};

export type InvoiceActivityResult = { events: InvoiceEvent[]; state: InvoiceState; lastGlobalPosition: number };
export type ErpCallResult<T> = { ok: true; value: T } | { ok: false; outage: true; error: string } | { ok: false; outage: false; error: string };

/** The system's own records (ERP answers, SLA timers) carry no request. */
export type InvoiceRecordCommand = Extract<
  InvoiceCommand,
  { type: 'RecordInvoiceErpSubmitted' | 'RecordInvoiceErpCallFailed' | 'RecordInvoiceErpRefused' | 'RecordInvoiceBooked' | 'RecordInvoiceSlaBreach' }
>;

/** The read-model look-ups the decisions need; replaceable so a workflow test need not build every read model. */
export type InvoiceLookups = {
  resolve: (baId: string, fields: InvoiceFields) => Promise<InvoiceRecord>;
  numberUsedElsewhere: (q: { baId: string; invoiceId: string; invoiceNumber: string; financialYear: string | null }) => Promise<boolean>;
  vendorBlocked: (baId: string) => Promise<boolean>;
  paymentsOnHold: (baId: string) => Promise<boolean>;
};

export const poolLookups = (pool: Pool): InvoiceLookups => ({
  resolve: (baId, fields) => resolveInvoiceRecord(pool, baId, fields),
  numberUsedElsewhere: (q) => numberUsedElsewhere(pool, q),
  vendorBlocked: (baId) => vendorBlocked(pool, baId),
  paymentsOnHold: (baId) => paymentsOnHold(pool, baId),
});

export type InvoiceActivityDeps = { store: EventStore; pool?: Pool; erp?: ErpPort; lookups?: InvoiceLookups };

const metaOf = (a: InvoiceEnvelope, companyCode: string | null, commandId = a.commandId): CommandMetadata & { commandId: string } => ({
  actor: a.actor,
  at: a.at,
  companyCode,
  correlationId: a.correlationId,
  causationId: null,
  workflowId: a.workflowId,
  requestId: a.causedBy,
  commandId,
});

/** `key` of the reservation stream: first 24 hex of sha256(upper(trim(invoiceNumber))). */
export const invoiceNumberKey = (invoiceNumber: string): string =>
  createHash('sha256').update(normaliseInvoiceNumber(invoiceNumber)).digest('hex').slice(0, 24);

type Reservation = { type: 'Reserve'; baId: string; financialYear: string; invoiceNumber: string; invoiceId: string };
const reservationDecider: Decider<Reservation, InvoiceNumberReserved, InvoiceNumberReserved | null> = {
  initialState: null,
  evolve: (state, event) => state ?? event,
  decide: (command, state) => decideReservation(state, command),
};

const fieldsOf = (r: InvoiceRecord): InvoiceFields => ({
  invoiceNumber: r.invoiceNumber,
  invoiceDate: r.invoiceDate,
  taxableAmount: r.taxableAmount,
  cgst: r.cgst,
  sgst: r.sgst,
  igst: r.igst,
  td: r.td,
  hsnCode: r.hsnCode,
  comments: r.comments,
  submitToUserId: r.submitToUserId,
  billingFromCode: r.billingFromCode,
  billingToCode: r.billingToCode,
});

/** An ERP call whose outage is an answer (the workflow records it and backs off), not a fault to retry here. */
async function erpCall<T>(call: () => Promise<T>): Promise<ErpCallResult<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof ErpUnavailableError) return { ok: false, outage: true, error: error.message };
    if (error instanceof Error && !(error instanceof TypeError)) return { ok: false, outage: false, error: error.message };
    throw error;
  }
}

export function createInvoiceActivities(deps: InvoiceActivityDeps) {
  const { store } = deps;
  const needLookups = (): InvoiceLookups => {
    if (deps.lookups) return deps.lookups;
    if (!deps.pool) throw new Error('invoice activities need the PostgreSQL pool (createActivities({ pool }))');
    return poolLookups(deps.pool);
  };
  const readState = async (invoiceId: string): Promise<InvoiceState> =>
    fold(invoiceDecider, (await store.readStream(invoiceStreamId(invoiceId))).map((e) => ({ type: e.type, data: e.data }) as InvoiceEvent));

  /** Appends InvoiceNumberReserved once ("stream must not exist"); another invoice there → 409 Duplicate Invoice. */
  async function reserve(a: InvoiceEnvelope, baId: string, record: InvoiceRecord): Promise<number> {
    const financialYear = financialYearOf(record.invoiceDate);
    const command: Reservation = { type: 'Reserve', baId, financialYear, invoiceNumber: record.invoiceNumber, invoiceId: a.invoiceId };
    const streamId = invoiceNumberStreamId(baId, financialYear, invoiceNumberKey(record.invoiceNumber));
    for (let attempt = 0; ; attempt += 1) {
      try {
        const r = await handleCommand(store, streamId, reservationDecider, command, metaOf(a, record.companyCode, `${a.commandId}:reserve`));
        return r.lastGlobalPosition;
      } catch (error) {
        // Another submission got there between our read and our append: decide again on what it wrote.
        if (error instanceof ConcurrencyError && attempt < 3) continue;
        throw error;
      }
    }
  }

  async function commandFor(a: InvoiceEnvelope, state: InvoiceState, baId: string, request: InvoiceRequest | { kind: 'create'; fields: InvoiceFields }): Promise<InvoiceCommand> {
    const base = { actorBaId: a.actorBaId };
    const edit = async (fields: InvoiceFields, mode: 'draft' | 'submit') => {
      const lookups = needLookups();
      const record = await lookups.resolve(baId, fields);
      const financialYear = /^\d{4}-\d{2}-\d{2}$/.test(record.invoiceDate) ? financialYearOf(record.invoiceDate) : null;
      const numberTaken =
        mode === 'draft' && record.invoiceNumber !== ''
          ? await lookups.numberUsedElsewhere({ baId, invoiceId: a.invoiceId, invoiceNumber: record.invoiceNumber, financialYear })
          : false;
      return { ...base, record, billHubStateId: a.billHubStateId, numberTaken, vendorBlocked: await lookups.vendorBlocked(baId) };
    };
    switch (request.kind) {
      case 'create':
        return { type: 'CreateInvoiceDraft', invoiceId: a.invoiceId, baId, ...(await edit(request.fields, 'draft')) };
      case 'save':
        return { type: 'SaveInvoiceDraft', ...(await edit(request.fields, 'draft')) };
      case 'submit': {
        const fields = request.fields ?? (state.record ? fieldsOf(state.record) : null);
        if (!fields) throw new DomainError('not_found', 'Invoice not found');
        return { type: 'SubmitInvoice', ...(await edit(fields, 'submit')) };
      }
      case 'discard':
        return { type: 'DiscardInvoice', ...base };
      case 'attach':
        return { type: 'AddInvoiceAttachment', ...base, attachment: request.attachment };
      case 'detach':
        return { type: 'RemoveInvoiceAttachment', ...base, attachmentId: request.attachmentId };
      case 'acknowledge':
        return { type: 'AcknowledgeInvoice' };
      case 'verify':
        return { type: 'VerifyInvoice' };
      case 'book':
        return { type: 'RequestInvoiceBooking' };
      case 'release': {
        const lookups = needLookups();
        return { type: 'ReleaseInvoice', paymentsOnHold: await lookups.paymentsOnHold(baId), vendorBlocked: await lookups.vendorBlocked(baId) };
      }
      case 'reject':
        return { type: 'RejectInvoice', remarks: request.remarks };
      case 'revoke':
        return { type: 'RevokeInvoice', ...base, remarks: request.remarks };
    }
  }

  return {
    /**
     * One person's command: what it names resolved, decided (nothing appended when refused), and for a
     * submission the number reserved first (409 "Duplicate Invoice" when another invoice holds it).
     */
    async handleInvoiceRequest(
      args: InvoiceEnvelope & { baId: string; request: InvoiceRequest | { kind: 'create'; fields: InvoiceFields } },
    ): Promise<InvoiceActivityResult> {
      return refusalsAsFailures(async () => {
        const streamId = invoiceStreamId(args.invoiceId);
        const stored = await store.readStream(streamId);
        const state = stored.map((e) => ({ type: e.type, data: e.data }) as InvoiceEvent).reduce(invoiceDecider.evolve, initialInvoiceState);
        const command = await commandFor(args, state, args.baId, args.request);
        // The event's metadata.companyCode: the code the (new) record names, else the invoice's own.
        const companyCode = ('record' in command ? command.record.companyCode : null) ?? state.companyCode;
        let reservedAt = 0;
        if (command.type === 'SubmitInvoice') {
          const decided = decideInvoice(command, state, metaOf(args, companyCode));
          // A retry after the submission was recorded decides against the new state: handleCommand answers it.
          if (decided instanceof DomainError && state.status !== 'S') throw decided;
          if (!(decided instanceof DomainError)) reservedAt = await reserve(args, args.baId, command.record);
        }
        const result = await handleCommand(store, streamId, invoiceDecider, command, metaOf(args, companyCode));
        return { events: result.events, state: result.state, lastGlobalPosition: Math.max(result.lastGlobalPosition, reservedAt) };
      });
    },

    /** The workflow's own records (ERP answers, SLA breaches): pure, no look-ups. */
    async recordInvoiceEvent(args: InvoiceEnvelope & { command: InvoiceRecordCommand }): Promise<InvoiceActivityResult> {
      return refusalsAsFailures(async () => {
        const state = await readState(args.invoiceId);
        const result = await handleCommand(store, invoiceStreamId(args.invoiceId), invoiceDecider, args.command, metaOf(args, state.companyCode));
        return { events: result.events, state: result.state, lastGlobalPosition: result.lastGlobalPosition };
      });
    },

    /** Posts the verified invoice with its idempotency key: an outage is answered, not thrown. */
    async submitInvoiceToErp(args: {
      requestKey: string;
      vendorCode: string;
      companyCode: string;
      invoiceNumber: string;
      invoiceDate: string;
      financialYear: string;
      amount: string;
    }): Promise<ErpCallResult<{ requestId: string }>> {
      const erp = deps.erp;
      if (!erp) throw ApplicationFailure.retryable('The worker has no ERP adapter (createActivities({ erp }))', 'ErpNotConfigured');
      const { requestKey, ...rest } = args;
      return erpCall(() => erp.submit(requestKey, { op: 'post-invoice', ...rest }));
    },

    async invoiceErpStatus(args: { erpRequestId: string }): Promise<ErpCallResult<ErpRequestStatus>> {
      const erp = deps.erp;
      if (!erp) throw ApplicationFailure.retryable('The worker has no ERP adapter (createActivities({ erp }))', 'ErpNotConfigured');
      return erpCall(() => erp.status(args.erpRequestId));
    },
  };
}

export type InvoiceActivities = ReturnType<typeof createInvoiceActivities>;
