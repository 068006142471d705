import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createAuth, loadOrCreateAuthKeys } from '../api/src/http/auth';
import type { Role } from '../domain/src/identity/roles';
import { freePort, waitForPort } from '../platform/src/temporal/cli';
import { collectGcs, type Gc } from './gc-trace';

/**
 * What every bench group that loads the api needs: a staff access token signed with the keys the api process
 * reads, and the api itself started in its own process (the load generator never shares its event loop).
 */
const root = path.resolve(__dirname, '..');

export type BenchStaffUser = { userId: string; username: string; name: string; roles: Role[]; companyCodes: string[] };

/** The staff user the BA-list loads sign in as: MLL Procurement over both company codes. */
export const BENCH_STAFF: BenchStaffUser = {
  userId: 'bench-staff',
  username: 'bench@demo.test',
  name: 'Bench Staff',
  roles: ['MLL Procurement'],
  companyCodes: ['1000', '2000'],
};

/** The staff user the master-data loads and commands sign in as: MDM over company code 1000. */
export const BENCH_MDM: BenchStaffUser = {
  userId: 'bench-mdm',
  username: 'mdm@bench.test',
  name: 'Bench MDM',
  roles: ['MDM'],
  companyCodes: ['1000'],
};

/** A console access token for a staff user with these roles and company codes (active company "All"). */
export async function staffToken(keyDir: string, user: BenchStaffUser): Promise<string> {
  const auth = createAuth(
    { issuer: 'ba-portal', audience: 'ba-portal-api', accessTokenTtlSeconds: 3600, refreshTokenTtlSeconds: 3600 },
    await loadOrCreateAuthKeys(keyDir),
  );
  return auth.issueAccessToken({
    ...user,
    baId: null,
    app: 'console',
    activeCompanyCode: 'All',
    pwd: 'ok',
    billHubOnly: false,
  });
}

/**
 * Spawns a tsx entry point of the project (api, worker, projector) with this environment; `nodeArgs` go to
 * node itself (e.g. --cpu-prof, which NODE_OPTIONS does not allow).
 */
export const spawnProcess = (
  entry: string,
  env: NodeJS.ProcessEnv,
  nodeArgs: readonly string[] = [],
  stdout: 'ignore' | 'pipe' = 'ignore',
): ChildProcess =>
  spawn(process.execPath, [...nodeArgs, '--import', 'tsx', entry], { cwd: root, env, stdio: ['ignore', stdout, 'inherit'] });

/** Stops a child and waits for it to exit; one still shutting down after 10 s is killed, not waited for. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(force);
}

export type BenchApi = {
  base: string;
  child: ChildProcess;
  stop: () => Promise<void>;
  /** With `traceGc`: every collection of the api so far, with the heap it left and its pause (bench/gc-trace.ts). */
  gcs: readonly Gc[];
};

/**
 * The api in its own process against `databaseUrl` (the application role's), in production mode, as one
 * process (API_PROCESSES=1; `env` may ask for more), once it listens. `env` adds to or overrides the process's environment.
 */
export async function startBenchApi(options: {
  databaseUrl: string;
  temporalAddress: string;
  keyDir: string;
  env?: NodeJS.ProcessEnv;
  /** Arguments to node itself (bench/profile-api.ts: --cpu-prof). */
  nodeArgs?: readonly string[];
  /** Run the api with --trace-gc and collect its collections (the soak's live-heap and GC-pause figures). */
  traceGc?: boolean;
}): Promise<BenchApi> {
  const port = await freePort();
  const nodeArgs = [...(options.nodeArgs ?? []), ...(options.traceGc ? ['--trace-gc'] : [])];
  const child = spawnProcess('api/src/server.ts', {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    TEMPORAL_ADDRESS: options.temporalAddress,
    PORT: String(port),
    JWT_KEY_DIR: options.keyDir,
    NODE_ENV: 'production',
    // One process unless a bench asks for more: its pid is the one serving, so the memory and CPU read from it
    // are the api's (a cluster's primary only forwards connections). The mass-upload figures read the primary
    // of a two-worker cluster before this.
    API_PROCESSES: '1',
    ...options.env,
  }, nodeArgs, options.traceGc ? 'pipe' : 'ignore');
  const gcs = child.stdout ? collectGcs(child.stdout) : [];
  if (!(await waitForPort(port, 60_000))) {
    await stopProcess(child);
    throw new Error('api did not start');
  }
  return { base: `http://127.0.0.1:${port}`, child, stop: () => stopProcess(child), gcs };
}
