import { parseBlock, readEventStream, type ByteStream } from './sse';

/** A body that yields the given text chunks (split wherever the test likes), then ends or stays open. */
function body(chunks: string[], options: { hang?: boolean } = {}): ByteStream & { cancelled: () => boolean } {
  const encoder = new TextEncoder();
  let cancelled = false;
  let release: (() => void) | null = null;
  return {
    cancelled: () => cancelled,
    getReader: () => ({
      async read() {
        const next = chunks.shift();
        if (next !== undefined) return { done: false, value: encoder.encode(next) };
        if (options.hang && !cancelled) await new Promise<void>((r) => (release = r));
        return { done: true };
      },
      async cancel() {
        cancelled = true;
        release?.();
      },
    }),
  };
}

describe('readEventStream', () => {
  it('delivers whole events across chunk borders, skips heartbeat comments and reads CRLF line ends', async () => {
    const seen: { event: string; data: string }[] = [];
    await readEventStream(
      body(['event: unread\ndata: {"unr', 'ead":0}\n\n: heartbeat\n\n', 'event: notification\r\ndata: {"a":1}\r\n\r\n']),
      (e) => seen.push(e),
    );
    expect(seen).toEqual([
      { event: 'unread', data: '{"unread":0}' },
      { event: 'notification', data: '{"a":1}' },
    ]);
  });

  it('gives up on a connection that stays silent past the idle limit, so the caller reconnects', async () => {
    const silent = body([': heartbeat\n\n'], { hang: true });
    await readEventStream(silent, () => undefined, { idleMs: 50 });
    expect(silent.cancelled()).toBe(true);
  });
});

describe('parseBlock', () => {
  it('joins data lines, defaults the event name and ignores blocks without data', () => {
    expect(parseBlock('data: one\ndata: two')).toEqual({ event: 'message', data: 'one\ntwo' });
    expect(parseBlock(': only a comment')).toBeNull();
  });
});
