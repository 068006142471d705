import cluster, { type Worker } from 'node:cluster';

/**
 * One service as `processes` node:cluster workers sharing one listening port (the primary accepts and hands
 * connections round-robin). The primary runs `prepare` first (anything two workers must not race to create,
 * such as signing keys), then forks; it restarts a worker that dies (with a growing delay, reset once a worker
 * has stayed up a minute) and on SIGTERM/SIGINT asks every worker to stop (as a SIGTERM would), waits for them to finish their
 * own graceful stop, and exits. Each worker runs `worker` (the service body as it would run alone).
 * With one process there is no primary at all: `worker` runs in this process, as before clusters existed.
 */
const STOP_MESSAGE = 'cluster:stop';

export function runClustered(options: {
  name: string;
  processes: number;
  prepare: () => Promise<void> | void;
  worker: () => void;
}): void {
  const { name, processes } = options;
  if (cluster.isWorker) {
    // The primary's stop arrives as a message, not a signal: a Ctrl-C reaches the workers directly as well,
    // and a second real signal would kill a worker in the middle of its graceful stop (stopSignal).
    process.on('message', (message) => {
      if (message === STOP_MESSAGE) process.emit('SIGTERM', 'SIGTERM');
    });
    return options.worker();
  }
  if (processes <= 1) return options.worker();
  const log = (line: string) => console.log(`[${name}] ${line}`);
  let stopping = false;
  let restarts = 0;
  const startedAt = new Map<Worker, number>();
  const fork = () => startedAt.set(cluster.fork(), Date.now());

  cluster.on('exit', (worker, code, signal) => {
    const upMs = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    if (stopping) {
      if (startedAt.size === 0) process.exit(0);
      return;
    }
    restarts = upMs > 60_000 ? 1 : restarts + 1;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(restarts, 7));
    log(`worker ${worker.process.pid} exited (code ${code}, signal ${signal}); starting another in ${delay} ms`);
    setTimeout(() => !stopping && fork(), delay);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping ${startedAt.size} workers`);
    if (startedAt.size === 0) process.exit(0);
    for (const worker of startedAt.keys()) {
      try {
        worker.send(STOP_MESSAGE);
      } catch {
        // Its channel is already closed: it is on its way out, and its exit is counted above.
      }
    }
    // A worker stuck in its shutdown must not keep the whole service from stopping.
    setTimeout(() => {
      for (const worker of startedAt.keys()) worker.process.kill('SIGKILL');
    }, 15_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  Promise.resolve(options.prepare()).then(
    () => {
      log(`starting ${processes} processes`);
      for (let i = 0; i < processes; i++) fork();
    },
    (error: unknown) => {
      console.error(`[${name}] stopped:`, error);
      process.exit(1);
    },
  );
}
