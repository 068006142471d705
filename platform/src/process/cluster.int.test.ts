import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { freePort } from '../temporal/cli';

/**
 * runClustered with real processes (API_PROCESSES uses it for the api): every worker serves the one port,
 * a worker that dies is replaced, and a stop reaches every worker's graceful shutdown before the primary exits.
 */
const fixture = path.join(__dirname, 'fixtures', 'clustered-echo.ts');

type Service = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

function start(port: number, processes: number): Service {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, CLUSTER_TEST_PORT: String(port), CLUSTER_TEST_PROCESSES: String(processes) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * One request on a fresh connection (no keep-alive), so the primary hands each to the next worker. Bounded: a
 * connection handed to a worker at the moment it was killed is never answered.
 */
const pidAt = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve(Number(body)));
    });
    req.on('error', reject);
    req.setTimeout(2000, () => req.destroy(new Error('no answer in 2 s')));
  });

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {
      // Not listening yet, or a worker between lives: try again.
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The distinct pids answering over `requests` fresh connections. */
async function answeringPids(port: number, requests = 12): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i++) pids.add(await pidAt(port));
  return pids;
}

let service: Service | null = null;

afterEach(async () => {
  if (service && process.env['CLUSTER_TEST_DEBUG']) console.log(service.output());
  if (service && service.child.exitCode === null && service.child.signalCode === null) {
    service.child.kill('SIGKILL');
    await service.exited;
  }
  service = null;
});

it('serves one port from two worker processes, replaces a worker that dies, and stops them all gracefully', async () => {
  const port = await freePort();
  service = start(port, 2);
  const s = service;
  const workers = await until('two workers answering', async () => {
    const pids = await answeringPids(port);
    return pids.size === 2 ? pids : undefined;
  });
  expect(workers.has(s.child.pid!)).toBe(false);
  // prepare runs once, in the primary, before any worker starts.
  expect(s.output().match(/prepared by \d+/g)).toEqual([`prepared by ${s.child.pid}`]);

  const [victim, survivor] = [...workers];
  process.kill(victim!, 'SIGKILL');
  const replaced = await until('a replacement worker', async () => {
    const pids = await answeringPids(port);
    return pids.size === 2 && !pids.has(victim!) && pids.has(survivor!) ? pids : undefined;
  });
  expect(s.output()).toContain(`worker ${victim} exited (code null, signal SIGKILL)`);

  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
  for (const pid of replaced) expect(s.output()).toContain(`stopped ${pid}`);
  await expect(pidAt(port)).rejects.toThrow();
});

it('runs the service in the process itself, with no primary, when one process is asked for', async () => {
  const port = await freePort();
  service = start(port, 1);
  const s = service;
  const pid = await until('the service answering', () => pidAt(port));
  expect(pid).toBe(s.child.pid);
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
  expect(s.output()).toContain(`stopped ${pid}`);
});
