import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { invoiceMessages, notAllowedMessage } from '../../../domain/src/invoices/messages';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import type { InvoiceAttachment, InvoiceFields } from '../../../domain/src/invoices/events';
import { withCommandDeadline, type CommandTimeout } from '../shared/command-deadline';
import { startLifecycle } from '../shared/start-lifecycle';
import { explainUpdateError } from '../shared/update-errors';
import {
  awaitDraftedUpdate,
  invoiceCommandUpdate,
  invoiceStateQuery,
  invoiceWorkflowId,
  type InvoiceContext,
  type InvoiceInput,
  type InvoiceRequest,
  type InvoiceUpdateResult,
} from './messages';

/**
 * The invoice commands as the API and the demo seed call them. Client code only. Every command answers once its
 * events are recorded (with `lastGlobalPosition` to wait for the read model), or with the decider's refusal.
 */

/** Who acts: the caller as the API knows it. `requestId` is the update id (a retried HTTP request is the same update). */
export type InvoiceCaller = {
  actor: Actor;
  actorBaId: string | null;
  billHubStateId?: number | null;
  requestId: string;
  correlationId?: string;
} & CommandTimeout;

const contextOf = (c: InvoiceCaller): InvoiceContext => ({
  actor: c.actor,
  actorBaId: c.actorBaId,
  billHubStateId: c.billHubStateId ?? null,
  requestId: c.requestId,
  correlationId: c.correlationId ?? c.requestId,
});

/** Starts the invoice's workflow with its draft (update-with-start): a retried create joins the same draft. */
export async function createInvoiceDraft(
  client: Client,
  taskQueue: string,
  draft: { invoiceId: string; baId: string; fields: InvoiceFields; timing?: InvoiceInput['timing'] },
  caller: InvoiceCaller,
): Promise<InvoiceUpdateResult> {
  const input: InvoiceInput = { ...contextOf(caller), ...draft };
  return startLifecycle<InvoiceUpdateResult>(client, {
    workflowType: 'invoiceWorkflow',
    workflowId: invoiceWorkflowId(draft.invoiceId),
    taskQueue,
    input,
    awaitStarted: awaitDraftedUpdate,
    updateId: `drafted:${draft.invoiceId}`,
    timeoutMs: caller.timeoutMs,
  });
}

/** Any later command on an existing invoice. */
export async function invoiceCommand(client: Client, invoiceId: string, request: InvoiceRequest, caller: InvoiceCaller): Promise<InvoiceUpdateResult> {
  const workflowId = invoiceWorkflowId(invoiceId);
  const handle = client.workflow.getHandle(workflowId);
  const base = contextOf(caller);
  try {
    return await withCommandDeadline(client, caller.timeoutMs, { workflowId, updateId: caller.requestId }, (deadline) =>
      handle.executeUpdate(invoiceCommandUpdate, {
        updateId: caller.requestId,
        args: [{ ...(deadline === undefined ? base : { ...base, deadline }), request }],
      }),
    );
  } catch (error) {
    // No run under that id (never created, or closed: released, revoked, discarded).
    throw await explainUpdateError(error, async () => {
      // A closed run still answers its query: released, revoked and discarded invoices say so.
      const current = await getInvoiceState(client, invoiceId).catch(() => null);
      return current && current.state.status !== 'none'
        ? new DomainError('rule', notAllowedMessage(current.state.status))
        : new DomainError('not_found', invoiceMessages.notFound);
    });
  }
}

export const saveInvoiceDraft = (client: Client, invoiceId: string, fields: InvoiceFields, caller: InvoiceCaller) =>
  invoiceCommand(client, invoiceId, { kind: 'save', fields }, caller);
export const submitInvoice = (client: Client, invoiceId: string, fields: InvoiceFields | null, caller: InvoiceCaller) =>
  invoiceCommand(client, invoiceId, { kind: 'submit', fields }, caller);
export const discardInvoice = (client: Client, invoiceId: string, caller: InvoiceCaller) => invoiceCommand(client, invoiceId, { kind: 'discard' }, caller);
export const addInvoiceAttachment = (client: Client, invoiceId: string, attachment: InvoiceAttachment, caller: InvoiceCaller) =>
  invoiceCommand(client, invoiceId, { kind: 'attach', attachment }, caller);
export const removeInvoiceAttachment = (client: Client, invoiceId: string, attachmentId: string, caller: InvoiceCaller) =>
  invoiceCommand(client, invoiceId, { kind: 'detach', attachmentId }, caller);
export const acknowledgeInvoice = (client: Client, invoiceId: string, caller: InvoiceCaller) =>
  invoiceCommand(client, invoiceId, { kind: 'acknowledge' }, caller);
export const verifyInvoice = (client: Client, invoiceId: string, caller: InvoiceCaller) => invoiceCommand(client, invoiceId, { kind: 'verify' }, caller);
export const bookInvoice = (client: Client, invoiceId: string, caller: InvoiceCaller) => invoiceCommand(client, invoiceId, { kind: 'book' }, caller);
export const releaseInvoice = (client: Client, invoiceId: string, caller: InvoiceCaller) => invoiceCommand(client, invoiceId, { kind: 'release' }, caller);
export const rejectInvoice = (client: Client, invoiceId: string, remarks: string, caller: InvoiceCaller) =>
  invoiceCommand(client, invoiceId, { kind: 'reject', remarks }, caller);
export const revokeInvoice = (client: Client, invoiceId: string, remarks: string | null, caller: InvoiceCaller) =>
  invoiceCommand(client, invoiceId, { kind: 'revoke', remarks }, caller);

/** The invoice as its workflow holds it, or null when there is none (or its run has closed). */
export async function getInvoiceState(client: Client, invoiceId: string): Promise<InvoiceUpdateResult | null> {
  try {
    return await client.workflow.getHandle(invoiceWorkflowId(invoiceId)).query(invoiceStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

/**
 * Waits (bounded) until a booking has the ERP's answer: booked, or refused (Verified again, not booking). Null
 * when the ERP has not answered in time (the caller answers 202 "waiting for ERP").
 */
export async function waitForInvoiceBooking(client: Client, invoiceId: string, timeoutMs: number): Promise<InvoiceUpdateResult | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const current = await getInvoiceState(client, invoiceId).catch(() => null);
    if (current && !current.state.booking) return current;
    if (Date.now() >= until) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(150, Math.max(0, until - Date.now()))));
  }
}

export type { InvoiceInput, InvoiceRequest, InvoiceUpdateResult };
