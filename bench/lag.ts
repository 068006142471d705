import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import type { EmbeddedPostgres } from '../platform/src/db/embedded-postgres';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { BENCH_MDM, spawnProcess, startBenchApi, staffToken, stopProcess, type BenchApi } from './api-process';
import { ABANDONED, commandErrors, runCommandLoad, type CommandLoadOptions, type CommandLoadResult } from './command-load';
import type { FileGroupOptions } from './group';
import { percentile } from './stats';

/**
 * The `lag` group of `npm run bench` (issue 12): projection lag under a steady 200 commands/s through the
 * api. The command is a master item create (POST /api/block-reasons, one MasterItemCreated event), which the
 * `masters` projection turns into a master_items row with no Temporal workflow in the path. The api, the
 * projector and the command generator each run in a process of their own.
 *
 * The route waits (bounded) for the projection before it answers, so a command's latency already contains
 * the lag; the lag itself is measured from the event's commit instead: a watcher connection polls the head
 * position and the `masters` checkpoint every few ms (the checkpoint moves in the transaction that writes
 * the rows, so checkpoint ≥ position means the row is visible) and each event's lag is the moment its
 * position was first seen projected minus its `recorded_at` (clock_timestamp() taken inside the append just
 * before the commit; same machine, same clock). That figure includes the commit's own fsync and the poll
 * interval, so it errs long; the lag from the moment the watcher first saw the event committed is printed too.
 */
const APP_ROLE = 'ba_portal_app';
const DB = 'bench_lag';
/** The command's master: one unique text field, no references to check. */
export const COMMAND_RESOURCE = 'block-reasons';
const COMMAND_FIELD = 'reason';
const WATCH_EVERY_MS = 2;

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Epoch ms with sub-ms precision: the clock PostgreSQL's recorded_at is on. */
const nowEpochMs = () => performance.timeOrigin + performance.now();

/** A fresh database with the schema and the application role, as `npm start` leaves it. */
export async function prepareDatabase(server: EmbeddedPostgres, name: string): Promise<pg.Pool> {
  await ensureDatabaseExists(server.url('postgres'), name);
  const owner = new pg.Pool({ connectionString: server.url(name), max: 4 });
  await applySchema(owner);
  await ensureRoles(owner, { appRole: APP_ROLE });
  return owner;
}

/** A console token of an MDM user: the role that may write master items. */
export const commandToken = (keyDir: string) =>
  staffToken(keyDir, BENCH_MDM);

export type CommandStack = { api: BenchApi; projector: ChildProcess; stop: () => Promise<void> };

/**
 * The api and the projector, each in its own process, against `db` (application role). One api process
 * (API_PROCESSES=1) so the pid whose memory is read is the one serving. Their data folder (anchors, files) is
 * under `dataDir`. Answers once the api listens and the projector has registered its checkpoints.
 */
export async function startCommandStack(options: {
  server: EmbeddedPostgres;
  db: string;
  owner: pg.Pool;
  temporalAddress: string;
  keyDir: string;
  dataDir: string;
  /** Trace the api's garbage collections (startBenchApi's traceGc). */
  traceGc?: boolean;
}): Promise<CommandStack> {
  const databaseUrl = appRoleUrl(options.server.url(options.db), APP_ROLE, null);
  const env = {
    DATA_DIR: options.dataDir,
    API_PROCESSES: '1',
    TEMPORAL_TASK_QUEUE: `bench-${options.db}-${Date.now()}`,
    FILE_STORE: 'fs',
    FILES_DIR: path.join(options.dataDir, 'files'),
  };
  const projector = spawnProcess('projections/src/main.ts', {
    ...process.env,
    ...env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
  });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await options.owner.query(`SELECT 1 FROM projection_checkpoints WHERE name = 'masters'`);
      if (rows.length > 0) break;
      if (Date.now() > deadline || projector.exitCode !== null) throw new Error('the projector did not start');
      await settle(100);
    }
    const api = await startBenchApi({
      databaseUrl,
      temporalAddress: options.temporalAddress,
      keyDir: options.keyDir,
      env,
      traceGc: options.traceGc,
    });
    return {
      api,
      projector,
      stop: async () => {
        await api.stop();
        await stopProcess(projector);
      },
    };
  } catch (e) {
    await stopProcess(projector);
    throw e;
  }
}

/** Options of a command load against this stack: creates of block reasons with a run-unique prefix. */
export const commandLoadOptions = (
  api: BenchApi,
  token: string,
  run: string,
  rate: number,
  durationMs: number,
): CommandLoadOptions => ({
  url: `${api.base}/api/${COMMAND_RESOURCE}`,
  token,
  field: COMMAND_FIELD,
  // Letters first (no leading formula characters); unique per run so no create meets an earlier one's key.
  prefix: `Bench ${run} ${Date.now().toString(36)}`,
  rate,
  durationMs,
});

/**
 * Waits until no event has been appended for a second (bounded): commands an overloaded api still works on
 * after their generator gave up must not land in the next measurement.
 */
export async function quiesce(owner: pg.Pool, timeoutMs = 30_000): Promise<void> {
  const head = async () => Number((await owner.query<{ position: string }>('SELECT position FROM event_store_head')).rows[0]?.position ?? 0);
  const deadline = Date.now() + timeoutMs;
  let last = await head();
  let stillSince = Date.now();
  while (Date.now() < deadline && Date.now() - stillSince < 1000) {
    await settle(100);
    const now = await head();
    if (now !== last) [last, stillSince] = [now, Date.now()];
  }
}

type Change = { at: number; position: number };

/** Polls head and `masters` checkpoint on its own connection; answers each value's first-seen time. */
function watchPositions(client: pg.Client): { stop: () => Promise<{ heads: Change[]; checkpoints: Change[] }> } {
  const heads: Change[] = [];
  const checkpoints: Change[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ head: string; checkpoint: string }>(
        `SELECT (SELECT position FROM event_store_head) AS head,
                (SELECT position FROM projection_checkpoints WHERE name = 'masters') AS checkpoint`,
      );
      // The answer's arrival: the state it shows held at some moment before, so visibility errs late.
      const at = nowEpochMs();
      const head = Number(rows[0]?.head ?? 0);
      const checkpoint = Number(rows[0]?.checkpoint ?? 0);
      if (head > (heads[heads.length - 1]?.position ?? -1)) heads.push({ at, position: head });
      if (checkpoint > (checkpoints[checkpoints.length - 1]?.position ?? -1)) checkpoints.push({ at, position: checkpoint });
      await settle(WATCH_EVERY_MS);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { heads, checkpoints };
    },
  };
}

/** First time a change at or past `position` was seen (changes ascend), or NaN. */
function firstSeen(changes: readonly Change[], position: number): number {
  let lo = 0;
  let hi = changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (changes[mid]!.position >= position) hi = mid;
    else lo = mid + 1;
  }
  return changes[lo]?.at ?? Number.NaN;
}

export type LagFigure = {
  events: number;
  /** recorded_at (inside the append, before its commit) → row visible. */
  fromRecorded: { p50: number; p99: number; max: number };
  /** The watcher first saw the event committed → row visible. */
  fromSeenCommit: { p50: number; p99: number };
  commands: CommandLoadResult;
};

const stats = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values) });

/** Runs a command load while watching, then answers the lag of every event it appended. */
export async function measureLag(owner: pg.Pool, ownerUrl: string, load: CommandLoadOptions): Promise<LagFigure> {
  const client = new pg.Client({ connectionString: ownerUrl, application_name: 'bench-lag-watcher' });
  await client.connect();
  try {
    const headOf = async (db: pg.Client | pg.Pool) =>
      Number((await db.query<{ position: string }>('SELECT position FROM event_store_head')).rows[0]?.position ?? 0);
    const from = await headOf(client);
    const watcher = watchPositions(client);
    let watched: { heads: Change[]; checkpoints: Change[] };
    let commands: CommandLoadResult;
    let to = 0;
    try {
      commands = await runCommandLoad(load);
      to = await headOf(owner);
      // Until the projection has the last event (bounded: a stuck projector shows up as missing events).
      const deadline = Date.now() + 15_000;
      for (;;) {
        const { rows } = await owner.query<{ position: string }>(`SELECT position FROM projection_checkpoints WHERE name = 'masters'`);
        if (Number(rows[0]?.position ?? 0) >= to || Date.now() > deadline) break;
        await settle(20);
      }
      await settle(20);
    } finally {
      watched = await watcher.stop();
    }
    const { rows } = await owner.query<{ position: string; at_ms: number }>(
      `SELECT global_position AS position, extract(epoch FROM recorded_at)::float8 * 1000 AS at_ms
         FROM events WHERE global_position > $1 AND global_position <= $2 ORDER BY global_position`,
      [from, to],
    );
    const fromRecorded: number[] = [];
    const fromSeenCommit: number[] = [];
    for (const r of rows) {
      const position = Number(r.position);
      const visible = firstSeen(watched.checkpoints, position);
      // Never seen projected within the wait: counted as the whole wait, not dropped.
      fromRecorded.push((Number.isNaN(visible) ? nowEpochMs() : visible) - r.at_ms);
      const committed = firstSeen(watched.heads, position);
      if (!Number.isNaN(visible) && !Number.isNaN(committed)) fromSeenCommit.push(visible - committed);
    }
    const recorded = stats(fromRecorded);
    const seen = stats(fromSeenCommit);
    return { events: rows.length, fromRecorded: recorded, fromSeenCommit: { p50: seen.p50, p99: seen.p99 }, commands };
  } finally {
    await client.end();
  }
}

/** Command figures of a load: answered rate, latency percentiles (from each command's due time), errors. */
export function commandSummary(result: CommandLoadResult): {
  sent: number;
  okPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  abandoned: number;
} {
  const ok = result.samples.filter(([, , s]) => s === 201);
  const span = Math.max(result.durationMs, ...result.samples.map(([due, latency]) => due + latency)) / 1000;
  // Abandoned commands have no latency to speak of: they count as errors and in `abandoned`.
  const latencies = result.samples.filter(([, , s]) => s !== ABANDONED).map(([, latency]) => latency);
  return {
    sent: result.samples.length,
    okPerSecond: ok.length / span,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: commandErrors(result),
    abandoned: result.samples.filter(([, , s]) => s === ABANDONED).length,
  };
}

export async function lagFigures(options: FileGroupOptions & { rate?: number }): Promise<void> {
  console.log('\nlag');
  const { server, quick, row } = options;
  const rate = options.rate ?? 200;
  const durationMs = quick ? 10_000 : 30_000;
  const owner = await prepareDatabase(server, DB);
  try {
    const token = await commandToken(options.keyDir);
    const stack = await startCommandStack({
      server,
      db: DB,
      owner,
      temporalAddress: options.temporalAddress,
      keyDir: options.keyDir,
      dataDir: path.join(options.work, 'lag-data'),
    });
    try {
      const ownerUrl = server.url(DB);
      // Warm-up (JIT, pools, the projector's first pages), not measured; at a rate the api keeps up with.
      await runCommandLoad(commandLoadOptions(stack.api, token, 'warm', 20, 2000));
      await quiesce(owner);
      // Same-run baseline: the same pipeline at a trickle, where nothing queues.
      const trickle = await measureLag(owner, ownerUrl, commandLoadOptions(stack.api, token, 'trickle', 10, quick ? 3000 : 5000));
      await quiesce(owner);
      const steady = await measureLag(owner, ownerUrl, commandLoadOptions(stack.api, token, 'steady', rate, durationMs));
      const c = commandSummary(steady.commands);
      const t = commandSummary(trickle.commands);
      for (const e of steady.commands.errorSamples) console.log(`  command error: ${e}`);
      row(
        `projection lag, append commit → master_items row visible, at ${rate} commands/s for ${durationMs / 1000} s ` +
          `(POST /api/${COMMAND_RESOURCE}; api, projector and generator in their own processes; ${steady.events} events)`,
        `p50 ${fmt(steady.fromRecorded.p50)} ms, p99 ${fmt(steady.fromRecorded.p99)} ms, max ${fmt(steady.fromRecorded.max)} ms`,
        'p99 ≤ 200 ms',
        `10 commands/s (${trickle.events} events): p50 ${fmt(trickle.fromRecorded.p50)} ms, p99 ${fmt(trickle.fromRecorded.p99)} ms`,
        `from recorded_at (inside the append, before its fsync'd commit), ${WATCH_EVERY_MS} ms watcher poll; ` +
          `from the commit as the watcher saw it: p50 ${fmt(steady.fromSeenCommit.p50)} ms, p99 ${fmt(steady.fromSeenCommit.p99)} ms`,
      );
      row(
        `POST /api/${COMMAND_RESOURCE} open loop at ${rate}/s (each answers after its own row is projected)`,
        `${fmt(c.okPerSecond, 0)} commands/s answered 201 Created (${c.sent} sent), p50 ${fmt(c.p50)} ms, p99 ${fmt(c.p99)} ms, ${c.errors} errors` +
          (c.abandoned ? ` (${c.abandoned} unanswered at the end, abandoned)` : ''),
        `${rate} commands/s sustained`,
        `10 commands/s: p50 ${fmt(t.p50)} ms, p99 ${fmt(t.p99)} ms, ${t.errors} errors`,
        'latency from each command\'s due time (a queue in the generator counts)',
      );
    } finally {
      await stack.stop();
    }
  } finally {
    await owner.end();
  }
}
