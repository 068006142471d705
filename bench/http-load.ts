import http from 'node:http';
import { percentile } from './stats';

export type LoadResult = { requestsPerSecond: number; p50Ms: number; p99Ms: number; n: number; errors: number };

/**
 * A bounded closed-loop load generator: `connections` keep-alive connections, each sending the next request
 * when the previous answer arrives, for `durationMs`. Loopback only.
 */
export async function loadTest(options: {
  url: string;
  connections: number;
  durationMs: number;
  headers?: Record<string, string>;
  expectStatus?: number;
}): Promise<LoadResult> {
  const target = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('load tests only target loopback');
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + options.durationMs;
  const once = () =>
    new Promise<void>((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = http.get(target, { agent, headers: options.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== (options.expectStatus ?? 200)) errors += 1;
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (Date.now() < deadline) await once();
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  return {
    requestsPerSecond: latencies.length / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    n: latencies.length,
    errors,
  };
}
