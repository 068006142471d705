import { clampRange, iso, likeEscape, sortOrder, type Db, type Range } from '../sql';

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
  /** What the event did (created, updated, deleted, submitted, approved, rejected, …; see statusOf). */
  status: string | null;
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
  status: string | null;
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
  status: 'status',
  role: 'role',
  actorName: 'actor_name',
};

/** The filters of a BA's activity log (console and auditors). */
export type ActivityFilter = {
  /** The kind of activity: one event type or several (e.g. DocumentReviewed). */
  action?: string | readonly string[];
  /** The description (the entry's action text) or its remarks contain this (case-insensitive). */
  q?: string;
  /** statusOf values, one or several. */
  status?: string | readonly string[];
  /** ISO instants, both inclusive, on the entry's time. */
  from?: string;
  to?: string;
};

const list = (v: string | readonly string[] | undefined): string[] =>
  v === undefined ? [] : (typeof v === 'string' ? [v] : [...v]).map((x) => x.trim()).filter((x) => x !== '');

const toActivityRow = (r: DbRow): ActivityRow => ({
  id: Number(r.id),
  baId: r.ba_id,
  companyCode: r.company_code,
  at: iso(r.at) ?? '',
  actorUserId: r.actor_user_id,
  actorName: r.actor_name,
  role: r.role,
  action: r.action,
  status: r.status,
  changes: r.changes,
  remarks: r.remarks,
  eventId: r.event_id,
  eventType: r.event_type,
  streamVersion: r.stream_version,
});

const ACTIVITY_COLUMNS = `id, ba_id, company_code, at, actor_user_id, actor_name, role, action, status, changes, remarks, event_id,
  event_type, stream_version`;

/**
 * A BA's activity log, oldest first by default. The caller checks the BA is visible to the user first.
 * `excludeEventTypes` leaves entries out before paging (the BA's own view has no internal entries), so pages
 * and the total agree with what the caller is shown.
 */
export async function listActivity(
  db: Db,
  baId: string,
  query: {
    range?: Partial<Range>;
    sort?: { field: string; order: string };
    excludeEventTypes?: readonly string[];
    filter?: ActivityFilter;
  } = {},
): Promise<{ rows: ActivityRow[]; total: number }> {
  const range = clampRange(query.range);
  const column = (query.sort && SORT_COLUMNS[query.sort.field]) ?? 'id';
  const order = query.sort && SORT_COLUMNS[query.sort.field] ? sortOrder(query.sort.order) : 'ASC';
  const params: unknown[] = [baId, [...(query.excludeEventTypes ?? [])]];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  // Every filter narrows before paging, so the total and the pages always agree: nothing is dropped.
  const where = ['ba_id = $1', 'NOT (event_type = ANY($2::text[]))'];
  const filter = query.filter ?? {};
  const actions = list(filter.action);
  if (actions.length > 0) where.push(`event_type = ANY(${param(actions)}::text[])`);
  const statuses = list(filter.status);
  if (statuses.length > 0) where.push(`status = ANY(${param(statuses)}::text[])`);
  const q = filter.q?.trim();
  if (q) {
    const like = param(`%${likeEscape(q)}%`);
    where.push(`(action ILIKE ${like} OR remarks ILIKE ${like})`);
  }
  if (filter.from) where.push(`at >= ${param(filter.from)}::timestamptz`);
  if (filter.to) where.push(`at <= ${param(filter.to)}::timestamptz`);
  const whereSql = where.join(' AND ');
  const countParams = [...params];
  const [page, count] = await Promise.all([
    db.query<DbRow>(
      `SELECT ${ACTIVITY_COLUMNS}
       FROM activity_log WHERE ${whereSql}
       ORDER BY ${column} ${order}${column === 'id' ? '' : `, id ${order}`}
       LIMIT ${param(range.limit)} OFFSET ${param(range.offset)}`,
      params,
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM activity_log WHERE ${whereSql}`, countParams),
  ]);
  return {
    rows: page.rows.map(toActivityRow),
    total: Number(count.rows[0]?.total ?? 0),
  };
}

/** Every entry of a BA's log, oldest first: the audit export (a BA's history is short; no page cap). */
export async function activityOfBa(db: Db, baId: string): Promise<ActivityRow[]> {
  const { rows } = await db.query<DbRow>(`SELECT ${ACTIVITY_COLUMNS} FROM activity_log WHERE ba_id = $1 ORDER BY id`, [
    baId,
  ]);
  return rows.map(toActivityRow);
}

/** An entry of the auditors' search across BAs: the log entry and how staff recognise its BA. */
export type ActivitySearchRow = ActivityRow & {
  companyName: string | null;
  registeredEmail: string | null;
  registeredMobile: string | null;
};

export type ActivitySearchFilter = {
  /** Actor's name contains (case-insensitive), or the actor's user id exactly. */
  actor?: string;
  /** Action contains (case-insensitive), e.g. "approved", "Rejected at stage 2". */
  action?: string;
  /** ISO instants, both inclusive, on the entry's time. */
  from?: string;
  to?: string;
  baId?: string;
};

const SEARCH_SORT_COLUMNS: Record<string, string> = {
  id: 'a.id',
  at: 'a.at',
  action: 'a.action',
  role: 'a.role',
  actorName: 'a.actor_name',
  companyName: 'b.company_name',
};

/**
 * The auditors' search over every BA's activity log, newest first by default, within the caller's company
 * codes: the BA's code in the BA read model decides, as it does for the BA list.
 */
export async function searchActivity(
  db: Db,
  query: {
    companyCodes: readonly string[] | 'all';
    filter?: ActivitySearchFilter;
    sort?: { field: string; order: string };
    range?: Partial<Range>;
  },
): Promise<{ rows: ActivitySearchRow[]; total: number }> {
  const range = clampRange(query.range);
  const filter = query.filter ?? {};
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (query.companyCodes !== 'all') where.push(`b.company_code = ANY(${param([...query.companyCodes])}::text[])`);
  const actor = filter.actor?.trim();
  if (actor) where.push(`(a.actor_name ILIKE ${param(`%${likeEscape(actor)}%`)} OR a.actor_user_id = ${param(actor)})`);
  const action = filter.action?.trim();
  if (action) where.push(`a.action ILIKE ${param(`%${likeEscape(action)}%`)}`);
  if (filter.from) where.push(`a.at >= ${param(filter.from)}::timestamptz`);
  if (filter.to) where.push(`a.at <= ${param(filter.to)}::timestamptz`);
  if (filter.baId) where.push(`a.ba_id = ${param(filter.baId)}`);
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const countParams = [...params];
  const column = (query.sort && SEARCH_SORT_COLUMNS[query.sort.field]) ?? 'a.at';
  const order = query.sort && SEARCH_SORT_COLUMNS[query.sort.field] ? sortOrder(query.sort.order) : 'DESC';
  const from = 'FROM activity_log a JOIN business_associates b ON b.id = a.ba_id';
  const [page, count] = await Promise.all([
    db.query<DbRow & { company_name: string | null; registered_email: string | null; registered_mobile: string | null }>(
      `SELECT ${ACTIVITY_COLUMNS
        .split(',')
        .map((c) => `a.${c.trim()}`)
        .join(', ')}, b.company_name, b.registered_email, b.registered_mobile
       ${from} ${whereSql}
       ORDER BY ${column} ${order}${column === 'a.id' ? '' : `, a.id ${order}`}
       LIMIT ${param(range.limit)} OFFSET ${param(range.offset)}`,
      params,
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total ${from} ${whereSql}`, countParams),
  ]);
  return {
    rows: page.rows.map((r) => ({
      ...toActivityRow(r),
      companyName: r.company_name,
      registeredEmail: r.registered_email,
      registeredMobile: r.registered_mobile,
    })),
    total: Number(count.rows[0]?.total ?? 0),
  };
}
