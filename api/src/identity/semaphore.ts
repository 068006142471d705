/**
 * At most `limit` tasks at once; up to `maxQueue` more wait their turn (first come, first served); beyond
 * that `run` refuses at once with `SemaphoreFull`, so a flood is answered quickly instead of piling up work
 * (and memory) nobody will wait for.
 */
export class SemaphoreFull extends Error {
  constructor() {
    super('too many tasks waiting');
    this.name = 'SemaphoreFull';
  }
}

export type Semaphore = {
  run: <T>(task: () => Promise<T>) => Promise<T>;
  /** Running now and waiting now (tests, health). */
  stats: () => { active: number; waiting: number; limit: number; maxQueue: number };
};

export function createSemaphore(options: { limit: number; maxQueue: number }): Semaphore {
  const limit = Math.max(1, Math.floor(options.limit));
  const maxQueue = Math.max(0, Math.floor(options.maxQueue));
  let active = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    // The slot passes straight to the next waiter: `active` stays as it is.
    if (next) next();
    else active -= 1;
  };

  return {
    run: async (task) => {
      if (active < limit) active += 1;
      else if (waiting.length >= maxQueue) throw new SemaphoreFull();
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    stats: () => ({ active, waiting: waiting.length, limit, maxQueue }),
  };
}
