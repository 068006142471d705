import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { rebuildProjections, rebuildTables } from '../rebuild';
import { allProjections } from '../registry';
import { actors, applyDirectly, dumpTables, foreignEvent } from '../test-support';
import { performanceProjection } from './performance.projection';
import { performanceOf } from './performance.queries';

let db: TestDatabase;
let store: EventStore;

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
});

afterEach(async () => {
  await db.drop();
});

const TABLES = ['ba_performance', 'ba_performance_facts'];
const versions = new Map<string, number>();

/** Appends one event at `at` (the dashboard counts by the event's time in India). */
async function append(streamId: string, type: string, data: Record<string, unknown>, at: string): Promise<void> {
  const expected = versions.get(streamId);
  await store.appendToStream(
    streamId,
    [
      {
        eventId: randomUUID(),
        type,
        data,
        metadata: { actor: actors.system, companyCode: '1000', correlationId: randomUUID(), causationId: null, workflowId: null, requestId: null, at },
      },
    ],
    { expectedVersion: expected === undefined ? 'no_stream' : expected },
  );
  versions.set(streamId, (expected ?? -1) + 1);
}

const rate = { ratePerTrip: '1000', transitDays: '2' };
const by = actors.commercial;

/**
 * BA "ba1" over 2026: three RFPs (invited in Apr, May, Nov), quoted twice in April (counted once) and once in
 * May, won RFP-1 with two lanes (and the same lane again in a later round, not counted twice); four invoices,
 * one rejected and resubmitted (one submission, one rejection), two released; one block (applied twice by its
 * end date). Another BA's facts must not leak into ba1's figures.
 */
async function history(): Promise<void> {
  versions.clear();
  await append('rfp-RFP-1', 'RfpFloated', { rfpCode: 'RFP-1', round: 1, baIds: ['ba1', 'ba2'], floatToAll: false }, '2026-04-02T05:00:00.000Z');
  await append('rfp-RFP-1', 'LaneResponsesSubmitted', { rfpCode: 'RFP-1', round: 1, baId: 'ba1', quotes: { L1: rate, L2: rate } }, '2026-04-03T05:00:00.000Z');
  await append('rfp-RFP-1', 'LaneResponsesSubmitted', { rfpCode: 'RFP-1', round: 1, baId: 'ba1', quotes: { L3: rate } }, '2026-04-04T05:00:00.000Z');
  await append('rfp-RFP-1', 'LaneResponsesSubmitted', { rfpCode: 'RFP-1', round: 1, baId: 'ba2', quotes: { L1: rate } }, '2026-04-04T06:00:00.000Z');
  await append(
    'rfp-RFP-1',
    'RfpAwarded',
    { rfpCode: 'RFP-1', round: 1, lanes: { L1: [{ baId: 'ba1', sharePercent: 60 }, { baId: 'ba2', sharePercent: 40 }], L2: [{ baId: 'ba1', sharePercent: 100 }] } },
    '2026-04-20T05:00:00.000Z',
  );
  await append('rfp-RFP-1', 'RfpReopened', { rfpCode: 'RFP-1', round: 2 }, '2026-05-01T05:00:00.000Z');
  await append('rfp-RFP-1', 'RfpAwarded', { rfpCode: 'RFP-1', round: 2, lanes: { L2: [{ baId: 'ba1', sharePercent: 100 }] } }, '2026-05-10T05:00:00.000Z');
  // Invited on 31 May 20:00 UTC = 1 June in India.
  await append('rfp-RFP-2', 'RfpFloated', { rfpCode: 'RFP-2', round: 1, baIds: ['ba1'], floatToAll: false }, '2026-05-31T20:00:00.000Z');
  await append('rfp-RFP-2', 'LaneResponsesSubmitted', { rfpCode: 'RFP-2', round: 1, baId: 'ba1', quotes: { L1: rate } }, '2026-06-02T05:00:00.000Z');
  // Only withdrawals: not a quote.
  await append('rfp-RFP-3', 'RfpFloated', { rfpCode: 'RFP-3', round: 1, baIds: ['ba1'], floatToAll: false }, '2026-11-02T05:00:00.000Z');
  await append('rfp-RFP-3', 'LaneResponsesSubmitted', { rfpCode: 'RFP-3', round: 1, baId: 'ba1', quotes: { L1: null } }, '2026-11-03T05:00:00.000Z');

  const inv = (id: string, type: string, data: Record<string, unknown>, at: string) =>
    append(`invoice-${id}`, type, { invoiceId: id, baId: 'ba1', ...data }, at);
  await inv('i1', 'InvoiceSubmitted', { resubmission: false, by }, '2026-10-01T04:30:00.000Z');
  await inv('i1', 'InvoiceReleased', { by }, '2026-10-11T04:30:00.000Z'); // 10 days
  await inv('i2', 'InvoiceSubmitted', { resubmission: false, by }, '2026-10-05T04:30:00.000Z');
  await inv('i2', 'InvoiceRejected', { by, remarks: 'Wrong GST', fromStatus: 'S' }, '2026-10-06T04:30:00.000Z');
  await inv('i2', 'InvoiceSubmitted', { resubmission: true, by }, '2026-10-07T04:30:00.000Z');
  await inv('i2', 'InvoiceRejected', { by, remarks: 'Still wrong', fromStatus: 'S' }, '2026-10-08T04:30:00.000Z');
  await inv('i3', 'InvoiceSubmitted', { resubmission: false, by }, '2026-11-01T04:30:00.000Z');
  await inv('i3', 'InvoiceReleased', { by }, '2026-11-06T16:30:00.000Z'); // 5.5 days
  await inv('i4', 'InvoiceSubmitted', { resubmission: false, by }, '2026-11-02T04:30:00.000Z');
  await append('invoice-i9', 'InvoiceSubmitted', { invoiceId: 'i9', baId: 'ba2', resubmission: false, by }, '2026-11-02T04:30:00.000Z');
  // Reservation streams carry no invoice facts.
  await append('invoice-number-ba1-2026-27-abc', 'InvoiceNumberReserved', { baId: 'ba1', financialYear: '2026-27', invoiceNumber: 'A1', invoiceId: 'i1' }, '2026-10-01T04:30:00.000Z');

  const block = { requestId: 'b1', baId: 'ba1', action: 'block', vendorCode: 'V1', message: 'Blocked' };
  await append('block-b1', 'BlockApplied', block, '2026-09-15T05:00:00.000Z');
  await append('block-b1', 'BlockApplied', block, '2026-09-30T05:00:00.000Z');
  await append('block-b2', 'BlockApplied', { ...block, requestId: 'b2', action: 'unblock' }, '2026-10-15T05:00:00.000Z');
}

describe('ba_performance projection', () => {
  it('counts per month: first quote per RFP, won RFPs and lanes once, first submissions, releases with days, rejections, blocks', async () => {
    await history();
    await applyDirectly(db.pool, performanceProjection, await store.readAll(0, 1000));

    const report = await performanceOf(db.pool, 'ba1', 'month', '2026-11-26');
    expect(report.buckets.map((b) => b.key)[0]).toBe('2025-12');
    const month = (key: string) => report.buckets.find((b) => b.key === key);
    expect(month('2026-04')).toMatchObject({ label: 'Apr 2026', rfpsInvited: 1, rfpsQuoted: 1, rfpsWon: 1, winRate: 100, lanesAwarded: 2 });
    expect(month('2026-05')).toMatchObject({ rfpsInvited: 0, rfpsWon: 0, lanesAwarded: 0 });
    expect(month('2026-06')).toMatchObject({ rfpsInvited: 1, rfpsQuoted: 1, winRate: 0 });
    expect(month('2026-09')).toMatchObject({ blocks: 1 });
    expect(month('2026-10')).toMatchObject({
      invoicesSubmitted: 2,
      invoicesReleased: 1,
      avgDaysToRelease: 10,
      rejectedShare: 50,
      blocks: 0,
    });
    expect(month('2026-11')).toMatchObject({ rfpsInvited: 1, rfpsQuoted: 0, invoicesSubmitted: 2, invoicesReleased: 1, avgDaysToRelease: 5.5, rejectedShare: 0 });
    expect(month('2026-03')).toMatchObject({ rfpsInvited: 0, avgDaysToRelease: null, winRate: 0, rejectedShare: 0 });
    expect(report.totals).toEqual({
      rfpsInvited: 3,
      rfpsQuoted: 2,
      rfpsWon: 1,
      winRate: 50,
      lanesAwarded: 2,
      invoicesSubmitted: 4,
      invoicesReleased: 2,
      avgDaysToRelease: 7.75,
      rejectedShare: 25,
      blocks: 1,
    });
    expect(report.documents).toEqual({ valid: 0, expiring: 0, expired: 0 });

    const other = await performanceOf(db.pool, 'ba2', 'month', '2026-11-26');
    expect(other.totals).toMatchObject({ rfpsInvited: 1, rfpsQuoted: 1, rfpsWon: 1, lanesAwarded: 1, invoicesSubmitted: 1, blocks: 0 });
  });

  it('sums months into Indian financial-year quarters and financial years', async () => {
    await history();
    await applyDirectly(db.pool, performanceProjection, await store.readAll(0, 1000));

    const quarters = await performanceOf(db.pool, 'ba1', 'quarter', '2026-11-26');
    expect(quarters.buckets.map((b) => b.key)).toEqual(['2024-Q4', '2025-Q1', '2025-Q2', '2025-Q3', '2025-Q4', '2026-Q1', '2026-Q2', '2026-Q3']);
    const q = (key: string) => quarters.buckets.find((b) => b.key === key);
    expect(q('2026-Q1')).toMatchObject({ label: 'Q1 2026-27', rfpsInvited: 2, rfpsQuoted: 2, rfpsWon: 1, winRate: 50, lanesAwarded: 2 });
    expect(q('2026-Q2')).toMatchObject({ blocks: 1, invoicesSubmitted: 0 });
    expect(q('2026-Q3')).toMatchObject({ rfpsInvited: 1, invoicesSubmitted: 4, invoicesReleased: 2, avgDaysToRelease: 7.75, rejectedShare: 25 });

    const years = await performanceOf(db.pool, 'ba1', 'year', '2026-11-26');
    expect(years.buckets.map((b) => b.key)).toEqual(['2022-23', '2023-24', '2024-25', '2025-26', '2026-27']);
    expect(years.buckets[4]).toMatchObject({ label: 'FY 2026-27', rfpsInvited: 3, rfpsWon: 1, winRate: 50, invoicesSubmitted: 4, blocks: 1 });
    // Every fact of the history falls in FY 2026-27, so the totals are that year's figures.
    expect(years.totals).toEqual(stripKey(years.buckets[4]!));
  });

  it('changes nothing when events are applied again, and ignores unknown events', async () => {
    await history();
    const events = await store.readAll(0, 1000);
    await applyDirectly(db.pool, performanceProjection, events);
    const once = await dumpTables(db.pool, TABLES);
    await applyDirectly(db.pool, performanceProjection, [...events, foreignEvent(events.length + 1)]);
    await applyDirectly(db.pool, performanceProjection, events.slice(3, 9));
    expect(await dumpTables(db.pool, TABLES)).toEqual(once);
  });

  it('is registered, and a rebuild in small pages equals the live tables row for row', async () => {
    expect(allProjections().map((p) => p.name)).toContain('ba_performance');
    await history();
    await applyDirectly(db.pool, performanceProjection, await store.readAll(0, 1000));
    const live = await dumpTables(db.pool, TABLES);
    await rebuildProjections({ pool: db.pool, store, projections: [performanceProjection], pageSize: 2, swap: false });
    const rebuilt = await dumpTables(db.pool, TABLES.map(rebuildTables));
    expect(rebuilt[rebuildTables('ba_performance')]).toEqual(live['ba_performance']);
    expect(rebuilt[rebuildTables('ba_performance_facts')]).toEqual(live['ba_performance_facts']);
  });
});

function stripKey<T extends { key: string; label: string }>(bucket: T): Omit<T, 'key' | 'label'> {
  const { key: _key, label: _label, ...rest } = bucket;
  return rest;
}
