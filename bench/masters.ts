import pg from 'pg';
import { REFERENCE_DATA, type ReferenceMaster } from '../domain/src/masters/reference-data';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { rebuildProjections } from '../projections/src/rebuild';
import { allProjections } from '../projections/src/registry';
import { loadReferenceData } from '../scripts/reference-data';
import { BENCH_MDM, startBenchApi, staffToken } from './api-process';
import { loadTest, type LoadResult } from './http-load';
import type { ServerGroupOptions } from './group';

/**
 * The master-list figure of `npm run bench`: GET /api/cities with a search and a page over 10,000 cities,
 * against the api in its own process, beside GET /api/companies (the api bench's same-run baseline) and
 * GET /api/help (answered from memory), measured against the same process in the same run. The cities are created the way the reference data is:
 * CreateMasterItem commands through the masters' decider (scripts/reference-data.ts), then the projections
 * build the read table from those events; nothing is inserted into a read table directly.
 */
const APP_ROLE = 'ba_portal_app';
const DB = 'bench_masters';
export const BENCH_CITIES = 10_000;

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));

// City names allow letters, hyphen, dot and space only: a root, a suffix and a letter tag make them unique.
const ROOTS = ['Ram', 'Shiv', 'Krishna', 'Gopal', 'Lakshmi', 'Chandra', 'Devi', 'Hari', 'Indra', 'Jaya', 'Kamal', 'Madhu', 'Nanda', 'Padma', 'Raghu', 'Sita', 'Surya', 'Tara', 'Uma', 'Vijaya'];
const SUFFIXES = ['nagar', 'pur', 'abad', 'ganj', 'garh', 'wadi', 'palli', 'kote', 'pet', 'halli'];
const letters = (n: number, width: number) =>
  Array.from({ length: width }, (_, i) => String.fromCharCode(97 + (Math.floor(n / 26 ** (width - 1 - i)) % 26))).join('');

/** `n` cities spread over the 36 states (ids from the new-item range, as the API would give them). */
export function benchCities(n: number, stateIds: readonly number[]): ReferenceMaster {
  const rows = Array.from({ length: n }, (_, i) => {
    const root = ROOTS[i % ROOTS.length]!;
    const suffix = SUFFIXES[Math.floor(i / ROOTS.length) % SUFFIXES.length]!;
    const tag = letters(i, 3);
    return { id: 100_000 + i, name: `${root}${suffix} ${tag[0]!.toUpperCase()}${tag.slice(1)}`, stateId: stateIds[i % stateIds.length]! };
  });
  return { resource: 'cities', rows };
}

export async function masterListFigures(options: ServerGroupOptions): Promise<void> {
  console.log('\nmasters');
  const { server, quick, row } = options;
  await ensureDatabaseExists(server.url('postgres'), DB);
  const pool = new pg.Pool({ connectionString: server.url(DB), max: 12 });
  try {
    await applySchema(pool);
    await ensureRoles(pool, { appRole: APP_ROLE });
    const store = createPostgresEventStore(pool);
    const pick = (resource: string) => REFERENCE_DATA.find((m) => m.resource === resource)!;
    const states = pick('states');
    const cities = benchCities(BENCH_CITIES, states.rows.map((s) => Number(s.id)));
    const started = performance.now();
    const loaded = await loadReferenceData(store, { pool, data: [pick('companies'), states, cities], concurrency: 16 });
    const loadSeconds = (performance.now() - started) / 1000;
    await rebuildProjections({ pool, store, projections: allProjections() });
    const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM master_items WHERE master = 'cities'");
    console.log(`  ${loaded.created} master items created by command in ${fmt(loadSeconds)} s; ${rows[0]?.n} cities in the read model`);

    const token = await staffToken(options.keyDir, BENCH_MDM);
    const api = await startBenchApi({
      databaseUrl: appRoleUrl(server.url(DB), APP_ROLE, null),
      temporalAddress: options.temporalAddress,
      keyDir: options.keyDir,
      // One api process (issue 12: the list targets are per process).
      env: { API_PROCESSES: '1' },
    });
    try {
      const base = api.base;
      const duration = quick ? 3000 : 8000;
      const headers = { authorization: `Bearer ${token}` };
      // One name suffix in ten: ~1,000 matches, of which the second page of 50, by name.
      const query = new URLSearchParams({
        filter: JSON.stringify({ q: 'nagar' }),
        range: JSON.stringify([50, 99]),
        sort: JSON.stringify(['name', 'ASC']),
      });
      const listUrl = `${base}/api/cities?${query.toString()}`;
      const check = await fetch(listUrl, { headers });
      const total = check.headers.get('content-range');
      if (check.status !== 200) throw new Error(`GET /api/cities answered ${check.status}: ${await check.text()}`);
      // Baselines in the same process: GET /api/companies, the one the api bench uses (since the Masters it is
      // a two-row master list read from PostgreSQL), and GET /api/help, an answer from memory (truly trivial).
      const targets = [
        { name: 'cities', url: listUrl, headers },
        { name: 'companies', url: `${base}/api/companies` },
        { name: 'help', url: `${base}/api/help` },
      ];
      for (const t of targets) await loadTest({ ...t, connections: 10, durationMs: 1000 });
      // Interleaved rounds, median of three: on a shared machine the load drifts, and one long run of each in
      // a fixed order would compare the machine's moments rather than the routes.
      const runs = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
      for (let round = 0; round < 3; round++)
        for (const t of targets)
          runs.get(t.name)!.push(await loadTest({ ...t, connections: 10, durationMs: Math.round(duration / 3) }));
      const median = (name: string): LoadResult =>
        [...runs.get(name)!].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[1]!;
      const [list, companies, help] = [median('cities'), median('companies'), median('help')];
      const show = (r: LoadResult) =>
        `${fmt(r.requestsPerSecond, 0)} req/s, p99 ${fmt(r.p99Ms, 2)} ms${r.errors ? `, ${r.errors} errors` : ''}`;
      row(
        `GET /api/cities?q=nagar, 50-row page 2, sorted by name, over ${BENCH_CITIES.toLocaleString('en-IN')} cities ` +
          `(${total}), 10 connections, median of 3 interleaved rounds`,
        show(list),
        "none in issue 7 (beside a trivial route); for scale, the BA list's ≥ 1,500 req/s, p99 ≤ 25 ms",
        `GET /api/companies: ${show(companies)}; GET /api/help (from memory): ${show(help)}`,
        `ratio to /api/companies ${fmt(list.requestsPerSecond / companies.requestsPerSecond, 2)}, ` +
          `to /api/help ${fmt(list.requestsPerSecond / help.requestsPerSecond, 2)}`,
      );
    } finally {
      await api.stop();
    }
  } finally {
    await pool.end();
  }
}
