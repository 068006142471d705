import type { BlockEvent } from '../../../domain/src/block/events';
import { BLOCK_STREAM_PREFIX } from '../../../domain/src/block/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { ActivityRecord } from '../activity-log/activity-log.projection';

/** How a block event reads on the BA's activity log: what, its status and remarks; null = not on the log. */
export function describeBlockEvent(event: BlockEvent): { what: string; status: string; remarks: string | null } | null {
  switch (event.type) {
    case 'BlockRequested': {
      const d = event.data;
      const verb = d.action === 'block' ? 'Block' : 'Unblock';
      const until = d.endDate ? ` until ${d.endDate}` : '';
      return {
        what: `${verb} of vendor code ${d.scope.vendorCode} (${d.scope.level}, company code ${d.scope.companyCode}) requested${until}: ${d.reason}`,
        status: 'submitted',
        remarks: d.comments,
      };
    }
    case 'BlockApproved':
      return { what: 'Block/unblock request approved', status: 'approved', remarks: null };
    case 'BlockRejected':
      return { what: 'Block/unblock request rejected', status: 'rejected', remarks: event.data.remarks };
    case 'ErpRequestRefused':
      return { what: 'Block/unblock refused by SAP', status: 'rejected', remarks: event.data.message };
    case 'BlockApplied':
      return {
        what: `Vendor code ${event.data.vendorCode} ${event.data.action === 'block' ? 'blocked' : 'unblocked'} in SAP`,
        status: event.data.action === 'block' ? 'blocked' : 'unblocked',
        remarks: event.data.message,
      };
    case 'BlockEnded':
      return { what: `Block end date ${event.data.endDate} reached${event.data.unblock ? ': unblocking' : ''}`, status: 'expired', remarks: null };
    // ERP plumbing (submissions, outages) stays on the request's own page (GET /api/blocks/:id: waitingForErp, lastErpError).
    case 'ErpRequestSubmitted':
    case 'ErpCallFailed':
      return null;
    default:
      return null;
  }
}

/** Block events of a BA (those carrying a baId; a nucleus vendor has no BA log) as activity-log entries on the BA. */
export function blockActivityEntries(events: readonly StoredEvent[]): ActivityRecord[] {
  const out: ActivityRecord[] = [];
  for (const e of events) {
    if (!e.streamId.startsWith(BLOCK_STREAM_PREFIX)) continue;
    const event = { type: e.type, data: e.data } as BlockEvent;
    const baId = (event.data as { baId?: unknown } | null)?.baId;
    if (typeof baId !== 'string') continue;
    const described = describeBlockEvent(event);
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
