import type { EventStore } from '../../../domain/src/event-store/port';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/connect';
import { openEventStore } from '../event-store/open';

export type Service = {
  config: Config;
  db: Database;
  store: EventStore;
  log: (line: string) => void;
  /** Registers a resource to close once `run` has returned or failed: in reverse order, before the store. */
  onClose: (close: () => Promise<void>) => void;
};

/**
 * The shape of our long-running processes (api, projector, worker): configuration, the database and the
 * event store, then `run`, which returns when the process should end. What `run` registered with `onClose`,
 * then the store and the database are closed after it, whether it ended or failed; the process then exits 0
 * after a clean end, 1 after a failure (the supervisor restarts it).
 */
export function runService(
  name: string,
  options: { poolSize?: number },
  run: (service: Service) => Promise<void>,
): void {
  const log = (line: string) => console.log(`[${name}] ${line}`);
  const closers: (() => Promise<void>)[] = [];
  const onClose = (close: () => Promise<void>) => void closers.push(close);
  const main = async () => {
    try {
      const config = loadConfig();
      // Never the owner: these processes run no DDL and must not be able to change stored events.
      const db = await openDatabase(config, { mode: 'app', log, poolSize: options.poolSize });
      onClose(() => db.close());
      const store = await openEventStore(config, db.pool);
      onClose(() => store.close());
      await run({ config, db, store, log, onClose });
    } finally {
      for (const close of closers.reverse()) await close();
    }
  };
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`[${name}] stopped:`, error);
      process.exit(1);
    },
  );
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Resolves on the first SIGTERM or SIGINT, so the caller can shut down in order instead of being killed. Only
 * the first is taken: a second one kills the process as usual (e.g. a second Ctrl-C during a stuck shutdown).
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const s of STOP_SIGNALS) process.off(s, stop);
      resolve(signal);
    };
    for (const s of STOP_SIGNALS) process.on(s, stop);
  });
}
