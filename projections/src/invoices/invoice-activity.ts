import type { StoredEvent } from '../../../domain/src/shared/events';
import type { ActivityRecord } from '../activity-log/activity-log.projection';
import { isInvoiceStream } from './invoice-events';

/**
 * How an invoice event reads on the BA's activity log: what, its status and remarks; null = not on the log.
 * Only the steps of the lifecycle are there (submitted, acknowledged, verified, booked, released, rejected,
 * revoked); drafts, files and the ERP plumbing stay on the invoice's own history (GET /api/invoices/:id).
 * Events after the submission carry only ids, so only the submission names the invoice number.
 */
export function describeInvoiceEvent(stored: StoredEvent): { what: string; status: string; remarks: string | null } | null {
  const d = (stored.data ?? {}) as Record<string, unknown>;
  switch (stored.type) {
    case 'InvoiceSubmitted': {
      const again = d['resubmission'] === true ? ' again' : '';
      const code = typeof d['companyCode'] === 'string' ? ` (company code ${d['companyCode']})` : '';
      return { what: `Invoice ${String(d['invoiceNumber'] ?? '')} submitted${again}${code}`, status: 'submitted', remarks: null };
    }
    case 'InvoiceAcknowledged':
      return { what: 'Invoice acknowledged', status: 'acknowledged', remarks: null };
    case 'InvoiceVerified':
      return { what: 'Invoice verified', status: 'verified', remarks: null };
    case 'InvoiceBooked':
      return { what: `Invoice booked in SAP (document ${String(d['erpDocumentNumber'] ?? '')})`, status: 'booked', remarks: null };
    case 'InvoiceReleased':
      return { what: 'Invoice payment released', status: 'released', remarks: null };
    case 'InvoiceRejected':
      return { what: 'Invoice rejected', status: 'rejected', remarks: typeof d['remarks'] === 'string' ? d['remarks'] : null };
    case 'InvoiceRevoked':
      return { what: 'Invoice revoked', status: 'revoked', remarks: typeof d['remarks'] === 'string' ? d['remarks'] : null };
    default:
      return null;
  }
}

/** Invoice events of a BA as activity-log entries on the BA (keyed by global position, like every entry). */
export function invoiceActivityEntries(events: readonly StoredEvent[]): ActivityRecord[] {
  const out: ActivityRecord[] = [];
  for (const e of events) {
    if (!isInvoiceStream(e.streamId)) continue;
    const baId = (e.data as { baId?: unknown } | null)?.baId;
    if (typeof baId !== 'string') continue;
    const described = describeInvoiceEvent(e);
    if (!described) continue;
    const { actor } = e.metadata;
    out.push({
      id: e.globalPosition,
      ba_id: baId,
      company_code: e.metadata.companyCode ?? null,
      at: e.metadata.at,
      actor_user_id: actor.userId,
      actor_name: actor.name ?? null,
      role: actor.role,
      action: described.what,
      status: described.status,
      changes: null,
      remarks: described.remarks,
      event_id: e.eventId,
      event_type: e.type,
      stream_version: e.version,
    });
  }
  return out;
}
