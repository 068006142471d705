import { fork } from 'node:child_process';
import path from 'node:path';

export type LoadResult = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  n: number;
  errors: number;
  /** The errors by kind: `status 503`, a socket error's code (`ECONNRESET`), `timeout`. */
  errorKinds: Record<string, number>;
};

export type LoadOptions = {
  url: string;
  connections: number;
  durationMs: number;
  headers?: Record<string, string>;
  /** The status every answer should have (default 200); any other counts as an error. */
  expectStatus?: number;
  /**
   * Open loop: this many requests per second in total, evenly spaced, over at most `connections` sockets (the
   * load no longer follows the server's speed; latency counts from when a request was due). Default: closed
   * loop (autocannon), each connection sending its next request when the answer arrives.
   */
  overallRate?: number;
  /** HTTP method (default GET). */
  method?: string;
  /** A static request body, sent with content-type application/json unless `headers` says otherwise. */
  body?: string;
};

/** The errors of several results added up by kind, and said in words ("2 status 503, 1 ECONNRESET", or ""). */
export function errorsOf(results: readonly Pick<LoadResult, 'errorKinds'>[]): { total: number; kinds: string } {
  const byKind = new Map<string, number>();
  for (const r of results) for (const [kind, k] of Object.entries(r.errorKinds)) byKind.set(kind, (byKind.get(kind) ?? 0) + k);
  const total = [...byKind.values()].reduce((a, b) => a + b, 0);
  return { total, kinds: [...byKind].map(([kind, k]) => `${k} ${kind}`).join(', ') };
}

const worker = path.join(__dirname, 'load-worker.ts');

/**
 * A bounded load test: `connections` keep-alive connections for `durationMs` (autocannon; see `overallRate`), run in a child
 * process of its own so the generator never shares an event loop with the bench runner (or a server it
 * started in-process). Loopback only. `errors` counts answers with another status than `expectStatus` plus
 * socket errors and timeouts; latencies and `n` count every answer.
 */
export async function loadTest(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('load tests only target loopback');
  const child = fork(worker, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<LoadResult>((resolve, reject) => {
    let settled = false;
    child.once('message', (message: { result?: LoadResult; error?: string }) => {
      settled = true;
      if (message.result) resolve(message.result);
      else reject(new Error(`load worker failed: ${message.error}`));
    });
    child.once('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`load worker exited with ${code} before answering`));
      settled = true;
    });
    child.send(options);
  });
}
