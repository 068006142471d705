import { runService, stopSignal } from '../../platform/src/process/run-service';
import { allProjections } from './registry';
import { createProjector } from './runner';

/** The projector process: keeps every read model caught up with the event store until SIGTERM/SIGINT. */
runService('projector', { poolSize: 4 }, async ({ config, db, store, log }) => {
  const projections = allProjections({ reviewSlaMs: config.review.slaMs });
  const projector = createProjector({ pool: db.pool, store, projections, log });
  await projector.start();
  log(`projector running (${projections.map((p) => p.name).join(', ')})`);
  await stopSignal();
  await projector.stop();
});
