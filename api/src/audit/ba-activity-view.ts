import { isBaRole, SYSTEM_ROLE } from '../../../domain/src/identity/roles';
import type { ActivityRow } from '../../../projections/src/activity-log/activity-log.queries';

/**
 * The activity log as a BA's own users read it (issue 6): staff and auditors see every entry as recorded;
 * a BA sees what happened to its application without the organisation's internals.
 *
 * - Entries of the BA's own users (a BA role on its own stream) stay whole.
 * - Staff are shown as the organisation ("MLL"), with the review stage where the entry is a stage decision;
 *   never a person's name or user id. System entries (timers, registration) are shown as "System".
 * - Rejection remarks are addressed to the BA and stay: the application's (on its status page), an item's (a
 *   bank account, document, concession or the vertical mapping, which it fixes and resubmits) and a change
 *   request's. Every other remark of staff (approval notes) is internal and is left out.
 * - Internal-only entries (the SLA overdue marks) are left out altogether, before paging, so the total matches.
 */
export const BA_HIDDEN_EVENT_TYPES: readonly string[] = ['ReviewOverdue'];

/** Sorting by a hidden value would order rows by it: a BA sorts by position, time or action only. */
export const BA_ACTIVITY_SORT_FIELDS = ['id', 'at', 'action'] as const;

export const ORGANISATION = 'MLL';
export const SYSTEM_NAME = 'System';

const stageOf = (action: string): string | null => /\bstage (\d)\b/i.exec(action)?.[1] ?? null;

export function baViewOf(entry: ActivityRow): ActivityRow {
  if (isBaRole(entry.role)) return entry;
  const system = entry.role === SYSTEM_ROLE;
  const stage = entry.eventType === 'ReviewStageApproved' || entry.eventType === 'OnboardingRejected' ? stageOf(entry.action) : null;
  return {
    ...entry,
    actorUserId: '',
    actorName: system ? SYSTEM_NAME : ORGANISATION,
    role: system ? SYSTEM_NAME : stage ? `${ORGANISATION} stage ${stage} review` : ORGANISATION,
    remarks: entry.status === 'rejected' ? entry.remarks : null,
  };
}
