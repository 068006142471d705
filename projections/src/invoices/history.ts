import type { StoredEvent } from '../../../domain/src/shared/events';
import { INVOICE_STATUS_LABELS, type InvoiceStatus } from './invoice-events';

/** One line of an invoice's history (GET /api/invoices/:id): who moved it to which status, when, and why. */
export type InvoiceHistoryEntry = {
  status: InvoiceStatus;
  label: string;
  at: string;
  by: { userId: string; name: string | null; role: string };
  remarks: string | null;
};

/** The status each event puts the invoice in; events that change no status are not history (edits, files, ERP plumbing). */
const STATUS_OF: Record<string, InvoiceStatus> = {
  InvoiceDrafted: 'draft',
  InvoiceDiscarded: 'discarded',
  InvoiceSubmitted: 'S',
  InvoiceAcknowledged: 'A',
  InvoiceVerified: 'V',
  InvoiceBooked: 'B',
  InvoiceReleased: 'P',
  InvoiceRejected: 'C',
  InvoiceRevoked: 'R',
};

/**
 * The invoice's history from its own stream, oldest first. An ERP refusal is listed too (the status stays
 * Verified; the remarks carry the ERP's message) because accounts must see why the booking did not happen.
 */
export function invoiceHistory(events: readonly StoredEvent[]): InvoiceHistoryEntry[] {
  const out: InvoiceHistoryEntry[] = [];
  for (const e of events) {
    const data = (e.data ?? {}) as { remarks?: unknown; message?: unknown; resubmission?: unknown };
    const status = e.type === 'InvoiceErpRefused' ? 'V' : STATUS_OF[e.type];
    if (!status) continue;
    const { actor } = e.metadata;
    const remarks =
      typeof data.remarks === 'string' && data.remarks !== ''
        ? data.remarks
        : e.type === 'InvoiceErpRefused' && typeof data.message === 'string'
          ? `Refused by the ERP: ${data.message}`
          : e.type === 'InvoiceSubmitted' && data.resubmission === true
            ? 'Submitted again after correction'
            : null;
    out.push({
      status,
      label: INVOICE_STATUS_LABELS[status],
      at: e.metadata.at,
      by: { userId: actor.userId, name: actor.name ?? null, role: actor.role },
      remarks,
    });
  }
  return out;
}
