import { INVOICE_STATUS_LABELS } from '../../../domain/src/invoices/events';
import { INVOICE_UPLOAD_HINT, invoiceMessages } from '../../../domain/src/invoices/messages';
import type { InvoiceStatus } from './types';

/**
 * Bill-Hub texts. The spec's are verbatim (001 §2, §5, §8); the API sends its own messages too, and the
 * screens show the server's text when there is one.
 */
export const billHubTexts = {
  listHeading: 'Bill-Hub Invoices',
  uploadWarning: INVOICE_UPLOAD_HINT,
  invalidFileType: invoiceMessages.invalidFileType,
  tooManyFiles: invoiceMessages.tooManyFiles,
  invoiceSaved: invoiceMessages.saved,
  invoiceDiscarded: invoiceMessages.discarded,
  invoiceSubmitted: invoiceMessages.submitted,
  invoiceRevoked: invoiceMessages.revoked,
  fileUploaded: invoiceMessages.fileUploaded,
  fileDeleted: invoiceMessages.fileDeleted,
  memoSubmitted: 'Memo submitted successfully.',
  discardConfirm: 'Discard this draft invoice? It cannot be recovered.',
  noRecords: 'No Records Available!!',
  saveFirst: 'Save the invoice before attaching files',
  chooseInvoices: 'Please select at least one invoice',
  chooseStates: 'Choose the billing-from and billing-to states to list the invoices you can put in a memo',
  rejectedBanner: 'This invoice was rejected. Correct it and resubmit.',
} as const;

/** Contract labels of the status codes (spec 001 §3), the domain's. */
export const STATUS_LABELS: Record<InvoiceStatus, string> = INVOICE_STATUS_LABELS;

/** The list's tabs, in the brief's order: All, Drafts, then each status a BA follows. */
export const LIST_TABS: { key: string; label: string; status: InvoiceStatus | null }[] = [
  { key: 'all', label: 'All', status: null },
  { key: 'draft', label: 'Drafts', status: 'draft' },
  { key: 'S', label: 'Submitted', status: 'S' },
  { key: 'A', label: 'Acknowledged', status: 'A' },
  { key: 'V', label: 'Verified', status: 'V' },
  { key: 'B', label: 'Booked', status: 'B' },
  { key: 'P', label: 'Released', status: 'P' },
  { key: 'C', label: 'Rejected', status: 'C' },
  { key: 'R', label: 'Revoked', status: 'R' },
];

/** What the BA may still change: a draft, or an invoice sent back (C). */
export const isEditable = (status: InvoiceStatus) => status === 'draft' || status === 'C';
