import { CHECKPOINTS_DDL } from './checkpoints';
import { liveTables, type Projection } from './projection';
import { allProjections } from './registry';
import type { Db } from './sql';

/**
 * Creates the checkpoint table and every registered projection's tables under their live names, idempotently.
 * Concurrent callers are serialised by the caller (platform/src/db/schema.ts holds an advisory lock).
 */
export async function ensureProjectionsSchema(
  db: Db,
  projections: readonly Projection[] = allProjections(),
): Promise<void> {
  await db.query(CHECKPOINTS_DDL);
  for (const p of projections) await db.query(p.schema(liveTables));
}
