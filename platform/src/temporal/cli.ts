import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The Temporal CLI is pinned to v1.5.1 (server 1.29.1): the newest release `go install` accepts
 * (design.md §1). Found, in order: TEMPORAL_CLI_PATH, `temporal` on PATH, our cached build, `go install`
 * into that cache. There is no internet download fallback on these machines.
 */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

export const temporalCliCacheDir = (): string =>
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ba-portal', 'temporal', 'v1.5.1');

const executable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (name: string): string | null => {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && executable(candidate)) return candidate;
  }
  return null;
};

export type FindCliOptions = { configuredPath?: string | null; log?: (line: string) => void; allowBuild?: boolean };

export function findTemporalCli(options: FindCliOptions = {}): string {
  const log = options.log ?? (() => undefined);
  if (options.configuredPath) {
    if (executable(options.configuredPath)) return options.configuredPath;
    throw new Error(`TEMPORAL_CLI_PATH=${options.configuredPath} is not an executable file`);
  }
  const fromPath = onPath('temporal');
  if (fromPath) return fromPath;
  const cacheBin = path.join(temporalCliCacheDir(), 'bin');
  const cached = path.join(cacheBin, 'temporal');
  if (executable(cached)) return cached;
  if (options.allowBuild === false) throw new Error(cliMissingMessage('building was not allowed'));

  const go = onPath('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : null);
  if (!go) throw new Error(cliMissingMessage('Go is not installed, so the CLI cannot be built'));
  mkdirSync(cacheBin, { recursive: true });
  log(`building the Temporal CLI (${TEMPORAL_CLI_MODULE}) with go install; the first build takes a few minutes…`);
  try {
    execFileSync(go, ['install', TEMPORAL_CLI_MODULE], {
      env: { ...process.env, GOBIN: cacheBin, CGO_ENABLED: process.env.CGO_ENABLED ?? '0' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch (e) {
    throw new Error(cliMissingMessage(`go install failed: ${(e as Error).message}`));
  }
  if (!executable(cached)) throw new Error(cliMissingMessage('go install finished but produced no binary'));
  return cached;
}

const cliMissingMessage = (why: string): string =>
  [
    `The Temporal CLI is needed for the local Temporal dev server, but ${why}.`,
    'Do one of:',
    `  - install Go and run: GOBIN=${path.join(temporalCliCacheDir(), 'bin')} go install ${TEMPORAL_CLI_MODULE}`,
    '  - set TEMPORAL_CLI_PATH to a temporal binary (v1.5.1 or compatible)',
    '  - set TEMPORAL_ADDRESS to a running Temporal server (host:port)',
  ].join('\n');

export type TemporalDevServer = {
  address: string;
  uiUrl: string | null;
  process: ChildProcess;
  stop: () => Promise<void>;
};

export const waitForPort = async (port: number, timeoutMs: number, host = '127.0.0.1'): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host, port });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
};

/** Starts `temporal server start-dev`; without `dbFile` the server keeps everything in memory (tests). */
export async function startTemporalDevServer(options: {
  cliPath: string;
  port: number;
  uiPort?: number | null;
  dbFile?: string | null;
  /** Namespaces to register at start, besides `default`. */
  namespaces?: readonly string[];
  log?: (line: string) => void;
}): Promise<TemporalDevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--log-level', 'error'];
  // Eager activity execution hands a lifecycle's first activity to the worker that completed the workflow
  // task, skipping a poll round trip (halves start → first activity latency in the bench).
  args.push('--dynamic-config-value', 'system.enableActivityEagerExecution=true');
  if (options.dbFile) {
    mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  for (const namespace of options.namespaces ?? []) args.push('--namespace', namespace);
  if (options.uiPort) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const early = exited.then(() => false);
  const ready = await Promise.race([waitForPort(options.port, 60_000), early]);
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`Temporal dev server did not start on port ${options.port}:\n${output}`);
  }
  return {
    address: `127.0.0.1:${options.port}`,
    uiUrl: options.uiPort ? `http://localhost:${options.uiPort}` : null,
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A free TCP port on loopback, for test servers. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
