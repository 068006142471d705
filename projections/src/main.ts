import { startAnchoring } from '../../platform/src/event-store/anchors';
import { runService, stopSignal } from '../../platform/src/process/run-service';
import { allProjections } from './registry';
import { createProjector } from './runner';

/** The projector process: keeps every read model caught up with the event store until SIGTERM/SIGINT. */
runService('projector', { poolSize: 4 }, async ({ config, db, store, log }) => {
  const projections = allProjections({ reviewSlaMs: config.review.slaMs, publicUrl: config.http.publicUrl });
  const projector = createProjector({ pool: db.pool, store, projections, log });
  await projector.start();
  log(`projector running (${projections.map((p) => p.name).join(', ')})`);
  // Signed anchors of the hash chain, outside the database (platform/src/event-store/anchors.ts). KurrentDB
  // keeps no chain. A failure is logged and retried; it never stops the projections.
  const anchoring =
    config.eventStore.kind === 'postgres'
      ? startAnchoring({
          pool: db.pool,
          keyDir: config.audit.keyDir,
          anchorFile: config.audit.anchorFile,
          intervalMs: config.audit.anchorIntervalMs,
          log,
        })
      : null;
  await stopSignal();
  await anchoring?.stop();
  await projector.stop();
});
