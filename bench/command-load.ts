import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

/**
 * A command load for the lag and soak benches (issue 12): POSTs that each append an event, sent open loop at a
 * fixed rate with a body of their own (a create must not collide with the one before it on a unique key).
 * The generator runs in a child process of its own (`node --import tsx bench/command-load.ts`), never in the
 * api's or the bench runner's event loop; it prints one JSON result on stdout when done.
 *
 * The command is a master item create (POST /api/<resource> with `{ [field]: "<prefix> <n>" }`): a real
 * command through the decider and the event store that the `masters` projection turns into a row, with no
 * Temporal workflow in the path.
 */
export type CommandLoadOptions = {
  /** Full URL of the POST, e.g. http://127.0.0.1:1234/api/block-reasons (loopback only). */
  url: string;
  token: string;
  /** The body's only field and the unique text its values start with. */
  field: string;
  prefix: string;
  /** Commands per second, evenly spaced. */
  rate: number;
  durationMs: number;
  /** Most sockets open at once (requests wait for one when all are busy; latency counts from when each was due). */
  connections?: number;
  /** The status a successful command answers (default 201). */
  expectStatus?: number;
};

/**
 * [ms after the start when the command was due, latency ms from due to the answer's end, status]. Status 0 is a
 * socket error or timeout, ABANDONED a command still unanswered when the run's grace period ended.
 */
export type CommandSample = [dueMs: number, latencyMs: number, status: number];

export type CommandLoadResult = {
  /** Epoch ms (sub-ms precision) of the first command's due time: the same clock as Date.now() and PostgreSQL's. */
  startedAt: number;
  durationMs: number;
  samples: CommandSample[];
  /** The first few distinct error descriptions (status and body, or the socket error). */
  errorSamples: string[];
};

const root = path.resolve(__dirname, '..');
export const ABANDONED = -1;
/** After the last command is due, answers are awaited this long at most (an overloaded api is not waited out). */
const graceMs = (durationMs: number) => Math.max(5000, durationMs / 3);

/** Runs the load in a child process and answers its result. */
export async function runCommandLoad(options: CommandLoadOptions): Promise<CommandLoadResult> {
  const target = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('command loads only target loopback');
  // Options travel in the environment, not argv: the token is not shown in the process list.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'command-load.ts')], {
    cwd: root,
    env: { ...process.env, COMMAND_LOAD_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (c: Buffer) => chunks.push(c));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`command load exited with ${code}`);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as CommandLoadResult;
}

/** Summary of the samples: achieved rate of answered commands, and how many failed. */
export function commandErrors(result: CommandLoadResult, expectStatus = 201): number {
  return result.samples.filter(([, , status]) => status !== expectStatus).length;
}

async function drive(options: CommandLoadOptions): Promise<CommandLoadResult> {
  const expected = options.expectStatus ?? 201;
  const target = new URL(options.url);
  // Idle sockets are closed from this side after 2 s, well before the server's 5 s keep-alive timeout: at a
  // low rate a socket left idle could otherwise be reused just as the server closes it (a spurious ECONNRESET).
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections ?? 64, timeout: 2000 });
  const samples: CommandSample[] = [];
  const errorSamples = new Set<string>();
  const noteError = (text: string) => {
    if (errorSamples.size < 10) errorSamples.add(text.slice(0, 300));
  };
  const inFlight = new Set<Promise<void>>();
  const unanswered = new Set<http.ClientRequest>();
  let abandoning = false;
  const startedNs = process.hrtime.bigint();
  const startedAt = performance.timeOrigin + performance.now();
  const send = (n: number, dueNs: bigint) => {
    const body = JSON.stringify({ [options.field]: `${options.prefix} ${n}` });
    const headers = {
      authorization: `Bearer ${options.token}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    };
    const dueMs = Number(dueNs - startedNs) / 1e6;
    const done = new Promise<void>((resolve) => {
      let settled = false;
      /** One sample per command, whichever of answer, error or close comes first. */
      const finish = (status: number, error?: string) => {
        if (settled) return;
        settled = true;
        samples.push([dueMs, Number(process.hrtime.bigint() - dueNs) / 1e6, status]);
        if (error !== undefined) noteError(error);
        resolve();
      };
      const failed = (message: string) =>
        abandoning ? finish(ABANDONED, 'not answered by the end of the run (abandoned)') : finish(0, `socket: ${message}`);
      const req = http.request(target, { agent, method: 'POST', headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (res.statusCode !== expected) parts.push(c);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          finish(status, status !== expected ? `${status} ${Buffer.concat(parts).toString('utf8')}` : undefined);
        });
        res.on('error', (e) => failed(e.message));
      });
      req.setTimeout(10_000, () => req.destroy(new Error('request timed out after 10 s')));
      req.on('error', (e) => failed(e.message));
      req.on('close', () => {
        unanswered.delete(req);
        // Closed with the answer unfinished and no error reported (a destroy mid-body).
        failed('closed before the answer ended');
      });
      unanswered.add(req);
      req.end(body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const total = Math.floor((options.rate * options.durationMs) / 1000);
  const intervalNs = 1e9 / options.rate;
  const dueOf = (n: number) => startedNs + BigInt(Math.round(n * intervalNs));
  let sent = 0;
  while (sent < total) {
    const now = process.hrtime.bigint();
    // Everything due by now goes out; a late timer sends its backlog at once, each timed from its own due moment.
    while (sent < total && dueOf(sent) <= now) {
      send(sent, dueOf(sent));
      sent += 1;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.race([Promise.all(inFlight), new Promise((r) => setTimeout(r, graceMs(options.durationMs)))]);
  // Bounded: what the api has not answered by now (queued here or still in its hands) is counted, not awaited.
  abandoning = true;
  for (const req of unanswered) req.destroy();
  await Promise.all(inFlight);
  agent.destroy();
  samples.sort((a, b) => a[0] - b[0]);
  return { startedAt, durationMs: options.durationMs, samples, errorSamples: [...errorSamples] };
}

if (require.main === module) {
  const options = JSON.parse(process.env['COMMAND_LOAD_OPTIONS'] ?? 'null') as CommandLoadOptions | null;
  if (!options) throw new Error('COMMAND_LOAD_OPTIONS is not set');
  drive(options).then(
    (result) => process.stdout.write(JSON.stringify(result), () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
