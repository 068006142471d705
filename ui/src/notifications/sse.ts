/**
 * Reads Server-Sent Events from a fetch response body. The bells read their stream with fetch rather than
 * EventSource because EventSource cannot send the Authorization header, and a token in the URL would end up
 * in proxies' and servers' access logs.
 */
export type ServerEvent = { event: string; data: string };

/** The part of a fetch body this reader uses (a ReadableStream of bytes in browsers). */
export type ByteStream = {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> };
};

/**
 * Calls `onEvent` for each complete event until the stream ends (resolves) or fails (rejects). Comment lines
 * (the server's heartbeats) count as life but are not events. Without any byte for `idleMs` the connection is
 * taken for dead and the read ends, so the caller reconnects.
 */
export async function readEventStream(
  body: ByteStream,
  onEvent: (event: ServerEvent) => void,
  options: { signal?: AbortSignal; idleMs?: number } = {},
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => void reader.cancel().catch(() => undefined);
  const watch = () => {
    if (!options.idleMs) return;
    clearTimeout(timer);
    timer = setTimeout(stop, options.idleMs);
  };
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    watch();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || options.signal?.aborted) return;
      watch();
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = parseBlock(block);
        if (event) onEvent(event);
      }
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  }
}

/** One event block: `event:` names it (default "message"), `data:` lines join with newlines. */
export function parseBlock(block: string): ServerEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: data.join('\n') };
}
