import { createTestDatabase, type TestDatabase } from '../../tests/support/postgres';
import { insertNew, type Column } from './sql';

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
