import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { findTemporalCli, freePort, startTemporalDevServer } from '../platform/src/temporal/cli';
import { BENCH_STAFF, startBenchApi, staffToken } from './api-process';
import { loadTest } from './http-load';
import { seedBusinessAssociatesForBench } from './projections';

/**
 * Where an api request's CPU goes (issue 12): the api in its own process under `--cpu-prof`, loaded at 10
 * connections on one route, then the profile summed by function (self time) and by package. Not part of
 * `npm run bench`; run by hand:
 *   PROFILE_PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/profile-api.ts [path] [seconds]
 * Default path: the trivial signed-in route of the api group. The database (h12_profile) is left in place.
 */
type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; endTime: number };

/**
 * `window`: the measured load, as ms before the profile's end (start-up, warm-up and shutdown left out).
 */
function summarise(file: string, top = 45, window?: { fromEndMs: number; toEndMs: number }): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // Sample times from the end backwards (timeDeltas[i] is the gap before sample i).
  const at: number[] = new Array(profile.samples.length);
  let t = profile.endTime;
  for (let i = profile.samples.length - 1; i >= 0; i--) {
    at[i] = t;
    t -= profile.timeDeltas[i] ?? 0;
  }
  profile.samples.forEach((id, i) => {
    const beforeEndMs = (profile.endTime - at[i]!) / 1000;
    if (window && (beforeEndMs > window.fromEndMs || beforeEndMs < window.toEndMs)) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName)).reduce((a, [, t]) => a + t, 0);
  const where = (n: ProfileNode) => {
    const url = n.callFrame.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
    return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
  };
  const pkg = (n: ProfileNode) => {
    const url = n.callFrame.url;
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (m) return m[1]!;
    if (url.startsWith('node:')) return url;
    if (!url) return n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : '(native)';
    return url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '').split('/').slice(0, 3).join('/');
  };
  const sum = (key: (n: ProfileNode) => string) => {
    const m = new Map<string, number>();
    for (const [id, t] of self) m.set(key(byId.get(id)!), (m.get(key(byId.get(id)!)) ?? 0) + t);
    return [...m].sort((a, b) => b[1] - a[1]);
  };
  const pct = (t: number) => `${((100 * t) / (total - idle)).toFixed(1)}%`;
  console.log(`\nbusy ${(((total - idle) / 1e6)).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s (idle/program excluded from %)`);
  console.log('\nby package (self):');
  for (const [k, t] of sum(pkg).slice(0, 25)) console.log(`  ${pct(t).padStart(6)}  ${k}`);
  console.log('\nby function (self):');
  for (const [k, t] of sum(where).slice(0, top)) console.log(`  ${pct(t).padStart(6)}  ${k}`);
}

async function main(): Promise<void> {
  // A profile written elsewhere (MASS_UPLOAD_CPU_PROF in the mass-upload bench): only summed.
  if (process.argv[2]?.endsWith('.cpuprofile')) return summarise(process.argv[2], Number(process.argv[3] ?? 45));
  const route = process.argv[2] ?? '/api/notifications/unread-count';
  const seconds = Number(process.argv[3] ?? 6);
  const adminUrl = process.env['PROFILE_PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = 'h12_profile';
  const work = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-profile-'));
  const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${database}`);
  await ensureDatabaseExists(adminUrl, database);
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });
  await applySchema(pool);
  await ensureRoles(pool, { appRole: 'ba_portal_app' });
  const { rows } = await pool.query<{ n: string }>('select count(*) as n from events');
  if (Number(rows[0]!.n) === 0) await seedBusinessAssociatesForBench(pool, Number(process.env['PROFILE_BAS'] ?? 2000));
  await pool.end();
  const temporal = await startTemporalDevServer({ cliPath: findTemporalCli({ log: console.log }), port: await freePort() });
  const keyDir = path.join(work, 'keys');
  let loadStarted = 0;
  let loadEnded = 0;
  const profDir = path.join(work, 'prof');
  mkdirSync(profDir);
  const token = await staffToken(keyDir, BENCH_STAFF);
  const api = await startBenchApi({
    databaseUrl: appRoleUrl(dbUrl, 'ba_portal_app', null),
    temporalAddress: temporal.address,
    keyDir,
    env: { API_PROCESSES: '1' },
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
  });
  try {
    const headers = { authorization: `Bearer ${token}` };
    await loadTest({ url: `${api.base}${route}`, connections: 10, durationMs: 1500, headers });
    // The load worker starts ~0.5 s after the call (tsx): the window begins a second in, ends with the load.
    loadStarted = Date.now() + 1000;
    console.log(await loadTest({ url: `${api.base}${route}`, connections: 10, durationMs: seconds * 1000, headers }));
    loadEnded = Date.now();
  } finally {
    await api.stop();
    await temporal.stop();
  }
  const stopped = Date.now();
  // The api's own profile: the biggest file (tsx's loader leaves a small one of its own).
  const files = readdirSync(profDir).map((f) => path.join(profDir, f));
  const biggest = files.sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
  if (!biggest) throw new Error('no profile written');
  console.log(`profile: ${biggest}`);
  summarise(biggest, 45, { fromEndMs: stopped - loadStarted, toEndMs: stopped - loadEnded });
}

if (process.argv[2] === '--summarise') summarise(process.argv[3]!, Number(process.argv[4] ?? 45));
else
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
