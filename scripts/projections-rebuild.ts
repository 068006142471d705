import { loadConfig } from '../platform/src/config';
import { openDatabase } from '../platform/src/db/connect';
import { openEventStore } from '../platform/src/event-store/open';
import { rebuildProjections } from '../projections/src/rebuild';
import { allProjections } from '../projections/src/registry';

/**
 * `npm run projections:rebuild`: rebuilds every read model from the events into fresh tables and swaps them
 * in (projections/src/rebuild.ts). Safe while the system runs: the projector keeps serving the old tables
 * until the swap and then continues from the rebuilt checkpoints.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const log = (line: string) => console.log(line);
  // As the owner: the rebuild creates, drops and renames tables (DDL the application role may not run).
  const db = await openDatabase(config, { mode: 'owner', log, poolSize: 4 });
  const store = await openEventStore(config, db.pool);
  try {
    // The same options as the projector process, so the rebuilt rows equal the ones it writes.
    const projections = allProjections({ reviewSlaMs: config.review.slaMs });
    log(`projections:rebuild: rebuilding ${projections.map((p) => p.name).join(', ')}`);
    const result = await rebuildProjections({ pool: db.pool, store, projections, log });
    log(
      `projections:rebuild: done: ${result.events} events up to position ${result.position} ` +
        `(${result.swapEvents} appended meanwhile) in ${result.ms} ms, ${result.eventsPerSecond} events/s`,
    );
    return 0;
  } finally {
    await store.close();
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('projections:rebuild failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
