import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { createAuth, loadOrCreateAuthKeys } from '../api/src/http/auth';
import { DOCUMENT_TYPES } from '../domain/src/masters/reference-data/document-types';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { freePort, waitForPort } from '../platform/src/temporal/cli';
import { loadReferenceDataWithReadModels } from '../scripts/reference-data';
import { startOnboarding } from '../workflows/src/onboarding/client';
import { pollPeakRss, peakRssBytes, resetPeakRss, rssBytes } from './process-memory';
import { percentile } from './stats';
import type { FileGroupOptions } from './group';

/**
 * The upload figures of `npm run bench`: a 20 MB PDF posted to POST /api/annexures (multipart `title`, `file`)
 * on the api in its own process, with its projector beside it (the API waits for the read model, as in
 * production). Throughput is MB/s from the first byte sent to the answer; memory is the api process's peak
 * RSS during the uploads above its idle RSS, read from /proc (issue 7: must stay under 64 MB, i.e. the file
 * is streamed, never held whole). The same-run baseline is a bare node:http server in its own process that
 * does the least any durable upload must do: hash the body, write it to disk and fsync it.
 *
 * Issue 8 adds a 10 MB BA document (POST /api/business-associates/:id/documents): that command goes through
 * the BA's onboarding workflow, so the worker runs here too, with the reference data loaded (the document type
 * is resolved from the masters) and a BA started through its real lifecycle.
 */
const root = path.resolve(__dirname, '..');
const APP_ROLE = 'ba_portal_app';
const DB = 'bench_uploads';
const MB = 1024 * 1024;
export const UPLOAD_BYTES = 20 * MB;
export const MEMORY_LIMIT_BYTES = 64 * MB;
export const DOCUMENT_BYTES = 10 * MB;
/** Its own queue, so the uploads' worker never picks up another bench group's workflows on the shared server. */
const TASK_QUEUE = 'bench-uploads';

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
function upload(url: URL, headers: Record<string, string>, fields: Record<string, string>, file: Buffer, name: string): Promise<Upload> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
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
  // A worker finishing its shutdown must not hold the whole bench up.
  const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(force);
}

type Series = { mbPerSecond: number[]; errors: number; statuses: number[] };

async function series(run: (i: number) => Promise<Upload>, n: number, offset: number, bytes = UPLOAD_BYTES): Promise<Series> {
  const out: Series = { mbPerSecond: [], errors: 0, statuses: [] };
  for (let i = 0; i < n; i++) {
    const r = await run(offset + i);
    out.statuses.push(r.status);
    if (r.status < 200 || r.status >= 300) out.errors += 1;
    else out.mbPerSecond.push(mb(bytes) / (r.ms / 1000));
  }
  return out;
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A process's peak RSS while `work` runs: VmHWM after a clear_refs reset where the kernel allows it,
 * cross-checked by a 5 ms poll (the poll alone otherwise).
 */
async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number; exact: boolean }> {
  const exact = resetPeakRss(pid);
  const poll = pollPeakRss(pid);
  const result = await work();
  const polled = poll.stop();
  return { result, peak: exact ? Math.max(peakRssBytes(pid), polled) : polled, exact };
}

/**
 * Resolves once the child prints `text` on stdout (the worker says so when it polls its queue); rejects if it
 * exits first or the time runs out. Handled from the start: it is awaited only later, after other figures.
 */
function waitForOutput(child: ChildProcess, text: string, timeoutMs: number): Promise<void> {
  const waiting = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    child.once('exit', (code) => reject(new Error(`exited (${code}) before "${text}"`)));
    // Kept reading to the end, so the child never blocks on a full pipe.
    child.stdout?.on('data', (c: Buffer) => {
      if (!c.toString('utf8').includes(text)) return;
      clearTimeout(timer);
      resolve();
    });
  });
  waiting.catch(() => undefined);
  return waiting;
}

/** An onboarding document type that needs neither a validity date nor a GST state: the form's plainest upload. */
const PLAIN_DOCUMENT_TYPE = DOCUMENT_TYPES.find((t) => !t.needsValidityDate && !t.isGstDocument);

export async function uploadFigures(options: FileGroupOptions): Promise<void> {
  console.log('\nuploads');
  const { server, quick, row, work } = options;
  const n = quick ? 3 : 6;
  await ensureDatabaseExists(server.url('postgres'), DB);
  const owner = new pg.Pool({ connectionString: server.url(DB), max: 4 });
  await applySchema(owner);
  await ensureRoles(owner, { appRole: APP_ROLE });
  // The document types, companies and states a BA's document is checked against, in the read models too.
  await loadReferenceDataWithReadModels(owner);
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
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    JWT_KEY_DIR: options.keyDir,
    FILE_STORE: 'fs',
    FILES_DIR: filesDir,
    NODE_ENV: 'production',
  };
  const apiPort = await freePort();
  const docApiPort = await freePort();
  const barePort = await freePort();
  const startApi = (port: number) =>
    spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
      cwd: root,
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const api = startApi(apiPort);
  // A second api for the documents: its idle is taken before any upload too, not after the annexures grew
  // the first one's heap (RSS seldom shrinks, so the peak would hide inside what they left).
  const docApi = startApi(docApiPort);
  const projector = spawn(process.execPath, ['--import', 'tsx', 'projections/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The worker decides the document commands. Its stdout is read for the line saying it polls the queue
  // (bundling the workflows takes seconds).
  const worker = spawn(process.execPath, ['--import', 'tsx', 'workflows/src/worker.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const workerPolling = waitForOutput(worker, `polling ${TASK_QUEUE}`, 120_000);
  const bare = spawn(process.execPath, ['-e', BARE_SERVER], {
    env: { PATH: process.env.PATH, PORT: String(barePort), DIR: bareDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (const port of [apiPort, docApiPort, barePort]) if (!(await waitForPort(port, 60_000))) throw new Error('servers did not start');
    // Before any clock starts: the worker bundling its workflows would take CPU from the figures.
    await workerPolling;
    const headers = { authorization: `Bearer ${token}` };
    const apiUrl = new URL(`http://127.0.0.1:${apiPort}/api/annexures`);
    const bareUrl = new URL(`http://127.0.0.1:${barePort}/upload`);
    // Made per upload (before its clock starts) rather than all held at once.
    const fileOf = (i: number) => pdfOf(UPLOAD_BYTES, i);
    const toApi = (i: number) => upload(apiUrl, headers, { title: `Bench annexure ${i}` }, fileOf(i), `bench-${i}.pdf`);
    const toBare = (bytes: number) => (i: number) => upload(bareUrl, {}, { title: `Bare ${i}` }, pdfOf(bytes, i), `bare-${i}.pdf`);
    // The bare server's memory during 10 MB uploads first, while it is as idle as the apis: no upload yet.
    await settle(1000);
    const bareIdle = rssBytes(bare.pid!);
    const bareMemory = await peakRssDuring(bare.pid!, () => series(toBare(DOCUMENT_BYTES), n, 0, DOCUMENT_BYTES));

    // Idle: started, the HTTP, session and database paths warmed by reads, but no upload yet — so the peak
    // below also holds whatever the first upload itself brings in (conservative).
    const pid = api.pid!;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(apiUrl, { headers });
      if (res.status !== 200) throw new Error(`GET /api/annexures answered ${res.status}`);
    }
    await settle(2000);
    const idle = rssBytes(pid);
    const { result: measured, peak, exact } = await peakRssDuring(pid, () => series(toApi, n, 0));
    if (measured.errors === n) throw new Error(`POST /api/annexures answered ${measured.statuses.join(', ')}`);
    await series(toBare(UPLOAD_BYTES), 1, 0);
    const baseline = await series(toBare(UPLOAD_BYTES), n, 0);

    // The fixed cost of an upload whatever its size (command, event, the read model caught up): a tiny PDF.
    const small: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await upload(apiUrl, headers, { title: `Small ${i}` }, pdfOf(1024, 1000 + i), `small-${i}.pdf`);
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

    // Issue 8: a BA's 10 MB document, on the second api (started beside the first, no upload yet).
    const baId = `bench-uploads-${randomBytes(4).toString('hex')}`;
    const temporal = await Connection.connect({ address: options.temporalAddress });
    await startOnboarding(new Client({ connection: temporal }), TASK_QUEUE, {
      baId,
      companyCode: '1000',
      adminUserId: null,
      mobileNo: null,
      email: null,
      actor: { userId: 'bench', role: 'system', name: 'Bench' },
      correlationId: baId,
      requestId: `${baId}:start`,
    }).finally(() => temporal.close());
    const baToken = await auth.issueAccessToken({
      userId: 'bench-ba-admin',
      username: 'ba@bench.test',
      name: 'Bench BA Admin',
      roles: ['BA Admin'],
      companyCodes: ['1000'],
      baId,
      app: 'portal',
      activeCompanyCode: '1000',
      pwd: 'ok',
      billHubOnly: false,
    });
    const baHeaders = { authorization: `Bearer ${baToken}` };
    const documentsUrl = new URL(`http://127.0.0.1:${docApiPort}/api/business-associates/${baId}/documents`);
    const docPid = docApi.pid!;
    if (!PLAIN_DOCUMENT_TYPE) throw new Error('no document type without a validity date in the reference data');
    // The same type each time: every upload replaces the last, as a BA correcting a document does.
    const documentFields = { documentTypeId: String(PLAIN_DOCUMENT_TYPE.id), kind: 'onboarding' };
    const toDocuments = (i: number) =>
      upload(documentsUrl, baHeaders, documentFields, pdfOf(DOCUMENT_BYTES, 2000 + i), `document-${i}.pdf`);
    // Idle as for the annexures: the document routes' reads warmed, no upload yet. The first reads wait for
    // the projector to show the new BA (404 until then).
    for (let i = 0, deadline = Date.now() + 30_000; i < 20; ) {
      const res = await fetch(documentsUrl, { headers: baHeaders });
      if (res.status === 200) i += 1;
      else if (res.status !== 404 || Date.now() > deadline) throw new Error(`GET ${documentsUrl.pathname} answered ${res.status}`);
      else await settle(100);
    }
    await settle(2000);
    const docIdle = rssBytes(docPid);
    const documents = await peakRssDuring(docPid, () => series(toDocuments, n, 0, DOCUMENT_BYTES));
    if (documents.result.errors === n) throw new Error(`POST ${documentsUrl.pathname} answered ${documents.result.statuses.join(', ')}`);
    await series(toBare(DOCUMENT_BYTES), 1, 0, DOCUMENT_BYTES);
    const bareDocuments = await series(toBare(DOCUMENT_BYTES), n, 0, DOCUMENT_BYTES);
    const docs = documents.result;
    row(
      `POST /api/business-associates/:id/documents, one 10 MB PDF at a time (${n} uploads, "${PLAIN_DOCUMENT_TYPE.name}"; onboarding workflow, worker and projector running)`,
      `median ${fmt(median(docs), 1)} MB/s (slowest ${fmt(Math.min(...docs.mbPerSecond), 1)} MB/s)${docs.errors ? `, ${docs.errors} errors (${docs.statuses.join(',')})` : ''}`,
      'streamed: no whole-file buffering',
      `bare node:http that hashes, writes and fsyncs the body: median ${fmt(median(bareDocuments), 1)} MB/s`,
      `ratio ${fmt(median(docs) / median(bareDocuments), 2)}`,
    );
    row(
      'api process peak RSS during those document uploads, above its idle RSS',
      `+${fmt(mb(documents.peak - docIdle), 1)} MB (idle ${fmt(mb(docIdle), 0)} MB, peak ${fmt(mb(documents.peak), 0)} MB)`,
      `< ${mb(MEMORY_LIMIT_BYTES)} MB (issue 7's upload limit)`,
      // The least memory a streamed, fsynced 10 MB body costs node.
      `bare node:http peak RSS during its first 10 MB uploads: +${fmt(mb(bareMemory.peak - bareIdle), 1)} MB above its idle ${fmt(mb(bareIdle), 0)} MB`,
      `idle: started, reads served, no upload yet; ${documents.exact ? 'VmHWM after a clear_refs reset, cross-checked by a 5 ms poll' : '5 ms VmRSS poll'}; ${documents.peak - docIdle < MEMORY_LIMIT_BYTES ? 'within' : 'OVER'} the limit`,
    );

    // Several staff uploading at once: streaming keeps each upload's share of memory small.
    await settle(2000);
    const t0 = performance.now();
    const burst = await peakRssDuring(pid, () => Promise.all([0, 1, 2, 3].map((k) => toApi(n + k))));
    const seconds = (performance.now() - t0) / 1000;
    const failed = burst.result.filter((r) => r.status < 200 || r.status >= 300).length;
    row(
      'POST /api/annexures, four 20 MB PDFs at once',
      `${fmt((4 * mb(UPLOAD_BYTES)) / seconds, 1)} MB/s together; api peak RSS +${fmt(mb(burst.peak - idle), 1)} MB above the same idle${failed ? `, ${failed} errors` : ''}`,
      `< ${mb(MEMORY_LIMIT_BYTES)} MB above idle`,
      `one at a time: +${fmt(mb(peak - idle), 1)} MB`,
    );
  } finally {
    await Promise.all([stop(api), stop(docApi), stop(projector), stop(worker), stop(bare)]);
  }
}
