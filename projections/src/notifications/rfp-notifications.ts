import type { PoolClient } from 'pg';
import { isRfpEvent, RFP_STREAM_PREFIX, type RfpEvent } from '../../../domain/src/rfp/events';
import type { RfpType } from '../../../domain/src/rfp/model';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { enqueueMessages, type OutboxMessage } from '../../../platform/src/notifications/outbox';
import type { TableNames } from '../projection';
import { upsertRows } from '../sql';
import { evolveRfpSubject, isRfpNotificationKind, newRfpSubject, rfpNotifications, type RfpSubject } from './rfp-rules';
import type { NotificationRequest } from './rules';

/**
 * The RFP side of the notifications projection (issue 10): the per-RFP subject (`notification_rfps`) folded from
 * the RFP streams, the notifications its events ask for, and their e-mails.
 */
export const RFP_SUBJECTS_TABLE = 'notification_rfps';

export const rfpSubjectsSchema = (t: TableNames): string => {
  const s = t(RFP_SUBJECTS_TABLE);
  return `
CREATE TABLE IF NOT EXISTS ${s} (
  rfp_code text NOT NULL,
  company_code text,
  customer_name text,
  rfp_type text NOT NULL,
  invited_ba_ids text[] NOT NULL,
  version integer NOT NULL,
  CONSTRAINT ${s}_pkey PRIMARY KEY (rfp_code)
);`;
};

type RfpSubjectRow = {
  rfp_code: string;
  company_code: string | null;
  customer_name: string | null;
  rfp_type: string;
  invited_ba_ids: string[];
  version: number;
};

const COLUMNS = [
  { name: 'rfp_code', type: 'text' },
  { name: 'company_code', type: 'text' },
  { name: 'customer_name', type: 'text' },
  { name: 'rfp_type', type: 'text' },
  { name: 'invited_ba_ids', type: 'text[]' },
  { name: 'version', type: 'integer' },
] as const satisfies readonly { name: keyof RfpSubjectRow; type: string }[];

type RfpItem = { stored: StoredEvent; event: RfpEvent };

/** The page's RFP events per RFP code, in global order; anything else (or malformed) is skipped. */
function rfpEventsByCode(events: readonly StoredEvent[]): Map<string, RfpItem[]> {
  const byCode = new Map<string, RfpItem[]>();
  for (const stored of events) {
    if (!stored.streamId.startsWith(RFP_STREAM_PREFIX) || !isRfpEvent(stored)) continue;
    const data = stored.data as { rfpCode?: unknown } | null;
    if (!data || typeof data.rfpCode !== 'string') continue;
    const item = { stored, event: { type: stored.type, data: stored.data } as RfpEvent };
    const list = byCode.get(data.rfpCode);
    if (list) list.push(item);
    else byCode.set(data.rfpCode, [item]);
  }
  return byCode;
}

/**
 * Folds the page's RFP events onto the stored subjects and returns the notifications they ask for. Guarded by
 * the stream version, so a page applied again asks for nothing twice and leaves the subjects as they were.
 */
export async function applyRfps(client: PoolClient, events: readonly StoredEvent[], t: TableNames): Promise<NotificationRequest[]> {
  const byCode = rfpEventsByCode(events);
  if (byCode.size === 0) return [];
  const table = t(RFP_SUBJECTS_TABLE);
  const { rows } = await client.query<RfpSubjectRow>(
    `SELECT ${COLUMNS.map((c) => c.name).join(', ')} FROM ${table} WHERE rfp_code = ANY($1::text[])`,
    [[...byCode.keys()]],
  );
  const known = new Map(rows.map((r) => [r.rfp_code, r]));
  const requests: NotificationRequest[] = [];
  const changed: RfpSubjectRow[] = [];
  for (const [rfpCode, list] of byCode) {
    const row = known.get(rfpCode);
    let subject: RfpSubject | undefined = row && {
      rfpCode,
      companyCode: row.company_code,
      customerName: row.customer_name,
      rfpType: row.rfp_type as RfpType,
      invitedBaIds: row.invited_ba_ids,
      version: row.version,
    };
    const start = subject;
    for (const { stored, event } of list) {
      if (subject && stored.version <= subject.version) continue;
      // The draft's first event carries its creator's company code (workflows/src/rfp/activities.ts).
      subject ??= newRfpSubject(rfpCode, stored.metadata.companyCode ?? null);
      requests.push(...rfpNotifications(stored, event, subject));
      subject = { ...evolveRfpSubject(subject, event), version: stored.version };
    }
    if (!subject || subject === start) continue;
    changed.push({
      rfp_code: rfpCode,
      company_code: subject.companyCode,
      customer_name: subject.customerName,
      rfp_type: subject.rfpType,
      invited_ba_ids: subject.invitedBaIds,
      version: subject.version,
    });
  }
  await upsertRows(client, table, COLUMNS, changed, { conflict: ['rfp_code'], guard: `${table}.version < excluded.version` });
  return requests;
}

/** A notification row just written at the live table; title, body and link are given for the RFP kinds only. */
export type InsertedNotification = { id: string; user_id: string; kind: string; title: string | null; body: string | null; link: string | null };

/**
 * The e-mail of one RFP notice: the in-app words and the notice's link made absolute with the portal's public
 * URL (config http.publicUrl; the portal is served at its root). Without a public URL (a tool that runs the
 * projections without the app's config) the link stays the portal path. Null for a row without words or link.
 */
export function rfpNoticeEmail(notice: InsertedNotification, to: string, publicUrl: string | null): OutboxMessage | null {
  if (notice.title === null || notice.body === null || notice.link === null) return null;
  const link = `${(publicUrl ?? '').replace(/\/+$/, '')}${notice.link}`;
  return { channel: 'email', to, template: 'rfp-notice', params: { title: notice.title, body: notice.body, link } };
}

/** The outbox's own check (platform/src/notifications/outbox.ts): an address it would refuse is skipped, not thrown. */
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+$/;

/**
 * E-mails each RFP notification just written at the live table to its recipient, in the projection's
 * transaction: it commits with the rows, and a rebuild (which writes a copy, never the live table) sends
 * nothing. The address is the recipient's current one in the projection's directory. Each notification row
 * is written once (its id is `<eventId>:<userId>`), and the outbox's dedupe key, the row's id, drops a second
 * write all the same. A user without a usable address gets the in-app notification only.
 */
export async function emailRfpNotices(
  client: PoolClient,
  inserted: readonly InsertedNotification[],
  t: TableNames,
  publicUrl: string | null,
): Promise<void> {
  const notices = inserted.filter((n) => isRfpNotificationKind(n.kind));
  if (notices.length === 0) return;
  const { rows } = await client.query<{ user_id: string; email: string | null }>(
    `SELECT user_id, email FROM ${t('notification_recipients')} WHERE user_id = ANY($1::text[]) AND valid_to IS NULL`,
    [[...new Set(notices.map((n) => n.user_id))]],
  );
  const emailOf = new Map(rows.map((r) => [r.user_id, r.email?.trim() ?? '']));
  for (const notice of [...notices].sort((a, b) => a.id.localeCompare(b.id))) {
    const to = emailOf.get(notice.user_id) ?? '';
    const message = EMAIL.test(to) ? rfpNoticeEmail(notice, to, publicUrl) : null;
    if (message === null) continue;
    await enqueueMessages(client, [message], { dedupeKey: `notification:${notice.id}` });
  }
}
