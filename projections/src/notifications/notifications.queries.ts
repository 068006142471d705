import type { Db, Range } from '../sql';

/** A notification as the API answers it (GET /api/notifications, the stream's `notification` event). */
export type NotificationItem = {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  createdAt: string;
  read: boolean;
};

/** With its place in the user's list, for the stream (what is newer than what a client has). */
export type PositionedNotification = NotificationItem & { position: number };

type Row = {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  created_at: string;
  read: boolean;
  source_position: string;
};

const toItem = (r: Row): NotificationItem => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  body: r.body,
  link: r.link,
  createdAt: r.created_at,
  read: r.read,
});

/** Read: at or below the user's "all read" mark, or marked one by one (./read-state.ts). */
const SELECT_ITEMS = `
  SELECT n.id, n.kind, n.title, n.body, n.link, to_char(n.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
         n.source_position,
         (n.source_position <= COALESCE(m.read_up_to, 0)
           OR EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = n.user_id AND r.notification_id = n.id)) AS read
  FROM notifications n
  LEFT JOIN notification_read_marks m ON m.user_id = n.user_id`;

/** The user's own notifications, newest first unless asked otherwise (by the position of their event). */
export async function listNotifications(
  db: Db,
  userId: string,
  range: Range,
  order: 'ASC' | 'DESC' = 'DESC',
): Promise<{ rows: NotificationItem[]; total: number }> {
  const dir = order === 'ASC' ? 'ASC' : 'DESC';
  const [page, count] = await Promise.all([
    db.query<Row>(
      `${SELECT_ITEMS} WHERE n.user_id = $1 ORDER BY n.source_position ${dir}, n.id ${dir} OFFSET $2 LIMIT $3`,
      [userId, range.offset, range.limit],
    ),
    db.query<{ total: number }>('SELECT count(*)::int AS total FROM notifications WHERE user_id = $1', [userId]),
  ]);
  return { rows: page.rows.map(toItem), total: count.rows[0]?.total ?? 0 };
}

/**
 * Unread count: an index range scan of the user's rows above their "all read" mark, less those read one by
 * one. Cheap because it only looks past the mark (what arrived since the last "Mark all as read"); a counter
 * table would have to join two writers (the projector adds rows, the API marks them read) and drift.
 */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  // Named (prepared once per connection): every page of both front ends asks for this on every load, and
  // planning the statement cost PostgreSQL more than running it. One user's rows by index, so the generic
  // plan PostgreSQL may switch to after five runs is the same plan (unlike the lists' skewed filters).
  const { rows } = await db.query<{ unread: number }>({
    name: 'notifications_unread_count',
    text: `SELECT count(*)::int AS unread FROM notifications n
     WHERE n.user_id = $1
       AND n.source_position > COALESCE((SELECT read_up_to FROM notification_read_marks WHERE user_id = $1), 0)
       AND NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = $1 AND r.notification_id = n.id)`,
    values: [userId],
  });
  return rows[0]?.unread ?? 0;
}

/** Marks one of the user's own notifications read; false when the user has no notification of that id. */
export async function markNotificationRead(db: Db, userId: string, id: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `WITH own AS (SELECT id, source_position FROM notifications WHERE id = $2 AND user_id = $1),
     marked AS (
       INSERT INTO notification_reads (user_id, notification_id, source_position)
       SELECT $1, own.id, own.source_position FROM own
       WHERE own.source_position > COALESCE((SELECT read_up_to FROM notification_read_marks WHERE user_id = $1), 0)
       ON CONFLICT (user_id, notification_id) DO NOTHING
     )
     SELECT EXISTS (SELECT 1 FROM own) AS found`,
    [userId, id],
  );
  return rows[0]?.found ?? false;
}

/**
 * Everything the user has now is read: the mark moves to their newest row (never back), and the single
 * marks it covers are dropped. Rows projected later lie above the mark and arrive unread.
 */
export async function markAllNotificationsRead(db: Db, userId: string): Promise<void> {
  await db.query(
    `WITH newest AS (SELECT max(source_position) AS p FROM notifications WHERE user_id = $1),
     mark AS (
       INSERT INTO notification_read_marks (user_id, read_up_to, read_at)
       SELECT $1, newest.p, now() FROM newest WHERE newest.p IS NOT NULL
       ON CONFLICT (user_id) DO UPDATE SET read_up_to = GREATEST(notification_read_marks.read_up_to, excluded.read_up_to),
         read_at = excluded.read_at
       RETURNING read_up_to
     )
     DELETE FROM notification_reads WHERE user_id = $1 AND source_position <= (SELECT read_up_to FROM mark)`,
    [userId],
  );
}

/** The position of the user's newest notification (0 without any): where a new stream starts. */
export async function newestPosition(db: Db, userId: string): Promise<number> {
  const { rows } = await db.query<{ p: string | null }>(
    'SELECT max(source_position) AS p FROM notifications WHERE user_id = $1',
    [userId],
  );
  return Number(rows[0]?.p ?? 0);
}

/** The user's notifications after `position`, oldest first (the order a stream delivers them in). */
export async function notificationsAfter(
  db: Db,
  userId: string,
  position: number,
  limit = 50,
): Promise<PositionedNotification[]> {
  const { rows } = await db.query<Row>(
    `${SELECT_ITEMS} WHERE n.user_id = $1 AND n.source_position > $2
     ORDER BY n.source_position, n.id LIMIT $3`,
    [userId, position, limit],
  );
  return rows.map((r) => ({ ...toItem(r), position: Number(r.source_position) }));
}
