import type { PoolClient } from 'pg';
import { defaultAccess, isBillHubOnly, type AppAccess } from '../../../domain/src/identity/applications';
import type { UserEvent } from '../../../domain/src/identity/users';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { onboardingEventsByBa, type OnboardingItem } from '../onboarding-events';
import type { Projection, TableNames } from '../projection';
import { insertNew, rowSource, upsertRows } from '../sql';
import { applyRfps, emailRfpNotices, RFP_SUBJECTS_TABLE, rfpSubjectsSchema, type InsertedNotification } from './rfp-notifications';
import { applyInvoices, INVOICE_SUBJECTS_TABLE, invoiceSubjectsSchema } from './invoice-notifications';
import {
  contactChangeNotification,
  vendorCodeNotifications,
  blockNotifications,
  evolveSubject,
  onboardingNotifications,
  type BaSubject,
  type NotificationRequest,
} from './rules';

/**
 * In-app notifications (issue 7): one row per recipient of each event that tells someone something
 * (./rules.ts). Rows are derived from events only, with deterministic ids (`<eventId>:<userId>`), so a rebuild
 * equals the live table row for row. Whether a user has read a row is not an event: it lives in the
 * operational tables of ./read-state.ts, which a rebuild never touches.
 *
 * Recipients are resolved against `notification_recipients`, this projection's own directory of users folded
 * from the user events, kept as versions valid over ranges of global positions. A notification goes to the
 * users as they stood at the event's position (roles, company codes, active), whatever the `users` read model
 * (another projection, running at its own pace) holds at that moment: that is what makes the fan-out
 * deterministic. A user created later does not receive earlier notifications.
 *
 * At the live tables the projection calls pg_notify('notifications', user_id) for every user who got a row,
 * inside the runner's transaction, so the API's stream hears of a row only once it is committed. The RFP
 * notices (./rfp-rules.ts) are also e-mailed from there, through the outbox in the same transaction
 * (./rfp-notifications.ts); a rebuild copy sends nothing.
 */
export const NOTIFICATIONS_CHANNEL = 'notifications';

type RecipientVersion = {
  user_id: string;
  valid_from: number;
  valid_to: number | null;
  roles: string[];
  company_codes: string[];
  ba_id: string | null;
  active: boolean;
  bill_hub_only: boolean;
  stream_version: number;
  /** Where the RFP notices are e-mailed (issue 10): the sign-in e-mail id, as the user events last gave it. */
  email: string | null;
};

type SubjectRow = {
  ba_id: string;
  company_code: string;
  company_name: string | null;
  stage1_approved_by: string | null;
  labels: Record<string, string>;
  version: number;
};

const RECIPIENT_COLUMNS = [
  { name: 'user_id', type: 'text' },
  { name: 'valid_from', type: 'bigint' },
  { name: 'valid_to', type: 'bigint' },
  { name: 'roles', type: 'text[]' },
  { name: 'company_codes', type: 'text[]' },
  { name: 'ba_id', type: 'text' },
  { name: 'active', type: 'boolean' },
  { name: 'bill_hub_only', type: 'boolean' },
  { name: 'stream_version', type: 'integer' },
  { name: 'email', type: 'text' },
] as const satisfies readonly { name: keyof RecipientVersion; type: string }[];

const SUBJECT_COLUMNS = [
  { name: 'ba_id', type: 'text' },
  { name: 'company_code', type: 'text' },
  { name: 'company_name', type: 'text' },
  { name: 'stage1_approved_by', type: 'text' },
  { name: 'labels', type: 'jsonb' },
  { name: 'version', type: 'integer' },
] as const satisfies readonly { name: keyof SubjectRow; type: string }[];

const schema = (t: TableNames): string => {
  const n = t('notifications');
  const r = t('notification_recipients');
  const s = t('notification_subjects');
  return `
CREATE TABLE IF NOT EXISTS ${n} (
  id text NOT NULL,
  user_id text NOT NULL,
  kind text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  link text,
  ba_id text,
  company_code text,
  created_at timestamptz NOT NULL,
  source_position bigint NOT NULL,
  CONSTRAINT ${n}_pkey PRIMARY KEY (id)
);
-- A user's list (newest first), its total and its unread count are range scans of this index.
CREATE INDEX IF NOT EXISTS ${n}_user_idx ON ${n} (user_id, source_position DESC, id DESC);
CREATE TABLE IF NOT EXISTS ${r} (
  user_id text NOT NULL,
  valid_from bigint NOT NULL,
  valid_to bigint,
  roles text[] NOT NULL,
  company_codes text[] NOT NULL,
  ba_id text,
  active boolean NOT NULL,
  bill_hub_only boolean NOT NULL,
  stream_version integer NOT NULL,
  CONSTRAINT ${r}_pkey PRIMARY KEY (user_id, valid_from)
);
CREATE INDEX IF NOT EXISTS ${r}_ba_idx ON ${r} (ba_id) WHERE ba_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS ${s} (
  ba_id text NOT NULL,
  company_code text NOT NULL,
  company_name text,
  stage1_approved_by text,
  version integer NOT NULL,
  CONSTRAINT ${s}_pkey PRIMARY KEY (ba_id)
);
-- Issue 8 (item names for review, expiry and change-request notifications); ADD COLUMN keeps older data folders usable.
ALTER TABLE ${s} ADD COLUMN IF NOT EXISTS labels jsonb NOT NULL DEFAULT '{}';
-- Issue 10 (RFP notices are e-mailed): rows written before it have none until the next rebuild.
ALTER TABLE ${r} ADD COLUMN IF NOT EXISTS email text;
${rfpSubjectsSchema(t)}
${invoiceSubjectsSchema(t)}`;
};

/**
 * Folds the page's user events into recipient versions: each change closes the user's current version at
 * the event's position and opens the next one there. Guarded by the user stream's version, so a page applied
 * again changes nothing.
 */
async function applyUsers(client: PoolClient, events: readonly StoredEvent[], t: TableNames): Promise<void> {
  const userEvents = events.filter((e) => e.streamId.startsWith('user-'));
  if (userEvents.length === 0) return;
  const table = t('notification_recipients');
  const ids = [...new Set(userEvents.map((e) => (e.data as { userId?: string }).userId).filter((x): x is string => !!x))];
  const { rows } = await client.query<Omit<RecipientVersion, 'valid_from'> & { valid_from: string }>(
    `SELECT ${RECIPIENT_COLUMNS.map((c) => c.name).join(', ')} FROM ${table}
     WHERE user_id = ANY($1::text[]) AND valid_to IS NULL`,
    [ids],
  );
  const current = new Map<string, RecipientVersion>(rows.map((r) => [r.user_id, { ...r, valid_from: Number(r.valid_from) }]));
  // Stored current versions this page closes (an UPDATE), and the versions it opens (an INSERT, with their
  // valid_to already set when a later event of the same page closed them too).
  const storedRows = new Set(current.values());
  const closedStored: RecipientVersion[] = [];
  const fresh: RecipientVersion[] = [];

  const next = (before: RecipientVersion | undefined, after: RecipientVersion) => {
    if (before) {
      before.valid_to = after.valid_from;
      if (storedRows.has(before)) closedStored.push(before);
    }
    current.set(after.user_id, after);
    fresh.push(after);
  };

  for (const e of userEvents) {
    const event = { type: e.type, data: e.data } as UserEvent;
    const userId = (event.data as { userId?: string }).userId;
    if (!userId) continue;
    const before = current.get(userId);
    if (before && e.version <= before.stream_version) continue;
    const moved = { valid_from: e.globalPosition, valid_to: null, stream_version: e.version };
    switch (event.type) {
      case 'UserRegistered': {
        if (before) break;
        const d = event.data;
        const access: readonly AppAccess[] = d.applications ?? defaultAccess(d.roles);
        next(undefined, {
          user_id: userId,
          ...moved,
          roles: [...d.roles],
          company_codes: [...d.companyCodes],
          ba_id: d.baId,
          active: true,
          bill_hub_only: isBillHubOnly(access),
          email: d.username,
        });
        break;
      }
      case 'UserUpdated':
        if (!before) break;
        next(before, {
          ...before,
          ...moved,
          roles: [...event.data.roles],
          company_codes: [...event.data.companyCodes],
          bill_hub_only: isBillHubOnly(event.data.applications),
        });
        break;
      case 'UserBlocked':
      case 'UserUnblocked':
        if (!before) break;
        next(before, { ...before, ...moved, active: event.type === 'UserUnblocked' });
        break;
      case 'UserContactChanged':
        // Who is told is unchanged; where their e-mails go is not.
        if (!before) break;
        next(before, { ...before, ...moved, email: event.data.newEmail });
        break;
      default:
        // Password changes do not change who is told what.
        break;
    }
  }
  if (closedStored.length > 0) {
    const source = rowSource(
      [
        { name: 'user_id', type: 'text' },
        { name: 'valid_from', type: 'bigint' },
        { name: 'valid_to', type: 'bigint' },
      ],
      closedStored,
    );
    await client.query(
      `UPDATE ${table} t SET valid_to = x.valid_to FROM (SELECT ${source.select} FROM ${source.from}) x
       WHERE t.user_id = x.user_id AND t.valid_from = x.valid_from AND t.valid_to IS NULL`,
      source.params,
    );
  }
  await upsertRows(client, table, RECIPIENT_COLUMNS, fresh, { conflict: ['user_id', 'valid_from'], doNothing: true });
}

/**
 * Folds the page's onboarding events per BA and returns the notifications they ask for. A BA whose stream
 * starts in this page (version 0) is folded from nothing without reading what is stored, and its subject
 * inserted only if absent (a rebuild is mostly such BAs); one that exists after all (a page applied again)
 * goes through once more, folded onto what is stored, so it asks for nothing twice.
 */
async function applyOnboarding(
  client: PoolClient,
  byBa: ReadonlyMap<string, readonly OnboardingItem[]>,
  t: TableNames,
  loadAll = false,
): Promise<NotificationRequest[]> {
  const table = t('notification_subjects');
  const ids = [...byBa].filter(([, list]) => loadAll || (list[0]?.stored.version ?? 0) > 0).map(([id]) => id);
  const { rows } =
    ids.length === 0
      ? { rows: [] as SubjectRow[] }
      : await client.query<SubjectRow>(
          `SELECT ${SUBJECT_COLUMNS.map((c) => c.name).join(', ')} FROM ${table} WHERE ba_id = ANY($1::text[])`,
          [ids],
        );
  const known = new Map(rows.map((r) => [r.ba_id, r]));
  const requests = new Map<string, NotificationRequest[]>();
  const fresh: SubjectRow[] = [];
  const changed: SubjectRow[] = [];
  for (const [baId, list] of byBa) {
    const row = known.get(baId);
    let subject: BaSubject | undefined = row && {
      baId,
      companyCode: row.company_code,
      companyName: row.company_name,
      stage1ApprovedBy: row.stage1_approved_by,
      labels: row.labels ?? {},
      version: row.version,
    };
    const start = subject;
    const asked: NotificationRequest[] = [];
    for (const { stored, event } of list) {
      if (subject && stored.version <= subject.version) continue;
      subject ??= {
        baId,
        companyCode: stored.metadata.companyCode ?? '',
        companyName: null,
        stage1ApprovedBy: null,
        labels: {},
        version: -1,
      };
      asked.push(...onboardingNotifications(stored, event, subject));
      subject = { ...evolveSubject(subject, event), version: stored.version };
    }
    requests.set(baId, asked);
    if (!subject || subject === start) continue;
    (row ? changed : fresh).push({
      ba_id: baId,
      company_code: subject.companyCode,
      company_name: subject.companyName,
      stage1_approved_by: subject.stage1ApprovedBy,
      labels: subject.labels,
      version: subject.version,
    });
  }
  const existing = await insertNew(client, table, SUBJECT_COLUMNS, fresh, 'ba_id');
  await upsertRows(client, table, SUBJECT_COLUMNS, changed, { conflict: ['ba_id'], guard: `${table}.version < excluded.version` });
  if (existing.size > 0) {
    if (loadAll) throw new Error(`notifications: subjects ${[...existing].join(', ')} appeared during the apply`);
    for (const id of existing) requests.delete(id);
    const again = await applyOnboarding(client, new Map([...existing].map((id) => [id, byBa.get(id) ?? []])), t, true);
    return [...[...requests.values()].flat(), ...again];
  }
  return [...requests.values()].flat();
}

function contactChanges(events: readonly StoredEvent[]): NotificationRequest[] {
  const out: NotificationRequest[] = [];
  for (const e of events) {
    if (e.type !== 'ContactChangeCompleted' || !e.streamId.startsWith('contact-change-')) continue;
    const d = e.data as { userId?: unknown; newEmail?: unknown; newMobile?: unknown } | null;
    if (!d || typeof d.userId !== 'string' || typeof d.newEmail !== 'string' || typeof d.newMobile !== 'string') continue;
    out.push(contactChangeNotification(e, { userId: d.userId, newEmail: d.newEmail, newMobile: d.newMobile }));
  }
  return out;
}

/**
 * One statement for the whole page: each request joined with the recipient versions valid at its position,
 * inserted (a row that exists already, from a page applied before, stays as it is), and at the live table one
 * pg_notify per user that received something.
 */
async function fanOut(client: PoolClient, requests: readonly NotificationRequest[], t: TableNames): Promise<InsertedNotification[]> {
  if (requests.length === 0) return [];
  const rows = requests.map((r) => ({
    event_id: r.eventId,
    position: r.position,
    at: r.at,
    kind: r.kind,
    title: r.title,
    body: r.body,
    link: r.link,
    ba_id: r.baId,
    company_code: r.companyCode,
    aud_roles: [...r.audience.roles],
    aud_company: r.audience.companyCode,
    aud_ba: r.audience.baId,
    aud_admins_of: r.audience.adminsOfUser,
    exclude: [...r.audience.exclude],
    aud_users: r.audience.users ? [...r.audience.users] : null,
  }));
  const source = rowSource(
    [
      { name: 'event_id', type: 'text' },
      { name: 'position', type: 'bigint' },
      { name: 'at', type: 'timestamptz' },
      { name: 'kind', type: 'text' },
      { name: 'title', type: 'text' },
      { name: 'body', type: 'text' },
      { name: 'link', type: 'text' },
      { name: 'ba_id', type: 'text' },
      { name: 'company_code', type: 'text' },
      { name: 'aud_roles', type: 'text[]' },
      { name: 'aud_company', type: 'text' },
      { name: 'aud_ba', type: 'text' },
      { name: 'aud_admins_of', type: 'text' },
      { name: 'exclude', type: 'text[]' },
      { name: 'aud_users', type: 'text[]' },
    ],
    rows,
  );
  const n = t('notifications');
  const r = t('notification_recipients');
  const live = n === 'notifications';
  const valid = (alias: string) =>
    `${alias}.valid_from < x.position AND (${alias}.valid_to IS NULL OR ${alias}.valid_to > x.position)`;
  const result = await client.query<InsertedNotification>(
    `WITH x AS (SELECT ${source.select} FROM ${source.from}),
     -- A contact change names the user; its notification goes to the admins of that user's BA.
     req AS (
       SELECT x.*, COALESCE(x.aud_ba, (SELECT s.ba_id FROM ${r} s WHERE s.user_id = x.aud_admins_of AND ${valid('s')}
                                       LIMIT 1)) AS target_ba
       FROM x
     ),
     -- Two equality joins the planner can hash (a rebuild's page holds thousands of requests): staff by
     -- company code, BA users by BA; the remaining conditions filter the matches.
     matched AS (
       SELECT x.*, u.user_id
       FROM req x
       JOIN (SELECT v.*, code FROM ${r} v CROSS JOIN LATERAL unnest(v.company_codes) AS code WHERE v.ba_id IS NULL) u
         ON u.code = x.aud_company
       WHERE x.target_ba IS NULL AND ${valid('u')} AND u.active AND u.roles && x.aud_roles
         AND NOT (u.user_id = ANY(x.exclude)) AND (x.aud_users IS NULL OR u.user_id = ANY(x.aud_users))
       UNION ALL
       SELECT x.*, u.user_id
       FROM req x JOIN ${r} u ON u.ba_id = x.target_ba
       WHERE ${valid('u')} AND u.active AND NOT u.bill_hub_only AND u.roles && x.aud_roles
         AND NOT (u.user_id = ANY(x.exclude))
     ),
     inserted AS (
       INSERT INTO ${n} (id, user_id, kind, title, body, link, ba_id, company_code, created_at, source_position)
       SELECT m.event_id || ':' || m.user_id, m.user_id, m.kind, m.title, m.body, m.link,
              COALESCE(m.ba_id, m.target_ba), m.company_code, m.at, m.position
       FROM matched m
       ON CONFLICT (id) DO NOTHING
       RETURNING id, user_id, kind, title, body, link
     )
     ${
       live
         ? // One pg_notify per row: PostgreSQL delivers equal payloads of a transaction once. The rows come back
           // for the e-mails of the RFP notices (./rfp-notifications.ts); only those need their words.
           `SELECT id, user_id, kind,
                   CASE WHEN kind LIKE 'rfp.%' THEN title END AS title, CASE WHEN kind LIKE 'rfp.%' THEN body END AS body,
                   CASE WHEN kind LIKE 'rfp.%' THEN link END AS link,
                   pg_notify('${NOTIFICATIONS_CHANNEL}', user_id)
              FROM inserted`
         : 'SELECT count(*) FROM inserted'
     }`,
    source.params,
  );
  return live ? result.rows : [];
}

/** `publicUrl`: the portal's address, for the links of the RFP e-mails (config http.publicUrl). */
export const createNotificationsProjection = (options: { publicUrl?: string | null } = {}): Projection => ({
  name: 'notifications',
  tables: ['notifications', 'notification_recipients', 'notification_subjects', RFP_SUBJECTS_TABLE, INVOICE_SUBJECTS_TABLE],
  schema,
  apply: async (client, events, t) => {
    // The directory first: the fan-out picks, per request, the versions valid at its own position, so the
    // order of users and requests inside a page does not matter.
    await applyUsers(client, events, t);
    const byBa = onboardingEventsByBa(events);
    const requests = [
      ...(byBa.size > 0 ? await applyOnboarding(client, byBa, t) : []),
      ...contactChanges(events),
      ...events.flatMap(vendorCodeNotifications),
      ...events.flatMap(blockNotifications),
      ...(await applyRfps(client, events, t)),
      ...(await applyInvoices(client, events, t)),
    ];
    const inserted = await fanOut(client, requests, t);
    await emailRfpNotices(client, inserted, t, options.publicUrl ?? null);
  },
});

export const notificationsProjection: Projection = createNotificationsProjection();
