import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { createAuth, loadOrCreateAuthKeys } from '../api/src/http/auth';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import type { EmbeddedPostgres } from '../platform/src/db/embedded-postgres';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { freePort, waitForPort } from '../platform/src/temporal/cli';
import { pollPeakRss, peakRssBytes, resetPeakRss, rssBytes } from './process-memory';
import { percentile } from './stats';

/**
 * The upload figures of `npm run bench`: a 20 MB PDF posted to POST /api/annexures (multipart `title`, `file`)
 * on the api in its own process, with its projector beside it (the API waits for the read model, as in
 * production). Throughput is MB/s from the first byte sent to the answer; memory is the api process's peak
 * RSS during the uploads above its idle RSS, read from /proc (issue 7: must stay under 64 MB, i.e. the file
 * is streamed, never held whole). The same-run baseline is a bare node:http server in its own process that
 * does the least any durable upload must do: hash the body, write it to disk and fsync it.
 */
const root = path.resolve(__dirname, '..');
const APP_ROLE = 'ba_portal_app';
const DB = 'bench_uploads';
const MB = 1024 * 1024;
export const UPLOAD_BYTES = 20 * MB;
export const MEMORY_LIMIT_BYTES = 64 * MB;

type Row = (figure: string, value: string, target: string, baseline?: string, note?: string) => void;
const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const mb = (bytes: number) => bytes / MB;

/** A PDF by its magic bytes (what file-type checks) and random content, distinct per `seed` so nothing dedupes. */
function pdfOf(bytes: number, seed: number): Buffer {
  const file = randomBytes(bytes);
  file.write('%PDF-1.7\n%âãÏÓ\n', 0, 'latin1');
  file.writeUInt32BE(seed, 64);
  file.write('\n%%EOF\n', bytes - 7, 'latin1');
  return file;
}

type Upload = { ms: number; status: number };

/** One multipart POST; resolves when the whole answer has arrived. */
function upload(url: URL, headers: Record<string, string>, title: string, file: Buffer, name: string): Promise<Upload> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${title}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + file.length + tail.length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', reject);
    req.write(head);
    req.write(file);
    req.end(tail);
  });
}

/**
 * The least a durable upload costs: a bare server that hashes the raw body and writes it to a file it fsyncs
 * before answering (as the blob store must), with no multipart parsing, checks, event or read model.
 */
const BARE_SERVER = `
const http = require('node:http'), crypto = require('node:crypto'), fs = require('node:fs'), path = require('node:path');
let n = 0;
http.createServer((req, res) => {
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(path.join(process.env.DIR, 'upload-' + n++), { autoClose: false });
  req.on('data', (c) => hash.update(c));
  req.pipe(out);
  out.on('finish', () => fs.fsync(out.fd, () => fs.close(out.fd, () => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ sha256: hash.digest('hex') }));
  })));
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

async function stop(child: ChildProcess): Promise<void> {
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

type Series = { mbPerSecond: number[]; errors: number; statuses: number[] };

async function series(run: (i: number) => Promise<Upload>, n: number, offset: number): Promise<Series> {
  const out: Series = { mbPerSecond: [], errors: 0, statuses: [] };
  for (let i = 0; i < n; i++) {
    const r = await run(offset + i);
    out.statuses.push(r.status);
    if (r.status < 200 || r.status >= 300) out.errors += 1;
    else out.mbPerSecond.push(mb(UPLOAD_BYTES) / (r.ms / 1000));
  }
  return out;
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function uploadFigures(options: {
  server: EmbeddedPostgres;
  temporalAddress: string;
  keyDir: string;
  work: string;
  quick: boolean;
  row: Row;
}): Promise<void> {
  console.log('\nuploads');
  const { server, quick, row, work } = options;
  const n = quick ? 3 : 6;
  await ensureDatabaseExists(server.url('postgres'), DB);
  const owner = new pg.Pool({ connectionString: server.url(DB), max: 2 });
  await applySchema(owner);
  await ensureRoles(owner, { appRole: APP_ROLE });
  await owner.end();

  const keys = await loadOrCreateAuthKeys(options.keyDir);
  const auth = createAuth(
    { issuer: 'ba-portal', audience: 'ba-portal-api', accessTokenTtlSeconds: 3600, refreshTokenTtlSeconds: 3600 },
    keys,
  );
  const token = await auth.issueAccessToken({
    userId: 'bench-admin',
    username: 'admin@bench.test',
    name: 'Bench Admin',
    roles: ['MLL-ADMIN'],
    companyCodes: ['1000'],
    baId: null,
    app: 'console',
    activeCompanyCode: 'All',
    pwd: 'ok',
    billHubOnly: false,
  });
  const filesDir = path.join(work, 'upload-files');
  const bareDir = path.join(work, 'upload-bare');
  mkdirSync(bareDir, { recursive: true });
  const env = {
    ...process.env,
    DATABASE_URL: appRoleUrl(server.url(DB), APP_ROLE, null),
    TEMPORAL_ADDRESS: options.temporalAddress,
    JWT_KEY_DIR: options.keyDir,
    FILE_STORE: 'fs',
    FILES_DIR: filesDir,
    NODE_ENV: 'production',
  };
  const apiPort = await freePort();
  const barePort = await freePort();
  const api = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: root,
    env: { ...env, PORT: String(apiPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const projector = spawn(process.execPath, ['--import', 'tsx', 'projections/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const bare = spawn(process.execPath, ['-e', BARE_SERVER], {
    env: { PATH: process.env.PATH, PORT: String(barePort), DIR: bareDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    if (!(await waitForPort(apiPort, 60_000)) || !(await waitForPort(barePort, 10_000))) throw new Error('servers did not start');
    const headers = { authorization: `Bearer ${token}` };
    const apiUrl = new URL(`http://127.0.0.1:${apiPort}/api/annexures`);
    const bareUrl = new URL(`http://127.0.0.1:${barePort}/upload`);
    // Made per upload (before its clock starts) rather than all held at once.
    const fileOf = (i: number) => pdfOf(UPLOAD_BYTES, i);
    const toApi = (i: number) => upload(apiUrl, headers, `Bench annexure ${i}`, fileOf(i), `bench-${i}.pdf`);

    // Idle: started, the HTTP, session and database paths warmed by reads, but no upload yet — so the peak
    // below also holds whatever the first upload itself brings in (conservative).
    const pid = api.pid!;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(apiUrl, { headers });
      if (res.status !== 200) throw new Error(`GET /api/annexures answered ${res.status}`);
    }
    await settle(2000);
    const idle = rssBytes(pid);
    const exact = resetPeakRss(pid);
    const poll = pollPeakRss(pid);
    const measured = await series(toApi, n, 0);
    const polled = poll.stop();
    const peak = exact ? Math.max(peakRssBytes(pid), polled) : polled;
    if (measured.errors === n) throw new Error(`POST /api/annexures answered ${measured.statuses.join(', ')}`);
    await series((i) => upload(bareUrl, {}, `Bare ${i}`, fileOf(i), `bare-${i}.pdf`), 1, 0);
    const baseline = await series((i) => upload(bareUrl, {}, `Bare ${i}`, fileOf(i), `bare-${i}.pdf`), n, 0);

    // The fixed cost of an upload whatever its size (command, event, the read model caught up): a tiny PDF.
    const small: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await upload(apiUrl, headers, `Small ${i}`, pdfOf(1024, 1000 + i), `small-${i}.pdf`);
      if (r.status >= 200 && r.status < 300) small.push(r.ms);
    }
    const median = (s: Series) => percentile(s.mbPerSecond, 50);
    row(
      `POST /api/annexures, one 20 MB PDF at a time (${n} uploads; fs blob store, projector running)`,
      `median ${fmt(median(measured), 1)} MB/s (slowest ${fmt(Math.min(...measured.mbPerSecond), 1)} MB/s)${measured.errors ? `, ${measured.errors} errors (${measured.statuses.join(',')})` : ''}`,
      'streamed: no whole-file buffering',
      `bare node:http that hashes, writes and fsyncs the body: median ${fmt(median(baseline), 1)} MB/s`,
      `ratio ${fmt(median(measured) / median(baseline), 2)}; a 1 KB PDF takes p50 ${fmt(percentile(small, 50), 0)} ms (fixed cost)`,
    );
    row(
      'api process peak RSS during those uploads, above its idle RSS',
      `+${fmt(mb(peak - idle), 1)} MB (idle ${fmt(mb(idle), 0)} MB, peak ${fmt(mb(peak), 0)} MB)`,
      `< ${mb(MEMORY_LIMIT_BYTES)} MB (issue 7)`,
      `idle RSS (started, reads served, no upload yet): ${fmt(mb(idle), 0)} MB`,
      `${exact ? 'VmHWM after a clear_refs reset, cross-checked by a 5 ms poll' : '5 ms VmRSS poll'}; ${peak - idle < MEMORY_LIMIT_BYTES ? 'within' : 'OVER'} the limit`,
    );

    // Several staff uploading at once: streaming keeps each upload's share of memory small.
    await settle(2000);
    const exact4 = resetPeakRss(pid);
    const poll4 = pollPeakRss(pid);
    const t0 = performance.now();
    const parallel = await Promise.all([0, 1, 2, 3].map((k) => toApi(n + k)));
    const seconds = (performance.now() - t0) / 1000;
    const polled4 = poll4.stop();
    const peak4 = exact4 ? Math.max(peakRssBytes(pid), polled4) : polled4;
    const failed = parallel.filter((r) => r.status < 200 || r.status >= 300).length;
    row(
      'POST /api/annexures, four 20 MB PDFs at once',
      `${fmt((4 * mb(UPLOAD_BYTES)) / seconds, 1)} MB/s together; api peak RSS +${fmt(mb(peak4 - idle), 1)} MB above the same idle${failed ? `, ${failed} errors` : ''}`,
      `< ${mb(MEMORY_LIMIT_BYTES)} MB above idle`,
      `one at a time: +${fmt(mb(peak - idle), 1)} MB`,
    );
  } finally {
    await Promise.all([stop(api), stop(projector), stop(bare)]);
  }
}
