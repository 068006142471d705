import { invoiceMessages, MAX_INVOICE_ATTACHMENT_BYTES, MAX_INVOICE_ATTACHMENTS } from '../../../domain/src/invoices/messages';
import { acceptOf, extensionOf, kindRule, uploadMessages } from '../../../domain/src/validation/files';

/** Spec 001 §5 / §9: the invoice attachments' kind (domain/src/validation/files.ts), 5 MB each, up to 5. */
const KIND = 'invoiceAttachment';
export const MAX_INVOICE_FILE_BYTES = MAX_INVOICE_ATTACHMENT_BYTES;
export const MAX_INVOICE_FILES = MAX_INVOICE_ATTACHMENTS;

/** For the file input's `accept`. */
export const INVOICE_ACCEPT = acceptOf(KIND);

/**
 * Why a file may not be attached, or null: the checks the browser can make (the API also checks the bytes).
 * `attached`: how many the invoice already has.
 */
export function attachmentProblem(file: Pick<File, 'name' | 'size'>, attached: number): string | null {
  const ext = extensionOf(file.name);
  const rule = kindRule(KIND);
  if (!ext || !rule.extensions.includes(ext)) return rule.message;
  if (attached >= MAX_INVOICE_FILES) return invoiceMessages.tooManyFiles;
  if (file.size > MAX_INVOICE_FILE_BYTES) return uploadMessages.tooLarge(MAX_INVOICE_FILE_BYTES);
  return null;
}
