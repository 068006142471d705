import http from 'node:http';
import autocannon from 'autocannon';
import { percentile } from './stats';
import type { LoadOptions, LoadResult } from './http-load';

/**
 * The load generator's own process (forked by `loadTest`): the connections are driven here, so the bench
 * runner's event loop (and whatever else it does) never competes with the requests it measures. Receives the
 * options over IPC, answers one LoadResult and exits.
 */

const requestHeaders = (options: LoadOptions): Record<string, string> => {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  return headers;
};

/** Errors counted by kind, so a run that had some says what they were. */
function errorCounter() {
  const kinds: Record<string, number> = {};
  return {
    kinds,
    count: (kind: string) => void (kinds[kind] = (kinds[kind] ?? 0) + 1),
    get total() {
      return Object.values(kinds).reduce((a, b) => a + b, 0);
    },
  };
}

/** A socket error's kind: its code (ECONNRESET…), or `timeout` for ours. */
const kindOf = (error: unknown): string => {
  const e = error as { code?: string; message?: string } | undefined;
  if (e?.message === TIMED_OUT) return 'timeout';
  return e?.code ?? e?.message ?? 'socket error';
};
const TIMED_OUT = 'request timed out';

const summary = (latencies: number[], errors: ReturnType<typeof errorCounter>, seconds: number): LoadResult => ({
  requestsPerSecond: latencies.length / seconds,
  p50Ms: percentile(latencies, 50),
  p99Ms: percentile(latencies, 99),
  n: latencies.length,
  errors: errors.total,
  errorKinds: errors.kinds,
});

/** Closed loop: autocannon, each connection sending its next request when the answer arrives. */
async function closedLoop(options: LoadOptions): Promise<LoadResult> {
  const expected = options.expectStatus ?? 200;
  // Every answer's own latency (autocannon reports them unrounded, in ms): exact percentiles, not histogram buckets.
  const latencies: number[] = [];
  const errors = errorCounter();
  const started = process.hrtime.bigint();
  // autocannon only notices its duration is up at its next sample tick: answers after the window are not counted.
  const deadline = started + BigInt(Math.round(options.durationMs)) * 1_000_000n;
  // Without a callback autocannon returns its instance, which is also a promise of the result (the types
  // only tell half of that).
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationMs / 1000,
    method: (options.method ?? 'GET') as autocannon.Request['method'],
    headers: requestHeaders(options),
    body: options.body,
    timeout: 10,
    sampleInt: 100,
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (process.hrtime.bigint() > deadline) return;
    latencies.push(responseTime);
    if (statusCode !== expected) errors.count(`status ${statusCode}`);
  });
  // Socket errors and timeouts: no response arrives for them.
  instance.on('reqError', (error: unknown) => {
    errors.count(kindOf(error));
  });
  await instance;
  return summary(latencies, errors, options.durationMs / 1000);
}

/**
 * Open loop at `overallRate` requests/s, spread evenly (autocannon's own rate sends each second's budget in
 * a burst at the start of the second). Requests wait for one of `connections` keep-alive sockets when all
 * are busy; latency counts from the moment a request was due, so a slow server is not hidden by the wait.
 */
async function openLoop(options: LoadOptions & { overallRate: number }): Promise<LoadResult> {
  const expected = options.expectStatus ?? 200;
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const headers = requestHeaders(options);
  const latencies: number[] = [];
  const errors = errorCounter();
  const inFlight = new Set<Promise<void>>();
  const send = (due: bigint) => {
    const done = new Promise<void>((resolve) => {
      const req = http.request(target, { agent, method: options.method ?? 'GET', headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== expected) errors.count(`status ${res.statusCode}`);
          latencies.push(Number(process.hrtime.bigint() - due) / 1e6);
          resolve();
        });
      });
      req.setTimeout(10_000, () => req.destroy(new Error(TIMED_OUT)));
      req.on('error', (error) => {
        errors.count(kindOf(error));
        resolve();
      });
      req.end(options.body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const started = process.hrtime.bigint();
  const total = Math.floor((options.overallRate * options.durationMs) / 1000);
  const intervalNs = 1e9 / options.overallRate;
  let sent = 0;
  while (sent < total) {
    const now = process.hrtime.bigint();
    // Everything due by now goes out (a late timer sends its backlog at once, each timed from its due moment).
    while (sent < total && started + BigInt(Math.round(sent * intervalNs)) <= now) {
      send(started + BigInt(Math.round(sent * intervalNs)));
      sent += 1;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();
  return summary(latencies, errors, options.durationMs / 1000);
}

process.once('message', (options: LoadOptions) => {
  const run = options.overallRate ? openLoop({ ...options, overallRate: options.overallRate }) : closedLoop(options);
  run.then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
  );
});
