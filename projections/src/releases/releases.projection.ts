import type { PoolClient } from 'pg';
import type { ReleaseEvent } from '../../../domain/src/releases/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';

/**
 * The `releases` read model (What's New and the release page): one row per version and device type, from the
 * release events alone. A withdrawn release keeps its row with status 'withdrawn' (a republish on the same
 * stream brings it back), and every query shows published rows only. Dates stay YYYY-MM-DD text: they are
 * calendar dates, not instants, and text keeps the driver from moving them through a time zone.
 */
export const releasesProjection: Projection = {
  name: 'releases',
  tables: ['releases'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('releases')} (
      id text PRIMARY KEY,
      version_released text NOT NULL,
      device_type text NOT NULL,
      feature_class text NOT NULL,
      released_on text NOT NULL,
      new_features jsonb NOT NULL,
      bug_fixes jsonb NOT NULL,
      status text NOT NULL,
      published_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      updated_by text,
      stream_version integer NOT NULL,
      global_position bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${t('releases')}_released_on_idx ON ${t('releases')} (released_on DESC)
      WHERE status = 'published';
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const releases = t('releases');
    for (const stored of events) {
      if (!stored.streamId.startsWith('release-')) continue;
      const event = { type: stored.type, data: stored.data } as ReleaseEvent;
      const at = stored.metadata.at;
      const by = stored.metadata.actor.name ?? stored.metadata.actor.userId;
      // Every statement is guarded on the stream version, so a page applied twice changes nothing.
      switch (event.type) {
        case 'ReleasePublished': {
          const d = event.data;
          // A republish after a withdrawal lands on the same row: the newer stream version wins.
          await client.query(
            `INSERT INTO ${releases} (id, version_released, device_type, feature_class, released_on, new_features,
               bug_fixes, status, published_at, updated_at, updated_by, stream_version, global_position)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'published', $8, $8, $9, $10, $11)
             ON CONFLICT (id) DO UPDATE SET version_released = EXCLUDED.version_released,
               device_type = EXCLUDED.device_type, feature_class = EXCLUDED.feature_class,
               released_on = EXCLUDED.released_on, new_features = EXCLUDED.new_features,
               bug_fixes = EXCLUDED.bug_fixes, status = 'published', published_at = EXCLUDED.published_at,
               updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by,
               stream_version = EXCLUDED.stream_version, global_position = EXCLUDED.global_position
             WHERE ${releases}.stream_version < EXCLUDED.stream_version`,
            [
              d.id,
              d.versionReleased,
              d.deviceType,
              d.featureClass,
              d.releasedOn,
              JSON.stringify(d.newFeatures),
              JSON.stringify(d.bugFixes),
              at,
              by,
              stored.version,
              stored.globalPosition,
            ],
          );
          break;
        }
        case 'ReleaseChanged': {
          const a = event.data.after;
          await client.query(
            `UPDATE ${releases} SET feature_class = COALESCE($4, feature_class),
               released_on = COALESCE($5, released_on), new_features = COALESCE($6::jsonb, new_features),
               bug_fixes = COALESCE($7::jsonb, bug_fixes), updated_at = $8, updated_by = $9,
               stream_version = $2, global_position = $3
             WHERE id = $1 AND stream_version < $2`,
            [
              event.data.id,
              stored.version,
              stored.globalPosition,
              a.featureClass ?? null,
              a.releasedOn ?? null,
              a.newFeatures ? JSON.stringify(a.newFeatures) : null,
              a.bugFixes ? JSON.stringify(a.bugFixes) : null,
              at,
              by,
            ],
          );
          break;
        }
        case 'ReleaseWithdrawn':
          await client.query(
            `UPDATE ${releases} SET status = 'withdrawn', updated_at = $4, updated_by = $5,
               stream_version = $2, global_position = $3
             WHERE id = $1 AND stream_version < $2`,
            [event.data.id, stored.version, stored.globalPosition, at, by],
          );
          break;
        default:
          // Unknown event types are ignored: a projection never throws on what it does not know.
          break;
      }
    }
  },
};
