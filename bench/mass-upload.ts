import { spawn } from 'node:child_process';
import { createReadStream, mkdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { columnsOf, type MassUploadField, type MassUploadSheet } from '../domain/src/mass-upload/columns';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { spawnProcess, staffToken, startBenchApi, stopProcess } from './api-process';
import { pollPeakRss, peakRssBytes, resetPeakRss, rssBytes } from './process-memory';
import type { FileGroupOptions, Row } from './group';

/**
 * The `mass-upload` group of `npm run bench` (issue 9; `--only=mass-upload`, MASS_UPLOAD_BENCH_N rows, default
 * 100,000, 20,000 with --quick): a nucleus workbook (nine parents to one child row) written by the bench with
 * exceljs' streaming writer, posted to POST /api/mass-uploads on an api in its own process. Figures: the time
 * from the first byte sent until the upload is recorded (validation of every row + the appends: the POST answers
 * 202 once validated, GET /api/mass-uploads/:id is polled until `recorded`) and the api's peak RSS above its
 * idle RSS; beside them, a plain exceljs streaming read of the same file (WorkbookReader, every cell touched)
 * in a process of its own, time and peak RSS, in the same run. Then the error workbook for 10,000 bad rows
 * (201). Goals (issue 9): ≤ 6 s and ≤ 300 MB for 100,000 rows — printed, not asserted.
 */
const root = path.resolve(__dirname, '..');
const APP_ROLE = 'ba_portal_app';
const DB = 'bench_mass_upload';
const MB = 1024 * 1024;
const TASK_QUEUE = 'bench-mass-upload';
const BAD_ROWS = 10_000;

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const mb = (bytes: number) => bytes / MB;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
// A bench that waits forever says nothing: every wait has a limit far above the expected figure.
const WAIT_LIMIT_MS = 5 * 60_000;

/** Asks `step` every `everyMs` until it answers something; fails with the last state seen after WAIT_LIMIT_MS. */
async function poll<T>(what: string, everyMs: number, step: () => Promise<{ done: T } | { state: string }>): Promise<T> {
  const deadline = performance.now() + WAIT_LIMIT_MS;
  for (;;) {
    const answer = await step();
    if ('done' in answer) return answer.done;
    if (performance.now() > deadline) throw new Error(`${what}: still "${answer.state}" after ${WAIT_LIMIT_MS / 1000} s`);
    await settle(everyMs);
  }
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A distinct valid PAN for every i < 26^4 * 10,000. */
const panOf = (i: number) =>
  `${LETTERS[Math.floor(i / 17576) % 26]}${LETTERS[Math.floor(i / 676) % 26]}${LETTERS[Math.floor(i / 26) % 26]}${LETTERS[i % 26]}P${String(i % 10_000).padStart(4, '0')}${LETTERS[Math.floor(i / 10_000) % 26]}`;

function rowOf(sheet: MassUploadSheet, i: number, bad: boolean): Partial<Record<MassUploadField, string>> {
  const pan = panOf(i);
  const region = sheet === 'Parent' ? '27' : '29';
  return {
    accountGroup: 'ZDOM',
    bpRole: 'FLVN00',
    companyCode: i % 4 === 3 ? '2000' : '1000',
    purchaseOrganisation: 'MLPO',
    name: `Bench Transport ${i} Private Limited`,
    street: `${i} Ring Road`,
    postalCode: String(400001 + (i % 500)),
    city: 'Mumbai',
    country: 'IN',
    region,
    currency: 'INR',
    mobileNo: `9${String(i).padStart(9, '0')}`,
    mobileNoDept: 'Accounts',
    email: `accounts${i}@bench.example`,
    bankCountry: 'IN',
    bankAccount: String(100000000000 + i),
    bankKey: 'HDFC0001234',
    bankName: 'HDFC Bank',
    gstinCategory: 'Registered',
    gstin: `${region}${pan}1Z5`,
    pan: bad ? `${pan.slice(0, 9)}` : pan,
    paymentTerm: 'Z030',
    reconAccount: '2110000',
    ...(i % 3 === 0 ? { withholdingTaxType: 'WC', withholdingTaxCode: 'C2', subjectToWithholdingTax: 'X' } : {}),
  };
}

/** The workbook, written row by row with the streaming writer (never held whole). */
export async function writeWorkbook(file: string, n: number, options: { bad?: boolean } = {}): Promise<{ parents: number; children: number }> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
  const children = options.bad ? 0 : Math.floor(n / 10);
  const parents = n - children;
  for (const [sheet, count] of [['Parent', parents], ['Child', children]] as const) {
    if (count === 0) continue;
    const cols = columnsOf('nucleus', sheet);
    const ws = wb.addWorksheet(sheet);
    ws.addRow(cols.map((c) => c.column)).commit();
    for (let i = 0; i < count; i += 1) {
      const values = rowOf(sheet, i, options.bad === true);
      ws.addRow(cols.map((c) => values[c.field] ?? null)).commit();
    }
    ws.commit();
  }
  await wb.commit();
  return { parents, children };
}

/** A plain exceljs streaming read of the file, every cell touched: rows, ms, peak RSS above its idle. */
const PLAIN_READ = `
const ExcelJS = require('exceljs');
const fs = require('node:fs');
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
(async () => {
  await new Promise((r) => setTimeout(r, 300));
  const idle = rss();
  try { fs.writeFileSync('/proc/self/clear_refs', '5'); } catch {}
  const t0 = performance.now();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(fs.createReadStream(process.env.FILE), { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', worksheets: 'emit', entries: 'emit' });
  let rows = 0, cells = 0;
  for await (const ws of reader) for await (const row of ws) { rows += 1; for (const v of row.values) if (v !== undefined && v !== null) cells += String(v).length > 0 ? 1 : 0; }
  const ms = performance.now() - t0;
  const peak = Number(/VmHWM:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  process.stdout.write(JSON.stringify({ rows, cells, ms, idle, peak }));
})();
`;

function plainRead(file: string): Promise<{ rows: number; ms: number; idle: number; peak: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', PLAIN_READ], { cwd: root, env: { ...process.env, FILE: file }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`plain read exited ${code}`))));
  });
}

/** One multipart POST of a file, streamed from disk; resolves with the status and body once all arrived. */
function post(url: URL, headers: Record<string, string>, file: string, name: string): Promise<{ status: number; body: Buffer; ms: number }> {
  const boundary = `----bench${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = statSync(file).size;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const stream = createReadStream(file);
    stream.on('data', (c) => req.write(c));
    stream.on('end', () => req.end(tail));
    stream.on('error', reject);
  });
}

async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number; exact: boolean }> {
  const exact = resetPeakRss(pid);
  const poll = pollPeakRss(pid);
  const result = await work();
  const polled = poll.stop();
  return { result, peak: exact ? Math.max(peakRssBytes(pid), polled) : polled, exact };
}

export async function massUploadFigures(options: FileGroupOptions & {
  /** Rows of the workbook (default 100,000; 20,000 with --quick). */
  n?: number;
}): Promise<void> {
  console.log('\nmass-upload');
  const { server, quick, row, work } = options;
  const n = options.n ?? (quick ? 20_000 : 100_000);
  await ensureDatabaseExists(server.url('postgres'), DB);
  const owner = new pg.Pool({ connectionString: server.url(DB), max: 4 });
  await applySchema(owner);
  await ensureRoles(owner, { appRole: APP_ROLE });

  const dir = path.join(work, 'mass-upload');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `nucleus-${n}.xlsx`);
  const badFile = path.join(dir, `nucleus-bad-${BAD_ROWS}.xlsx`);
  let t0 = performance.now();
  const shape = await writeWorkbook(file, n);
  console.log(`  ${n} rows (${shape.parents} parents, ${shape.children} children) written in ${fmt((performance.now() - t0) / 1000)} s: ${fmt(mb(statSync(file).size))} MB`);
  await writeWorkbook(badFile, BAD_ROWS, { bad: true });

  const token = await staffToken(options.keyDir, {
    userId: 'bench-admin',
    username: 'admin@bench.test',
    name: 'Bench Admin',
    roles: ['MLL-ADMIN'],
    companyCodes: ['1000', '2000'],
  });
  const headers = { authorization: `Bearer ${token}` };
  const databaseUrl = appRoleUrl(server.url(DB), APP_ROLE, null);
  // The api and the projector share these (the api's own settings come from startBenchApi).
  const env = { TEMPORAL_TASK_QUEUE: TASK_QUEUE, FILE_STORE: 'fs', FILES_DIR: path.join(work, 'mass-upload-files') };
  // Its own api (no projector, no worker: the figure is validation + append; the ERP step's workflow is only
  // started). Without a projector every row is new to the read model, which is the first upload's case anyway.
  // MASS_UPLOAD_CPU_PROF=<folder>: the api writes a CPU profile there when it stops (sum it with
  // `npx tsx bench/profile-api.ts <file>.cpuprofile`).
  const profileDir = process.env['MASS_UPLOAD_CPU_PROF'];
  const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const api = await startBenchApi({ databaseUrl, temporalAddress: options.temporalAddress, keyDir: options.keyDir, env, nodeArgs });
  try {
    const base = `${api.base}/api`;
    for (let i = 0; i < 10; i += 1) {
      const res = await fetch(`${base}/mass-uploads/templates/nucleus`, { headers });
      if (res.status !== 200) throw new Error(`template answered ${res.status}`);
      await res.arrayBuffer();
    }
    await settle(2000);
    const pid = api.child.pid!;
    const idle = rssBytes(pid);

    // The plain read first (its own process, nothing else running), then the upload.
    const plain = await plainRead(file);

    let accepted = 0;
    const measured = await peakRssDuring(pid, async () => {
      t0 = performance.now();
      const res = await post(new URL(`${base}/mass-uploads?kind=nucleus`), headers, file, 'bench.xlsx');
      accepted = performance.now() - t0;
      if (res.status !== 202 && res.status !== 200) throw new Error(`POST answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
      const { uploadId } = JSON.parse(res.body.toString('utf8')) as { uploadId: string };
      return poll('the upload', 50, async () => {
        const p = (await (await fetch(`${base}/mass-uploads/${uploadId}`, { headers })).json()) as { state: string; created?: number; message?: string };
        if (p.state === 'failed') throw new Error(`upload failed: ${p.message}`);
        return p.state === 'recorded' || p.state === 'done' ? { done: p } : p;
      });
    });
    const total = performance.now() - t0;
    const { rows: events } = await owner.query<{ n: string }>(`SELECT count(*) AS n FROM events WHERE stream_id LIKE 'nucleus-vendor-%'`);
    row(
      `POST /api/mass-uploads?kind=nucleus, ${n} rows (${fmt(mb(statSync(file).size))} MB): upload + validate every row + append`,
      `${fmt(total / 1000, 2)} s (validated, 202 after ${fmt(accepted / 1000, 2)} s; ${events[0]?.n} events)`,
      '≤ 6 s for 100,000 rows',
      `plain exceljs streaming read of the same file: ${fmt(plain.ms / 1000, 2)} s (${plain.rows} rows)`,
      `ratio ${fmt(total / plain.ms, 2)}`,
    );
    row(
      'api process peak RSS during that upload, above its idle RSS',
      `+${fmt(mb(measured.peak - idle), 1)} MB (idle ${fmt(mb(idle), 0)} MB, peak ${fmt(mb(measured.peak), 0)} MB)`,
      '≤ 300 MB for 100,000 rows',
      `plain exceljs read: +${fmt(mb(plain.peak - plain.idle), 1)} MB above its idle ${fmt(mb(plain.idle), 0)} MB`,
      measured.exact ? 'VmHWM after a clear_refs reset, cross-checked by a 5 ms poll' : '5 ms VmRSS poll',
    );

    // The same file again, as in production with the projector caught up: validated, every row found
    // unchanged in the read model, nothing appended.
    const projector = spawnProcess('projections/src/main.ts', { ...process.env, ...env, DATABASE_URL: databaseUrl, NODE_ENV: 'production' });
    const projectedIn = performance.now();
    try {
      const head = Number((await owner.query<{ position: string }>('SELECT position FROM event_store_head')).rows[0]?.position ?? 0);
      await poll('the projector', 200, async () => {
        const { rows: cp } = await owner
          .query<{ position: string }>(`SELECT position FROM projection_checkpoints WHERE name = 'nucleus_vendors'`)
          .catch(() => ({ rows: [] as { position: string }[] }));
        const at = Number(cp[0]?.position ?? 0);
        return at >= head ? { done: at } : { state: `at ${at} of ${head}` };
      });
    } finally {
      await stopProcess(projector);
    }
    console.log(`  (projector caught up with the upload in ${fmt((performance.now() - projectedIn) / 1000, 1)} s)`);
    const eventsBefore = Number((await owner.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]?.n ?? 0);
    t0 = performance.now();
    const again = await post(new URL(`${base}/mass-uploads?kind=nucleus`), headers, file, 'bench.xlsx');
    if (again.status === 202) {
      const { uploadId } = JSON.parse(again.body.toString('utf8')) as { uploadId: string };
      await poll('the same file again', 50, async () => {
        const p = (await (await fetch(`${base}/mass-uploads/${uploadId}`, { headers })).json()) as { state: string };
        return p.state !== 'recording' ? { done: p } : p;
      });
    }
    const again_ms = performance.now() - t0;
    const eventsAfter = Number((await owner.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]?.n ?? 0);
    row(`the same ${n}-row file again (read model caught up)`, `${fmt(again_ms / 1000, 2)} s, ${eventsAfter - eventsBefore} events appended`, 'writes nothing');

    // 10,000 bad rows: the error workbook (201).
    await settle(1000);
    const badIdle = rssBytes(pid);
    const bad = await peakRssDuring(pid, () => post(new URL(`${base}/mass-uploads?kind=nucleus`), headers, badFile, 'bad.xlsx'));
    if (bad.result.status !== 201) throw new Error(`bad file answered ${bad.result.status}`);
    row(
      `POST with ${BAD_ROWS} bad rows → 201 error workbook`,
      `${fmt(bad.result.ms / 1000, 2)} s, ${fmt(mb(bad.result.body.length), 1)} MB workbook`,
      'streamed error workbook',
      '',
      `api peak RSS +${fmt(mb(bad.peak - badIdle), 1)} MB above ${fmt(mb(badIdle), 0)} MB`,
    );
  } finally {
    await api.stop();
    await owner.end();
  }
}
