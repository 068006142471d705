import { stopSignal } from './run-service';

describe('stopSignal', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)('resolves on %s, then leaves both signals alone', async (signal) => {
    const before = { SIGTERM: process.listenerCount('SIGTERM'), SIGINT: process.listenerCount('SIGINT') };
    const stopped = stopSignal();
    expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM + 1);
    expect(process.listenerCount('SIGINT')).toBe(before.SIGINT + 1);

    process.emit(signal, signal);
    await expect(stopped).resolves.toBe(signal);
    // A second signal during shutdown is no longer ours: it kills the process as usual.
    expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM);
    expect(process.listenerCount('SIGINT')).toBe(before.SIGINT);
  });
});
