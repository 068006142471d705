import type { InvoiceAttachment, InvoiceRecord, InvoiceStatus } from './events';

/**
 * Commands on `invoice-<invoiceId>`. What needs I/O (names and states resolved from the masters and read
 * models, the duplicate look-up, blocked and payment-hold flags) is done by the activity before deciding and
 * arrives on the command, so the decider stays pure.
 */
type BaCommand = {
  /** The BA of the caller (null for staff); a BA acts on its own invoices only. */
  actorBaId: string | null;
};
type Edit = BaCommand & {
  record: InvoiceRecord;
  /** A child Bill-Hub user may bill only from the child vendor code of this GST state. */
  billHubStateId: number | null;
  /** Another invoice of the BA in the same financial year already has this number (draft-time check). */
  numberTaken: boolean;
  vendorBlocked: boolean;
};

export type CreateInvoiceDraft = Edit & { type: 'CreateInvoiceDraft'; invoiceId: string; baId: string };
export type SaveInvoiceDraft = Edit & { type: 'SaveInvoiceDraft' };
export type DiscardInvoice = BaCommand & { type: 'DiscardInvoice' };
export type AddInvoiceAttachment = BaCommand & { type: 'AddInvoiceAttachment'; attachment: InvoiceAttachment };
export type RemoveInvoiceAttachment = BaCommand & { type: 'RemoveInvoiceAttachment'; attachmentId: string };
/** `record`: the fields as they are submitted (the saved ones, or the body's, saved with the submission). */
export type SubmitInvoice = Edit & { type: 'SubmitInvoice' };
export type AcknowledgeInvoice = { type: 'AcknowledgeInvoice' };
export type VerifyInvoice = { type: 'VerifyInvoice' };
export type RequestInvoiceBooking = { type: 'RequestInvoiceBooking' };
export type RecordInvoiceErpSubmitted = { type: 'RecordInvoiceErpSubmitted'; requestKey: string; erpRequestId: string };
export type RecordInvoiceErpCallFailed = { type: 'RecordInvoiceErpCallFailed'; requestKey: string; error: string; attempt: number; retryAt: string };
export type RecordInvoiceErpRefused = { type: 'RecordInvoiceErpRefused'; message: string };
export type RecordInvoiceBooked = { type: 'RecordInvoiceBooked'; erpDocumentNumber: string };
export type ReleaseInvoice = { type: 'ReleaseInvoice'; paymentsOnHold: boolean; vendorBlocked: boolean };
export type RejectInvoice = { type: 'RejectInvoice'; remarks: string };
export type RevokeInvoice = BaCommand & { type: 'RevokeInvoice'; remarks: string | null };
/** The SLA timer of `status` entered at `since` fired (system actor). */
export type RecordInvoiceSlaBreach = { type: 'RecordInvoiceSlaBreach'; status: InvoiceStatus; since: string; dueAt: string };

export type InvoiceCommand =
  | CreateInvoiceDraft
  | SaveInvoiceDraft
  | DiscardInvoice
  | AddInvoiceAttachment
  | RemoveInvoiceAttachment
  | SubmitInvoice
  | AcknowledgeInvoice
  | VerifyInvoice
  | RequestInvoiceBooking
  | RecordInvoiceErpSubmitted
  | RecordInvoiceErpCallFailed
  | RecordInvoiceErpRefused
  | RecordInvoiceBooked
  | ReleaseInvoice
  | RejectInvoice
  | RevokeInvoice
  | RecordInvoiceSlaBreach;

/** The user-facing actions (what `allowedActions` lists and the API routes are called). */
export type InvoiceAction =
  | 'edit'
  | 'submit'
  | 'discard'
  | 'attach'
  | 'acknowledge'
  | 'verify'
  | 'book'
  | 'release'
  | 'reject'
  | 'revoke';
