import path from 'node:path';
import pg from 'pg';
import { v5 as uuidv5 } from 'uuid';
import type { Role } from '../domain/src/identity/roles';
import type { EventMetadata, NewEvent } from '../domain/src/shared/events';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { applySchema } from '../platform/src/db/schema';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import type { InvoiceRecordData } from '../projections/src/invoices/invoice-events';
import { rebuildProjections } from '../projections/src/rebuild';
import { startBenchApi, staffToken } from './api-process';
import type { FileGroupOptions } from './group';
import { startBareServer } from './bare-baseline';
import { loadTest, type LoadResult } from './http-load';
import { appendStreams, seedBusinessAssociatesForBench } from './projections';

/**
 * The `invoice-list` group of `npm run bench` (issue 11): GET /api/invoices over 100,000 invoices
 * (INVOICE_LIST_BENCH_N for another size; --quick: 10,000), with the console's filters (status tab, company code,
 * invoice-number search, a deep page), 10 connections, beside a bare Express app serving the very same body in
 * the same run. The invoices are events appended through the PostgreSQL event store (hash chain and all, many
 * appends per transaction), spread over 500 seeded BAs and the seven statuses; the read model is built by the
 * rebuild path (every projection), nothing is inserted into a read table. Printed, not asserted.
 */
const APP_ROLE = 'ba_portal_app';
const DB = 'bench_invoice_list';
const NAMESPACE = '6c1d8f3e-2b7a-4e59-8a10-3f4b5c6d7e81';
const BAS = 500;

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const seconds = (since: number) => (performance.now() - since) / 1000;

/** The lifecycle steps after the draft; invoice i stops after STEPS[i % 8]'s prefix (0 = still a draft). */
const STEPS = ['InvoiceSubmitted', 'InvoiceAcknowledged', 'InvoiceVerified', 'InvoiceBooked', 'InvoiceReleased'] as const;
const STATES = [27, 29, 33, 24];
const DAY = 86_400_000;

/** Invoice i's events: drafted, then as far along its lifecycle as i says (one in eight rejected from S). */
function invoiceEvents(i: number): { streamId: string; events: NewEvent[] } {
  const invoiceId = uuidv5(`invoice:${i}`, NAMESPACE);
  const b = i % BAS;
  const baId = `seed-${b}`;
  const companyCode = b % 4 === 3 ? '2000' : '1000';
  const date = new Date(Date.UTC(2026, 3, 1) + (i % 230) * DAY).toISOString().slice(0, 10);
  const taxable = 1000 + ((i * 7919) % 200_000);
  const tax = ((taxable * 9) / 100).toFixed(2);
  const fields: InvoiceRecordData = {
    invoiceNumber: `INV-${String(i).padStart(6, '0')}`,
    invoiceDate: date,
    taxableAmount: `${taxable}.00`,
    cgst: tax,
    sgst: tax,
    igst: '',
    td: `${Math.floor(taxable / 100)}.00`,
    hsnCode: '996511',
    comments: 'Trips of the month',
    submitToUserId: 'bench-commercial',
    billingFromCode: `20000${String(b).padStart(5, '0')}`,
    billingToCode: 'CHK',
    submitToName: 'Bench Commercial',
    companyCode,
    fromStateId: STATES[i % STATES.length]!,
    billingToName: 'Chakan plant',
    toStateId: STATES[(i >> 2) % STATES.length]!,
    financialYear: '2026-27',
  };
  const at = (step: number) => new Date(Date.UTC(2026, 3, 1) + i * 1000 + step * 60_000).toISOString();
  const meta = (step: number, role: string, userId: string): EventMetadata => ({
    actor: { userId, role },
    companyCode,
    correlationId: invoiceId,
    causationId: null,
    workflowId: null,
    requestId: null,
    at: at(step),
  });
  const ba = (step: number) => meta(step, 'BA Admin', `bench-ba-${b}`);
  const staff = (step: number) => meta(step, 'MLL-ADMIN', 'bench-commercial');
  const by = { userId: 'bench-commercial', role: 'MLL-ADMIN' };
  const events: NewEvent[] = [
    { eventId: uuidv5(`${invoiceId}:0`, NAMESPACE), type: 'InvoiceDrafted', data: { invoiceId, baId, companyCode, fields, createdBy: by }, metadata: ba(0) },
  ];
  const reach = i % 8 === 7 ? 1 : i % 8 > STEPS.length ? STEPS.length : i % 8;
  for (let s = 0; s < reach; s += 1) {
    const type = STEPS[s]!;
    const data =
      type === 'InvoiceSubmitted'
        ? { invoiceId, baId, companyCode, invoiceNumber: fields.invoiceNumber, financialYear: '2026-27', fields, resubmission: false, by }
        : type === 'InvoiceBooked'
          ? { invoiceId, baId, erpDocumentNumber: `51${String(i).padStart(8, '0')}` }
          : { invoiceId, baId, by };
    events.push({ eventId: uuidv5(`${invoiceId}:${s + 1}`, NAMESPACE), type, data, metadata: s === 0 ? ba(1) : staff(s + 1) });
  }
  if (i % 8 === 7)
    events.push({
      eventId: uuidv5(`${invoiceId}:rejected`, NAMESPACE),
      type: 'InvoiceRejected',
      data: { invoiceId, baId, by, remarks: 'Attach the LR copy', fromStatus: 'S' },
      metadata: staff(2),
    });
  return { streamId: `invoice-${invoiceId}`, events };
}

export const seedInvoices = (pool: pg.Pool, n: number): Promise<number> => appendStreams(pool, n, invoiceEvents);

/** What the console asks: the first page of the list, its status tabs, a company code, a number search, a deep page. */
const TARGETS: { name: string; query: Record<string, string> }[] = [
  { name: 'first-page', query: { range: '[0,24]', sort: '["invoiceDate","DESC"]' } },
  { name: 'status-S', query: { filter: '{"status":"S"}', range: '[0,24]', sort: '["invoiceDate","DESC"]' } },
  { name: 'code-1000-open', query: { filter: '{"companyCode":"1000","status":["S","A","V"]}', range: '[0,24]', sort: '["submittedAt","DESC"]' } },
  { name: 'number-search', query: { filter: '{"q":"inv-0012"}', range: '[0,24]', sort: '["invoiceDate","DESC"]' } },
  { name: 'deep-page', query: { range: '[5000,5024]', sort: '["totalAmount","DESC"]' } },
];

export async function invoiceListFigures(options: FileGroupOptions & { n?: number }): Promise<void> {
  console.log('\ninvoice-list');
  const { server, quick, row } = options;
  const n = options.n ?? (quick ? 10_000 : 100_000);
  await ensureDatabaseExists(server.url('postgres'), DB);
  const pool = new pg.Pool({ connectionString: server.url(DB), max: 10 });
  try {
    await applySchema(pool);
    await ensureRoles(pool, { appRole: APP_ROLE });
    await seedBusinessAssociatesForBench(pool, BAS);
    const appending = performance.now();
    const events = await seedInvoices(pool, n);
    const appendSeconds = seconds(appending);
    const building = performance.now();
    await rebuildProjections({ pool, store: createPostgresEventStore(pool) });
    const buildSeconds = seconds(building);
    // As after autovacuum (which also visits insert-only tables): statistics and the visibility map the
    // index-only counts rely on. The figures are of a settled read model, not of the seconds after a bulk load.
    await pool.query('VACUUM ANALYZE');
    const counted = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM invoices');
    const size = `${n.toLocaleString('en-IN')} invoices`;
    row(`load ${size}: ${events.toLocaleString('en-IN')} invoice events appended (PostgreSQL store, 1,000 appends a transaction)`, `${fmt(appendSeconds)} s`, 'none (setup)');
    row(`rebuild every read model over them (${counted.rows[0]?.n} invoice rows)`, `${fmt(buildSeconds)} s`, 'none (setup)');

    const roles: Role[] = ['MLL Commercial'];
    const token = await staffToken(options.keyDir, {
      userId: 'bench-commercial',
      username: 'commercial@bench.test',
      name: 'Bench Commercial',
      roles,
      companyCodes: ['1000', '2000'],
    });
    const headers = { authorization: `Bearer ${token}` };
    // One api process (issue 12: the list targets are per process; the cluster figure is the api group's).
    const api = await startBenchApi({ databaseUrl: appRoleUrl(server.url(DB), APP_ROLE, null), temporalAddress: options.temporalAddress, keyDir: options.keyDir, env: { API_PROCESSES: '1' } });
    const urlOf = (query: Record<string, string>) => `${api.base}/api/invoices?${new URLSearchParams(query).toString()}`;
    let bare: { base: string; stop: () => Promise<void> } | null = null;
    try {
      const bodies: Record<string, unknown> = {};
      const totals = new Map<string, string>();
      for (const t of TARGETS) {
        const answer = await fetch(urlOf(t.query), { headers });
        const text = await answer.text();
        if (answer.status !== 200) throw new Error(`${t.name}: ${answer.status} ${text.slice(0, 300)}`);
        bodies[t.name] = JSON.parse(text);
        totals.set(t.name, answer.headers.get('content-range') ?? '');
      }
      bare = await startBareServer(path.join(options.work, 'invoice-list-bodies.json'), bodies);
      const durationMs = quick ? 1500 : 4000;
      const measure = async (url: string, withHeaders?: Record<string, string>): Promise<LoadResult> => {
        await loadTest({ url, connections: 10, durationMs: 500, headers: withHeaders });
        return loadTest({ url, connections: 10, durationMs, headers: withHeaders });
      };
      const show = (r: LoadResult) =>
        `p50 ${fmt(r.p50Ms)} ms, p99 ${fmt(r.p99Ms)} ms, ${fmt(r.requestsPerSecond, 0)} req/s${r.errors ? `, ${r.errors} errors` : ''}`;
      for (const t of TARGETS) {
        const served = await measure(urlOf(t.query), headers);
        const baseline = await measure(`${bare.base}/${t.name}`);
        row(
          `GET /api/invoices ${t.name} (${decodeURIComponent(new URLSearchParams(t.query).toString())}), ${size}, 10 connections`,
          `${show(served)} (${totals.get(t.name)})`,
          'p99 reported (issue 11 gives no number)',
          `bare Express, same body: ${show(baseline)}`,
          `p99 ratio to bare Express ${fmt(served.p99Ms / baseline.p99Ms)}`,
        );
      }
    } finally {
      if (bare) await bare.stop();
      await api.stop();
    }
  } finally {
    await pool.end();
  }
}
