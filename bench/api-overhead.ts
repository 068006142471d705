import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_STAFF, startBenchApi, staffToken } from './api-process';
import { startBareServer } from './bare-baseline';
import { loadTest, type LoadResult } from './http-load';

/**
 * The `api` group of `npm run bench` (issue 12): what one request costs the api beyond Express itself.
 * - baseline: bare Express answering a stored JSON body (bare-json-server.ts, its own process);
 * - a trivial authenticated route, GET /api/notifications/unread-count: bearer-token check, the blocked-user
 *   check (cached), one indexed count query; the least work a signed-in route does;
 * - the BA list (50-row filtered page with its total) with API_PROCESSES=1 and =2.
 * Every figure comes from the same generator (http-load.ts: autocannon in a process of its own) at 10
 * connections; each api figure is printed beside the baseline measured just before it.
 */
type Row = (figure: string, value: string, target: string, baseline?: string, note?: string) => void;

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const show = (r: LoadResult & { cpuMsPerRequest?: number }) =>
  `${fmt(r.requestsPerSecond, 0)} req/s, p50 ${fmt(r.p50Ms, 2)} ms, p99 ${fmt(r.p99Ms, 2)} ms${r.errors ? `, ${r.errors} errors` : ''}` +
  (r.cpuMsPerRequest !== undefined && !Number.isNaN(r.cpuMsPerRequest) ? `, ${fmt(r.cpuMsPerRequest, 3)} CPU ms/request` : '');

const CONNECTIONS = 10;

const ROUNDS = 3;

/**
 * CPU time a process has used so far, in ms (Linux /proc; utime + stime at 100 ticks/s), or NaN. On a shared
 * machine req/s follows whatever else runs; CPU per request is what the server itself spends.
 */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** A load test and the CPU ms per answered request of the server process `pid` meanwhile. */
async function withCpu(pid: number | undefined, run: () => Promise<LoadResult>): Promise<LoadResult & { cpuMsPerRequest: number }> {
  const before = cpuMs(pid);
  const result = await run();
  return { ...result, cpuMsPerRequest: (cpuMs(pid) - before) / result.n };
}
const median = <T>(values: T[], by: (v: T) => number): T => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)]!;

/**
 * The baseline and an api route, each warmed up, then measured in ROUNDS alternating rounds (baseline, route,
 * baseline, route, ...): on a shared, noisy machine a burst of other work then lands on both, not on one. Each
 * figure is its median round; the ratio is the median of the rounds' ratios.
 */
type Measured = LoadResult & { cpuMsPerRequest: number };

async function paired(
  baseline: { url: string; pid: number | undefined },
  route: { url: string; pid: number | undefined },
  durationMs: number,
  headers: Record<string, string>,
): Promise<{ baseline: Measured; route: Measured; ratio: number; cpuRatio: number }> {
  const baselineUrl = baseline.url;
  const url = route.url;
  await loadTest({ url: baselineUrl, connections: CONNECTIONS, durationMs: 1000 });
  await loadTest({ url, connections: CONNECTIONS, durationMs: 1000, headers });
  const rounds: { baseline: Measured; route: Measured }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b = await withCpu(baseline.pid, () => loadTest({ url: baselineUrl, connections: CONNECTIONS, durationMs: durationMs / ROUNDS }));
    const r = await withCpu(route.pid, () => loadTest({ url, connections: CONNECTIONS, durationMs: durationMs / ROUNDS, headers }));
    rounds.push({ baseline: b, route: r });
  }
  return {
    baseline: median(rounds.map((r) => r.baseline), (r) => r.requestsPerSecond),
    route: median(rounds.map((r) => r.route), (r) => r.requestsPerSecond),
    ratio: median(rounds.map((r) => r.route.requestsPerSecond / r.baseline.requestsPerSecond), (r) => r),
    // What the ratio would be with a core each and nothing else running: baseline CPU/request over ours.
    cpuRatio: median(rounds.map((r) => r.baseline.cpuMsPerRequest / r.route.cpuMsPerRequest), (r) => r),
  };
}

export async function apiOverheadFigures(options: {
  databaseUrl: string;
  temporalAddress: string;
  work: string;
  n: number;
  quick: boolean;
  row: Row;
}): Promise<void> {
  const { row, n } = options;
  const keyDir = path.join(options.work, 'keys');
  const token = await staffToken(keyDir, BENCH_STAFF);
  const headers = { authorization: `Bearer ${token}` };
  const duration = options.quick ? 3000 : 8000;
  const query = new URLSearchParams({
    filter: JSON.stringify({ status: 'inprogress', companyCode: '1000' }),
    range: JSON.stringify([0, 49]),
    sort: JSON.stringify(['updatedAt', 'DESC']),
  });
  const trivialPath = '/api/notifications/unread-count';
  const listPath = `/api/business-associates?${query.toString()}`;

  const bare = await startBareServer(path.join(options.work, 'bare-api-bodies.json'), { trivial: { unread: 0 } });
  const bareTarget = { url: `${bare.base}/trivial`, pid: bare.pid };
  try {
    for (const processes of [1, 2]) {
      const api = await startBenchApi({
        databaseUrl: options.databaseUrl,
        temporalAddress: options.temporalAddress,
        keyDir,
        env: { API_PROCESSES: String(processes) },
      });
      try {
        const label = `${processes} api process${processes > 1 ? 'es' : ''}`;
        if (processes === 1) {
          const trivial = await paired(bareTarget, { url: `${api.base}${trivialPath}`, pid: api.child.pid }, duration, headers);
          row('bare Express, trivial JSON route (own process), 10 connections', show(trivial.baseline), 'the baseline');
          row(
            `GET ${trivialPath} (signed in: token + blocked check + one count), ${label}, 10 connections`,
            show(trivial.route),
            '≥ 0.6 × bare Express',
            `bare Express: ${show(trivial.baseline)}`,
            `ratio ${fmt(trivial.ratio, 2)} (median of ${ROUNDS} alternating rounds); by CPU per request ${fmt(trivial.cpuRatio, 2)}`,
          );
        }
        if (processes === 1) await listBodyCeiling({ ...options, url: `${api.base}${listPath}`, headers, duration, bareTarget });
        const list = await paired(
          bareTarget,
          // With a cluster the port belongs to the primary, which does not serve: no CPU figure then.
          { url: `${api.base}${listPath}`, pid: processes === 1 ? api.child.pid : undefined },
          duration,
          headers,
        );
        row(
          `GET /api/business-associates (50-row page, filtered, with total) over ${n} BAs, ${label}, 10 connections`,
          show(list.route),
          '≥ 0.35 × bare Express, p99 ≤ 25 ms',
          `bare Express: ${show(list.baseline)}`,
          `ratio ${fmt(list.ratio, 2)} (median of ${ROUNDS} alternating rounds)${processes === 1 ? `; by CPU per request ${fmt(list.cpuRatio, 2)}` : ''}`,
        );
      } finally {
        await api.stop();
      }
    }
  } finally {
    await bare.stop();
  }
}

/**
 * The ceiling of the list's ratio on this machine: bare Express serving the list's own page body (fetched once from
 * the api, so the same bytes), with no token, no SQL and no row parsing, against the trivial baseline. Whatever
 * the api does, a list answer costs at least this: serialising the body and sending it over loopback.
 */
async function listBodyCeiling(options: {
  url: string;
  headers: Record<string, string>;
  duration: number;
  bareTarget: { url: string; pid: number | undefined };
  work: string;
  row: Row;
}): Promise<void> {
  const res = await fetch(options.url, { headers: options.headers });
  if (res.status !== 200) throw new Error(`the list answered ${res.status}`);
  const text = await res.text();
  const bare = await startBareServer(path.join(options.work, 'bare-list-body.json'), { list: JSON.parse(text) as unknown });
  try {
    const ceiling = await paired(options.bareTarget, { url: `${bare.base}/list`, pid: bare.pid }, options.duration, {});
    options.row(
      `bare Express serving the list's own 50-row page body (${(Buffer.byteLength(text) / 1024).toFixed(1)} KB, same bytes; no auth, no SQL), 10 connections`,
      show(ceiling.route),
      'the ceiling of the list ratio',
      `bare Express, trivial route: ${show(ceiling.baseline)}`,
      `ratio ${fmt(ceiling.ratio, 2)} (median of ${ROUNDS} alternating rounds); by CPU per request ${fmt(ceiling.cpuRatio, 2)}`,
    );
  } finally {
    await bare.stop();
  }
}
