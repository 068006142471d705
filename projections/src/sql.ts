import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg, { type Pool, type PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { isRebuildTable } from './projection';

/** Anything that runs a query: the pool (API reads) or a client inside a transaction (the runner). */
export type Db = Pick<Pool | PoolClient, 'query'>;

export type SortOrder = 'ASC' | 'DESC';
export type Range = { offset: number; limit: number };

/** Every list caps its page: a client asking for more gets at most this many rows. */
export const MAX_PAGE_SIZE = 100;

export function clampRange(range: Partial<Range> | undefined, fallbackLimit = 25): Range {
  const offset = Math.max(0, Math.trunc(Number(range?.offset ?? 0)) || 0);
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(0, Math.trunc(Number(range?.limit ?? fallbackLimit)) || 0));
  return { offset, limit };
}

export const sortOrder = (order: string | undefined): SortOrder =>
  String(order ?? '').toUpperCase() === 'DESC' ? 'DESC' : 'ASC';

/** Escapes LIKE wildcards so user text matches literally. */
export const likeEscape = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** Milliseconds of an ISO time, for arithmetic on event times. */
export const msOf = (at: string): number => new Date(at).getTime();

export type Column<Row> = { name: keyof Row & string; type: string };

/**
 * The rows of a page as a FROM item: one typed array parameter per column, `unnest`ed back into rows. That
 * is one statement per table per page, and PostgreSQL reads typed arrays about twice as fast as the same rows
 * as JSON. An array-typed column (text[]) travels as one array literal per row, cast back in `select`.
 */
export function rowSource<Row extends Record<string, unknown>>(
  columns: readonly Column<Row>[],
  rows: readonly Row[],
  firstParam = 1,
): { from: string; select: string; params: unknown[] } {
  const isArray = (c: Column<Row>) => c.type.endsWith('[]');
  const args = columns.map((c, i) => `$${firstParam + i}::${isArray(c) ? 'text' : c.type}[]`);
  return {
    from: `unnest(${args.join(', ')}) AS x(${columns.map((c) => c.name).join(', ')})`,
    select: columns.map((c) => (isArray(c) ? `x.${c.name}::${c.type}` : `x.${c.name}`)).join(', '),
    params: columns.map((c) => arrayParam(rows, c.name, c.type)),
  };
}

const NUMERIC = new Set(['smallint', 'integer', 'bigint', 'boolean']);

/** A text element of an array literal: quoted, with `"` and `\\` escaped (checked first: they are rare). */
const quote = (text: string): string =>
  text.indexOf('"') === -1 && text.indexOf('\\') === -1
    ? `"${text}"`
    : `"${text.replace(/["\\]/g, (ch) => `\\${ch}`)}"`;

/**
 * A column's values as PostgreSQL's text input for its type (one definition for the array parameters and
 * for COPY): numbers and booleans as they print, an array column as an array literal, a string as it is and
 * anything else (jsonb) as its JSON.
 */
function textOf(type: string): (value: unknown) => string {
  if (NUMERIC.has(type)) return (v) => String(v);
  if (type.endsWith('[]')) return (v) => `{${(v as readonly string[]).map(quote).join(',')}}`;
  return (v) => (typeof v === 'string' ? v : JSON.stringify(v));
}

/**
 * One column of the rows as a PostgreSQL array literal, built here rather than by the driver (which
 * inspects and escapes every element generically): on a rebuild this is most of the client's work.
 */
function arrayParam<Row extends Record<string, unknown>>(rows: readonly Row[], name: string, type: string): string {
  const text = textOf(type);
  const encode = NUMERIC.has(type) ? text : (v: unknown) => quote(text(v));
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const value = rows[i]![name];
    parts[i] = value === null || value === undefined ? 'NULL' : encode(value);
  }
  return `{${parts.join(',')}}`;
}

/** COPY's text format escapes: backslash, and the tab, newline and carriage return that delimit. */
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const copyEscape = (text: string): string =>
  COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]!) : text;

/**
 * Inserts the rows with `COPY … FROM STDIN` (text format). PostgreSQL takes rows this way four to seven times
 * faster than as `INSERT … SELECT FROM unnest(arrays)` (5,000 BA rows: 46 ms against 180 ms), because it
 * parses each value once instead of an array literal and then its elements. The same rules hold as for
 * INSERT: defaults fill the columns not named, and a duplicate key fails the statement (and the transaction).
 */
export async function copyRows<Row extends Record<string, unknown>>(
  client: pg.ClientBase,
  table: string,
  columns: readonly Column<Row>[],
  rows: readonly Row[],
): Promise<void> {
  const encoders = columns.map((c) => textOf(c.type));
  const lines = new Array<string>(rows.length);
  const cells = new Array<string>(columns.length);
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    for (let j = 0; j < columns.length; j += 1) {
      const value = row[columns[j]!.name];
      cells[j] = value === null || value === undefined ? '\\N' : copyEscape(encoders[j]!(value));
    }
    lines[i] = cells.join('\t');
  }
  const sql = `COPY ${table} (${columns.map((c) => c.name).join(', ')}) FROM STDIN`;
  await pipeline(Readable.from([`${lines.join('\n')}\n`]), client.query(copyFrom(sql)));
}

/**
 * Set-based upsert of whole rows (see rowSource). `guard` is an optional extra condition on the DO UPDATE
 * (e.g. a version check); `returning` lists columns of the rows actually written.
 */
export async function upsertRows<Row extends Record<string, unknown>>(
  db: Db,
  table: string,
  columns: readonly Column<Row>[],
  rows: readonly Row[],
  options: { conflict: readonly string[]; guard?: string; returning?: string; doNothing?: boolean },
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const names = columns.map((c) => c.name);
  const updates = names
    .filter((n) => !options.conflict.includes(n))
    .map((n) => `${n} = excluded.${n}`)
    .join(', ');
  const onConflict = options.doNothing
    ? 'DO NOTHING'
    : `DO UPDATE SET ${updates}${options.guard ? ` WHERE ${options.guard}` : ''}`;
  const source = rowSource(columns, rows);
  const sql = `INSERT INTO ${table} (${names.join(', ')})
    SELECT ${source.select} FROM ${source.from}
    ON CONFLICT (${options.conflict.join(', ')}) ${onConflict}
    ${options.returning ? `RETURNING ${options.returning}` : ''}`;
  const result = await db.query(sql, source.params);
  return result.rows as Record<string, unknown>[];
}

/**
 * From how many rows `insertNew` sends them with COPY: COPY costs one more round trip (the server accepts the
 * copy before the rows go), which only pays on pages with many new streams (a rebuild, a mass upload).
 */
export const COPY_MIN_ROWS = 64;

/**
 * Inserts the rows whose key is not in the table yet and returns the keys that were there already (usually
 * none). Projections call it for rows folded from a stream's first event and treat a key returned as a page
 * applied before.
 *
 * Two statements: the keys already stored, probed through the key's unique index (not in a rebuild's table:
 * see storedKeys), then a plain INSERT of the others (a COPY from COPY_MIN_ROWS rows in a transaction).
 * Not `INSERT … WHERE NOT EXISTS` in one statement: on a table growing during a rebuild the planner
 * hash-joins the page against a scan of the whole table, so each page cost more than the one before (a
 * 5,000-row page at 60,000 rows: 47 ms, half of it scanning). Not `ON CONFLICT DO NOTHING RETURNING`
 * either: its speculative insertion costs more per row than the probe. A plain INSERT is safe because one
 * writer at a time applies a projection's pages (the projector under its checkpoint lock, or a rebuild into
 * tables of its own); should a key still collide, the unique index fails the page's transaction, which is
 * retried, rather than dropping a row.
 */
export async function insertNew<Row extends Record<string, unknown>>(
  db: Db,
  table: string,
  columns: readonly Column<Row>[],
  rows: readonly Row[],
  key: keyof Row & string,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const keyType = columns.find((c) => c.name === key)?.type ?? 'text';
  const existing = isRebuildTable(table) ? new Set<string>() : await storedKeys(db, table, key, keyType, rows.map((r) => r[key]));
  const fresh = existing.size === 0 ? rows : rows.filter((r) => !existing.has(String(r[key])));
  if (fresh.length === 0) return existing;
  // A column null in every row is left to its default (NULL for every nullable column here): a new row is
  // mostly empty, and an array of NULLs is still work to build and to read.
  const used = columns.filter(
    (c) => c.name === key || fresh.some((r) => r[c.name] !== null && r[c.name] !== undefined),
  );
  if (fresh.length >= COPY_MIN_ROWS && db instanceof pg.Client) {
    await copyRows(db, table, used, fresh);
    return existing;
  }
  const source = rowSource(used, fresh);
  await db.query(
    `INSERT INTO ${table} (${used.map((c) => c.name).join(', ')}) SELECT ${source.select} FROM ${source.from}`,
    source.params,
  );
  return existing;
}

/**
 * Which of `keys` are stored in `table` already. Not asked of a rebuild's table: a page never reaches it twice,
 * so the rows folded from a stream's first event cannot be there, and the probe (a hashed scan of a table
 * without statistics while it loads) was about an eighth of the rebuild's PostgreSQL time. Should a key be
 * there after all, the INSERT fails on the unique index and the rebuild stops, so no row is lost.
 */
async function storedKeys(db: Db, table: string, key: string, keyType: string, keys: readonly unknown[]): Promise<Set<string>> {
  const { rows: stored } = await db.query<Record<string, unknown>>(
    `SELECT ${key} FROM ${table} WHERE ${key} = ANY($1::${keyType}[])`,
    [keys],
  );
  return new Set(stored.map((r) => String(r[key])));
}

/** Rewrites stored rows where `guard` (over `t`, the stored row, and `x`, the new one) holds; returns their keys. */
export async function updateWhere<Row extends Record<string, unknown>>(
  db: Db,
  table: string,
  columns: readonly Column<Row>[],
  rows: readonly Row[],
  key: keyof Row & string,
  guard: string,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const source = rowSource(columns, rows);
  const sets = columns.filter((c) => c.name !== key).map((c) => `${c.name} = x.${c.name}`);
  const { rows: updated } = await db.query<Record<string, string>>(
    `UPDATE ${table} t SET ${sets.join(', ')}
     FROM (SELECT ${source.select} FROM ${source.from}) x
     WHERE t.${key} = x.${key} AND ${guard}
     RETURNING t.${key}`,
    source.params,
  );
  return new Set(updated.map((r) => String(r[key])));
}

/**
 * Net moves of a count table's cells in one page: per cell, the values of the table's key columns (in the
 * order `applyCountDeltas` names them) and how much its count moves.
 */
export type CountDeltas = Map<string, { key: readonly string[]; delta: number }>;

/** Moves the cell `key` (its key column values) by `by` within the page. */
export function moveCount(deltas: CountDeltas, key: readonly string[], by: number): void {
  const id = key.join('\u0000');
  const entry = deltas.get(id) ?? { key, delta: 0 };
  entry.delta += by;
  deltas.set(id, entry);
}

/**
 * Adds a page's net moves to a count table (text `keyColumns`, their unique key, and a bigint `count`): one
 * statement per page, two when a cell empties. Badge counts are kept this way rather than counted at read time.
 */
export async function applyCountDeltas(db: Db, table: string, keyColumns: readonly string[], deltas: CountDeltas): Promise<void> {
  const nonZero = [...deltas.values()].filter((d) => d.delta !== 0);
  if (nonZero.length === 0) return;
  const keys = keyColumns.join(', ');
  const arrays = [...keyColumns.map((_, i) => `$${i + 1}::text[]`), `$${keyColumns.length + 1}::bigint[]`];
  await db.query(
    `INSERT INTO ${table} (${keys}, count)
     SELECT * FROM unnest(${arrays.join(', ')})
     ON CONFLICT (${keys}) DO UPDATE SET count = ${table}.count + excluded.count`,
    [...keyColumns.map((_, i) => nonZero.map((d) => d.key[i])), nonZero.map((d) => d.delta)],
  );
  // An emptied cell loses its row, so the table does not depend on how events were paged (rebuild = live).
  if (nonZero.some((d) => d.delta < 0)) await db.query(`DELETE FROM ${table} WHERE count = 0`);
}
