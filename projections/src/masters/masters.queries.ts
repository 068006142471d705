import { keyText, type MasterDefinition, type MasterStatus, type MasterValues } from '../../../domain/src/masters/definitions';
import { likeEscape, type Db, type Range, type SortOrder } from '../sql';

/** One item as the API answers it: `{ id, ...values, status, updatedAt }` (id a number for idKind 'int'). */
export type MasterItem = { id: number | string; status: MasterStatus; updatedAt: string } & MasterValues;

export type MasterListQuery = {
  q?: string;
  status?: MasterStatus;
  ids?: readonly (number | string)[];
  /** Filters on 'ref' fields (equal to one of the ids) and 'refs' fields (contains one of the ids). */
  refs?: Record<string, readonly number[]>;
  /** A field name of the master, or 'id' | 'status' | 'updatedAt'. */
  sort: { field: string; order: SortOrder };
  range: Range;
};

/** Fields every master can be sorted by besides its own. */
export const COMMON_SORT_FIELDS = ['id', 'status', 'updatedAt'] as const;

const SELECT = `id, num_id, status, values,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

type Row = { id: string; num_id: string | number | null; status: MasterStatus; values: MasterValues; updated_at: string };

const toItem = (r: Row): MasterItem => ({
  id: r.num_id === null ? r.id : Number(r.num_id),
  ...r.values,
  status: r.status,
  updatedAt: r.updated_at,
});

/** A JSON key inside SQL text: field names come from the definitions, still quoted as literals. */
const jsonKey = (name: string): string => `'${name.replace(/'/g, "''")}'`;

/** ORDER BY expression of a field, typed: numbers as numbers, booleans as booleans, text case-insensitively. */
function orderExpression(def: MasterDefinition, field: string): string {
  if (field === 'id') return def.idKind === 'int' ? 'num_id' : 'id';
  if (field === 'status') return 'status';
  if (field === 'updatedAt') return 'updated_at';
  if (field === def.display) return 'sort_name';
  const f = def.fields.find((x) => x.name === field);
  if (!f) return 'sort_name';
  const v = `values->>${jsonKey(f.name)}`;
  switch (f.kind) {
    case 'int':
    case 'decimal':
    case 'percent':
    case 'ref':
      return `(${v})::numeric`;
    case 'bool':
      return `(${v})::boolean`;
    case 'refs':
      return `jsonb_array_length(values->${jsonKey(f.name)})`;
    default:
      return `lower(${v})`;
  }
}

export async function listMasterItems(
  db: Db,
  def: MasterDefinition,
  query: MasterListQuery,
): Promise<{ rows: MasterItem[]; total: number }> {
  const params: unknown[] = [def.resource];
  const where = ['master = $1'];
  if (query.status) {
    params.push(query.status);
    where.push(`status = $${params.length}`);
  }
  if (query.q && query.q.trim() !== '') {
    params.push(`%${likeEscape(query.q.trim().toLowerCase())}%`);
    where.push(`search LIKE $${params.length}`);
  }
  if (query.ids) {
    params.push(query.ids.map(String));
    where.push(`id = ANY($${params.length}::text[])`);
  }
  for (const [name, ids] of Object.entries(query.refs ?? {})) {
    const field = def.fields.find((f) => f.name === name);
    if (!field || (field.kind !== 'ref' && field.kind !== 'refs')) continue;
    // jsonb containment uses the GIN index: {"stateId": 27} or {"stateIds": [27]}.
    const docs = ids.map((id) => JSON.stringify({ [name]: field.kind === 'refs' ? [id] : id }));
    params.push(docs);
    where.push(`values @> ANY($${params.length}::jsonb[])`);
  }
  const order = query.sort.order === 'DESC' ? 'DESC' : 'ASC';
  const tie = def.idKind === 'int' ? 'num_id' : 'id';
  const filtersOnlyStatus = !query.q && !query.ids && Object.keys(query.refs ?? {}).length === 0;

  // The dashboard's counts answer the common case (no search, no filter but status) without a count scan.
  const totalSql = filtersOnlyStatus
    ? `SELECT coalesce((SELECT ${query.status === 'active' ? 'active' : query.status === 'inactive' ? 'inactive' : 'active + inactive'}
         FROM master_counts WHERE master = $1), 0) AS total`
    : `SELECT count(*) AS total FROM master_items WHERE ${where.join(' AND ')}`;
  params.push(query.range.limit, query.range.offset);
  // Page and total in one statement, one round trip; the lateral join keeps the total when the page is empty.
  const { rows } = await db.query<Row & { __total: string | number; __sort: number }>(
    `SELECT t.total AS __total, p.* FROM (${totalSql}) t
     LEFT JOIN LATERAL (
       SELECT ${SELECT}, row_number() OVER () AS __sort FROM (
         SELECT * FROM master_items WHERE ${where.join(' AND ')}
         ORDER BY ${orderExpression(def, query.sort.field)} ${order} NULLS LAST, ${tie} ${order}
         LIMIT $${params.length - 1} OFFSET $${params.length}
       ) m
     ) p ON true
     ORDER BY p.__sort`,
    params,
  );
  return { rows: rows.filter((r) => r.id !== null).map(toItem), total: Number(rows[0]?.__total ?? 0) };
}

export async function getMasterItem(db: Db, resource: string, id: number | string): Promise<MasterItem | null> {
  const { rows } = await db.query<Row>(`SELECT ${SELECT} FROM master_items WHERE master = $1 AND id = $2`, [
    resource,
    String(id),
  ]);
  return rows[0] ? toItem(rows[0]) : null;
}

export async function getMasterItems(
  db: Db,
  resource: string,
  ids: readonly (number | string)[],
): Promise<MasterItem[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<Row>(
    `SELECT ${SELECT} FROM master_items WHERE master = $1 AND id = ANY($2::text[]) ORDER BY num_id, id`,
    [resource, ids.map(String)],
  );
  return rows.map(toItem);
}

/** Every item of a master in id order, in pages (the workbook export). */
export async function* allMasterItems(db: Db, resource: string, pageSize = 1000): AsyncGenerator<MasterItem[]> {
  let after: { num: number | null; id: string } | null = null;
  for (;;) {
    const params: unknown[] = [resource, pageSize];
    let cond = '';
    if (after) {
      params.push(after.num ?? -1, after.id);
      cond = `AND (coalesce(num_id, -1), id) > ($3::bigint, $4::text)`;
    }
    const { rows }: { rows: Row[] } = await db.query<Row>(
      `SELECT ${SELECT} FROM master_items WHERE master = $1 ${cond}
       ORDER BY coalesce(num_id, -1), id LIMIT $2`,
      params,
    );
    if (rows.length === 0) return;
    yield rows.map(toItem);
    const last: Row = rows[rows.length - 1]!;
    after = { num: last.num_id === null ? null : Number(last.num_id), id: last.id };
    if (rows.length < pageSize) return;
  }
}

/**
 * The item of `resource` other than `exceptId` holding the unique key of `fields` with these `normalised` parts
 * (the same text the api claims: case-insensitive, spaces collapsed), or null: the uniqueness check against
 * items written without a key claim (reference data). By the unique_keys index; rows written before that column
 * (NULL) are compared by their values.
 */
export async function findByUniqueKey(
  db: Db,
  resource: string,
  fields: readonly string[],
  normalised: readonly string[],
  exceptId: string | null,
): Promise<string | null> {
  const params: unknown[] = [resource, exceptId ?? '', [keyText(fields, normalised)]];
  const conds = fields.map((f, i) => {
    params.push(normalised[i] ?? '');
    return `regexp_replace(lower(btrim(coalesce(values->>${jsonKey(f)}, ''))), '\\s+', ' ', 'g') = $${params.length}`;
  });
  // The keyed rows holding the key are looked up by the key alone, in a materialised CTE, so the GIN index is
  // the only index that can serve them whatever the statistics say. Written as one condition beside
  // "master = $1", stale statistics (a master grown by thousands of items since the last ANALYZE, as in a burst
  // of creates or a workbook import) made the planner walk the primary key over every item of the master
  // instead: 5 ms a create at 6,000 block reasons, a whole core at 200 creates a second (the lag bench).
  const { rows } = await db.query<{ id: string }>(
    `WITH keyed AS MATERIALIZED (SELECT master, id FROM master_items WHERE unique_keys @> $3::text[])
     SELECT id FROM keyed WHERE master = $1 AND id <> $2
     UNION ALL
     (SELECT id FROM master_items WHERE master = $1 AND id <> $2 AND unique_keys IS NULL AND ${conds.join(' AND ')})
     LIMIT 1`,
    params,
  );
  return rows[0]?.id ?? null;
}

export type MasterCount = { master: string; active: number; inactive: number };

export async function masterCounts(db: Db): Promise<MasterCount[]> {
  const { rows } = await db.query<MasterCount>('SELECT master, active, inactive FROM master_counts ORDER BY master');
  return rows;
}
