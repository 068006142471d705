import { decoyHash, hashingSlots, HASH_CONCURRENCY, hashPassword, needsRehash, PASSWORD_COST, verifyPassword } from './password';
import { createSemaphore, SemaphoreFull } from './semaphore';

// Each hash at the OWASP cost takes about half a second (more on a busy 2-core machine).
jest.setTimeout(60_000);

const OLD_COST = { N: 16384, r: 8, p: 1 };

describe('password hashing', () => {
  it('hashes at the OWASP cost (scrypt N=2^17, r=8, p=1) and verifies the right password only', async () => {
    const hash = await hashPassword('Demo@2026');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(PASSWORD_COST).toEqual({ N: 131072, r: 8, p: 1 });
    expect(hash).not.toContain('Demo@2026');
    await expect(verifyPassword('Demo@2026', hash)).resolves.toBe(true);
    await expect(verifyPassword('demo@2026', hash)).resolves.toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('still verifies a hash made at the earlier cost (N=2^14), and marks it for re-hashing', async () => {
    const old = await hashPassword('Demo@2026', OLD_COST);
    expect(old).toMatch(/^scrypt\$16384\$8\$1\$/);
    await expect(verifyPassword('Demo@2026', old)).resolves.toBe(true);
    await expect(verifyPassword('Demo@2027', old)).resolves.toBe(false);
    expect(needsRehash(old)).toBe(true);
  });

  it('salts every hash, so equal passwords do not give equal hashes', async () => {
    const [a, b] = await Promise.all([hashPassword('Demo@2026', OLD_COST), hashPassword('Demo@2026', OLD_COST)]);
    expect(a).not.toBe(b);
  });

  it('never matches a malformed stored hash, nor one naming an absurd cost', async () => {
    await expect(verifyPassword('x', 'plain-text')).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$16384$8$1$c2FsdA==$dG9vLXNob3J0')).resolves.toBe(false);
    const real = await hashPassword('x', OLD_COST);
    const [, , r, p, salt, key] = real.split('$');
    // 2^24 · 8 · 128 bytes = 16 GiB: refused without trying, so a bad row cannot exhaust memory.
    await expect(verifyPassword('x', ['scrypt', 2 ** 24, r, p, salt, key].join('$'))).resolves.toBe(false);
    await expect(verifyPassword('x', ['scrypt', 1000, r, p, salt, key].join('$'))).resolves.toBe(false);
    expect(needsRehash('plain-text')).toBe(false);
  });

  it('has a decoy hash at today’s cost that nobody knows the password of', async () => {
    const decoy = await decoyHash();
    expect(decoy).toMatch(/^scrypt\$131072\$8\$1\$/);
    await expect(verifyPassword('Demo@2026', decoy)).resolves.toBe(false);
  });

  it('hashes at most HASH_CONCURRENCY at once in this process (2 on a 2-core machine, never over 3)', async () => {
    expect(HASH_CONCURRENCY).toBeGreaterThanOrEqual(1);
    expect(HASH_CONCURRENCY).toBeLessThanOrEqual(3);
    let peak = 0;
    const sample = setInterval(() => {
      peak = Math.max(peak, hashingSlots.stats().active);
    }, 1);
    await Promise.all(Array.from({ length: HASH_CONCURRENCY + 2 }, () => hashPassword('Demo@2026', OLD_COST)));
    clearInterval(sample);
    expect(peak).toBe(HASH_CONCURRENCY);
    expect(hashingSlots.stats()).toMatchObject({ active: 0, waiting: 0 });
  });
});

describe('createSemaphore', () => {
  /** A task that runs until the test lets it finish. */
  const gate = () => {
    let open: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (open = resolve));
    return { open, task: () => done };
  };

  it('runs at most `limit` tasks at once, queues up to `maxQueue` in order, and refuses beyond at once', async () => {
    const slots = createSemaphore({ limit: 2, maxQueue: 2 });
    const gates = Array.from({ length: 4 }, gate);
    const order: number[] = [];
    const runs = gates.map((g, i) => slots.run(async () => (order.push(i), g.task())));
    await Promise.resolve();
    expect(slots.stats()).toEqual({ active: 2, waiting: 2, limit: 2, maxQueue: 2 });
    expect(order).toEqual([0, 1]);
    await expect(slots.run(async () => 'late')).rejects.toBeInstanceOf(SemaphoreFull);

    gates[1]?.open();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([0, 1, 2]);
    expect(slots.stats()).toMatchObject({ active: 2, waiting: 1 });
    for (const g of gates) g.open();
    await Promise.all(runs);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(slots.stats()).toMatchObject({ active: 0, waiting: 0 });
    await expect(slots.run(async () => 'again')).resolves.toBe('again');
  });

  it('frees the slot when a task fails', async () => {
    const slots = createSemaphore({ limit: 1, maxQueue: 0 });
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(slots.run(async () => 1)).resolves.toBe(1);
  });
});
