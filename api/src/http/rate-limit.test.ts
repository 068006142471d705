import { createRateLimiter } from './rate-limit';

describe('rate limiter', () => {
  it('allows `limit` attempts per window, then refuses with the seconds to wait', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    expect([1, 2, 3].map(() => limiter.hit('a').allowed)).toEqual([true, true, true]);
    now += 10_000;
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 50 });
    // Other keys (another user, another address) are not affected.
    expect(limiter.hit('b').allowed).toBe(true);
  });

  it('lets attempts through again once the oldest leave the window', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000, now: () => now });
    limiter.hit('a');
    now = 500;
    limiter.hit('a');
    expect(limiter.hit('a').allowed).toBe(false);
    now = 1001;
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('a').allowed).toBe(false);
  });

  it('keeps memory bounded by forgetting the least recently used keys', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    limiter.hit('a');
    limiter.hit('b');
    limiter.hit('c');
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('c').allowed).toBe(false);
  });
});
