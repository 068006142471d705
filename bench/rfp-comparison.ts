import path from 'node:path';
import pg from 'pg';
import { CITIES } from '../domain/src/masters/reference-data/cities';
import { laneIdOf } from '../domain/src/rfp/lanes';
import type { Lane, LaneColumn, LaneQuote } from '../domain/src/rfp/model';
import { columns as fixtureColumns, headerInput, procurement, step2 } from '../domain/src/rfp/testing';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { allProjections } from '../projections/src/registry';
import { createProjector } from '../projections/src/runner';
import type { ComparisonBy } from '../projections/src/rfps/comparison';
import { comparison, getRfp, listLanes, MAX_LANE_PAGE_SIZE } from '../projections/src/rfps/rfps.queries';
import { createRfpDriver } from '../projections/src/rfps/test-driver';
import type { Db } from '../projections/src/sql';
import { startBenchApi, staffToken } from './api-process';
import { startBareServer } from './bare-baseline';
import { loadTest, type LoadResult } from './http-load';
import { seedBusinessAssociatesForBench } from './projections';
import { percentile } from './stats';
import type { FileGroupOptions } from './group';

/**
 * The `rfp-comparison` group of `npm run bench` (issue 10: "comparison over 50 BAs × 5,000 lanes (p99)";
 * RFP_COMPARISON_BENCH_LANES / RFP_COMPARISON_BENCH_BAS for other sizes, --quick: 1,000 lanes × 10 BAs;
 * RFP_COMPARISON_BENCH_TARGETS=lanes for the lane-grid figures alone).
 * The RFP is built the way the lifecycle builds it: every command (draft, step 2, lane upload, float, one
 * SubmitLaneResponses per BA with all its lanes) decided by the RFP decider against the event store
 * (handleCommand, through the projections' RFP test driver), to verified BAs seeded as events; then the
 * projector catches up and builds the read model. Nothing is inserted into a read table.
 *
 * Each figure is GET /api/rfps/:code/comparison against the api in its own process (p50, p99, req/s, body
 * size), beside two baselines measured in the same run:
 * - HTTP: a bare Express app (bare-json-server.ts, its own process) answering the very same body with res.json;
 * - SQL: the statements the read (rfps.queries.ts comparison) sends, recorded and replayed with raw `pg`, N runs
 *   with as many at a time as the figure has connections (p50, p99): what PostgreSQL and the driver cost under
 *   the same contention, without Express, auth or the answer's JSON.
 * The BA-response view (`view=ba`) answers every BA's entry in every group, up to 40 MB here: it is measured
 * with 2 connections, the page figures with 10. Printed, not asserted.
 */
const APP_ROLE = 'ba_portal_app';
const DB = 'bench_rfp_comparison';
const RFP_CODE = 'RFP-2026-0500';

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const seconds = (since: number) => (performance.now() - since) / 1000;

/** Five vehicle types, so the vehicle comparison has a handful of large groups. */
const VEHICLES = ['32 FT MXL', '20 FT SXL', '40 FT Trailer', '14 FT LCV', '24 FT SXL'];
/** The fixtures' columns (from, to, vehicle; rate per trip, transit days) with the bench's vehicle types. */
const COLUMNS: LaneColumn[] = fixtureColumns.map((c) => (c.key === 'vehicleType' ? { ...c, options: VEHICLES } : c));
const CITY_NAMES = CITIES.slice(0, 25).map((c) => c.name);

/**
 * `n` lanes over n/10 routes (pairs of 25 cities) and five vehicles: a route has ten lanes, two per vehicle, so
 * the location comparison has n/10 groups, location-and-vehicle n/2, vehicle five.
 */
function benchLanes(n: number): Lane[] {
  const routes = Math.max(1, Math.floor(n / 10));
  return Array.from({ length: n }, (_, i) => {
    const route = Math.floor(i / VEHICLES.length) % routes;
    const fromCity = CITY_NAMES[route % CITY_NAMES.length]!;
    const toCity = CITY_NAMES[Math.floor(route / CITY_NAMES.length) % CITY_NAMES.length]!;
    return { laneId: laneIdOf(i), values: { fromCity, toCity, vehicleType: VEHICLES[i % VEHICLES.length]! } };
  });
}

/** BA `b`'s quote of every lane: a lane's market rate plus a spread that differs by BA and lane. */
function benchQuotes(lanes: readonly Lane[], b: number): Record<string, LaneQuote> {
  const quotes: Record<string, LaneQuote> = {};
  lanes.forEach((lane, i) => {
    const rate = 20_000 + ((i * 7919) % 30_000) + (((b + 1) * (i + 13) * 104_729) % 8000);
    quotes[lane.laneId] = { ratePerTrip: String(rate), transitDays: String(1 + ((i + b) % 5)) };
  });
  return quotes;
}

/** A Db that also notes every statement sent through it, to replay the same SQL with raw `pg`. */
type Statement = { text: string; values?: unknown[] };
function recording(db: Db, log: Statement[]): Db {
  const query = (text: string, values?: unknown[]) => {
    log.push({ text, values });
    return db.query(text, values);
  };
  return { query } as unknown as Db;
}

/**
 * The statements, run in order, `runs` times in all (fewer if `durationMs` runs out first, but at least ten) by
 * `concurrency` workers at once (the HTTP figure's connections, so both see the same contention): each run's
 * total time in ms.
 */
async function replay(pool: pg.Pool, statements: readonly Statement[], o: { runs: number; concurrency: number; durationMs: number }): Promise<number[]> {
  const times: number[] = [];
  const deadline = performance.now() + o.durationMs;
  let started = 0;
  const worker = async () => {
    while (started < o.runs && (started < 10 || performance.now() < deadline)) {
      started += 1;
      const t0 = performance.now();
      for (const s of statements) await pool.query(s.text, s.values);
      times.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return times;
}

type Target = {
  name: string;
  /** The route under /api/rfps/:code/ (default 'comparison'). */
  path?: 'comparison' | 'lanes';
  query: Record<string, string>;
  /** The same read the route makes, against any Db (to record its SQL). */
  read: (db: Db) => Promise<unknown>;
  connections: number;
};

/**
 * Into a fresh database with the schema: `bas × 5` BAs as events (one in five verified: bench/projections.ts),
 * then RFP_CODE with `laneCount` lanes floated to `bas` of the verified ones, each quoting every lane, every
 * command through the RFP decider; then the projector catches up. Returns the seconds each part took.
 */
export async function seedComparisonRfp(
  pool: pg.Pool,
  laneCount: number,
  bas: number,
): Promise<{ commands: number; seedSeconds: number; decideSeconds: number; quoteSeconds: number[]; projectSeconds: number }> {
  const seeding = performance.now();
  await seedBusinessAssociatesForBench(pool, bas * 5);
  const baIds = Array.from({ length: bas }, (_, k) => `seed-${5 * k + 3}`);
  const seedSeconds = seconds(seeding);
  const lanes = benchLanes(laneCount);
  const store = createPostgresEventStore(pool);
  const driver = createRfpDriver(store);
  const started = performance.now();
  await driver.run(RFP_CODE, procurement, { type: 'CreateRfpDraft', header: headerInput({ rfpCode: RFP_CODE }) });
  await driver.run(RFP_CODE, procurement, { type: 'SaveRfpStep', step: 2, data: step2 });
  await driver.run(RFP_CODE, procurement, { type: 'UploadLanes', headerData: COLUMNS, lanes, file: null });
  await driver.float(RFP_CODE, baIds);
  // Each submission reads the RFP's whole stream (every earlier BA's quotes) to decide: the last one's time shows it.
  const quoteSeconds: number[] = [];
  for (const [b, baId] of baIds.entries()) {
    const quoting = performance.now();
    await driver.quote(RFP_CODE, baId, 1, benchQuotes(lanes, b));
    quoteSeconds.push(seconds(quoting));
  }
  const decideSeconds = seconds(started);
  const projecting = performance.now();
  const projector = createProjector({ pool, store, projections: allProjections(), log: () => undefined });
  await projector.catchUp();
  return { commands: 4 + baIds.length, seedSeconds, decideSeconds, quoteSeconds, projectSeconds: seconds(projecting) };
}

export async function rfpComparisonFigures(options: FileGroupOptions & {
  /** Lanes and BAs (default 5,000 × 50; 1,000 × 10 with --quick). */
  lanes?: number;
  bas?: number;
}): Promise<void> {
  console.log('\nrfp-comparison');
  const { server, quick, row } = options;
  const laneCount = options.lanes ?? (quick ? 1000 : 5000);
  const baCount = options.bas ?? (quick ? 10 : 50);
  await ensureDatabaseExists(server.url('postgres'), DB);
  const pool = new pg.Pool({ connectionString: server.url(DB), max: 10 });
  try {
    await applySchema(pool);
    await ensureRoles(pool, { appRole: APP_ROLE });
    const loaded = await seedComparisonRfp(pool, laneCount, baCount);
    const verified = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM business_associates b JOIN rfp_invitations i ON i.ba_id = b.id AND i.rfp_code = $1 WHERE b.status = 'verified'`,
      [RFP_CODE],
    );
    console.log(`  ${baCount * 5} BAs seeded in ${fmt(loaded.seedSeconds)} s; ${verified.rows[0]?.n} of the ${baCount} invited are verified`);
    const quotes = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rfp_quotes WHERE rfp_code = $1', [RFP_CODE]);
    const size = `${baCount} BAs × ${laneCount.toLocaleString('en-IN')} lanes`;
    row(
      `load ${size}: ${loaded.commands} commands decided by the RFP decider and appended (handleCommand)`,
      `${fmt(loaded.decideSeconds)} s`,
      'none (setup)',
      '',
      `one BA's ${laneCount.toLocaleString('en-IN')}-lane submission: the first ${fmt(loaded.quoteSeconds[0], 2)} s, ` +
        `the last ${fmt(loaded.quoteSeconds[loaded.quoteSeconds.length - 1], 2)} s (it reads every earlier submission)`,
    );
    row(`project them (projector catch-up) into rfp_lanes, rfp_quotes, rfp_quote_groups`, `${fmt(loaded.projectSeconds)} s, ${quotes.rows[0]?.n} quote rows`, 'none (setup)');
    // As after autovacuum's analyze: the figures are of a settled read model, not of the first seconds after a bulk load.
    await pool.query('ANALYZE');

    // RFP_COMPARISON_BENCH_TARGETS=lanes,all-page: only the figures whose names start so (a quicker run).
    const chosen = process.env['RFP_COMPARISON_BENCH_TARGETS']?.split(',').filter(Boolean);
    const targets = (await comparisonTargets(pool, laneCount)).filter((t) => !chosen || chosen.some((c) => t.name.startsWith(c)));
    // A procurement user of the RFP's company (the driver creates RFPs in '1000').
    const token = await staffToken(options.keyDir, {
      userId: 'bench-rfp-procurement',
      username: 'rfp.procurement@bench.test',
      name: 'Bench RFP Procurement',
      roles: ['MLL Procurement'],
      companyCodes: ['1000'],
    });
    const headers = { authorization: `Bearer ${token}` };
    // One api process (issue 12: the list targets are per process).
    const api = await startBenchApi({ databaseUrl: appRoleUrl(server.url(DB), APP_ROLE, null), temporalAddress: options.temporalAddress, keyDir: options.keyDir, env: { API_PROCESSES: '1' } });
    const urlOf = (t: Target) => `${api.base}/api/rfps/${RFP_CODE}/${t.path ?? 'comparison'}?${new URLSearchParams(t.query).toString()}`;
    let bare: Awaited<ReturnType<typeof startBareServer>> | null = null;
    try {
      // Each answer once: checked, sized, and kept for the bare Express baseline to serve.
      const bodies: Record<string, unknown> = {};
      const bytes = new Map<string, number>();
      for (const t of targets) {
        const answer = await fetch(urlOf(t), { headers });
        const text = await answer.text();
        if (answer.status !== 200) throw new Error(`${t.name}: ${answer.status} ${text.slice(0, 300)}`);
        bodies[t.name] = JSON.parse(text);
        bytes.set(t.name, Buffer.byteLength(text));
      }
      bare = await startBareServer(path.join(options.work, 'rfp-comparison-bodies.json'), bodies);
      const durationMs = quick ? 1500 : 4000;
      const measure = async (url: string, connections: number, withHeaders?: Record<string, string>): Promise<LoadResult> => {
        await loadTest({ url, connections, durationMs: 500, headers: withHeaders });
        return loadTest({ url, connections, durationMs, headers: withHeaders });
      };
      const show = (r: LoadResult) =>
        `p50 ${fmt(r.p50Ms)} ms, p99 ${fmt(r.p99Ms)} ms, ${fmt(r.requestsPerSecond, 0)} req/s${r.errors ? `, ${r.errors} errors` : ''}`;
      const sqlRuns = quick ? 50 : 200;
      for (const t of targets) {
        const served = await measure(urlOf(t), t.connections, headers);
        const baseline = await measure(`${bare.base}/${t.name}`, t.connections);
        const statements: Statement[] = [];
        await t.read(recording(pool, statements));
        const sql = await replay(pool, statements, { runs: sqlRuns, concurrency: t.connections, durationMs });
        const sqlP99 = percentile(sql, 99);
        row(
          `GET /api/rfps/:code/${t.path ?? 'comparison'}?${new URLSearchParams(t.query).toString()} (${t.name}), ${size}, ${t.connections} connections`,
          `${show(served)}, body ${fmt((bytes.get(t.name) ?? 0) / 1024, 0)} KB`,
          'p99 reported (issue 10 gives no number); a few × the raw SQL at most',
          `bare Express, same body: ${show(baseline)}; raw pg, same ${statements.length} statements, ${sql.length} runs, ${t.connections} at a time: ` +
            `p50 ${fmt(percentile(sql, 50))} ms, p99 ${fmt(sqlP99)} ms`,
          `p99 ratio to raw SQL ${fmt(served.p99Ms / sqlP99)}, to bare Express ${fmt(served.p99Ms / baseline.p99Ms)}`,
        );
      }
    } finally {
      if (bare) await bare.stop();
      await api.stop();
    }
  } finally {
    await pool.end();
  }
}

/**
 * What the console asks (RfpComparisonTab: page 0, 10 groups; the award dialog: 'all' in pages of 1,000), the
 * last page of each grouping with more than one page, and the BA-response view (`view=ba`) of each grouping.
 */
async function comparisonTargets(pool: pg.Pool, laneCount: number): Promise<Target[]> {
  const FIRST_PAGE = 10;
  const page = (by: ComparisonBy, p: number, perPage: number): Target => ({
    name: `${by}-page-${p}-of-${perPage}`,
    query: { by, page: String(p), perPage: String(perPage) },
    read: (db) => comparison(db, RFP_CODE, 1, by, { page: p, perPage }),
    connections: 10,
  });
  // Issue 12: the lane grid (GET /lanes, RfpLanesTab: 25 a page by default, up to 100), first and last page. The
  // route reads the RFP (its access check) and then the page with its total: both statements are replayed.
  const lanes = (p: number, perPage: number): Target => ({
    name: `lanes-page-${p}-of-${perPage}`,
    path: 'lanes',
    query: { page: String(p), perPage: String(perPage) },
    read: async (db) => {
      await getRfp(db, RFP_CODE, { companyCodes: ['1000'] });
      await listLanes(db, RFP_CODE, { page: p, perPage });
    },
    connections: 10,
  });
  const targets: Target[] = [lanes(0, 25), lanes(Math.ceil(laneCount / 25) - 1, 25), lanes(0, 100)];
  for (const by of ['all', 'location', 'vehicle', 'location-vehicle'] as const) {
    targets.push(page(by, 0, FIRST_PAGE));
    const { total } = await comparison(pool, RFP_CODE, 1, by, { page: 0, perPage: 1 });
    const last = Math.ceil(total / FIRST_PAGE) - 1;
    if (last > 0) targets.push(page(by, last, FIRST_PAGE));
  }
  targets.push(page('all', Math.ceil(laneCount / MAX_LANE_PAGE_SIZE) - 1, MAX_LANE_PAGE_SIZE));
  for (const by of ['all', 'location', 'vehicle', 'location-vehicle'] as const)
    targets.push({
      name: `${by}-ba-view`,
      query: { by, view: 'ba' },
      // The route reads every group, a page of the largest size at a time.
      read: async (db) => {
        const first = await comparison(db, RFP_CODE, 1, by, { page: 0, perPage: MAX_LANE_PAGE_SIZE });
        for (let p = 1; p * MAX_LANE_PAGE_SIZE < first.total; p += 1) await comparison(db, RFP_CODE, 1, by, { page: p, perPage: MAX_LANE_PAGE_SIZE });
      },
      connections: 2,
    });
  return targets;
}
