import pg, { type Pool, type PoolClient } from 'pg';

const { escapeLiteral } = pg;

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
 * The statement that locks the projection's checkpoint row for the rest of the transaction and answers its
 * position. Everyone that writes a projection's tables (runners in any process, the rebuild's swap) takes this
 * lock first, so they serialise on it and always see the newest checkpoint. The upsert locks the row like
 * SELECT … FOR UPDATE (waiting for a holder, then answering the newest committed position) and creates a
 * missing row. Literal SQL, so it can travel with other statements in one simple-protocol round trip.
 */
function lockCheckpointSql(name: string): string {
  return `INSERT INTO projection_checkpoints AS c (name, position) VALUES (${escapeLiteral(name)}, 0)
     ON CONFLICT (name) DO UPDATE SET position = c.position RETURNING c.position`;
}

/** The statement that moves the projection's checkpoint to `position` (literal SQL, to travel with a COMMIT). */
export function saveCheckpointSql(name: string, position: number): string {
  if (!Number.isSafeInteger(position) || position < 0) throw new Error(`invalid checkpoint position ${position}`);
  return `INSERT INTO projection_checkpoints (name, position, updated_at) VALUES (${escapeLiteral(name)}, ${position}, now())
     ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`;
}

type Result = { rows: { position: string }[] };
/** The position a multi-statement answer's last statement (the lock) returned. */
const lockedPosition = (results: Result | Result[]): number => {
  const last = Array.isArray(results) ? results[results.length - 1] : results;
  return Number(last?.rows[0]?.position ?? 0);
};

/** Takes the checkpoint lock inside the caller's transaction (see lockCheckpointSql) and answers the position. */
export async function lockCheckpoint(client: PoolClient, name: string): Promise<number> {
  return lockedPosition((await client.query(lockCheckpointSql(name))) as unknown as Result);
}

/**
 * BEGIN (asynchronous commit, see runner.ts) and the checkpoint lock as one simple-protocol string: one round
 * trip instead of three.
 */
export async function beginLocked(client: PoolClient, name: string): Promise<number> {
  const sql = `BEGIN; SET LOCAL synchronous_commit TO off; ${lockCheckpointSql(name)}`;
  return lockedPosition((await client.query(sql)) as unknown as Result[]);
}

export async function saveCheckpoint(client: Queryable, name: string, position: number): Promise<void> {
  await client.query(saveCheckpointSql(name, position));
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
