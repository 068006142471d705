import { createCommandLock } from './command-lock';

describe('the command lock', () => {
  test('runs commands one at a time in the order they came', async () => {
    const lock = createCommandLock();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = lock.exclusive(async () => {
      order.push('first starts');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('first ends');
    });
    const second = lock.exclusive(async () => {
      order.push('second');
    });
    await Promise.resolve();
    expect(order).toEqual(['first starts']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first starts', 'first ends', 'second']);
  });

  test('is busy while a command runs or waits its turn, and idle once all have finished, failed ones included', async () => {
    const lock = createCommandLock();
    expect(lock.idle()).toBe(true);
    let release!: () => void;
    const held = lock.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
    const failing = lock.exclusive(async () => {
      throw new Error('refused');
    });
    expect(lock.idle()).toBe(false);
    await Promise.resolve();
    expect(lock.idle()).toBe(false);
    release();
    await held;
    await expect(failing).rejects.toThrow('refused');
    await Promise.resolve();
    expect(lock.idle()).toBe(true);
  });

  test('a failed command does not stop the next one', async () => {
    const lock = createCommandLock();
    await expect(lock.exclusive(async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(lock.exclusive(async () => 'yes')).resolves.toBe('yes');
  });
});
