import { loadConfig } from '../../platform/src/config';
import { openDatabase } from '../../platform/src/db/connect';
import { openEventStore } from '../../platform/src/event-store/open';
import { allProjections } from './registry';
import { createProjector } from './runner';

/** The projector process: keeps every read model caught up with the event store. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = (line: string) => console.log(line);
  const db = await openDatabase(config, { log, poolSize: 4 });
  const store = await openEventStore(config, db.pool);
  const projections = allProjections({ reviewSlaMs: config.review.slaMs });
  const projector = createProjector({ pool: db.pool, store, projections, log });
  await projector.start();
  log(`projector running (${projections.map((p) => p.name).join(', ')})`);
  const stop = async () => {
    await projector.stop();
    await store.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
