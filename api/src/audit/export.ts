import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { DISPLAY_TIME_ZONE, formatDateTime } from '../../../domain/src/shared/format';
import type { ActivityRow } from '../../../projections/src/activity-log/activity-log.queries';
import { safeCellText } from '../../../platform/src/workbooks/safe-cell';

/** One stored event as the export carries it: everything the hash covers, and the hashes. */
export type AuditEventRow = {
  globalPosition: number;
  streamId: string;
  version: number;
  eventId: string;
  type: string;
  recordedAt: string;
  data: unknown;
  metadata: StoredEvent['metadata'];
  prevHash: string;
  hash: string;
};

/** GET /api/business-associates/:id/audit-export?format=json. */
export type BaAuditExport = { baId: string; exportedAt: string; activityLog: ActivityRow[]; events: AuditEventRow[] };

export const auditEventRow = (e: StoredEvent): AuditEventRow => ({
  globalPosition: e.globalPosition,
  streamId: e.streamId,
  version: e.version,
  eventId: e.eventId,
  type: e.type,
  recordedAt: e.recordedAt,
  data: e.data,
  metadata: e.metadata,
  prevHash: e.prevHash,
  hash: e.hash,
});

/**
 * Formula-safe text (platform/src/workbooks/safe-cell.ts): history holds what was recorded, including values
 * from before today's input rules, so every text cell goes through the shared rule.
 */
export function cellText(value: unknown): string {
  return safeCellText(value, '… (cut; the JSON export has it whole)');
}

const changesText = (changes: ActivityRow['changes']): string =>
  Object.entries(changes ?? {})
    .map(([field, { before, after }]) => `${field}: ${JSON.stringify(before ?? null)} → ${JSON.stringify(after ?? null)}`)
    .join('\n');

type Column = { header: string; width: number };
const ACTIVITY_COLUMNS: Column[] = [
  { header: 'Position', width: 10 },
  { header: 'Time (IST)', width: 22 },
  { header: 'Time (UTC)', width: 26 },
  { header: 'Actor', width: 24 },
  { header: 'Actor user id', width: 38 },
  { header: 'Role', width: 20 },
  { header: 'Action', width: 34 },
  { header: 'Changes', width: 50 },
  { header: 'Remarks', width: 40 },
  { header: 'Event type', width: 26 },
  { header: 'Event id', width: 38 },
  { header: 'Version', width: 9 },
];
const EVENT_COLUMNS: Column[] = [
  { header: 'Position', width: 10 },
  { header: 'Version', width: 9 },
  { header: 'Event id', width: 38 },
  { header: 'Type', width: 26 },
  { header: 'Recorded (UTC)', width: 26 },
  { header: 'Actor', width: 24 },
  { header: 'Role', width: 20 },
  { header: 'Data (JSON)', width: 60 },
  { header: 'Metadata (JSON)', width: 60 },
  { header: 'Previous hash', width: 66 },
  { header: 'Hash', width: 66 },
];

/** Numbers stay numbers; every text goes through cellText. */
const row = (values: readonly (string | number)[]) => values.map((v) => (typeof v === 'number' ? v : cellText(v)));

/**
 * The two sheets, "Activity log" and "Events", streamed into `out` row by row (exceljs' streaming writer):
 * the file is never held whole in memory. Resolves once the workbook is complete.
 */
export async function writeAuditWorkbook(out: Writable, data: BaAuditExport): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  workbook.creator = 'BA onboarding console';
  workbook.created = new Date(data.exportedAt);

  const activity = workbook.addWorksheet('Activity log');
  activity.columns = ACTIVITY_COLUMNS.map((c) => ({ header: c.header, width: c.width }));
  for (const a of data.activityLog) {
    activity
      .addRow(
        row([
          a.id,
          formatDateTime(a.at),
          a.at,
          a.actorName ?? '',
          a.actorUserId,
          a.role,
          a.action,
          changesText(a.changes),
          a.remarks ?? '',
          a.eventType,
          a.eventId,
          a.streamVersion,
        ]),
      )
      .commit();
  }
  activity.commit();

  const events = workbook.addWorksheet('Events');
  events.columns = EVENT_COLUMNS.map((c) => ({ header: c.header, width: c.width }));
  for (const e of data.events) {
    const actor = e.metadata?.actor;
    events
      .addRow(
        row([
          e.globalPosition,
          e.version,
          e.eventId,
          e.type,
          e.recordedAt,
          actor?.name ?? actor?.userId ?? '',
          actor?.role ?? '',
          JSON.stringify(e.data),
          JSON.stringify(e.metadata),
          e.prevHash,
          e.hash,
        ]),
      )
      .commit();
  }
  events.commit();
  await workbook.commit();
}

/** `BA-<id>-audit-<date>.<ext>`, the date in Indian time like every date the console shows. */
export function exportFileName(baId: string, now: Date, ext: 'xlsx' | 'json'): string {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: DISPLAY_TIME_ZONE }).format(now);
  return `BA-${baId}-audit-${date}.${ext}`;
}
