import type { Pool, PoolClient } from 'pg';

type Queryable = Pick<Pool | PoolClient, 'query'>;

/**
 * One row per projection: the global position of the last event it has applied. The runner moves it in the
 * same transaction as the projection's writes, so rows and checkpoint never disagree.
 */
export const CHECKPOINTS_DDL = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  position bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);`;

/**
 * Locks the projection's checkpoint row for the rest of the transaction and returns its position. Everyone
 * that writes a projection's tables (runners in any process, the rebuild's swap) takes this lock first, so
 * they serialise on it and always see the newest checkpoint (READ COMMITTED re-reads a row after waiting).
 */
export async function lockCheckpoint(client: PoolClient, name: string): Promise<number> {
  await client.query(
    'INSERT INTO projection_checkpoints (name, position) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING',
    [name],
  );
  const { rows } = await client.query<{ position: string }>(
    'SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
    [name],
  );
  return Number(rows[0]?.position ?? 0);
}

/**
 * BEGIN (asynchronous commit, see runner.ts), then lockCheckpoint's lock and read, as one simple-protocol
 * string: one round trip instead of three. The upsert locks the row like SELECT … FOR UPDATE (waiting for a
 * holder, then answering the newest committed position), and creates it if missing like lockCheckpoint.
 */
export async function beginLocked(client: PoolClient, name: string): Promise<number> {
  const results = (await client.query(
    `BEGIN; SET LOCAL synchronous_commit TO off;
     INSERT INTO projection_checkpoints AS c (name, position) VALUES (${client.escapeLiteral(name)}, 0)
     ON CONFLICT (name) DO UPDATE SET position = c.position RETURNING c.position`,
  )) as unknown as { rows: { position: string }[] }[];
  return Number(results[results.length - 1]?.rows[0]?.position ?? 0);
}

/** saveCheckpoint as literal SQL, to travel with the COMMIT in one round trip. */
export function saveCheckpointSql(client: PoolClient, name: string, position: number): string {
  if (!Number.isSafeInteger(position) || position < 0) throw new Error(`invalid checkpoint position ${position}`);
  return `INSERT INTO projection_checkpoints (name, position, updated_at) VALUES (${client.escapeLiteral(name)}, ${position}, now())
     ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`;
}

export async function saveCheckpoint(client: Queryable, name: string, position: number): Promise<void> {
  await client.query(
    `INSERT INTO projection_checkpoints (name, position, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
    [name, position],
  );
}

/** Positions of the named projections (0 for one that has never run). */
export async function readCheckpoints(db: Queryable, names: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ name: string; position: string }>(
    'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1::text[])',
    [names],
  );
  const found = new Map(rows.map((r) => [r.name, Number(r.position)]));
  return new Map(names.map((n) => [n, found.get(n) ?? 0]));
}

/**
 * The lowest checkpoint among `names`, or among every checkpoint row when `names` is omitted (0 when there
 * is none): the position up to which every read model is known to be complete.
 */
export async function lowestCheckpoint(db: Queryable, names?: readonly string[]): Promise<number> {
  if (names) {
    if (names.length === 0) return Number.MAX_SAFE_INTEGER;
    const positions = await readCheckpoints(db, names);
    return Math.min(...positions.values());
  }
  const { rows } = await db.query<{ position: string | null }>(
    'SELECT min(position) AS position FROM projection_checkpoints',
  );
  return Number(rows[0]?.position ?? 0);
}
