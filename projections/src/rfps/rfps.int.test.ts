import type { EventStore } from '../../../domain/src/event-store/port';
import { rfpStreamId } from '../../../domain/src/rfp/events';
import { columns, headerInput, procurement, step2 } from '../../../domain/src/rfp/testing';
import { DomainError } from '../../../domain/src/shared/errors';
import { dateWindowMessages } from '../../../domain/src/validation/date-window';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { businessAssociatesProjection } from '../business-associates/business-associates.projection';
import { rebuildProjections } from '../rebuild';
import { allProjections } from '../registry';
import { applyDirectly, createOnboardingDriver, dumpTables } from '../test-support';
import { baResponses } from './comparison';
import { rfpsProjection } from './rfps.projection';
import {
  activityOf,
  awardsForBa,
  awardsOf,
  comparison,
  getRfp,
  getRfpForBa,
  invitationsOf,
  listLanes,
  listRfps,
  listRfpsForBa,
  quotesOf,
} from './rfps.queries';
import { createRfpDriver, lanesOf, rate } from './test-driver';

let db: TestDatabase;
let store: EventStore;
let rfp: ReturnType<typeof createRfpDriver>;
let applied = 0;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.appPool);
  rfp = createRfpDriver(store);
  applied = await store.headPosition();
});
afterAll(async () => {
  await db?.drop();
});

/**
 * Applies every event not applied yet, one event per page (the hardest split), as the runner would: as the
 * application role, like the queries below, so the tests prove its grants suffice.
 */
async function project(): Promise<void> {
  for (;;) {
    const page = await store.readAll(applied, 1);
    const last = page[page.length - 1];
    if (!last) return;
    await applyDirectly(db.appPool, rfpsProjection, page);
    applied = last.globalPosition;
  }
}

/** The comparison fixture: four lanes (Mumbai→Pune and Chennai→Bengaluru, 32 FT and 20 FT each), three BAs. */
async function compared(code: string): Promise<void> {
  await rfp.draft(code);
  await rfp.float(code, ['ba-1', 'ba-2', 'ba-3'], 'Please quote by Friday');
  await rfp.quote(code, 'ba-1', 1, { L0001: rate(100), L0002: rate(200), L0003: rate(300), L0004: rate(400) });
  await rfp.quote(code, 'ba-2', 1, { L0001: rate(90), L0002: rate(210), L0004: rate(380) });
  await rfp.quote(code, 'ba-3', 1, { L0001: rate(110), L0002: rate(230), L0003: rate(320) });
  await project();
}

describe('the staff RFP dashboard', () => {
  beforeAll(async () => {
    await rfp.draft('DASH-1', { header: { casshOppId: 'OPP-DASH-1', receiveDate: '2026-01-10' } });
    await rfp.draft('DASH-2', { header: { casshOppId: 'OPP-DASH-2', receiveDate: '2025-12-20' } });
    await rfp.float('DASH-2', ['ba-1', 'ba-2']);
    await rfp.draft('DASH-3', { header: { casshOppId: 'OPP-DASH-3', receiveDate: '2025-10-01' } });
    await rfp.draft('DASH-OTHER', { companyCode: '2000', header: { casshOppId: 'OPP-DASH-9', receiveDate: '2026-01-10' } });
    await project();
  });
  const dash = { rfpCode: 'DASH' };

  it('lists the RFPs of the caller’s company codes only, newest first, with the opportunity table’s columns', async () => {
    const { rows, total } = await listRfps(db.appPool, { companyCodes: ['1000'], filter: dash });
    expect(total).toBe(3);
    expect(rows.map((r) => r.rfpCode)).toEqual(['DASH-3', 'DASH-2', 'DASH-1']);
    expect(rows[1]).toMatchObject({
      serialNo: 2,
      rfpCode: 'DASH-2',
      dueDate: '2026-01-31',
      receiveDate: '2025-12-20',
      status: 'floated',
      statusColour: 'submitted',
      rfpType: 'standard',
      round: 1,
      companyCode: '1000',
      laneCount: 4,
      invitedCount: 2,
      responseCount: 0,
      createdBy: { userId: 'u-procurement' },
    });
    expect(rows[1]!.dueAt).toBe('2026-01-31T18:29:59.999Z');
    expect((await listRfps(db.appPool, { companyCodes: ['2000'], filter: dash })).rows.map((r) => r.rfpCode)).toEqual(['DASH-OTHER']);
    expect((await listRfps(db.appPool, { companyCodes: 'all', filter: dash })).total).toBe(4);
    expect((await listRfps(db.appPool, { companyCodes: [], filter: dash })).total).toBe(0);
  });

  it('filters by RFP code, opportunity id and status ("all" is every status)', async () => {
    const codes = async (filter: Parameters<typeof listRfps>[1]['filter']) =>
      (await listRfps(db.appPool, { companyCodes: ['1000'], filter: { ...dash, ...filter } })).rows.map((r) => r.rfpCode);
    expect(await codes({ rfpCode: 'dash-2' })).toEqual(['DASH-2']);
    expect(await codes({ casshOppId: 'OPP-DASH-3' })).toEqual(['DASH-3']);
    expect(await codes({ status: 'floated' })).toEqual(['DASH-2']);
    expect(await codes({ status: 'draft' })).toEqual(['DASH-3', 'DASH-1']);
    expect(await codes({ status: 'all' })).toEqual(['DASH-3', 'DASH-2', 'DASH-1']);
    // LIKE wildcards in the text match literally.
    expect(await codes({ rfpCode: 'DASH_' })).toEqual([]);
  });

  it('filters by receive date within the 61-day window and refuses a range outside it', async () => {
    const today = '2026-02-01';
    const codes = async (dateFrom: string | null, dateTo: string | null) =>
      (await listRfps(db.appPool, { companyCodes: ['1000'], filter: { ...dash, dateFrom, dateTo, today } })).rows.map((r) => r.rfpCode);
    expect(await codes('2026-01-01', '2026-01-31')).toEqual(['DASH-1']);
    // The window's first day (today − 61 days) is still inside it.
    expect(await codes('2025-12-02', null)).toEqual(['DASH-2', 'DASH-1']);
    await expect(codes('2025-12-01', null)).rejects.toMatchObject({ code: 'validation', message: dateWindowMessages.tooOld });
    await expect(codes('2026-01-20', '2026-01-10')).rejects.toMatchObject({ errors: { date: dateWindowMessages.startAfterEnd } });
    await expect(listRfps(db.appPool, { companyCodes: ['1000'], filter: { dateFrom: '2026-01-20' } })).rejects.toBeInstanceOf(DomainError);
  });

  it('pages with a total and serial numbers that run on across pages', async () => {
    const first = await listRfps(db.appPool, { companyCodes: ['1000'], filter: dash, page: 0, perPage: 2 });
    const second = await listRfps(db.appPool, { companyCodes: ['1000'], filter: dash, page: 1, perPage: 2 });
    expect(first).toMatchObject({ total: 3, rows: [{ rfpCode: 'DASH-3', serialNo: 1 }, { rfpCode: 'DASH-2', serialNo: 2 }] });
    expect(second).toMatchObject({ total: 3, rows: [{ rfpCode: 'DASH-1', serialNo: 3 }] });
    expect(await listRfps(db.appPool, { companyCodes: ['1000'], filter: dash, page: 5, perPage: 2 })).toEqual({ rows: [], total: 3 });
  });

  it('opens an RFP only within the caller’s company codes', async () => {
    expect(await getRfp(db.appPool, 'DASH-OTHER', { companyCodes: ['1000'] })).toBeNull();
    const record = await getRfp(db.appPool, 'DASH-2', { companyCodes: ['1000'] });
    expect(record).toMatchObject({ rfpCode: 'DASH-2', header: { casshOppId: 'OPP-DASH-2' }, steps: { 2: step2 }, rateKey: 'ratePerTrip' });
    expect(record?.columns.map((c) => c.key)).toEqual(['fromCity', 'toCity', 'vehicleType', 'ratePerTrip', 'transitDays']);
  });
});

describe('the BA RFP dashboard and BA-facing reads', () => {
  beforeAll(async () => {
    await compared('BA-VIEW');
    await rfp.draft('BA-DRAFT');
    for (let i = 1; i <= 12; i += 1) {
      await rfp.draft(`BA-PAGE-${i}`);
      await rfp.float(`BA-PAGE-${i}`, ['ba-pager']);
    }
    await project();
  });

  it('lists only RFPs floated to the BA, latest first, 10 a page from page 0', async () => {
    const first = await listRfpsForBa(db.appPool, 'ba-pager');
    expect(first.total).toBe(12);
    expect(first.rows).toHaveLength(10);
    expect(first.rows[0]).toMatchObject({ rfpCode: 'BA-PAGE-12', serialNo: 1, status: 'floated', roundInvited: 1, lanesQuoted: 0, lanesAwarded: null });
    const second = await listRfpsForBa(db.appPool, 'ba-pager', 1);
    expect(second.rows.map((r) => r.rfpCode)).toEqual(['BA-PAGE-2', 'BA-PAGE-1']);
    expect((await listRfpsForBa(db.appPool, 'ba-pager', 0, 5)).rows).toHaveLength(5);
    // Only the spec's page sizes: anything else is 10.
    expect((await listRfpsForBa(db.appPool, 'ba-pager', 0, 500)).rows).toHaveLength(10);
    expect((await listRfpsForBa(db.appPool, 'ba-1')).rows.map((r) => r.rfpCode)).not.toContain('BA-DRAFT');
  });

  it('gives a BA its own facts and never an RFP it was not floated to', async () => {
    const mine = await getRfpForBa(db.appPool, 'BA-VIEW', 'ba-2');
    expect(mine).toMatchObject({ rfpCode: 'BA-VIEW', comments: 'Please quote by Friday', lanesQuoted: 3, backhaulInvited: false });
    expect(mine).not.toHaveProperty('invitedCount');
    expect(mine).not.toHaveProperty('steps');
    expect(await getRfpForBa(db.appPool, 'BA-VIEW', 'ba-pager')).toBeNull();
    expect(await getRfpForBa(db.appPool, 'BA-DRAFT', 'ba-1')).toBeNull();
  });

  it('returns only the asking BA’s quotes', async () => {
    const ba2 = await quotesOf(db.appPool, 'BA-VIEW', 1, 'ba-2');
    expect(ba2.map((q) => [q.laneId, q.rate])).toEqual([
      ['L0001', 90],
      ['L0002', 210],
      ['L0004', 380],
    ]);
    expect(await quotesOf(db.appPool, 'BA-VIEW', 1, 'ba-pager')).toEqual([]);
  });

  it('shows a BA its own quotes beside the lanes in its grid, and only its own', async () => {
    const grid = await listLanes(db.appPool, 'BA-VIEW', { quotesOf: { baId: 'ba-3', round: 1 } });
    expect(grid.rows.map((r) => [r.laneId, r.quote?.ratePerTrip ?? null])).toEqual([
      ['L0001', '110'],
      ['L0002', '230'],
      ['L0003', '320'],
      ['L0004', null],
    ]);
    const sorted = await listLanes(db.appPool, 'BA-VIEW', { quotesOf: { baId: 'ba-3', round: 1 }, sort: { field: 'ratePerTrip', order: 'DESC' } });
    expect(sorted.rows.map((r) => r.laneId)).toEqual(['L0003', 'L0002', 'L0001', 'L0004']);
  });
});

describe('lanes', () => {
  beforeAll(async () => {
    await rfp.draft('LANES-5000', { lanes: lanesOf(5000) });
    await project();
  });

  it('pages through 5,000 lanes in sheet order with the total', async () => {
    const page = await listLanes(db.appPool, 'LANES-5000', { page: 2, perPage: 1000 });
    expect(page.total).toBe(5000);
    expect(page.rows).toHaveLength(1000);
    expect(page.rows[0]).toMatchObject({ laneId: 'L2001', position: 2000, values: { fromCity: 'Mumbai', toCity: 'Pune', vehicleType: '32 FT MXL' } });
    expect(page.rows[999]?.laneId).toBe('L3000');
    // A page never exceeds the cap, however many are asked for.
    expect((await listLanes(db.appPool, 'LANES-5000', { perPage: 100_000 })).rows).toHaveLength(1000);
    const last = await listLanes(db.appPool, 'LANES-5000', { page: 49, perPage: 100 });
    expect(last.rows.map((r) => r.laneId).slice(-1)).toEqual(['L5000']);
  });

  it('filters and sorts by a column', async () => {
    const filtered = await listLanes(db.appPool, 'LANES-5000', { filter: { fromCity: 'delhi', vehicleType: '20 ft' }, perPage: 5 });
    expect(filtered.total).toBe(625);
    expect(filtered.rows.map((r) => r.laneId)).toEqual(['L0006', 'L0014', 'L0022', 'L0030', 'L0038']);
    const sorted = await listLanes(db.appPool, 'LANES-5000', { sort: { field: 'fromCity', order: 'ASC' }, perPage: 1 });
    expect(sorted.rows[0]?.values.fromCity).toBe('Chennai');
    expect((await listLanes(db.appPool, 'LANES-5000', { filter: { laneId: 'L4321' } })).rows.map((r) => r.laneId)).toEqual(['L4321']);
    await expect(listLanes(db.appPool, 'LANES-5000', { sort: { field: "x'); DROP TABLE rfps; --" } })).rejects.toMatchObject({ code: 'validation' });
  });

  it('drops the lanes when step 2 chooses other properties, and counts them', async () => {
    await rfp.draft('LANES-CLEARED');
    await project();
    expect((await getRfp(db.appPool, 'LANES-CLEARED', { companyCodes: 'all' }))?.laneCount).toBe(4);
    await rfp.run('LANES-CLEARED', { userId: 'u-procurement', role: 'MLL Procurement' }, {
      type: 'SaveRfpStep',
      step: 2,
      data: { ...step2, baProperties: ['ratePerTrip'] },
    });
    await project();
    const record = await getRfp(db.appPool, 'LANES-CLEARED', { companyCodes: 'all' });
    expect(record).toMatchObject({ laneCount: 0, columns: [], rateKey: null, steps: { 2: { baProperties: ['ratePerTrip'] }, 3: null } });
    expect((await listLanes(db.appPool, 'LANES-CLEARED')).total).toBe(0);
  });
});

describe('wizard steps', () => {
  it('step 1 edits the header the lists show', async () => {
    await rfp.draft('STEP-1');
    await rfp.run('STEP-1', procurement, {
      type: 'SaveRfpStep',
      step: 1,
      data: headerInput({ rfpCode: 'STEP-1', casshOppId: 'OPP-EDITED', receiveDate: '2026-01-12' }),
    });
    await project();
    expect((await listRfps(db.appPool, { companyCodes: ['1000'], filter: { casshOppId: 'OPP-EDITED' } })).rows).toMatchObject([
      { rfpCode: 'STEP-1', casshOppId: 'OPP-EDITED', receiveDate: '2026-01-12', laneCount: 4 },
    ]);
  });

  it('new sheet columns in step 3 drop the lanes and move the rate compared by', async () => {
    await rfp.draft('STEP-3');
    const transitFirst = [...columns.filter((c) => c.key !== 'ratePerTrip'), columns.find((c) => c.key === 'ratePerTrip')!];
    await rfp.run('STEP-3', procurement, { type: 'SaveRfpStep', step: 3, data: { headerData: transitFirst } });
    await project();
    const record = await getRfp(db.appPool, 'STEP-3', { companyCodes: 'all' });
    expect(record).toMatchObject({ laneCount: 0, rateKey: 'transitDays' });
    expect(record?.columns.map((c) => c.key)).toEqual(['fromCity', 'toCity', 'vehicleType', 'transitDays', 'ratePerTrip']);
  });

  it('shows BAs step 4’s comment, and the terms only when staff made them downloadable', async () => {
    for (const [code, isTnCDownloadable] of [
      ['TERMS-YES', true],
      ['TERMS-NO', false],
    ] as const) {
      await rfp.draft(code);
      await rfp.run(code, procurement, { type: 'SaveRfpStep', step: 4, data: { comment: 'Quote every lane', isTnCDownloadable } });
      await rfp.terms(code);
      await rfp.float(code, ['ba-1']);
    }
    await project();
    expect(await getRfpForBa(db.appPool, 'TERMS-YES', 'ba-1')).toMatchObject({ comment: 'Quote every lane', terms: { name: 'terms.pdf' } });
    expect(await getRfpForBa(db.appPool, 'TERMS-NO', 'ba-1')).toMatchObject({ comment: 'Quote every lane', terms: null });
    expect(await getRfp(db.appPool, 'TERMS-NO', { companyCodes: 'all' })).toMatchObject({
      terms: { name: 'terms.pdf' },
      steps: { 4: { isTnCDownloadable: false } },
    });
  });
});

describe('comparisons', () => {
  beforeAll(async () => {
    await compared('CMP');
  });
  const quotes = (group: { quotes: { baId: string; rate: number; rank: number; lanesQuoted: number }[] }) =>
    group.quotes.map((q) => [q.baId, q.rate, q.rank, q.lanesQuoted]);

  it('by all: every lane with the BAs’ rates lowest first and min/avg/max', async () => {
    const c = await comparison(db.appPool, 'CMP', 1, 'all');
    expect(c.total).toBe(4);
    expect(c.groups.map((g) => [g.laneId, g.fromCity, g.vehicleType, g.min, g.avg, g.max])).toEqual([
      ['L0001', 'Mumbai', '32 FT MXL', 90, 100, 110],
      ['L0002', 'Mumbai', '20 FT SXL', 200, 213.33, 230],
      ['L0003', 'Chennai', '32 FT MXL', 300, 310, 320],
      ['L0004', 'Chennai', '20 FT SXL', 380, 390, 400],
    ]);
    expect(quotes(c.groups[0]!)).toEqual([
      ['ba-2', 90, 1, 1],
      ['ba-1', 100, 2, 1],
      ['ba-3', 110, 3, 1],
    ]);
  });

  it('by location: per route each BA’s average over the lanes it quoted; ties share a rank', async () => {
    const c = await comparison(db.appPool, 'CMP', 1, 'location');
    expect(c.groups.map((g) => [g.fromCity, g.toCity, g.vehicleType, g.laneId, g.lanes, g.min, g.avg, g.max])).toEqual([
      ['Mumbai', 'Pune', null, null, 2, 150, 156.67, 170],
      ['Chennai', 'Bengaluru', null, null, 2, 320, 350, 380],
    ]);
    expect(quotes(c.groups[0]!)).toEqual([
      ['ba-1', 150, 1, 2],
      ['ba-2', 150, 1, 2],
      ['ba-3', 170, 3, 2],
    ]);
    expect(quotes(c.groups[1]!)).toEqual([
      ['ba-3', 320, 1, 1],
      ['ba-1', 350, 2, 2],
      ['ba-2', 380, 3, 1],
    ]);
  });

  it('by vehicle and by location and vehicle', async () => {
    const vehicle = await comparison(db.appPool, 'CMP', 1, 'vehicle');
    expect(vehicle.groups.map((g) => [g.vehicleType, g.fromCity, g.min, g.avg, g.max])).toEqual([
      ['32 FT MXL', null, 90, 168.33, 215],
      ['20 FT SXL', null, 230, 275, 300],
    ]);
    expect(quotes(vehicle.groups[1]!).map((q) => q[0])).toEqual(['ba-3', 'ba-2', 'ba-1']);
    const both = await comparison(db.appPool, 'CMP', 1, 'location-vehicle');
    expect(both.groups.map((g) => [g.fromCity, g.toCity, g.vehicleType, g.laneId, g.min, g.max])).toEqual([
      ['Mumbai', 'Pune', '32 FT MXL', null, 90, 110],
      ['Mumbai', 'Pune', '20 FT SXL', null, 200, 230],
      ['Chennai', 'Bengaluru', '32 FT MXL', null, 300, 320],
      ['Chennai', 'Bengaluru', '20 FT SXL', null, 380, 400],
    ]);
  });

  it('pages by group, and lists a group nobody quoted with no rates', async () => {
    const page = await comparison(db.appPool, 'CMP', 1, 'all', { page: 1, perPage: 3 });
    expect(page).toMatchObject({ total: 4, groups: [{ laneId: 'L0004' }] });
    const empty = await comparison(db.appPool, 'CMP', 2, 'location');
    expect(empty.groups.map((g) => [g.quotes, g.min, g.avg, g.max])).toEqual([
      [[], null, null, null],
      [[], null, null, null],
    ]);
  });

  it('rates a page’s groups from their own lanes’ quotes exactly as the whole comparison does', async () => {
    for (const by of ['all', 'location', 'vehicle', 'location-vehicle'] as const) {
      const whole = await comparison(db.appPool, 'CMP', 1, by);
      const oneByOne = [];
      for (let page = 0; page < whole.total; page += 1) oneByOne.push(...(await comparison(db.appPool, 'CMP', 1, by, { page, perPage: 1 })).groups);
      expect(oneByOne).toEqual(whole.groups);
    }
  });

  it('names each BA by its company (the BA list read model)', async () => {
    const from = await store.headPosition();
    const onboarding = createOnboardingDriver(store);
    await onboarding.create('ba-2');
    await onboarding.save('ba-2', { companyName: 'Ghats Roadways' });
    await applyDirectly(db.appPool, businessAssociatesProjection, await store.readAll(from, 100));
    const c = await comparison(db.appPool, 'CMP', 1, 'all', { perPage: 1 });
    expect(c.groups[0]?.quotes.map((q) => [q.baId, q.companyName])).toEqual([
      ['ba-2', 'Ghats Roadways'],
      ['ba-1', null],
      ['ba-3', null],
    ]);
    expect((await invitationsOf(db.appPool, 'CMP')).find((i) => i.baId === 'ba-2')?.companyName).toBe('Ghats Roadways');
  });

  it('gives the BA-response comparison the same groups per BA', async () => {
    const c = await comparison(db.appPool, 'CMP', 1, 'all');
    const byBa = baResponses(c.groups);
    expect(byBa.map((b) => [b.baId, b.firstRanks, b.groupsQuoted])).toEqual([
      ['ba-1', 2, 4],
      ['ba-2', 2, 3],
      ['ba-3', 0, 3],
    ]);
  });
});

describe('rounds, awards and backhaul', () => {
  beforeAll(async () => {
    await compared('ROUNDS');
    await rfp.closeBidding('ROUNDS');
    await rfp.award('ROUNDS', {
      L0001: [
        { baId: 'ba-1', sharePercent: 60 },
        { baId: 'ba-2', sharePercent: 40 },
      ],
      L0003: [{ baId: 'ba-3', sharePercent: 100 }],
    });
    await rfp.backhaul('ROUNDS', 'ba-2', true);
    await rfp.terms('ROUNDS');
    await project();
  });

  it('keeps the award with shares and contract rates, and shows each BA only its own', async () => {
    expect((await awardsOf(db.appPool, 'ROUNDS')).map((a) => [a.laneId, a.baId, a.sharePercent, a.rate, a.rates.transitDays])).toEqual([
      ['L0001', 'ba-1', 60, 100, '2'],
      ['L0001', 'ba-2', 40, 90, '2'],
      ['L0003', 'ba-3', 100, 320, '2'],
    ]);
    expect((await awardsForBa(db.appPool, 'ROUNDS', 'ba-2')).map((a) => [a.laneId, a.sharePercent, a.rate])).toEqual([['L0001', 40, 90]]);
    expect(await awardsForBa(db.appPool, 'ROUNDS', 'ba-pager')).toEqual([]);
    expect(await getRfpForBa(db.appPool, 'ROUNDS', 'ba-2')).toMatchObject({ status: 'awarded', lanesAwarded: 1, backhaulInvited: true });
    expect(await getRfpForBa(db.appPool, 'ROUNDS', 'ba-3')).toMatchObject({ lanesAwarded: 1, backhaulInvited: false });
  });

  it('lists the invitations with backhaul and responses', async () => {
    expect((await invitationsOf(db.appPool, 'ROUNDS')).map((i) => [i.baId, i.roundInvited, i.backhaulInvited, i.lanesQuoted])).toEqual([
      ['ba-1', 1, false, 4],
      ['ba-2', 1, true, 3],
      ['ba-3', 1, false, 3],
    ]);
  });

  it('keeps round 1’s quotes and award after a reopen, and starts the new round empty', async () => {
    await rfp.reopen('ROUNDS');
    await rfp.quote('ROUNDS', 'ba-1', 2, { L0001: rate(95) });
    await project();
    const record = await getRfp(db.appPool, 'ROUNDS', { companyCodes: ['1000'] });
    expect(record).toMatchObject({ status: 'floated', round: 2, dueAt: '2026-02-20T12:30:00.000Z', responseCount: 1, terms: { name: 'terms.pdf' } });
    expect((await quotesOf(db.appPool, 'ROUNDS', 1, 'ba-1')).map((q) => q.rate)).toEqual([100, 200, 300, 400]);
    expect((await quotesOf(db.appPool, 'ROUNDS', 2, 'ba-1')).map((q) => q.rate)).toEqual([95]);
    expect((await comparison(db.appPool, 'ROUNDS', 2, 'all')).groups[0]?.quotes.map((q) => [q.baId, q.rate])).toEqual([['ba-1', 95]]);
    expect((await comparison(db.appPool, 'ROUNDS', 1, 'all')).groups[0]?.min).toBe(90);
    // The current round has no award yet: round 1's stays readable by round.
    expect(await awardsOf(db.appPool, 'ROUNDS')).toEqual([]);
    expect(await awardsOf(db.appPool, 'ROUNDS', 1)).toHaveLength(3);
    expect(await getRfpForBa(db.appPool, 'ROUNDS', 'ba-2')).toMatchObject({ round: 2, lanesAwarded: null, lanesQuoted: 0 });
  });

  it('withdraws a lane quote sent empty', async () => {
    await rfp.quote('ROUNDS', 'ba-1', 2, { L0001: { ratePerTrip: null, transitDays: null }, L0002: rate(205) });
    await project();
    expect((await quotesOf(db.appPool, 'ROUNDS', 2, 'ba-1')).map((q) => [q.laneId, q.rate])).toEqual([['L0002', 205]]);
    // The grouped comparisons' sums follow: Mumbai→Pune is now its 20 FT lane alone.
    const route = (await comparison(db.appPool, 'ROUNDS', 2, 'location')).groups[0];
    expect(route?.quotes.map((q) => [q.baId, q.rate, q.lanesQuoted])).toEqual([['ba-1', 205, 1]]);
  });

  it('records the RFP’s history, newest first, without anyone’s rates', async () => {
    const { rows, total } = await activityOf(db.appPool, 'ROUNDS');
    expect(total).toBe(rows.length);
    expect(rows.map((r) => r.action).reverse()).toEqual([
      'RFP created',
      'Step 2 saved',
      '4 lanes uploaded',
      'Floated to 3 BAs',
      'Lane responses saved',
      'Lane responses saved',
      'Lane responses saved',
      'Bidding closed',
      '2 lanes awarded',
      'Invited for backhaul',
      'Terms and conditions uploaded',
      'Reopened for round 2',
      'Lane responses saved',
      'Lane responses saved',
    ]);
    expect(rows[0]).toMatchObject({ round: 2, baId: 'ba-1', detail: '1 lane quoted, 1 lane withdrawn', actor: { role: 'BA Admin' } });
    expect(rows.map((r) => `${r.action} ${r.detail ?? ''}`).join('\n')).not.toMatch(/205|380|ratePerTrip/);
  });
});

describe('when bidding closed', () => {
  const staff = { companyCodes: ['1000'] };

  it('keeps when bidding of the round was closed, through the award, and forgets it when a reopen starts a new round', async () => {
    await compared('CLOSED-EARLY');
    expect((await getRfp(db.appPool, 'CLOSED-EARLY', staff))?.biddingClosedAt).toBeNull();
    await rfp.closeBidding('CLOSED-EARLY');
    const closedAt = rfp.now();
    await rfp.award('CLOSED-EARLY', { L0001: [{ baId: 'ba-2', sharePercent: 100 }] });
    await project();
    const awarded = await getRfp(db.appPool, 'CLOSED-EARLY', staff);
    // Closed early: well before the due time, which stays as it was.
    expect(awarded).toMatchObject({ status: 'awarded', biddingClosedAt: closedAt, dueAt: '2026-01-31T18:29:59.999Z' });
    expect((await listRfps(db.appPool, { ...staff, filter: { rfpCode: 'CLOSED-EARLY' } })).rows[0]?.biddingClosedAt).toBe(closedAt);
    await rfp.close('CLOSED-EARLY');
    await project();
    expect((await getRfp(db.appPool, 'CLOSED-EARLY', staff))?.biddingClosedAt).toBe(closedAt);
    await rfp.reopen('CLOSED-EARLY');
    await project();
    expect(await getRfp(db.appPool, 'CLOSED-EARLY', staff)).toMatchObject({ status: 'floated', round: 2, biddingClosedAt: null });
  });

  it('takes closing a floated RFP as the end of its bidding', async () => {
    await compared('CLOSED-FLOATED');
    await rfp.close('CLOSED-FLOATED');
    const closedAt = rfp.now();
    await project();
    expect(await getRfp(db.appPool, 'CLOSED-FLOATED', staff)).toMatchObject({ status: 'closed', biddingClosedAt: closedAt });
  });
});

describe('idempotency and rebuild', () => {
  it('applying the same events again changes nothing', async () => {
    await compared('AGAIN');
    await rfp.closeBidding('AGAIN');
    await rfp.award('AGAIN', { L0002: [{ baId: 'ba-1', sharePercent: 100 }] });
    await project();
    const tables = rfpsProjection.tables;
    const before = await dumpTables(db.appPool, tables);
    const events = await store.readStream(rfpStreamId('AGAIN'));
    // As one page, and event by event from the last back (a replay in order would end where it started anyway).
    await applyDirectly(db.appPool, rfpsProjection, events);
    for (const e of [...events].reverse()) await applyDirectly(db.appPool, rfpsProjection, [e]);
    expect(await dumpTables(db.appPool, tables)).toEqual(before);
  });

  it('is one of the projections the projector runs and the rebuild rebuilds', () => {
    expect(allProjections()).toContain(rfpsProjection);
  });

  it('rebuilds tables equal to the live ones row for row', async () => {
    await project();
    const tables = rfpsProjection.tables;
    const live = await dumpTables(db.appPool, tables);
    expect(live.rfp_quotes?.length).toBeGreaterThan(10);
    expect(live.rfp_awards?.length).toBeGreaterThan(0);
    await rebuildProjections({ pool: db.pool, store, projections: [rfpsProjection], pageSize: 7, log: () => undefined });
    expect(await dumpTables(db.appPool, tables)).toEqual(live);
  });
});
