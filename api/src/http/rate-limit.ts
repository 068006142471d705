/**
 * An in-memory sliding-window limiter (per process). Enough for sign-in throttling on one api process;
 * several processes each keep their own window.
 */
export type RateLimiter = {
  /** Records one attempt for `key`; `allowed` is false once the window already holds `limit` attempts. */
  hit: (key: string) => { allowed: boolean; retryAfterSeconds: number };
  reset: (key: string) => void;
};

export type RateLimiterOptions = { limit: number; windowMs: number; now?: () => number; maxKeys?: number };

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const attempts = new Map<string, number[]>();

  return {
    hit: (key) => {
      const t = now();
      const recent = (attempts.get(key) ?? []).filter((at) => at > t - options.windowMs);
      if (recent.length >= options.limit) {
        attempts.set(key, recent);
        const oldest = recent[0] ?? t;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + options.windowMs - t) / 1000)) };
      }
      recent.push(t);
      // Re-inserting keeps the Map in least-recently-used order, so the first key is the one to evict.
      attempts.delete(key);
      attempts.set(key, recent);
      if (attempts.size > maxKeys) {
        const first = attempts.keys().next();
        if (!first.done) attempts.delete(first.value);
      }
      return { allowed: true, retryAfterSeconds: 0 };
    },
    reset: (key) => {
      attempts.delete(key);
    },
  };
}
