import type { Db } from '../sql';

/**
 * Whether a user has read a notification is operational state, not an event: nobody audits it and a replay
 * must not need it. It lives beside the `notifications` projection in two tables a rebuild never touches (no
 * foreign key to `notifications`, whose rebuild drops and renames the table), keyed by the projection's
 * deterministic ids and positions, which a rebuild reproduces: so a rebuild keeps what users have read.
 *
 * - `notification_read_marks`: "Mark all as read" moves the user's mark to the newest position they had;
 *   everything at or below it is read, however many rows that is.
 * - `notification_reads`: single rows read above the mark; "Mark all as read" deletes those it covers, so the
 *   table stays small.
 *
 * Created by the owner in applySchema (platform/src/db/schema.ts); the application role reads and writes it.
 */
export const NOTIFICATION_READ_STATE_DDL = `
CREATE TABLE IF NOT EXISTS notification_read_marks (
  user_id text PRIMARY KEY,
  read_up_to bigint NOT NULL,
  read_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS notification_reads (
  user_id text NOT NULL,
  notification_id text NOT NULL,
  source_position bigint NOT NULL,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, notification_id)
);`;

export async function ensureNotificationReadStateSchema(db: Db): Promise<void> {
  await db.query(NOTIFICATION_READ_STATE_DDL);
}
