import pg from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { CITIES } from '../domain/src/masters/reference-data/cities';
import { SERVICES } from '../domain/src/masters/reference-data/services';
import { WELCOME_MESSAGE } from '../domain/src/onboarding/decide';
import { baStreamId, type OnboardingEvent } from '../domain/src/onboarding/events';
import type { EventMetadata } from '../domain/src/shared/events';
import { ensureDatabaseExists } from '../platform/src/db/connect';
import { applySchema } from '../platform/src/db/schema';
import { appRoleUrl, ensureRoles } from '../platform/src/db/roles';
import { createPostgresEventStore } from '../platform/src/event-store/postgres';
import { rebuildProjections } from '../projections/src/rebuild';
import { allProjections } from '../projections/src/registry';
import { loadReferenceData } from '../scripts/reference-data';
import { BENCH_STAFF, startBenchApi, staffToken } from './api-process';
import { loadTest, type LoadResult } from './http-load';
import { appendStreams } from './projections';
import type { ServerGroupOptions } from './group';

/**
 * The `ba-list` group of `npm run bench` (issue 8): GET /api/business-associates with each list filter over
 * 100,000 BAs, 10 connections, req/s and p99, beside GET /api/help (answered from memory) and GET
 * /api/companies measured against the same api process in the same run. The BAs carry the issue-8 items the
 * filters read (a vertical mapping each, a GST row in another state for a third, a lapsed document for one in
 * two hundred) and open review tasks (a fifth at stage 1). Everything goes in as events through the store's
 * own append; the read models are built by the projections.
 */
const APP_ROLE = 'ba_portal_app';
const DB = 'bench_ba_list';
const NAMESPACE = '8d3c2a71-4e0b-4f6a-9c55-1b7e2f9d0a13';

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));

const mobileOf = (i: number) => `9${String(i).padStart(9, '0')}`;
const PAN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const panOf = (i: number) =>
  `${Array.from({ length: 5 }, (_, k) => PAN[Math.floor(i / 26 ** k) % 26]).join('')}${String(i % 10_000).padStart(4, '0')}${PAN[i % 26]}`;

/** BA i's stream: the lifecycle of a fifth (registered, stage 1, stage 2, verified, rejected) and its items. */
function eventsOf(i: number): { baId: string; companyCode: string; events: OnboardingEvent[] } {
  const baId = `list-${i}`;
  const companyCode = i % 4 === 3 ? '2000' : '1000';
  const city = CITIES[i % CITIES.length]!;
  const events: OnboardingEvent[] = [
    {
      type: 'BusinessAssociateCreated',
      data: { baId, companyCode, adminUserId: null, mobileNo: mobileOf(i), email: `ba${i}@bench.test` },
    },
    {
      type: 'CompanyDetailsSaved',
      data: {
        baId,
        details: {
          companyName: `${['Acme', 'Sigma', 'Vega', 'Swift', 'Rapid', 'Nova', 'Orion', 'Zen'][i % 8]} Logistics ${i}`,
          panNumber: panOf(i),
          contactPersonName: 'Ravi Kumar',
          cinNumber: null,
          serviceId: Number(SERVICES[i % SERVICES.length]!.id),
          stateId: city.stateId,
          cityId: Number(city.id),
          addressLine1: `${i} Industrial Estate`,
          addressLine2: null,
          pinCode: '400001',
          companyLandline: null,
          contactPersonMobileNumber: mobileOf(i),
          ownFleet: i % 50,
          attachedFleet: null,
        },
        changes: {},
      },
    },
    {
      type: 'VerticalMappingSaved',
      data: {
        baId,
        mapping: { verticalIds: [1 + (i % 8)], subServiceIds: [], vehicleTypeIds: [], zoneIds: [], pickupZoneIds: [], deliveryZoneIds: [] },
        changes: {},
      },
    },
  ];
  if (i % 3 === 0)
    events.push({
      type: 'GstRegistrationSaved',
      data: {
        baId,
        gstId: `${baId}-gst`,
        registration: {
          stateId: 29,
          gstType: '',
          gstNo: `29${panOf(i)}1Z5`,
          addressLine1: '1 Whitefield Road',
          addressLine2: null,
          pinCode: '560066',
          cityId: 2901,
          bankAccountId: null,
          vendorCategory: null,
        },
        changes: {},
      },
    });
  if (i % 200 === 7) {
    const file = { name: 'pan.pdf', size: 1024, type: 'application/pdf', sha256: 'b'.repeat(64) };
    events.push(
      {
        type: 'DocumentUploaded',
        data: {
          baId,
          docId: `${baId}-pan`,
          document: { kind: 'onboarding', documentTypeId: 1, documentTypeName: 'PAN Card', documentNumber: null, validTill: '2025-06-30', stateId: null, file },
          replaces: null,
          uploadedBy: 'bench',
          role: 'BA Admin',
        },
      },
      { type: 'DocumentExpired', data: { baId, docId: `${baId}-pan`, documentTypeName: 'PAN Card', validTill: '2025-06-30' } },
    );
  }
  const kind = i % 5;
  const review = { remarks: null, approvedBy: 'bench-procurement', role: 'MLL Procurement' };
  if (kind >= 1) events.push({ type: 'OnboardingSubmitted', data: { baId, submission: 1, resubmission: false } });
  if (kind >= 2 && kind <= 3) events.push({ type: 'ReviewStageApproved', data: { baId, submission: 1, stage: 1, ...review } });
  if (kind === 3)
    events.push(
      { type: 'ReviewStageApproved', data: { baId, submission: 1, stage: 2, ...review, approvedBy: 'bench-commercial', role: 'MLL Commercial' } },
      { type: 'BusinessAssociateVerified', data: { baId, submission: 1, welcomeMessage: WELCOME_MESSAGE } },
    );
  if (kind === 4)
    events.push({
      type: 'OnboardingRejected',
      data: { baId, submission: 1, stage: 1, remarks: 'PAN does not match', rejectedBy: 'bench-procurement', role: 'MLL Procurement' },
    });
  return { baId, companyCode, events };
}

export async function seedBaList(pool: pg.Pool, n: number): Promise<number> {
  await loadReferenceData(createPostgresEventStore(pool), { pool });
  const total = await appendStreams(pool, n, (i) => {
    const { baId, companyCode, events } = eventsOf(i);
    const at = (step: number) => new Date(Date.UTC(2025, 0, 1) + i * 60_000 + step * 1000).toISOString();
    const meta = (step: number): EventMetadata => ({
      actor: { userId: 'system', role: 'system' },
      companyCode,
      correlationId: NAMESPACE,
      causationId: null,
      workflowId: null,
      requestId: null,
      at: at(step),
    });
    return {
      streamId: baStreamId(baId),
      events: events.map((e, step) => ({ eventId: uuidv5(`${baId}:${step}`, NAMESPACE), type: e.type, data: e.data, metadata: meta(step) })),
    };
  });
  await rebuildProjections({ pool, store: createPostgresEventStore(pool), projections: allProjections() });
  return total;
}

export async function baListFigures(options: ServerGroupOptions & {
  /** BAs to seed (default 100,000; 20,000 with --quick). */
  n?: number;
}): Promise<void> {
  console.log('\nba-list');
  const { server, quick, row } = options;
  const n = options.n ?? (quick ? 20_000 : 100_000);
  await ensureDatabaseExists(server.url('postgres'), DB);
  const pool = new pg.Pool({ connectionString: server.url(DB), max: 12 });
  try {
    await applySchema(pool);
    await ensureRoles(pool, { appRole: APP_ROLE });
    const started = performance.now();
    const events = await seedBaList(pool, n);
    await pool.query('ANALYZE');
    console.log(`  ${n} BAs (${events} events) seeded and projected in ${fmt((performance.now() - started) / 1000)} s`);
    const location = await pool.query<{ id: string }>(
      `SELECT id FROM master_items WHERE master = 'locations' AND values->>'stateId' = '29' ORDER BY num_id LIMIT 1`,
    );

    const token = await staffToken(options.keyDir, BENCH_STAFF);
    const api = await startBenchApi({
      databaseUrl: appRoleUrl(server.url(DB), APP_ROLE, null),
      temporalAddress: options.temporalAddress,
      keyDir: options.keyDir,
      // One api process (issue 12: the list targets are per process).
      env: { API_PROCESSES: '1' },
    });
    try {
      const base = api.base;
      const headers = { authorization: `Bearer ${token}` };
      const durationMs = quick ? 1500 : 4000;
      const listUrl = (filter: object) =>
        `${base}/api/business-associates?${new URLSearchParams({
          filter: JSON.stringify(filter),
          range: JSON.stringify([0, 49]),
          sort: JSON.stringify(['updatedAt', 'DESC']),
        }).toString()}`;
      // One BA, and a block of a thousand consecutive ones (their mobile numbers share a 7-digit prefix).
      const one = Math.min(4242, n - 1);
      const block = Math.floor(n / 2000) * 1000;
      const filters: [string, object][] = [
        ['(none)', {}],
        ['status: inprogress, companyCode: 1000', { status: 'inprogress', companyCode: '1000' }],
        ['companyCode: 2000', { companyCode: '2000' }],
        ['mobileNo (one BA)', { mobileNo: mobileOf(one) }],
        ['mobileNo prefix (1,000 BAs)', { mobileNo: mobileOf(block).slice(0, 7) }],
        ['companyName prefix "Vega"', { companyName: 'Vega' }],
        ['panNumber prefix', { panNumber: panOf(one).slice(0, 5) }],
        ['cityId 2901', { cityId: 2901 }],
        [`q "Logistics ${one}"`, { q: `Logistics ${one}` }],
        ['status: user_pending_task (stage-1 tasks, a fifth)', { status: 'user_pending_task' }],
        ['status: documents_expired (1 in 200)', { status: 'documents_expired' }],
        ['verticalId 3 (1 in 8)', { verticalId: 3 }],
        ...(location.rows[0] ? ([['locationId (Karnataka: 1 in 3 by GST row)', { locationId: Number(location.rows[0].id) }]] as [string, object][]) : []),
        ['verticalId 3 + status verified', { verticalId: 3, status: 'verified' }],
      ];
      type Target = { name: string; url: string; headers?: Record<string, string>; total?: string | null };
      const targets: Target[] = [
        { name: 'help', url: `${base}/api/help` },
        { name: 'companies', url: `${base}/api/companies` },
        ...filters.map(([name, filter]) => ({ name, url: listUrl(filter), headers })),
      ];
      for (const t of targets) {
        const check = await fetch(t.url, { headers: t.headers });
        if (check.status !== 200) throw new Error(`${t.name}: ${check.status} ${await check.text()}`);
        t.total = check.headers.get('content-range');
      }
      const show = (r: LoadResult) =>
        `${fmt(r.requestsPerSecond, 0)} req/s, p99 ${fmt(r.p99Ms, 2)} ms${r.errors ? `, ${r.errors} errors` : ''}`;
      // The trivial routes before and after the filters: the machine's drift over the run shows between them.
      const results = new Map<string, LoadResult>();
      const measure = async (t: Target) => {
        await loadTest({ ...t, connections: 10, durationMs: 500 });
        return loadTest({ ...t, connections: 10, durationMs });
      };
      const helpBefore = await measure(targets[0]!);
      const companiesBefore = await measure(targets[1]!);
      for (const t of targets.slice(2)) results.set(t.name, await measure(t));
      const helpAfter = await measure(targets[0]!);
      const baseline =
        `GET /api/help (from memory): ${show(helpBefore)} before, ${show(helpAfter)} after; ` +
        `GET /api/companies: ${show(companiesBefore)}`;
      for (const t of targets.slice(2)) {
        const r = results.get(t.name)!;
        row(
          `GET /api/business-associates filter ${t.name} (${t.total}), 50-row page by updatedAt, ` +
            `over ${n.toLocaleString('en-IN')} BAs, 10 connections`,
          show(r),
          '≥ 1,500 req/s, p99 ≤ 25 ms (the BA list target)',
          baseline,
          `ratio to /api/help ${fmt(r.requestsPerSecond / helpBefore.requestsPerSecond, 2)}`,
        );
      }
    } finally {
      await api.stop();
    }
  } finally {
    await pool.end();
  }
}
