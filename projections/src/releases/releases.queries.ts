import type { DeviceType, FeatureClass, ReleaseEntry } from '../../../domain/src/releases/fields';
import type { Db, Range, SortOrder } from '../sql';

/** One release as the API answers it (GET /api/releases, GET /api/releases/:versionReleased/:deviceType). */
export type ReleaseRow = {
  id: string;
  versionReleased: string;
  deviceType: DeviceType;
  featureClass: FeatureClass;
  /** YYYY-MM-DD. */
  releasedOn: string;
  newFeatures: ReleaseEntry[];
  bugFixes: ReleaseEntry[];
};

export type ReleaseSortField = 'releasedOn' | 'versionReleased' | 'deviceType' | 'featureClass';

export type ReleaseListQuery = {
  /** Only releases of these classes (a BA's What's New: ba and all). */
  classes?: readonly FeatureClass[];
  deviceType?: DeviceType;
  ids?: readonly string[];
  sort: { field: ReleaseSortField; order: SortOrder };
  range: Range;
};

const COLUMNS = `id, version_released AS "versionReleased", device_type AS "deviceType",
  feature_class AS "featureClass", released_on AS "releasedOn", new_features AS "newFeatures",
  bug_fixes AS "bugFixes"`;

// Versions sort as numbers part by part (1.10.0 after 1.9.2); numeric, not int: a part may be long.
const VERSION_KEY = `string_to_array(version_released, '.')::numeric[]`;

const ORDER: Record<ReleaseSortField, string> = {
  releasedOn: 'released_on',
  versionReleased: VERSION_KEY,
  deviceType: 'device_type',
  featureClass: 'feature_class',
};

/** Published releases, newest first unless asked otherwise; ties by version (newest first), then device. */
export async function listReleases(db: Db, q: ReleaseListQuery): Promise<{ rows: ReleaseRow[]; total: number }> {
  const where = [`status = 'published'`];
  const params: unknown[] = [];
  if (q.classes) {
    params.push(q.classes);
    where.push(`feature_class = ANY($${params.length})`);
  }
  if (q.deviceType) {
    params.push(q.deviceType);
    where.push(`device_type = $${params.length}`);
  }
  if (q.ids) {
    params.push(q.ids);
    where.push(`id = ANY($${params.length})`);
  }
  const order = q.sort.order === 'DESC' ? 'DESC' : 'ASC';
  params.push(q.range.limit, q.range.offset);
  const { rows } = await db.query<ReleaseRow & { total: number }>(
    `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM releases
     WHERE ${where.join(' AND ')}
     ORDER BY ${ORDER[q.sort.field]} ${order}, ${VERSION_KEY} DESC, device_type ASC
     LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    // An empty page past the end still reports the total (Content-Range).
    const counted = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM releases WHERE ${where.join(' AND ')}`,
      params.slice(0, -2),
    );
    total = counted.rows[0]?.n ?? 0;
  }
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

/** A published release by id ("1.4.0-web"); null when there is none or it was withdrawn. */
export async function getRelease(db: Db, id: string): Promise<ReleaseRow | null> {
  const { rows } = await db.query<ReleaseRow>(
    `SELECT ${COLUMNS} FROM releases WHERE id = $1 AND status = 'published'`,
    [id],
  );
  return rows[0] ?? null;
}
