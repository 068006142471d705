import { clampRange, iso, sortOrder, type Db, type Range } from '../sql';

export type ActivityRow = {
  /** The event's global position. */
  id: number;
  baId: string;
  companyCode: string | null;
  at: string;
  actorUserId: string;
  actorName: string | null;
  role: string;
  action: string;
  changes: Record<string, { before: unknown; after: unknown }> | null;
  remarks: string | null;
  eventId: string;
  eventType: string;
  streamVersion: number;
};

type DbRow = {
  id: string;
  ba_id: string;
  company_code: string | null;
  at: Date;
  actor_user_id: string;
  actor_name: string | null;
  role: string;
  action: string;
  changes: ActivityRow['changes'];
  remarks: string | null;
  event_id: string;
  event_type: string;
  stream_version: number;
};

// Times can tie within a command (approve + verify); the position is the true order, so every sort ends on it.
const SORT_COLUMNS: Record<string, string> = {
  id: 'id',
  at: 'at',
  action: 'action',
  role: 'role',
  actorName: 'actor_name',
};

/** A BA's activity log, oldest first by default. The caller checks the BA is visible to the user first. */
export async function listActivity(
  db: Db,
  baId: string,
  query: { range?: Partial<Range>; sort?: { field: string; order: string } } = {},
): Promise<{ rows: ActivityRow[]; total: number }> {
  const range = clampRange(query.range);
  const column = (query.sort && SORT_COLUMNS[query.sort.field]) ?? 'id';
  const order = query.sort && SORT_COLUMNS[query.sort.field] ? sortOrder(query.sort.order) : 'ASC';
  const [page, count] = await Promise.all([
    db.query<DbRow>(
      `SELECT id, ba_id, company_code, at, actor_user_id, actor_name, role, action, changes, remarks, event_id,
              event_type, stream_version
       FROM activity_log WHERE ba_id = $1
       ORDER BY ${column} ${order}${column === 'id' ? '' : `, id ${order}`} LIMIT $2 OFFSET $3`,
      [baId, range.limit, range.offset],
    ),
    db.query<{ total: string }>('SELECT count(*) AS total FROM activity_log WHERE ba_id = $1', [baId]),
  ]);
  return {
    rows: page.rows.map((r) => ({
      id: Number(r.id),
      baId: r.ba_id,
      companyCode: r.company_code,
      at: iso(r.at) ?? '',
      actorUserId: r.actor_user_id,
      actorName: r.actor_name,
      role: r.role,
      action: r.action,
      changes: r.changes,
      remarks: r.remarks,
      eventId: r.event_id,
      eventType: r.event_type,
      streamVersion: r.stream_version,
    })),
    total: Number(count.rows[0]?.total ?? 0),
  };
}
