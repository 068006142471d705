import type { InvoiceStatus } from './events';
import { INVOICE_STATUS_LABELS } from './events';

/** Every text of the invoice capability (spec 001 §5 verbatim where it gives one; the contract's otherwise). */
export const invoiceMessages = {
  saved: 'Invoice Saved successfully',
  submitted: 'Invoice submitted successfully',
  discarded: 'Invoice Discarded successfully',
  acknowledged: 'Invoice acknowledged',
  verified: 'Invoice verified',
  booked: 'Invoice booked',
  bookingRequested: 'Booking requested; waiting for ERP',
  released: 'Invoice released',
  rejected: 'Invoice rejected',
  revoked: 'Invoice revoked',
  fileUploaded: 'File uploaded successfully',
  fileDeleted: 'File deleted successfully',
  alreadyExists: 'Invoice already exists',
  duplicate: 'Duplicate Invoice',
  hsn: 'Please enter a valid HSN code',
  taxableZero: 'Taxable amount must be greater than zero',
  amount: 'Please enter a valid amount',
  invoiceDateRequired: 'Invoice date is required',
  invoiceDateWindow: 'Invoice date must be within the last 61 days',
  invoiceNumberRequired: 'Please enter the invoice number',
  commentsRequired: 'Please enter comments',
  submitToRequired: 'Please select whom to submit to',
  submitToInvalid: 'Please select an MLL Commercial user of the company code',
  billingFromRequired: 'Please select the billing from vendor code',
  billingFromInvalid: 'Please select one of your vendor codes',
  billingFromState: 'You may only bill from the vendor code of your GST state',
  billingToRequired: 'Please select the billing to location',
  billingToInvalid: 'Please select a valid location',
  numberChanged: 'The invoice number cannot be changed',
  remarks: 'Please enter remarks',
  tooManyFiles: 'You can attach up to 5 files',
  invalidFileType: 'Invalid file type selected.',
  attachmentNotFound: 'Attachment not found',
  notFound: 'Invoice not found',
  vendorBlocked: 'Your vendor code is blocked. You cannot submit invoices',
  paymentsOnHold: 'Payments to this BA are on hold',
  releaseBlocked: 'The vendor is blocked',
  forbidden: 'You may not perform this action on the invoice',
  invalid: 'Please correct the highlighted fields',
} as const;

export const notAllowedMessage = (status: InvoiceStatus): string =>
  `This action is not allowed when the invoice is ${INVOICE_STATUS_LABELS[status]}`;

/** Upload help text shown next to the attachment picker (contract "Front ends", verbatim). */
export const INVOICE_UPLOAD_HINT = 'PDF, JPEG, JPG, TIFF, PNG, BMP, xls, xlsx, doc, docx, max 5MB each, up to 5 files';
export const MAX_INVOICE_ATTACHMENTS = 5;
export const MAX_INVOICE_ATTACHMENT_BYTES = 5 * 1024 * 1024;
