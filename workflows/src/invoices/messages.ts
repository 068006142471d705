import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { InvoiceState } from '../../../domain/src/invoices/decide';
import type { InvoiceAttachment, InvoiceFields, InvoiceStatus } from '../../../domain/src/invoices/events';
import type { Actor } from '../../../domain/src/shared/events';

/**
 * The invoice lifecycle's wire contract: workflow id, input, updates and query. Names are wire contracts
 * (running workflows depend on them): add new ones, never rename.
 */
export const invoiceWorkflowId = (invoiceId: string): string => `invoice-${invoiceId}`;

/** ERP retry/poll timing (ms) as the block workflow's; `slaMs` overrides INVOICE_SLA_MS per status (tests). */
export type InvoiceTiming = {
  retryInitialMs: number;
  retryMaxMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  slaMs?: Partial<Record<InvoiceStatus, number>>;
};
export const DEFAULT_INVOICE_TIMING: InvoiceTiming = { retryInitialMs: 2_000, retryMaxMs: 600_000, pollInitialMs: 1_000, pollMaxMs: 30_000 };

/** Who acts, and ids for idempotency; `deadline` as for every command (shared/deadline.ts). */
export type InvoiceContext = {
  actor: Actor;
  /** The caller's BA (null for staff). */
  actorBaId: string | null;
  /** A child Bill-Hub user's GST state (null otherwise). */
  billHubStateId: number | null;
  requestId: string;
  correlationId: string;
  deadline?: number;
};

/** What a person asks of an invoice after its draft exists. */
export type InvoiceRequest =
  | { kind: 'save'; fields: InvoiceFields }
  | { kind: 'submit'; fields: InvoiceFields | null }
  | { kind: 'discard' }
  | { kind: 'attach'; attachment: InvoiceAttachment }
  | { kind: 'detach'; attachmentId: string }
  | { kind: 'acknowledge' }
  | { kind: 'verify' }
  | { kind: 'book' }
  | { kind: 'release' }
  | { kind: 'reject'; remarks: string }
  | { kind: 'revoke'; remarks: string | null };

export type InvoiceInput = InvoiceContext & {
  invoiceId: string;
  baId: string;
  fields: InvoiceFields;
  timing?: Partial<InvoiceTiming>;
};

export type InvoiceUpdateResult = { state: InvoiceState; lastGlobalPosition: number };

/** Sent with the start (update-with-start): answers once the draft is recorded, or with its refusal. */
export const awaitDraftedUpdate = defineUpdate<InvoiceUpdateResult, []>('awaitDrafted');
/** Every later command: answers once its events are recorded (a refusal records nothing). */
export const invoiceCommandUpdate = defineUpdate<InvoiceUpdateResult, [InvoiceContext & { request: InvoiceRequest }]>('command');
export const invoiceStateQuery = defineQuery<InvoiceUpdateResult>('state');
