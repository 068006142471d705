import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import type pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../platform/src/db/embedded-postgres';
import { findTemporalCli, freePort, startTemporalDevServer } from '../platform/src/temporal/cli';
import { BENCH_STAFF, staffToken } from './api-process';
import type { Gc } from './gc-trace';
import { ABANDONED, runCommandLoad, type CommandSample } from './command-load';
import type { Row } from './group';
import { errorsOf, loadTest, type LoadResult } from './http-load';
import { commandLoadOptions, commandToken, prepareDatabase, startCommandStack } from './lag';
import { machineCpuSeconds, treeCpuSeconds } from './process-cpu';
import { rssBytes } from './process-memory';
import { seedBusinessAssociatesForBench } from './projections';
import { percentile } from './stats';

/**
 * `npm run bench -- --soak` (issue 12): the BA list at half its measured throughput plus 20 commands/s for 10
 * minutes (SOAK_MS), then p99 per minute and its drift, the api's memory (VmRSS of its process, sampled every
 * few seconds) first minute against last, and every error. It runs alone, with its own PostgreSQL, Temporal
 * dev server and data (SOAK_BA_N BAs, default 20,000), all on loopback, and stops by itself.
 *
 * The list load is open loop (`overallRate`): a server that slows down is not offered less work, so drift
 * shows in the latencies instead of being absorbed by the generator. It runs as consecutive windows of one
 * minute (one loadTest each, a fresh generator process), which gives the per-minute p99 directly; the
 * commands run as one open-loop load over the whole soak, in their own process.
 */
const DB = 'bench_soak';
const COMMANDS_PER_SECOND = 20;
const RSS_EVERY_MS = 5000;
const MEASURE_MS = 10_000;

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const mb = (bytes: number) => bytes / 1024 / 1024;
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** p99 per window of the command samples (by due time), and their errors. */
function commandWindows(samples: readonly CommandSample[], windowMs: number, windows: number) {
  return Array.from({ length: windows }, (_, w) => {
    const inWindow = samples.filter(([due]) => due >= w * windowMs && due < (w + 1) * windowMs);
    return {
      n: inWindow.length,
      p99: percentile(inWindow.filter(([, , status]) => status !== ABANDONED).map(([, latency]) => latency), 99),
      errors: inWindow.filter(([, , status]) => status !== 201).length,
    };
  });
}

/**
 * What else happened in a window, to explain a latency spike: CPU seconds of each process tree and of the
 * whole machine, PostgreSQL's checkpoints and autovacuum runs (counters, so a window's figure is a difference).
 */
type StatementTotals = Map<string, { query: string; calls: number; ms: number }>;

type Context = {
  statements: StatementTotals;
  cpu: Record<string, number>;
  machineBusy: number;
  machineTotal: number;
  checkpoints: number;
  checkpointWriteMs: number;
  autovacuums: Map<string, number>;
};

async function sampleContext(owner: pg.Pool, pids: Record<string, number>): Promise<Context> {
  const cpu = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, treeCpuSeconds(pid)]));
  const machine = machineCpuSeconds();
  // PostgreSQL 17 moved the checkpoint counters from pg_stat_bgwriter to pg_stat_checkpointer; the embedded
  // server is newer than the system one, so both are asked for.
  const { rows: moved } = await owner.query(`SELECT to_regclass('pg_catalog.pg_stat_checkpointer') IS NOT NULL AS moved`);
  const bgwriter = await owner.query<{ n: string; write_ms: string }>(
    moved[0]!.moved
      ? `SELECT num_timed + num_requested AS n, write_time + sync_time AS write_ms FROM pg_stat_checkpointer`
      : `SELECT checkpoints_timed + checkpoints_req AS n, checkpoint_write_time + checkpoint_sync_time AS write_ms FROM pg_stat_bgwriter`,
  );
  const tables = await owner.query<{ relname: string; n: string }>(
    `SELECT relname, autovacuum_count + autoanalyze_count AS n FROM pg_stat_all_tables WHERE autovacuum_count + autoanalyze_count > 0`,
  );
  const { rows: statements } = await owner.query<{ queryid: string; query: string; calls: string; ms: number }>(
    `SELECT queryid::text, query, calls, total_exec_time AS ms FROM pg_stat_statements`,
  );
  return {
    statements: new Map(statements.map((r) => [r.queryid, { query: r.query, calls: Number(r.calls), ms: r.ms }])),
    cpu,
    machineBusy: machine.busy,
    machineTotal: machine.total,
    checkpoints: Number(bgwriter.rows[0]!.n),
    checkpointWriteMs: Number(bgwriter.rows[0]!.write_ms),
    autovacuums: new Map(tables.rows.map((r) => [r.relname, Number(r.n)])),
  };
}

function describeWindow(before: Context, after: Context, gcs: readonly Gc[]): string {
  const cpu = Object.keys(after.cpu).map((name) => `${name} ${fmt(after.cpu[name]! - before.cpu[name]!, 1)}`);
  const busy = after.machineBusy - before.machineBusy;
  const total = after.machineTotal - before.machineTotal;
  const vacuumed = [...after.autovacuums].filter(([table, n]) => n > (before.autovacuums.get(table) ?? 0)).map(([table]) => table);
  const gcMs = gcs.reduce((sum, gc) => sum + gc.mainThreadMs, 0);
  const longest = Math.max(0, ...gcs.map((gc) => gc.longestStopMs));
  return (
    `cpu s: ${cpu.join(', ')}; machine busy ${fmt(busy, 0)} of ${fmt(total, 0)}; ` +
    `api GC ${fmt(gcMs, 0)} ms on the main thread (longest stop ${fmt(longest, 1)} ms); ` +
    `checkpoints ${after.checkpoints - before.checkpoints} (${fmt(after.checkpointWriteMs - before.checkpointWriteMs, 0)} ms writing); ` +
    `autovacuum/analyze: ${vacuumed.length ? vacuumed.join(', ') : 'none'}`
  );
}

/**
 * The statements PostgreSQL spent most time on over the soak, with their mean time per call in each window: a
 * statement whose mean climbs while its calls stay level is work that grows with the data, not with the load.
 */
function statementGrowth(contexts: readonly Context[], top = 8): string[] {
  const first = contexts[0]!.statements;
  const last = contexts[contexts.length - 1]!.statements;
  const spent = [...last].map(([id, s]) => ({ id, query: s.query, ms: s.ms - (first.get(id)?.ms ?? 0) })).sort((a, b) => b.ms - a.ms);
  return spent.slice(0, top).map(({ id, query, ms }) => {
    const perWindow = contexts.slice(1).map((after, w) => {
      const a = after.statements.get(id);
      const b = contexts[w]!.statements.get(id);
      const calls = (a?.calls ?? 0) - (b?.calls ?? 0);
      return calls > 0 ? ((a?.ms ?? 0) - (b?.ms ?? 0)) / calls : NaN;
    });
    const text = query.replace(/\s+/g, ' ').slice(0, 110);
    return `${fmt(ms / 1000, 1)} s in all; ms per call by window ${perWindow.map((v) => fmt(v, 2)).join(', ')}: ${text}`;
  });
}

export async function soakFigures(options: { quick: boolean; row: Row }): Promise<void> {
  const { row } = options;
  const soakMs = Number(process.env['SOAK_MS'] ?? 600_000);
  const n = Number(process.env['SOAK_BA_N'] ?? 20_000);
  if (!(soakMs >= 10_000)) throw new Error('SOAK_MS must be at least 10000');
  // Minutes; a shorter soak (while developing) is cut in three windows so first and last still differ.
  const windowMs = soakMs >= 180_000 ? 60_000 : Math.round(soakMs / 3);
  const windows = Math.ceil(soakMs / windowMs);
  const windowName = windowMs === 60_000 ? 'minute' : `${fmt(windowMs / 1000, 0)} s window`;
  console.log(`\nsoak: ${fmt(soakMs / 60_000, 1)} min over ${n} BAs, ${windows} windows of ${fmt(windowMs / 1000, 0)} s`);

  const work = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-soak-'));
  chmodSync(work, 0o755);
  // pg_stat_statements: which statements' time per call grows over the soak (see statementGrowth).
  const server = await startEmbeddedPostgres({
    dataDir: path.join(work, 'pg'),
    port: await freePort(),
    settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' },
  });
  const temporal = await startTemporalDevServer({ cliPath: findTemporalCli({ log: console.log }), port: await freePort() });
  try {
    const owner = await prepareDatabase(server, DB);
    try {
      const seededAt = performance.now();
      await seedBusinessAssociatesForBench(owner, n);
      console.log(`  ${n} BAs seeded in ${fmt((performance.now() - seededAt) / 1000)} s`);
      const keyDir = path.join(work, 'keys');
      const listToken = await staffToken(keyDir, BENCH_STAFF);
      const writeToken = await commandToken(keyDir);
      const stack = await startCommandStack({
        server,
        db: DB,
        owner,
        temporalAddress: temporal.address,
        keyDir,
        dataDir: path.join(work, 'data'),
        traceGc: true,
      });
      try {
        const pid = stack.api.child.pid!;
        // The api bench's list: a 50-row filtered page with its total.
        const query = new URLSearchParams({
          filter: JSON.stringify({ status: 'inprogress', companyCode: '1000' }),
          range: JSON.stringify([0, 49]),
          sort: JSON.stringify(['updatedAt', 'DESC']),
        });
        const list = { url: `${stack.api.base}/api/business-associates?${query.toString()}`, headers: { authorization: `Bearer ${listToken}` } };
        const check = await fetch(list.url, { headers: list.headers });
        if (check.status !== 200) throw new Error(`GET /api/business-associates answered ${check.status}: ${await check.text()}`);

        await loadTest({ ...list, connections: 10, durationMs: 2000 });
        const measured = await loadTest({ ...list, connections: 10, durationMs: MEASURE_MS });
        const rate = Math.max(1, Math.round(measured.requestsPerSecond / 2));
        console.log(
          `  list throughput (closed loop, 10 connections, ${MEASURE_MS / 1000} s): ${fmt(measured.requestsPerSecond, 0)} req/s, ` +
            `p99 ${fmt(measured.p99Ms, 2)} ms; soaking at ${rate} req/s + ${COMMANDS_PER_SECOND} commands/s`,
        );

        const rssIdle = rssBytes(pid);
        // Full collections during each window (indexes into the api's trace): the heap each left is what the
        // api still held, which RSS (V8 growing its heap under load, the allocator keeping pages) does not say.
        const gcMarks: number[] = [stack.api.gcs.length];
        const pids = {
          api: pid,
          projector: stack.projector.pid!,
          postgres: server.process.pid!,
          temporal: temporal.process.pid!,
        };
        // The extension is created here, by the owner: the settings above only load its library.
        await owner.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
        let context = await sampleContext(owner, pids);
        const contexts = [context];
        const startedAt = performance.now();
        const rss: { atMs: number; bytes: number }[] = [{ atMs: 0, bytes: rssIdle }];
        const sampler = setInterval(() => {
          try {
            rss.push({ atMs: performance.now() - startedAt, bytes: rssBytes(pid) });
          } catch {
            // The api died: the missing samples and the errors say so.
          }
        }, RSS_EVERY_MS);
        const commandsDone = runCommandLoad(commandLoadOptions(stack.api, writeToken, 'soak', COMMANDS_PER_SECOND, soakMs));
        const listWindows: LoadResult[] = [];
        let listFailure: unknown = null;
        try {
          for (let w = 0; w < windows; w += 1) {
            const durationMs = Math.min(windowMs, soakMs - w * windowMs);
            const result = await loadTest({ ...list, connections: 10, durationMs, overallRate: rate });
            listWindows.push(result);
            gcMarks.push(stack.api.gcs.length);
            const next = await sampleContext(owner, pids);
            console.log(
              `  ${windowName} ${w + 1}: list ${fmt(result.requestsPerSecond, 0)} req/s, p50 ${fmt(result.p50Ms, 2)} ms, ` +
                `p99 ${fmt(result.p99Ms, 2)} ms, ${result.errors} errors${result.errors > 0 ? ` ${JSON.stringify(result.errorKinds)}` : ''}; api RSS ${fmt(mb(rss[rss.length - 1]!.bytes), 0)} MB\n` +
                `    ${describeWindow(context, next, stack.api.gcs.slice(gcMarks[w], gcMarks[w + 1]))}`,
            );
            context = next;
            contexts.push(next);
          }
        } catch (e) {
          listFailure = e;
        }
        // The commands end on their own at soakMs; awaited even when the list failed, so no process is left behind.
        const commands = await commandsDone;
        clearInterval(sampler);
        if (listFailure) throw listFailure;
        rss.push({ atMs: performance.now() - startedAt, bytes: rssBytes(pid) });

        const firstList = listWindows[0]!;
        const lastList = listWindows[listWindows.length - 1]!;
        const listErrors = errorsOf(listWindows);
        const kindsText = listErrors.kinds ? ` (${listErrors.kinds})` : '';
        row(
          `soak: GET /api/business-associates (50-row page, filtered, with total, ${n} BAs) open loop at ${rate} req/s ` +
            `(half of the measured) + ${COMMANDS_PER_SECOND} commands/s, ${fmt(soakMs / 60_000, 1)} min, p99 per ${windowName}`,
          `${listWindows.map((r) => fmt(r.p99Ms, 1)).join(', ')} ms; drift last vs first ${fmt(lastList.p99Ms - firstList.p99Ms, 1)} ms ` +
            `(×${fmt(lastList.p99Ms / firstList.p99Ms, 2)}); ${listErrors.total} errors${kindsText}`,
          'flat p99, no errors',
          `closed loop, 10 connections, ${MEASURE_MS / 1000} s before the soak: ${fmt(measured.requestsPerSecond, 0)} req/s, p99 ${fmt(measured.p99Ms, 2)} ms`,
          `achieved ${listWindows.map((r) => fmt(r.requestsPerSecond, 0)).join(', ')} req/s`,
        );

        const perWindow = commandWindows(commands.samples, windowMs, windows);
        const commandErrors = perWindow.reduce((sum, w) => sum + w.errors, 0);
        for (const e of commands.errorSamples) console.log(`  command error: ${e}`);
        row(
          `soak: POST /api/block-reasons open loop at ${COMMANDS_PER_SECOND}/s during the list load, p99 per ${windowName}`,
          `${perWindow.map((w) => fmt(w.p99, 1)).join(', ')} ms; drift ${fmt(perWindow[perWindow.length - 1]!.p99 - perWindow[0]!.p99, 1)} ms; ` +
            `${commands.samples.length} sent, ${commandErrors} errors`,
          'flat p99, no errors',
        );

        const inWindow = (from: number, to: number) => rss.filter((s) => s.atMs >= from && s.atMs < to).map((s) => s.bytes);
        const end = rss[rss.length - 1]!.atMs;
        const first = mean(inWindow(1, windowMs));
        const last = mean(inWindow(end - windowMs, end + 1));
        const max = Math.max(...rss.map((s) => s.bytes));
        row(
          `soak: api process RSS (VmRSS every ${RSS_EVERY_MS / 1000} s, ${rss.length} samples), mean of the first vs the last ${windowName}`,
          `${fmt(mb(first), 0)} → ${fmt(mb(last), 0)} MB (${last >= first ? '+' : ''}${fmt(mb(last - first), 1)} MB), max ${fmt(mb(max), 0)} MB`,
          'flat (no growth beyond noise)',
          `idle before the soak (after the throughput run): ${fmt(mb(rssIdle), 0)} MB`,
        );
        const fullGcs = gcMarks.slice(1).map((end, w) => stack.api.gcs.slice(gcMarks[w], end).filter((gc) => gc.full));
        // A window without a full collection has no figure ('-'), not 0 MB.
        const liveHeap = fullGcs.map((gcs) => (gcs.length ? mean(gcs.map((gc) => gc.liveMb)) : NaN));
        const gcCounts = fullGcs.map((gcs) => gcs.length);
        row(
          `soak: api live heap (left after each full collection, --trace-gc), mean per ${windowName}`,
          `${liveHeap.map((v) => fmt(v, 1)).join(', ')} MB; last vs first ${fmt(liveHeap[liveHeap.length - 1]! - liveHeap[0]!, 1)} MB, ` +
            // The first window includes warm-up (caches, compiled code, pools filling): the second is the plateau.
            `last vs second ${fmt(liveHeap[liveHeap.length - 1]! - (liveHeap[1] ?? liveHeap[0]!), 1)} MB`,
          'flat (no growth beyond noise)',
          '',
          `full collections per ${windowName}: ${gcCounts.join(', ')}`,
        );
        console.log(`  PostgreSQL's statements by time spent during the soak:`);
        for (const line of statementGrowth(contexts)) console.log(`    ${line}`);
        row(
          'soak: errors (non-2xx answers, socket errors, timeouts)',
          `${listErrors.total + commandErrors}`,
          '0',
          '',
          `list ${listErrors.total}, commands ${commandErrors}${commands.errorSamples.length ? `: ${commands.errorSamples.slice(0, 3).join(' | ')}` : ''}`,
        );
      } finally {
        await stack.stop();
      }
    } finally {
      await owner.end();
    }
  } finally {
    await temporal.stop();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
