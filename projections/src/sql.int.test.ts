import { createTestDatabase, type TestDatabase } from '../../tests/support/postgres';
import { COPY_MIN_ROWS, insertNew, type Column } from './sql';

/**
 * insertNew is how the projections write rows folded from a stream's first event: it must add the new rows,
 * leave rows already stored untouched, and name those, so a page applied twice is recognised.
 */
type Row = { id: string; company_code: string; note: string | null; tags: string[] | null; n: number };
const COLUMNS: readonly Column<Row>[] = [
  { name: 'id', type: 'text' },
  { name: 'company_code', type: 'text' },
  { name: 'note', type: 'text' },
  { name: 'tags', type: 'text[]' },
  { name: 'n', type: 'integer' },
];
const row = (id: string, overrides: Partial<Row> = {}): Row => ({
  id,
  company_code: '1000',
  note: null,
  tags: null,
  n: 1,
  ...overrides,
});

let db: TestDatabase;

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 2 });
  await db.pool.query(`CREATE TABLE things (
    id text PRIMARY KEY, company_code text NOT NULL, note text DEFAULT 'unset', tags text[], n int NOT NULL)`);
  await db.pool.query(`CREATE TABLE numbered (id bigint PRIMARY KEY, label text NOT NULL)`);
});

afterEach(async () => {
  await db.drop();
});

const stored = async () =>
  (await db.pool.query<Row>('SELECT id, company_code, note, tags, n FROM things ORDER BY id')).rows;

it('inserts every row of a page none of whose keys is stored, and reports no key as existing', async () => {
  const page = [row('a', { company_code: 'x "quoted" \\ back', tags: ['t1', 'a,b'] }), row('b', { n: 2 })];
  const existing = await insertNew(db.pool, 'things', COLUMNS, page, 'id');
  expect([...existing]).toEqual([]);
  expect(await stored()).toEqual([
    // A column null in every row (note) is left to its default.
    { id: 'a', company_code: 'x "quoted" \\ back', note: 'unset', tags: ['t1', 'a,b'], n: 1 },
    { id: 'b', company_code: '1000', note: 'unset', tags: null, n: 2 },
  ]);
});

it('leaves stored rows untouched, inserts only the new ones and returns the stored keys', async () => {
  await insertNew(db.pool, 'things', COLUMNS, [row('a', { note: 'first' }), row('c', { note: 'first' })], 'id');
  const existing = await insertNew(
    db.pool,
    'things',
    COLUMNS,
    [row('a', { note: 'second', n: 9 }), row('b', { note: 'second' }), row('c', { note: 'second' })],
    'id',
  );
  expect([...existing].sort()).toEqual(['a', 'c']);
  expect((await stored()).map((r) => [r.id, r.note, r.n])).toEqual([
    ['a', 'first', 1],
    ['b', 'second', 1],
    ['c', 'first', 1],
  ]);
});

it('writes nothing when every key is stored already (a page applied twice)', async () => {
  const page = [row('a'), row('b')];
  await insertNew(db.pool, 'things', COLUMNS, page, 'id');
  const before = await stored();
  const existing = await insertNew(db.pool, 'things', COLUMNS, page, 'id');
  expect([...existing].sort()).toEqual(['a', 'b']);
  expect(await stored()).toEqual(before);
});

it('probes a numeric key by its own type and reports it as text', async () => {
  const columns: readonly Column<{ id: number; label: string }>[] = [
    { name: 'id', type: 'bigint' },
    { name: 'label', type: 'text' },
  ];
  await insertNew(db.pool, 'numbered', columns, [{ id: 7, label: 'seven' }], 'id');
  const existing = await insertNew(db.pool, 'numbered', columns, [{ id: 7, label: 'again' }, { id: 8, label: 'eight' }], 'id');
  expect([...existing]).toEqual(['7']);
  const { rows } = await db.pool.query('SELECT id::int AS id, label FROM numbered ORDER BY id');
  expect(rows).toEqual([{ id: 7, label: 'seven' }, { id: 8, label: 'eight' }]);
});

it('refuses a page carrying one key twice rather than keeping either silently', async () => {
  await expect(insertNew(db.pool, 'things', COLUMNS, [row('a'), row('a', { n: 2 })], 'id')).rejects.toThrow(/duplicate key/);
  expect(await stored()).toEqual([]);
});

it('does nothing for an empty page', async () => {
  expect([...(await insertNew(db.pool, 'things', COLUMNS, [], 'id'))]).toEqual([]);
  expect(await stored()).toEqual([]);
});

/**
 * Large pages of new rows go to PostgreSQL as COPY, small ones as INSERT (and a pool, outside a transaction,
 * always INSERTs). A rebuild writes big pages and the projector small ones, so a value stored differently by
 * the two would make the rebuilt table differ from the live one: both must store the same bytes.
 */
describe('a page of new rows large enough for COPY', () => {
  type Wide = { id: string; label: string | null; tags: string[] | null; doc: unknown; at: string | null; n: number; ok: boolean; amount: string };
  const WIDE: readonly Column<Wide>[] = [
    { name: 'id', type: 'text' },
    { name: 'label', type: 'text' },
    { name: 'tags', type: 'text[]' },
    { name: 'doc', type: 'jsonb' },
    { name: 'at', type: 'timestamptz' },
    { name: 'n', type: 'bigint' },
    { name: 'ok', type: 'boolean' },
    { name: 'amount', type: 'numeric' },
  ];
  // Every character COPY's text format or an array literal treats specially, and some that neither does.
  const awkward = ['tab\there', 'line\nbreak', 'cr\rhere', 'back\\slash', '\\N', '\\.', 'a,b', '"quoted"', '{braces}', 'NULL', '', ' spaced ', 'ünïcødé ₹', "it's"];
  const page = (prefix: string): Wide[] =>
    Array.from({ length: COPY_MIN_ROWS + awkward.length }, (_, i) => {
      const text = awkward[i % awkward.length]!;
      return {
        id: `${prefix}-${i}`,
        label: i % 5 === 0 ? null : text,
        tags: i % 3 === 0 ? null : [text, `${text}2`, 'plain'],
        doc: i % 4 === 0 ? null : { text, nested: [text, i, null, true], [text]: 'key' },
        at: i % 7 === 0 ? null : new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        n: 2 ** 40 + i,
        ok: i % 2 === 0,
        amount: `${i}.${String(i % 100).padStart(2, '0')}`,
      };
    });
  const ddl = (table: string) =>
    `CREATE TABLE ${table} (id text PRIMARY KEY, label text DEFAULT 'unset', tags text[], doc jsonb, at timestamptz, n bigint, ok boolean, amount numeric(16,2))`;
  const read = async (table: string) =>
    (
      await db.pool.query(
        `SELECT substr(id, 3) AS id, label, tags, doc::text AS doc, at, n::text AS n, ok, amount::text AS amount FROM ${table} ORDER BY id`,
      )
    ).rows;

  it('stores every value exactly as the INSERT of a small page does', async () => {
    await db.pool.query(ddl('copied'));
    await db.pool.query(ddl('inserted'));
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      expect([...(await insertNew(client, 'copied', WIDE, page('c'), 'id'))]).toEqual([]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    // The pool is not a transaction's client, so the same rows go as INSERT.
    await insertNew(db.pool, 'inserted', WIDE, page('i'), 'id');
    const copied = await read('copied');
    expect(copied).toHaveLength(COPY_MIN_ROWS + awkward.length);
    expect(copied).toEqual(await read('inserted'));
    expect(copied.find((r) => r.id === '1')).toMatchObject({ label: 'line\nbreak', tags: ['line\nbreak', 'line\nbreak2', 'plain'] });
    expect(copied.find((r) => r.id === '0')).toMatchObject({ label: null, tags: null, doc: null });
  });

  it('inserts only the keys not stored yet, and a key twice in the page still fails the whole page', async () => {
    await db.pool.query(ddl('copied'));
    const client = await db.pool.connect();
    try {
      const rows = page('c');
      await insertNew(client, 'copied', WIDE, rows.slice(0, 10), 'id');
      const existing = await insertNew(client, 'copied', WIDE, rows, 'id');
      expect([...existing].sort()).toEqual(rows.slice(0, 10).map((r) => r.id).sort());
      expect((await read('copied')).length).toBe(rows.length);
      await client.query('BEGIN');
      const twice = [...page('d'), { ...page('d')[0]!, label: 'again' }];
      await expect(insertNew(client, 'copied', WIDE, twice, 'id')).rejects.toThrow(/duplicate key/);
      await client.query('ROLLBACK');
      expect((await read('copied')).length).toBe(rows.length);
    } finally {
      client.release();
    }
  });
});

it("does not probe a rebuild's table (a page reaches it once), so a key stored there already fails the page", async () => {
  await db.pool.query(`CREATE TABLE things__rebuild (LIKE things INCLUDING ALL)`);
  await insertNew(db.pool, 'things__rebuild', COLUMNS, [row('a')], 'id');
  await expect(insertNew(db.pool, 'things__rebuild', COLUMNS, [row('a', { n: 2 }), row('b')], 'id')).rejects.toThrow(/duplicate key/);
  // The live table is probed: the stored key is named and the new one inserted.
  await insertNew(db.pool, 'things', COLUMNS, [row('a')], 'id');
  expect([...(await insertNew(db.pool, 'things', COLUMNS, [row('a', { n: 2 }), row('b')], 'id'))]).toEqual(['a']);
  expect((await db.pool.query('SELECT id, n FROM things__rebuild ORDER BY id')).rows).toEqual([{ id: 'a', n: 1 }]);
});
