import { loadConfig } from '../platform/src/config';
import { openDatabase } from '../platform/src/db/connect';
import { verifyHashChain } from '../platform/src/event-store/hash';

/**
 * `npm run audit:verify [-- --from=<position>]`: walks the event store's hash chain (design.md §2) and
 * exits 0 when it is intact, 1 naming the first broken event when any stored event was altered or removed,
 * 2 when it could not check. Read-only: it does not apply the schema.
 */
async function main(): Promise<number> {
  const fromArg = process.argv.find((a) => a.startsWith('--from='));
  const fromPosition = fromArg ? Number(fromArg.slice('--from='.length)) : 1;
  if (!Number.isInteger(fromPosition) || fromPosition < 1) {
    console.error(`audit:verify: --from must be a position of 1 or more, got ${fromArg}`);
    return 2;
  }
  const db = await openDatabase(loadConfig(), { applySchema: false, poolSize: 2 });
  try {
    const started = Date.now();
    const result = await verifyHashChain(db.pool, { fromPosition });
    const ms = Date.now() - started;
    if (result.ok) {
      console.log(
        `audit:verify: hash chain intact: ${result.checked} events checked ` +
          `from position ${fromPosition} in ${ms} ms`,
      );
      return 0;
    }
    const b = result.broken;
    console.error(
      `audit:verify: hash chain BROKEN at global position ${b.globalPosition}` +
        (b.eventId ? ` (event ${b.eventId} in stream ${b.streamId})` : '') +
        `: ${b.reason}. ${result.checked} events before it verified.`,
    );
    return 1;
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') {
      console.error('audit:verify: this database has no event store (events or event_store_head is missing)');
      return 2;
    }
    throw error;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`audit:verify: could not verify: ${message}`);
    process.exit(2);
  },
);
