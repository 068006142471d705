import type { PoolClient } from 'pg';
import type { CompanyDetails } from '../../../domain/src/onboarding/details';
import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';
import { applyCountDeltas, insertNew, iso, moveCount, updateWhere, type CountDeltas } from '../sql';
import { onboardingEventsByBa, type OnboardingItem } from '../onboarding-events';

/**
 * The BA list (`business_associates`) and the console's sidebar badges (`ba_status_counts`, spec 000 §2
 * "Sidebars"). A page of events is folded per BA in memory, the changed rows are written back with one
 * statement per kind (new rows, rewritten rows) guarded by stream version, and the badge counts move by the
 * bucket changes of the rows those statements actually wrote, so a re-applied event changes neither a row
 * nor a count.
 */
export type BaStatus = 'pending' | 'inprogress' | 'verified' | 'rejected';

/** The badge buckets; a BA is in 'all' plus at most two others (pending_onboarding and its stage). */
export const BA_BUCKETS = [
  'all',
  'registered',
  'pending_onboarding',
  'first_stage',
  'second_stage',
  'verified',
  'rejected',
  // Issue 8: across statuses, a BA with a lapsed document not yet replaced by an approved one.
  'documents_expired',
] as const;
export type BaBucket = (typeof BA_BUCKETS)[number];

export type BaRecord = {
  id: string;
  company_code: string;
  status: BaStatus;
  stage: 1 | 2 | null;
  company_name: string | null;
  pan_number: string | null;
  contact_person_name: string | null;
  contact_person_mobile_number: string | null;
  city_id: number | null;
  state_id: number | null;
  service_id: number | null;
  details: CompanyDetails | null;
  submission: number;
  remarks: string | null;
  welcome_message: string | null;
  overdue: boolean;
  /** What the BA registered with: staff recognise a BA by these before it has filled anything in. */
  registered_email: string | null;
  registered_mobile: string | null;
  /** The BA Admin user created with the BA (staff start a contact change for it from the BA page). */
  admin_user_id: string | null;
  /*
   * Issue 8. `expired_docs`: each expired document still counting against the BA → the upload replacing it
   * (null until one is uploaded); it leaves the map when that replacement is approved (or the document is
   * deleted). `documents_expired` is "the map is not empty", stored so the list filters and counts by it.
   */
  expired_docs: Record<string, string | null>;
  documents_expired: boolean;
  payments_on_hold: boolean;
  /** The vertical mapping's vertical ids (text: the list filters with array containment on a GIN index). */
  vertical_ids: string[];
  /** The GST rows' states (gstId → stateId), and with the company's state the states the BA is located in. */
  gst_states: Record<string, number>;
  location_state_ids: string[];
  /** Open company-detail change requests (requestId → proposed fields), merged into the details once approved. */
  company_changes: Record<string, Partial<CompanyDetails>>;
  created_at: string;
  submitted_at: string | null;
  updated_at: string;
  version: number;
  last_position: number;
};

const COLUMNS = [
  { name: 'id', type: 'text' },
  { name: 'company_code', type: 'text' },
  { name: 'status', type: 'text' },
  { name: 'stage', type: 'smallint' },
  { name: 'company_name', type: 'text' },
  { name: 'pan_number', type: 'text' },
  { name: 'contact_person_name', type: 'text' },
  { name: 'contact_person_mobile_number', type: 'text' },
  { name: 'city_id', type: 'integer' },
  { name: 'state_id', type: 'integer' },
  { name: 'service_id', type: 'integer' },
  { name: 'details', type: 'jsonb' },
  { name: 'submission', type: 'integer' },
  { name: 'remarks', type: 'text' },
  { name: 'welcome_message', type: 'text' },
  { name: 'overdue', type: 'boolean' },
  { name: 'registered_email', type: 'text' },
  { name: 'registered_mobile', type: 'text' },
  { name: 'admin_user_id', type: 'text' },
  { name: 'expired_docs', type: 'jsonb' },
  { name: 'documents_expired', type: 'boolean' },
  { name: 'payments_on_hold', type: 'boolean' },
  { name: 'vertical_ids', type: 'text[]' },
  { name: 'gst_states', type: 'jsonb' },
  { name: 'location_state_ids', type: 'text[]' },
  { name: 'company_changes', type: 'jsonb' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'submitted_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
  { name: 'version', type: 'integer' },
  { name: 'last_position', type: 'bigint' },
] as const satisfies readonly { name: keyof BaRecord; type: string }[];

export function bucketsOf(row: Pick<BaRecord, 'status' | 'stage' | 'documents_expired'>): BaBucket[] {
  const byStatus = statusBucketsOf(row);
  return row.documents_expired ? [...byStatus, 'documents_expired'] : byStatus;
}

function statusBucketsOf(row: Pick<BaRecord, 'status' | 'stage'>): BaBucket[] {
  switch (row.status) {
    case 'pending':
      return ['all', 'registered'];
    case 'inprogress':
      return row.stage === 1
        ? ['all', 'pending_onboarding', 'first_stage']
        : row.stage === 2
          ? ['all', 'pending_onboarding', 'second_stage']
          : ['all', 'pending_onboarding'];
    case 'verified':
      return ['all', 'verified'];
    case 'rejected':
      return ['all', 'rejected'];
  }
}

/**
 * What the list's `q` search reads, as one text: company name, registered e-mail id and mobile number (a newline
 * between them, which no search crosses: the list still tests each column). One trigram index over it serves
 * the search's ILIKE '%…%' (business-associates.queries.ts uses this very expression, so the planner matches it).
 */
/**
 * Issue 12: `ba_facet_counts` counts BAs per company code, status bucket and list facet value (a vertical of
 * the vertical mapping, a state of location_state_ids), so the list's total for a vertical or location filter
 * (with a status or tab, within company codes) is a sum, not a count over every matching row. The same bucket
 * names as `ba_status_counts` (status buckets only: 'documents_expired' is a property filter, counted).
 */
export const BA_FACETS = { vertical: 'vertical_ids', location: 'location_state_ids' } as const;
export type BaFacet = keyof typeof BA_FACETS;

export const BA_SEARCH_TEXT = `(coalesce(company_name, '') || E'\\n' || coalesce(registered_email, '') || E'\\n' || coalesce(registered_mobile, ''))`;

const schema = (t: TableNames): string => {
  const ba = t('business_associates');
  const counts = t('ba_status_counts');
  const facets = t('ba_facet_counts');
  return `
CREATE TABLE IF NOT EXISTS ${ba} (
  id text NOT NULL,
  company_code text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'inprogress', 'verified', 'rejected')),
  stage smallint CHECK (stage IN (1, 2)),
  company_name text,
  pan_number text,
  contact_person_name text,
  contact_person_mobile_number text,
  city_id integer,
  state_id integer,
  service_id integer,
  details jsonb,
  submission integer NOT NULL DEFAULT 0,
  remarks text,
  welcome_message text,
  overdue boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  submitted_at timestamptz,
  updated_at timestamptz NOT NULL,
  version integer NOT NULL,
  last_position bigint NOT NULL,
  CONSTRAINT ${ba}_pkey PRIMARY KEY (id)
);
-- Added with the identity capability; ADD COLUMN keeps data folders made before it usable (a rebuild fills them).
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS registered_email text;
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS registered_mobile text;
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS admin_user_id text;
-- City, state and service names are the masters' (issue 7), looked up when a list is read: a renamed city
-- shows its new name, and a masters projection lagging behind this one cannot leave a name out for good.
ALTER TABLE ${ba} DROP COLUMN IF EXISTS city_name, DROP COLUMN IF EXISTS state_name, DROP COLUMN IF EXISTS service_name;
-- Sort indexes end in id, the list's tie-breaker: without it every page sorted all matching rows.
DROP INDEX IF EXISTS ${ba}_status_idx;
DROP INDEX IF EXISTS ${ba}_updated_idx;
DROP INDEX IF EXISTS ${ba}_created_idx;
CREATE INDEX IF NOT EXISTS ${ba}_code_status_updated_idx ON ${ba} (company_code, status, updated_at, id);
CREATE INDEX IF NOT EXISTS ${ba}_status_updated_idx ON ${ba} (status, updated_at, id);
CREATE INDEX IF NOT EXISTS ${ba}_updated_id_idx ON ${ba} (updated_at, id);
CREATE INDEX IF NOT EXISTS ${ba}_created_id_idx ON ${ba} (created_at, id);
-- The company-name prefix filter counts every match (an eighth of the BAs for a common word): with the columns
-- the count and the default page read INCLUDEd, both are index-only (lower() recomputed from company_name).
DROP INDEX IF EXISTS ${ba}_name_idx;
CREATE INDEX IF NOT EXISTS ${ba}_name_cover_idx ON ${ba} (lower(company_name) text_pattern_ops) INCLUDE (company_name, company_code, updated_at, id);
CREATE INDEX IF NOT EXISTS ${ba}_pan_idx ON ${ba} (pan_number text_pattern_ops);
CREATE INDEX IF NOT EXISTS ${ba}_city_idx ON ${ba} (city_id);
-- Issue 8: the items' summary the list filters by (a rebuild fills them for data folders made before it).
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS expired_docs jsonb NOT NULL DEFAULT '{}';
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS documents_expired boolean NOT NULL DEFAULT false;
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS payments_on_hold boolean NOT NULL DEFAULT false;
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS vertical_ids text[] NOT NULL DEFAULT '{}';
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS gst_states jsonb NOT NULL DEFAULT '{}';
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS location_state_ids text[] NOT NULL DEFAULT '{}';
ALTER TABLE ${ba} ADD COLUMN IF NOT EXISTS company_changes jsonb NOT NULL DEFAULT '{}';
CREATE INDEX IF NOT EXISTS ${ba}_verticals_idx ON ${ba} USING gin (vertical_ids);
CREATE INDEX IF NOT EXISTS ${ba}_locations_idx ON ${ba} USING gin (location_state_ids);
CREATE INDEX IF NOT EXISTS ${ba}_expired_idx ON ${ba} (updated_at, id) WHERE documents_expired;
CREATE INDEX IF NOT EXISTS ${ba}_contact_mobile_idx ON ${ba} (contact_person_mobile_number text_pattern_ops);
CREATE INDEX IF NOT EXISTS ${ba}_registered_mobile_idx ON ${ba} (registered_mobile text_pattern_ops);
CREATE INDEX IF NOT EXISTS ${ba}_registered_email_idx ON ${ba} (lower(registered_email));
-- Issue 12: the q search through trigrams (where the extension exists; the masters create it, as owner).
DO $$ BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN NULL;
END $$;
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE $i$CREATE INDEX IF NOT EXISTS ${ba}_search_trgm_idx ON ${ba} USING gin (${BA_SEARCH_TEXT} gin_trgm_ops)$i$;
  END IF;
END $$;
CREATE TABLE IF NOT EXISTS ${counts} (
  company_code text NOT NULL,
  bucket text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  CONSTRAINT ${counts}_pkey PRIMARY KEY (company_code, bucket)
);
CREATE TABLE IF NOT EXISTS ${facets} (
  company_code text NOT NULL,
  facet text NOT NULL,
  value text NOT NULL,
  bucket text NOT NULL,
  count bigint NOT NULL,
  CONSTRAINT ${facets}_pkey PRIMARY KEY (company_code, facet, value, bucket)
);
-- Filled once from the rows of a data folder whose BAs predate the facet counts (no-op otherwise).
INSERT INTO ${facets} (company_code, facet, value, bucket, count)
SELECT b.company_code, f.facet, f.value, s.bucket, count(*)
FROM ${ba} b
CROSS JOIN LATERAL (SELECT 'vertical', unnest(b.vertical_ids) UNION ALL SELECT 'location', unnest(b.location_state_ids)) f (facet, value)
JOIN (VALUES ('pending', NULL::smallint, 'all'), ('pending', NULL, 'registered'), ('inprogress', NULL, 'all'),
  ('inprogress', NULL, 'pending_onboarding'), ('inprogress', 1, 'first_stage'), ('inprogress', 2, 'second_stage'),
  ('verified', NULL, 'all'), ('verified', NULL, 'verified'), ('rejected', NULL, 'all'), ('rejected', NULL, 'rejected')
) s (status, stage, bucket) ON s.status = b.status AND (s.stage IS NULL OR s.stage = b.stage)
WHERE NOT EXISTS (SELECT 1 FROM ${facets})
GROUP BY 1, 2, 3, 4;`;
};

/** The company's state and every GST row's state, as the list's location filter reads them. */
const locationStates = (stateId: number | null, gstStates: Record<string, number>): string[] =>
  [...new Set([...(stateId === null ? [] : [stateId]), ...Object.values(gstStates)])].sort((a, b) => a - b).map(String);

function withDetails(row: BaRecord, details: CompanyDetails): BaRecord {
  return {
    ...row,
    location_state_ids: locationStates(details.stateId, row.gst_states),
    details,
    company_name: details.companyName,
    pan_number: details.panNumber,
    contact_person_name: details.contactPersonName,
    contact_person_mobile_number: details.contactPersonMobileNumber,
    city_id: details.cityId,
    state_id: details.stateId,
    service_id: details.serviceId,
  };
}

/** The row after one event, or the row unchanged when the event does not concern it. */
export function evolveRow(row: BaRecord | undefined, stored: StoredEvent, event: OnboardingEvent): BaRecord | undefined {
  const at = stored.metadata.at;
  if (event.type === 'BusinessAssociateCreated') {
    if (row) return row;
    return {
      id: event.data.baId,
      company_code: event.data.companyCode,
      status: 'pending',
      stage: null,
      company_name: null,
      pan_number: null,
      contact_person_name: null,
      contact_person_mobile_number: null,
      city_id: null,
      state_id: null,
      service_id: null,
      details: null,
      submission: 0,
      remarks: null,
      welcome_message: null,
      overdue: false,
      registered_email: event.data.email,
      registered_mobile: event.data.mobileNo,
      admin_user_id: event.data.adminUserId,
      expired_docs: {},
      documents_expired: false,
      payments_on_hold: false,
      vertical_ids: [],
      gst_states: {},
      location_state_ids: [],
      company_changes: {},
      created_at: at,
      submitted_at: null,
      updated_at: at,
      version: stored.version,
      last_position: stored.globalPosition,
    };
  }
  // A stream's first event creates the BA; anything else without a row has nothing to change.
  if (!row) return row;
  const next = ((): BaRecord => {
    switch (event.type) {
      case 'CompanyDetailsSaved':
        return withDetails(row, event.data.details);
      case 'OnboardingSubmitted':
        return {
          ...row,
          status: 'inprogress',
          stage: 1,
          submission: event.data.submission,
          submitted_at: at,
          remarks: null,
          welcome_message: null,
          overdue: false,
        };
      case 'ReviewStageApproved':
        return event.data.stage === 1
          ? { ...row, stage: 2, overdue: false }
          : { ...row, stage: null, overdue: false };
      case 'BusinessAssociateVerified':
        return { ...row, status: 'verified', stage: null, welcome_message: event.data.welcomeMessage, overdue: false };
      case 'OnboardingRejected':
        return { ...row, status: 'rejected', stage: null, remarks: event.data.remarks, overdue: false };
      case 'ReviewOverdue': {
        const current =
          row.status === 'inprogress' && row.submission === event.data.submission && row.stage === event.data.stage;
        return current ? { ...row, overdue: true } : row;
      }
      default:
        return evolveItemSummary(row, event);
    }
  })();
  return { ...next, updated_at: at, version: stored.version, last_position: stored.globalPosition };
}

/** The list's summary of the items: expired documents, payment hold, verticals, GST states; others leave the row. */
function evolveItemSummary(row: BaRecord, event: OnboardingEvent): BaRecord {
  switch (event.type) {
    case 'DocumentExpired':
      return withExpiredDocs(row, { ...row.expired_docs, [event.data.docId]: null });
    case 'DocumentUploaded': {
      // An upload replacing an expired document (or its pending replacement) becomes that document's cure.
      const replaced = event.data.replaces;
      if (replaced === null) return row;
      const expired = Object.keys(row.expired_docs).filter((id) => id === replaced || row.expired_docs[id] === replaced);
      if (expired.length === 0) return row;
      const next = { ...row.expired_docs };
      for (const id of expired) next[id] = event.data.docId;
      return withExpiredDocs(row, next);
    }
    case 'DocumentReviewed': {
      if (event.data.decision !== 'approved') return row;
      const cured = Object.keys(row.expired_docs).filter((id) => row.expired_docs[id] === event.data.docId);
      if (cured.length === 0) return row;
      const next = { ...row.expired_docs };
      for (const id of cured) delete next[id];
      return withExpiredDocs(row, next);
    }
    case 'DocumentDeleted': {
      const { docId } = event.data;
      // The expired document itself deleted: it no longer counts. Its replacement deleted: it is uncured again.
      const touched = Object.keys(row.expired_docs).filter((id) => id === docId || row.expired_docs[id] === docId);
      if (touched.length === 0) return row;
      const next = { ...row.expired_docs };
      for (const id of touched) {
        if (id === docId) delete next[id];
        else next[id] = null;
      }
      return withExpiredDocs(row, next);
    }
    case 'ChangeRequestRaised':
      return event.data.section === 'company'
        ? { ...row, company_changes: { ...row.company_changes, [event.data.requestId]: event.data.proposed as Partial<CompanyDetails> } }
        : row;
    case 'ChangeRequestApproved':
    case 'ChangeRequestRejected': {
      const proposed = row.company_changes[event.data.requestId];
      if (!proposed) return row;
      const company_changes = { ...row.company_changes };
      delete company_changes[event.data.requestId];
      if (event.type === 'ChangeRequestRejected') return { ...row, company_changes };
      if (!event.data.final) return row;
      // Approved: the profile takes the proposed fields (state.ts applyChangeRequest).
      const next = { ...row, company_changes };
      return row.details ? withDetails(next, { ...row.details, ...proposed }) : next;
    }
    case 'PaymentsHeld':
      return { ...row, payments_on_hold: true };
    case 'PaymentsReleased':
      return { ...row, payments_on_hold: false };
    case 'VerticalMappingSaved':
      return { ...row, vertical_ids: [...new Set(event.data.mapping.verticalIds)].sort((a, b) => a - b).map(String) };
    case 'GstRegistrationSaved': {
      const gst_states = { ...row.gst_states, [event.data.gstId]: event.data.registration.stateId };
      return { ...row, gst_states, location_state_ids: locationStates(row.state_id, gst_states) };
    }
    case 'GstRegistrationDeleted': {
      if (!(event.data.gstId in row.gst_states)) return row;
      const gst_states = { ...row.gst_states };
      delete gst_states[event.data.gstId];
      return { ...row, gst_states, location_state_ids: locationStates(row.state_id, gst_states) };
    }
    default:
      return row;
  }
}

const withExpiredDocs = (row: BaRecord, expired_docs: Record<string, string | null>): BaRecord => ({
  ...row,
  expired_docs,
  documents_expired: Object.keys(expired_docs).length > 0,
});

async function loadRows(client: PoolClient, table: string, ids: readonly string[]): Promise<Map<string, BaRecord>> {
  const { rows } = await client.query<BaRecord & { created_at: Date; submitted_at: Date | null; updated_at: Date }>(
    `SELECT ${COLUMNS.map((c) => c.name).join(', ')} FROM ${table} WHERE id = ANY($1::text[])`,
    [ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        ...r,
        created_at: iso(r.created_at) ?? '',
        submitted_at: iso(r.submitted_at),
        updated_at: iso(r.updated_at) ?? '',
        last_position: Number(r.last_position),
      },
    ]),
  );
}

async function apply(client: PoolClient, events: readonly StoredEvent[], t: TableNames): Promise<void> {
  const byBa = onboardingEventsByBa(events);
  if (byBa.size === 0) return;
  // Net moves of ba_status_counts (company_code, bucket) and ba_facet_counts (company_code, facet, value, bucket).
  const deltas: CountDeltas = new Map();
  const facetDeltas: CountDeltas = new Map();
  await applyGroups(client, byBa, t, false, deltas, facetDeltas);
  await applyCountDeltas(client, t('ba_facet_counts'), ['company_code', 'facet', 'value', 'bucket'], facetDeltas);
  await applyCountDeltas(client, t('ba_status_counts'), ['company_code', 'bucket'], deltas);
}

/**
 * Folds each BA's events onto its row and writes the rows that changed. A BA whose stream starts in this
 * page (version 0) is folded from nothing without reading its row (in a rebuild: every BA of one-event
 * streams) and inserted only if absent; should it exist after all (a page applied again), it is folded once
 * more onto its stored row. Stored rows are rewritten only by a newer stream version. Badge deltas are taken
 * from the rows those guarded statements report written, so a re-applied event counts nothing.
 */
async function applyGroups(
  client: PoolClient,
  byBa: ReadonlyMap<string, readonly OnboardingItem[]>,
  t: TableNames,
  loadAll: boolean,
  deltas: CountDeltas,
  facetDeltas: CountDeltas,
): Promise<void> {
  const table = t('business_associates');
  const toLoad = [...byBa].filter(([, list]) => loadAll || (list[0]?.stored.version ?? 0) > 0).map(([id]) => id);
  const before = toLoad.length > 0 ? await loadRows(client, table, toLoad) : new Map<string, BaRecord>();

  const fresh: BaRecord[] = [];
  const changed: BaRecord[] = [];
  for (const [baId, list] of byBa) {
    const old = before.get(baId);
    let row = old;
    for (const { stored, event } of list) {
      // The idempotency guard: an event at or below the row's stream version is already in the row.
      if (row && stored.version <= row.version) continue;
      row = evolveRow(row, stored, event);
    }
    if (row && row !== old) (old ? changed : fresh).push(row);
  }

  const move = (companyCode: string, bucket: BaBucket, by: number) => moveCount(deltas, [companyCode, bucket], by);
  const existing = await insertNew(client, table, COLUMNS, fresh, 'id');
  const updated = await updateWhere(client, table, COLUMNS, changed, 'id', 't.version < x.version');
  for (const row of fresh) if (!existing.has(row.id)) for (const b of bucketsOf(row)) move(row.company_code, b, +1);
  for (const row of fresh) if (!existing.has(row.id)) moveFacets(facetDeltas, row, +1);
  for (const row of changed) {
    const old = before.get(row.id);
    if (!old || !updated.has(row.id)) continue;
    for (const b of bucketsOf(old)) move(old.company_code, b, -1);
    for (const b of bucketsOf(row)) move(row.company_code, b, +1);
    moveFacets(facetDeltas, old, -1);
    moveFacets(facetDeltas, row, +1);
  }

  const missed = [...existing];
  if (missed.length === 0) return;
  if (loadAll) throw new Error(`business_associates: rows ${missed.join(', ')} appeared during the apply`);
  await applyGroups(client, new Map(missed.map((id) => [id, byBa.get(id) ?? []])), t, true, deltas, facetDeltas);
}

/** Moves the ba_facet_counts cells of a row (company_code, facet, value, bucket) by `by`. */
function moveFacets(deltas: CountDeltas, row: BaRecord, by: number): void {
  const buckets = statusBucketsOf(row);
  for (const facet of Object.keys(BA_FACETS) as BaFacet[])
    for (const value of row[BA_FACETS[facet]]) for (const bucket of buckets) moveCount(deltas, [row.company_code, facet, value, bucket], by);
}

export const businessAssociatesProjection: Projection = {
  name: 'business_associates',
  tables: ['business_associates', 'ba_status_counts', 'ba_facet_counts'],
  schema,
  apply,
};
