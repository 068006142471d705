import type { StoredFile } from '../../../domain/src/shared/files';
import { clampRange, iso, likeEscape, sortOrder, type Db, type Range } from '../sql';

/** One annexure as the API lists it (ra-data-simple-rest resource `annexures`). */
export type AnnexureRow = {
  id: string;
  title: string;
  fileName: string;
  /** MIME type, e.g. application/pdf. */
  fileType: string;
  size: number;
  status: 'active' | 'withdrawn';
  uploadedAt: string;
  updatedAt: string;
};

/** The row with what a download needs: the stored file. */
export type AnnexureRecord = AnnexureRow & { file: StoredFile };

export const ANNEXURE_SORT_FIELDS = ['title', 'uploadedAt', 'updatedAt', 'size', 'fileType'] as const;
export type AnnexureSortField = (typeof ANNEXURE_SORT_FIELDS)[number];

const SORT_COLUMNS: Record<AnnexureSortField, string> = {
  title: 'lower(title)',
  uploadedAt: 'uploaded_at',
  updatedAt: 'updated_at',
  size: 'file_size',
  fileType: 'file_type',
};

type DbRow = {
  id: string;
  title: string;
  file_name: string;
  file_type: string;
  file_size: string;
  sha256: string;
  status: 'active' | 'withdrawn';
  uploaded_at: Date;
  updated_at: Date;
};

const COLUMNS = 'id, title, file_name, file_type, file_size, sha256, status, uploaded_at, updated_at';

const toRecord = (r: DbRow): AnnexureRecord => ({
  id: r.id,
  title: r.title,
  fileName: r.file_name,
  fileType: r.file_type,
  size: Number(r.file_size),
  status: r.status,
  uploadedAt: iso(r.uploaded_at) ?? '',
  updatedAt: iso(r.updated_at) ?? '',
  file: { name: r.file_name, size: Number(r.file_size), type: r.file_type, sha256: r.sha256 },
});

/** The list row: the file's hash stays on the server. */
export const toAnnexureRow = ({ file: _file, ...row }: AnnexureRecord): AnnexureRow => row;

/** Published annexures in upload order by default (the portal's cards keep their places). */
export async function listAnnexures(
  db: Db,
  query: { q?: string; ids?: readonly string[]; sort?: { field: AnnexureSortField; order: string }; range?: Partial<Range> },
): Promise<{ rows: AnnexureRow[]; total: number }> {
  const range = clampRange(query.range, 100);
  const params: unknown[] = [];
  const where = [`status = 'active'`];
  if (query.q) {
    params.push(`%${likeEscape(query.q.toLowerCase())}%`);
    where.push(`(lower(title) LIKE $${params.length} OR lower(file_name) LIKE $${params.length})`);
  }
  if (query.ids) {
    params.push(query.ids);
    where.push(`id = ANY($${params.length}::text[])`);
  }
  const column = SORT_COLUMNS[query.sort?.field ?? 'uploadedAt'];
  const order = sortOrder(query.sort?.order ?? 'ASC');
  params.push(range.limit, range.offset);
  const { rows } = await db.query<DbRow & { total: string }>(
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM annexures WHERE ${where.join(' AND ')}
     ORDER BY ${column} ${order}, id ASC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && range.offset > 0) {
    const counted = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM annexures WHERE ${where.join(' AND ')}`,
      params.slice(0, -2),
    );
    total = Number(counted.rows[0]?.n ?? 0);
  }
  return { rows: rows.map((r) => toAnnexureRow(toRecord(r))), total };
}

/** One annexure, withdrawn ones included (the caller decides what to show). */
export async function getAnnexure(db: Db, id: string): Promise<AnnexureRecord | null> {
  const { rows } = await db.query<DbRow>(`SELECT ${COLUMNS} FROM annexures WHERE id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}
