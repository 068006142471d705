import type { PoolClient } from 'pg';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { onboardingEventsByBa } from '../onboarding-events';
import type { Projection, TableNames } from '../projection';
import { insertNew } from '../sql';

/**
 * Per BA, one readable line per event (what auditors replay): who did what, when, in which role, with the
 * before/after of changed fields and the remarks. Keyed by global position, so re-applying inserts nothing.
 */
export type ActivityRecord = {
  id: number;
  ba_id: string;
  company_code: string | null;
  at: string;
  actor_user_id: string;
  actor_name: string | null;
  role: string;
  action: string;
  changes: Record<string, { before: unknown; after: unknown }> | null;
  remarks: string | null;
  event_id: string;
  event_type: string;
  stream_version: number;
};

const COLUMNS = [
  { name: 'id', type: 'bigint' },
  { name: 'ba_id', type: 'text' },
  { name: 'company_code', type: 'text' },
  { name: 'at', type: 'timestamptz' },
  { name: 'actor_user_id', type: 'text' },
  { name: 'actor_name', type: 'text' },
  { name: 'role', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'changes', type: 'jsonb' },
  { name: 'remarks', type: 'text' },
  { name: 'event_id', type: 'uuid' },
  { name: 'event_type', type: 'text' },
  { name: 'stream_version', type: 'integer' },
] as const satisfies readonly { name: keyof ActivityRecord; type: string }[];

export function actionOf(event: OnboardingEvent): { action: string; remarks: string | null } {
  switch (event.type) {
    case 'BusinessAssociateCreated':
      return { action: 'Registered', remarks: null };
    case 'CompanyDetailsSaved':
      return { action: 'Company details saved', remarks: null };
    case 'OnboardingSubmitted':
      return event.data.resubmission
        ? { action: `Resubmitted for verification (submission ${event.data.submission})`, remarks: null }
        : { action: 'Submitted for verification', remarks: null };
    case 'ReviewStageApproved':
      return { action: `Stage ${event.data.stage} approved`, remarks: event.data.remarks };
    case 'BusinessAssociateVerified':
      return { action: 'Verified', remarks: null };
    case 'OnboardingRejected':
      return { action: `Rejected at stage ${event.data.stage}`, remarks: event.data.remarks };
    case 'ReviewOverdue':
      return { action: `Review overdue at stage ${event.data.stage}`, remarks: null };
  }
}

const schema = (t: TableNames): string => {
  const log = t('activity_log');
  return `
CREATE TABLE IF NOT EXISTS ${log} (
  id bigint NOT NULL,
  ba_id text NOT NULL,
  company_code text,
  at timestamptz NOT NULL,
  actor_user_id text NOT NULL,
  actor_name text,
  role text NOT NULL,
  action text NOT NULL,
  changes jsonb,
  remarks text,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  stream_version integer NOT NULL,
  CONSTRAINT ${log}_pkey PRIMARY KEY (id)
);
CREATE INDEX IF NOT EXISTS ${log}_ba_idx ON ${log} (ba_id, id);
-- The auditors' search across BAs filters and orders by time (GET /api/audit/activity).
CREATE INDEX IF NOT EXISTS ${log}_at_idx ON ${log} (at, id);`;
};

async function apply(client: PoolClient, events: readonly StoredEvent[], t: TableNames): Promise<void> {
  const rows: ActivityRecord[] = [];
  for (const [baId, list] of onboardingEventsByBa(events)) {
    for (const { stored, event } of list) {
      const { action, remarks } = actionOf(event);
      const { actor } = stored.metadata;
      rows.push({
        id: stored.globalPosition,
        ba_id: baId,
        company_code:
          event.type === 'BusinessAssociateCreated' ? event.data.companyCode : (stored.metadata.companyCode ?? null),
        at: stored.metadata.at,
        actor_user_id: actor.userId,
        actor_name: actor.name ?? null,
        role: actor.role,
        action,
        changes: event.type === 'CompanyDetailsSaved' ? event.data.changes : null,
        remarks,
        event_id: stored.eventId,
        event_type: stored.type,
        stream_version: stored.version,
      });
    }
  }
  await insertNew(client, t('activity_log'), COLUMNS, rows, 'id');
}

export const activityLogProjection: Projection = {
  name: 'activity_log',
  tables: ['activity_log'],
  schema,
  apply,
};
