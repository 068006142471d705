import type { PoolClient } from 'pg';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { onboardingEventsByBa, type OnboardingItem } from '../onboarding-events';
import type { Projection, TableNames } from '../projection';
import { insertNew, upsertRows } from '../sql';
import { describeVendorCodeEvent } from '../../../domain/src/vendor-code/describe';
import type { VendorCodeEvent } from '../../../domain/src/vendor-code/events';
import { isVendorCodeEvent } from '../vendor-codes/vendor-codes.projection';
import { blockActivityEntries } from '../blocks/block-activity';
import { invoiceActivityEntries } from '../invoices/invoice-activity';

/** ERP plumbing stays in the vendor code's own history (GET /api/vendor-codes/:id/history), not the BA's log. */
const VENDOR_CODE_LOG_SKIPS: ReadonlySet<string> = new Set(['ErpRequestSubmitted', 'ErpCallFailed', 'ErpRequestCompleted']);
const VENDOR_CODE_STATUS: Record<string, string> = {
  ParentCodeRequested: 'submitted',
  ChildCodeRequested: 'submitted',
  ParentCodeAssigned: 'created',
  ChildCodeAssigned: 'created',
  VendorCategoryApproved: 'approved',
  VendorCategoryRejected: 'rejected',
  VendorCodeRequestRejected: 'rejected',
  ErpRequestRefused: 'rejected',
};

/** The BA's vendor-code events (issue 9) as activity-log entries on the BA (labels from describeVendorCodeEvent). */
function vendorCodeEntries(events: readonly StoredEvent[]): ActivityRecord[] {
  const out: ActivityRecord[] = [];
  for (const e of events) {
    if (!isVendorCodeEvent(e) || VENDOR_CODE_LOG_SKIPS.has(e.type)) continue;
    const event = { type: e.type, data: e.data } as VendorCodeEvent;
    const { what, detail } = describeVendorCodeEvent(event);
    const { actor } = e.metadata;
    out.push({
      id: e.globalPosition,
      ba_id: event.data.baId,
      company_code: event.data.companyCode,
      at: e.metadata.at,
      actor_user_id: actor.userId,
      actor_name: actor.name ?? null,
      role: actor.role,
      action: what,
      status: VENDOR_CODE_STATUS[e.type] ?? 'updated',
      changes: null,
      // Internal remarks of a rejection not sent to the BA stay out of the BA's log.
      remarks: event.type === 'VendorCodeRequestRejected' && !event.data.sendToBa ? null : detail,
      event_id: e.eventId,
      event_type: e.type,
      stream_version: e.version,
    });
  }
  return out;
}

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
  /** What the event did (statusOf): the log's status filter. */
  status: string | null;
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
  { name: 'status', type: 'text' },
  { name: 'changes', type: 'jsonb' },
  { name: 'remarks', type: 'text' },
  { name: 'event_id', type: 'uuid' },
  { name: 'event_type', type: 'text' },
  { name: 'stream_version', type: 'integer' },
] as const satisfies readonly { name: keyof ActivityRecord; type: string }[];

/** What an event says about an item it names by id only (a review, a deletion): kept per BA while folding. */
export type ItemLabels = Map<string, string>;

const last4 = (accountNo: string) => `…${accountNo.slice(-4)}`;
const withCode = (companyCode: string | undefined) => (companyCode ? ` (company code ${companyCode})` : '');

/**
 * The entry's readable description and remarks. `labels` names items events refer to by id (a document's
 * type, an account's last digits), as the uploads and saves before them described them; the fold keeps it
 * current (see apply).
 */
export function actionOf(event: OnboardingEvent, labels: ItemLabels = new Map()): { action: string; remarks: string | null } {
  // "Document PAN Card", or just "Document" for an item whose save this log never saw.
  const named = (kind: string, id: string) => (labels.has(id) ? `${kind} ${labels.get(id)}` : kind);
  switch (event.type) {
    case 'BusinessAssociateCreated':
      return { action: 'Registered', remarks: null };
    case 'CompanyDetailsSaved':
      return { action: 'Company details saved', remarks: null };
    case 'OnboardingSubmitted':
      return event.data.resubmission
        ? { action: `Resubmitted for verification (submission ${event.data.submission})${withCode(event.data.companyCode)}`, remarks: null }
        : { action: `Submitted for verification${withCode(event.data.companyCode)}`, remarks: null };
    case 'ReviewStageApproved':
      return { action: `Stage ${event.data.stage} approved${withCode(event.data.companyCode)}`, remarks: event.data.remarks };
    case 'BusinessAssociateVerified':
      return { action: `Verified${withCode(event.data.companyCode)}`, remarks: null };
    case 'OnboardingRejected':
      return { action: `Rejected at stage ${event.data.stage}${withCode(event.data.companyCode)}`, remarks: event.data.remarks };
    case 'ReviewOverdue':
      return { action: `Review overdue at stage ${event.data.stage}`, remarks: null };
    case 'BankAccountSaved': {
      const kind = event.data.primary ? 'Primary bank account' : 'Bank account';
      const verb = labels.has(event.data.accountId) ? 'updated' : 'added';
      return { action: `${kind} ${verb} (${last4(event.data.account.accountNo)})`, remarks: null };
    }
    case 'BankAccountDeleted':
      return { action: `${named('Bank account', event.data.accountId)} deleted`, remarks: null };
    case 'BankAccountReviewed':
      return { action: `${named('Bank account', event.data.accountId)} ${event.data.decision}`, remarks: event.data.remarks };
    case 'GstRegistrationSaved': {
      const verb = labels.has(event.data.gstId) ? 'updated' : 'added';
      const gst = event.data.registration.gstNo ?? 'not registered';
      return { action: `Place of business ${verb} (GSTIN ${gst})`, remarks: null };
    }
    case 'GstRegistrationDeleted':
      return { action: `${named('Place of business', event.data.gstId)} deleted`, remarks: null };
    case 'DocumentUploaded': {
      const name = event.data.document.documentTypeName;
      const kind = event.data.document.kind === 'additional' ? 'Additional document' : 'Document';
      return { action: `${kind} ${name} ${event.data.replaces ? 'replaced' : 'uploaded'}`, remarks: null };
    }
    case 'DocumentDeleted':
      return { action: `${named('Document', event.data.docId)} deleted`, remarks: null };
    case 'DocumentReviewed': {
      const till = event.data.decision === 'approved' && event.data.approvedTill ? ` till ${event.data.approvedTill}` : '';
      return {
        action: `${named('Document', event.data.docId)} ${event.data.decision}${till}`,
        remarks: event.data.remarks,
      };
    }
    case 'DocumentExpiryReminded':
      return {
        action:
          event.data.daysBefore === 0
            ? `Expiry reminder: ${event.data.documentTypeName} expires today (${event.data.validTill})`
            : `Expiry reminder: ${event.data.documentTypeName} expires in ${event.data.daysBefore} days (${event.data.validTill})`,
        remarks: null,
      };
    case 'DocumentExpired':
      return { action: `Document ${event.data.documentTypeName} expired (valid till ${event.data.validTill})`, remarks: null };
    case 'ConcessionSaved': {
      const verb = labels.has(event.data.concessionId) ? 'updated' : 'added';
      const by = event.data.concession.isInternalUpload ? ' by staff' : '';
      return { action: `Concession ${event.data.concession.exemptionNumber} ${verb}${by}`, remarks: null };
    }
    case 'ConcessionDeleted':
      return { action: `${named('Concession', event.data.concessionId)} deleted`, remarks: null };
    case 'ConcessionReviewed':
      return {
        action: `${named('Concession', event.data.concessionId)} ${event.data.decision}`,
        remarks: event.data.remarks,
      };
    case 'VerticalMappingSaved':
      return { action: 'Vertical mapping saved', remarks: null };
    case 'VerticalMappingReviewed':
      return { action: `Vertical mapping ${event.data.decision}`, remarks: event.data.remarks };
    case 'CompanyCodeApplied':
      return { action: `Applied for company code ${event.data.companyCode}`, remarks: null };
    case 'ChangeRequestRaised':
      return {
        action: `Change request raised (${event.data.section === 'bank' ? 'bank account' : 'company details'})`,
        remarks: null,
      };
    case 'ChangeRequestApproved':
      return { action: event.data.final ? 'Change request approved' : 'Change request approved (first of two approvals)', remarks: null };
    case 'ChangeRequestRejected':
      return { action: 'Change request rejected', remarks: event.data.remarks };
    case 'PaymentsHeld':
      return { action: 'Payments on hold', remarks: event.data.reason };
    case 'PaymentsReleased':
      return { action: 'Payments released', remarks: null };
  }
}

/**
 * The entry's status, the activity log's status filter: what the event did, in a few words the console lists
 * (created, updated, deleted, submitted, approved, rejected, reminder, expired, overdue, on_hold, released).
 */
export function statusOf(event: OnboardingEvent, labels: ItemLabels = new Map()): string {
  switch (event.type) {
    case 'BusinessAssociateCreated':
    case 'CompanyCodeApplied':
    case 'ChangeRequestRaised':
      return 'created';
    case 'CompanyDetailsSaved':
    case 'VerticalMappingSaved':
      return 'updated';
    case 'BankAccountSaved':
      return labels.has(event.data.accountId) ? 'updated' : 'created';
    case 'GstRegistrationSaved':
      return labels.has(event.data.gstId) ? 'updated' : 'created';
    case 'ConcessionSaved':
      return labels.has(event.data.concessionId) ? 'updated' : 'created';
    case 'DocumentUploaded':
      return event.data.replaces ? 'updated' : 'created';
    case 'BankAccountDeleted':
    case 'GstRegistrationDeleted':
    case 'DocumentDeleted':
    case 'ConcessionDeleted':
      return 'deleted';
    case 'OnboardingSubmitted':
      return 'submitted';
    case 'ReviewStageApproved':
    case 'BusinessAssociateVerified':
    case 'ChangeRequestApproved':
      return 'approved';
    case 'OnboardingRejected':
    case 'ChangeRequestRejected':
      return 'rejected';
    case 'BankAccountReviewed':
    case 'DocumentReviewed':
    case 'ConcessionReviewed':
    case 'VerticalMappingReviewed':
      return event.data.decision;
    case 'DocumentExpiryReminded':
      return 'reminder';
    case 'DocumentExpired':
      return 'expired';
    case 'ReviewOverdue':
      return 'overdue';
    case 'PaymentsHeld':
      return 'on_hold';
    case 'PaymentsReleased':
      return 'released';
  }
}

export const ACTIVITY_STATUSES = [
  'created',
  'updated',
  'deleted',
  'submitted',
  'approved',
  'rejected',
  'reminder',
  'expired',
  'overdue',
  'on_hold',
  'released',
] as const;

/** The item an event names and how later entries should call it; null for events about no single item. */
function labelOf(event: OnboardingEvent): { id: string; label: string } | null {
  switch (event.type) {
    case 'BankAccountSaved':
      return { id: event.data.accountId, label: last4(event.data.account.accountNo) };
    case 'GstRegistrationSaved':
      return { id: event.data.gstId, label: `(GSTIN ${event.data.registration.gstNo ?? 'not registered'})` };
    case 'DocumentUploaded':
      return { id: event.data.docId, label: event.data.document.documentTypeName };
    case 'ConcessionSaved':
      return { id: event.data.concessionId, label: event.data.concession.exemptionNumber };
    default:
      return null;
  }
}

/** The item ids an event refers to (their labels are read before the page is folded). */
function referencedIds(event: OnboardingEvent): string[] {
  const data = event.data as Record<string, unknown>;
  return ['accountId', 'gstId', 'docId', 'concessionId', 'replaces']
    .map((k) => data[k])
    .filter((v): v is string => typeof v === 'string');
}

/** Field changes an event records (saves of the company details and of the items), null when none. */
function changesOf(event: OnboardingEvent): Record<string, { before: unknown; after: unknown }> | null {
  const data = event.data as { changes?: Record<string, { before: unknown; after: unknown }> };
  if (event.type === 'CompanyDetailsSaved') return event.data.changes;
  return data.changes && Object.keys(data.changes).length > 0 ? data.changes : null;
}

const schema = (t: TableNames): string => {
  const log = t('activity_log');
  const labels = t('activity_item_labels');
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
CREATE INDEX IF NOT EXISTS ${log}_at_idx ON ${log} (at, id);
-- Issue 8 (a rebuild fills it for entries recorded before).
ALTER TABLE ${log} ADD COLUMN IF NOT EXISTS status text;
CREATE TABLE IF NOT EXISTS ${labels} (
  ba_id text NOT NULL,
  item_id text NOT NULL,
  label text NOT NULL,
  version integer NOT NULL,
  CONSTRAINT ${labels}_pkey PRIMARY KEY (ba_id, item_id)
);`;
};

type LabelRow = { ba_id: string; item_id: string; label: string; version: number };
const LABEL_COLUMNS = [
  { name: 'ba_id', type: 'text' },
  { name: 'item_id', type: 'text' },
  { name: 'label', type: 'text' },
  { name: 'version', type: 'integer' },
] as const satisfies readonly { name: keyof LabelRow; type: string }[];

/** The stored labels of the items this page's events refer to, per BA. */
async function loadLabels(
  client: PoolClient,
  table: string,
  byBa: ReadonlyMap<string, readonly OnboardingItem[]>,
): Promise<Map<string, ItemLabels>> {
  const bas: string[] = [];
  const items: string[] = [];
  for (const [baId, list] of byBa)
    for (const { event } of list)
      for (const id of referencedIds(event)) {
        bas.push(baId);
        items.push(id);
      }
  const labels = new Map<string, ItemLabels>();
  if (items.length === 0) return labels;
  const { rows } = await client.query<LabelRow>(
    `SELECT l.ba_id, l.item_id, l.label FROM ${table} l
     JOIN unnest($1::text[], $2::text[]) AS x(ba_id, item_id) ON x.ba_id = l.ba_id AND x.item_id = l.item_id`,
    [bas, items],
  );
  for (const r of rows) {
    const map = labels.get(r.ba_id) ?? new Map<string, string>();
    map.set(r.item_id, r.label);
    labels.set(r.ba_id, map);
  }
  return labels;
}

async function apply(client: PoolClient, events: readonly StoredEvent[], t: TableNames): Promise<void> {
  const rows: ActivityRecord[] = [];
  const byBa = onboardingEventsByBa(events);
  const stored = await loadLabels(client, t('activity_item_labels'), byBa);
  const newLabels = new Map<string, LabelRow>();
  for (const [baId, list] of byBa) {
    const labels = stored.get(baId) ?? new Map<string, string>();
    for (const { stored: e, event } of list) {
      const { action, remarks } = actionOf(event, labels);
      const status = statusOf(event, labels);
      const { actor } = e.metadata;
      rows.push({
        id: e.globalPosition,
        ba_id: baId,
        company_code: event.type === 'BusinessAssociateCreated' ? event.data.companyCode : (e.metadata.companyCode ?? null),
        at: e.metadata.at,
        actor_user_id: actor.userId,
        actor_name: actor.name ?? null,
        role: actor.role,
        action,
        status,
        changes: changesOf(event),
        remarks,
        event_id: e.eventId,
        event_type: e.type,
        stream_version: e.version,
      });
      const named = labelOf(event);
      if (named) {
        labels.set(named.id, named.label);
        newLabels.set(`${baId}\u0000${named.id}`, { ba_id: baId, item_id: named.id, label: named.label, version: e.version });
      }
    }
  }
  rows.push(...vendorCodeEntries(events));
  rows.push(...blockActivityEntries(events));
  rows.push(...invoiceActivityEntries(events));
  await insertNew(client, t('activity_log'), COLUMNS, rows, 'id');
  const labelTable = t('activity_item_labels');
  await upsertRows(client, labelTable, LABEL_COLUMNS, [...newLabels.values()], {
    conflict: ['ba_id', 'item_id'],
    guard: `${labelTable}.version < excluded.version`,
  });
}

export const activityLogProjection: Projection = {
  name: 'activity_log',
  tables: ['activity_log', 'activity_item_labels'],
  schema,
  apply,
};
