import type { Actor, DomainEvent } from '../shared/events';

/**
 * Bill-Hub invoices (issue 11). Names are wire contracts (/work/brief/contract.md "Streams and events"):
 *
 * - `invoice-<invoiceId>`: one invoice from its draft to its release; every event carries `invoiceId` and `baId`.
 * - `invoice-number-<baId>-<fy>-<key>`: the race-safe duplicate rule. Appended once with "stream must not exist";
 *   kept forever, so a rejected, revoked or released invoice keeps its number.
 */

/** What the BA enters: the API body of create/update, amounts as decimal strings, dates YYYY-MM-DD. */
export type InvoiceFields = {
  invoiceNumber: string;
  invoiceDate: string;
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  hsnCode: string;
  comments: string;
  submitToUserId: string;
  billingFromCode: string;
  billingToCode: string;
};

/** The names, codes and states the API/activity resolved before deciding (null when not resolvable yet, e.g. a draft). */
export type InvoiceResolution = {
  submitToName: string | null;
  companyCode: string | null;
  fromStateId: number | null;
  billingToName: string | null;
  toStateId: number | null;
  financialYear: string | null;
};

export type InvoiceRecord = InvoiceFields & InvoiceResolution;

export type InvoiceAttachment = { attachmentId: string; name: string; size: number; type: string; sha256: string };

type WithIds<D> = D & { invoiceId: string; baId: string };

export type InvoiceDrafted = DomainEvent<'InvoiceDrafted', WithIds<{ companyCode: string | null; fields: InvoiceRecord; createdBy: Actor }>>;
/** Also the edits of a rejected (`C`) invoice before it is submitted again. */
export type InvoiceDraftSaved = DomainEvent<'InvoiceDraftSaved', WithIds<{ companyCode: string | null; fields: InvoiceRecord }>>;
export type InvoiceDiscarded = DomainEvent<'InvoiceDiscarded', WithIds<object>>;
export type InvoiceAttachmentAdded = DomainEvent<'InvoiceAttachmentAdded', WithIds<{ attachment: InvoiceAttachment }>>;
export type InvoiceAttachmentRemoved = DomainEvent<'InvoiceAttachmentRemoved', WithIds<{ attachmentId: string }>>;
export type InvoiceSubmitted = DomainEvent<
  'InvoiceSubmitted',
  WithIds<{ companyCode: string; invoiceNumber: string; financialYear: string; fields: InvoiceRecord; resubmission: boolean; by: Actor }>
>;
export type InvoiceAcknowledged = DomainEvent<'InvoiceAcknowledged', WithIds<{ by: Actor }>>;
export type InvoiceVerified = DomainEvent<'InvoiceVerified', WithIds<{ by: Actor }>>;
export type InvoiceBookingRequested = DomainEvent<'InvoiceBookingRequested', WithIds<{ by: Actor }>>;
export type InvoiceErpRequestSubmitted = DomainEvent<'InvoiceErpRequestSubmitted', WithIds<{ requestKey: string; erpRequestId: string }>>;
/** The ERP could not be reached: retried with the same key at `retryAt`. */
export type InvoiceErpCallFailed = DomainEvent<'InvoiceErpCallFailed', WithIds<{ requestKey: string; error: string; attempt: number; retryAt: string }>>;
/** The ERP refused the posting: the invoice stays Verified, booking false, with the ERP's message. */
export type InvoiceErpRefused = DomainEvent<'InvoiceErpRefused', WithIds<{ message: string }>>;
export type InvoiceBooked = DomainEvent<'InvoiceBooked', WithIds<{ erpDocumentNumber: string }>>;
export type InvoiceReleased = DomainEvent<'InvoiceReleased', WithIds<{ by: Actor }>>;
export type InvoiceRejected = DomainEvent<'InvoiceRejected', WithIds<{ by: Actor; remarks: string; fromStatus: InvoiceStatus }>>;
export type InvoiceRevoked = DomainEvent<'InvoiceRevoked', WithIds<{ by: Actor; remarks: string | null }>>;
/** The SLA of the status the invoice is in passed (system actor); once per status entered. */
export type InvoiceSlaBreached = DomainEvent<'InvoiceSlaBreached', WithIds<{ status: InvoiceStatus; since: string; dueAt: string }>>;

export type InvoiceEvent =
  | InvoiceDrafted
  | InvoiceDraftSaved
  | InvoiceDiscarded
  | InvoiceAttachmentAdded
  | InvoiceAttachmentRemoved
  | InvoiceSubmitted
  | InvoiceAcknowledged
  | InvoiceVerified
  | InvoiceBookingRequested
  | InvoiceErpRequestSubmitted
  | InvoiceErpCallFailed
  | InvoiceErpRefused
  | InvoiceBooked
  | InvoiceReleased
  | InvoiceRejected
  | InvoiceRevoked
  | InvoiceSlaBreached;

export const INVOICE_EVENT_TYPES = [
  'InvoiceDrafted',
  'InvoiceDraftSaved',
  'InvoiceDiscarded',
  'InvoiceAttachmentAdded',
  'InvoiceAttachmentRemoved',
  'InvoiceSubmitted',
  'InvoiceAcknowledged',
  'InvoiceVerified',
  'InvoiceBookingRequested',
  'InvoiceErpRequestSubmitted',
  'InvoiceErpCallFailed',
  'InvoiceErpRefused',
  'InvoiceBooked',
  'InvoiceReleased',
  'InvoiceRejected',
  'InvoiceRevoked',
  'InvoiceSlaBreached',
] as const satisfies readonly InvoiceEvent['type'][];

export type InvoiceNumberReserved = DomainEvent<'InvoiceNumberReserved', { baId: string; financialYear: string; invoiceNumber: string; invoiceId: string }>;

/** Status codes exactly as the spec writes them, plus the draft's own two. */
export type InvoiceStatus = 'draft' | 'S' | 'A' | 'V' | 'B' | 'P' | 'C' | 'R' | 'discarded';
export const INVOICE_STATUSES: readonly InvoiceStatus[] = ['draft', 'S', 'A', 'V', 'B', 'P', 'C', 'R', 'discarded'];
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  S: 'Submitted',
  A: 'Acknowledged',
  V: 'Verified',
  B: 'Booked',
  P: 'Released',
  C: 'Rejected',
  R: 'Revoked',
  discarded: 'Discarded',
};

export const INVOICE_STREAM_PREFIX = 'invoice-';
export const INVOICE_NUMBER_STREAM_PREFIX = 'invoice-number-';
export const invoiceStreamId = (invoiceId: string): string => `${INVOICE_STREAM_PREFIX}${invoiceId}`;
/** `key` = first 24 hex of sha256(upper(trim(invoiceNumber))), see `invoiceNumberKey` (needs a hash, so computed outside). */
export const invoiceNumberStreamId = (baId: string, financialYear: string, key: string): string =>
  `${INVOICE_NUMBER_STREAM_PREFIX}${baId}-${financialYear}-${key}`;
/** The normalised number the duplicate rule compares (case-insensitive, trimmed). */
export const normaliseInvoiceNumber = (invoiceNumber: string): string => invoiceNumber.trim().toUpperCase();

/** SLA per status (spec 001): Submitted 2 days, Acknowledged 3, Verified 3, Booked 5. */
const DAY_MS = 86_400_000;
export const INVOICE_SLA_MS: Partial<Record<InvoiceStatus, number>> = { S: 2 * DAY_MS, A: 3 * DAY_MS, V: 3 * DAY_MS, B: 5 * DAY_MS };
