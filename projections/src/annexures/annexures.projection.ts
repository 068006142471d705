import type { PoolClient } from 'pg';
import { ANNEXURE_STREAM_PREFIX, type AnnexureEvent } from '../../../domain/src/annexures/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';

/**
 * `annexures`: the PO annexures list (GET /api/annexures) and what a download reads (the file's name, type,
 * size and sha256). Withdrawn annexures keep their row with status 'withdrawn' and leave the list.
 */
export const annexuresProjection: Projection = {
  name: 'annexures',
  tables: ['annexures'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('annexures')} (
      id text PRIMARY KEY,
      title text NOT NULL,
      file_name text NOT NULL,
      file_type text NOT NULL,
      file_size bigint NOT NULL,
      sha256 text NOT NULL,
      status text NOT NULL,
      uploaded_at timestamptz NOT NULL,
      uploaded_by text NOT NULL,
      updated_at timestamptz NOT NULL,
      updated_by text NOT NULL,
      stream_version integer NOT NULL,
      global_position bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${t('annexures')}_status_uploaded_idx ON ${t('annexures')} (status, uploaded_at);
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const table = t('annexures');
    for (const stored of events) {
      if (!stored.streamId.startsWith(ANNEXURE_STREAM_PREFIX)) continue;
      const event = { type: stored.type, data: stored.data } as AnnexureEvent;
      const at = stored.metadata.at;
      const by = stored.metadata.actor.name ?? stored.metadata.actor.userId;
      // Guarded on the stream version: a page applied twice changes nothing.
      const guard = `id = $1 AND stream_version < ${Number(stored.version)}`;
      switch (event.type) {
        case 'AnnexureUploaded': {
          const { id, title, file } = event.data;
          await client.query(
            `INSERT INTO ${table} (id, title, file_name, file_type, file_size, sha256, status, uploaded_at, uploaded_by,
               updated_at, updated_by, stream_version, global_position)
             VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $7, $8, $9, $10)
             ON CONFLICT (id) DO NOTHING`,
            [id, title, file.name, file.type, file.size, file.sha256, at, by, stored.version, stored.globalPosition],
          );
          break;
        }
        case 'AnnexureReplaced': {
          const { id, title, file } = event.data;
          await client.query(
            `UPDATE ${table} SET title = $2, file_name = $3, file_type = $4, file_size = $5, sha256 = $6,
               updated_at = $7, updated_by = $8, stream_version = $9, global_position = $10
             WHERE ${guard}`,
            [id, title, file.name, file.type, file.size, file.sha256, at, by, stored.version, stored.globalPosition],
          );
          break;
        }
        case 'AnnexureWithdrawn':
          await client.query(
            `UPDATE ${table} SET status = 'withdrawn', updated_at = $2, updated_by = $3, stream_version = $4,
               global_position = $5 WHERE ${guard}`,
            [event.data.id, at, by, stored.version, stored.globalPosition],
          );
          break;
        default:
          // Unknown event types are ignored: a projection never throws on what it does not know.
          break;
      }
    }
  },
};
