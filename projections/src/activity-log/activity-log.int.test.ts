import type { EventStore } from '../../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { actors, applyDirectly, createOnboardingDriver, dumpTables, foreignEvent, type Onboarding } from '../test-support';
import { activityLogProjection } from './activity-log.projection';
import { listActivity } from './activity-log.queries';
import { createItemEvents, fullItemHistory } from '../onboarding-items/test-events';

let db: TestDatabase;
let store: EventStore;
let ba: Onboarding;

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
  ba = createOnboardingDriver(store);
});

afterEach(async () => {
  await db.drop();
});

describe('activity_log projection', () => {
  it('writes one readable line per event with actor, role, changed fields and remarks', async () => {
    await ba.create('a1');
    await ba.save('a1');
    await ba.submit('a1');
    await ba.approve('a1', 1, actors.procurement, 'Documents fine');
    await ba.reject('a1', 2, actors.commercial, 'Fleet size missing');
    await ba.save('a1', { companyName: 'Acme Logistics India', cinNumber: 'U12345MH2020PTC123456' });
    await ba.submit('a1');
    await ba.overdue('a1', 2, 1, ba.now());
    await ba.approve('a1', 1, actors.admin);
    await ba.approve('a1', 2, actors.commercial);
    await ba.create('other');
    await applyDirectly(db.pool, activityLogProjection, await store.readAll(0, 1000));

    const { rows, total } = await listActivity(db.pool, 'a1', { range: { offset: 0, limit: 50 } });
    expect(total).toBe(11);
    expect(rows.map((r) => [r.action, r.role, r.actorName, r.remarks])).toEqual([
      ['Registered', 'system', null, null],
      ['Company details saved', 'BA Admin', 'Admin of a1', null],
      ['Submitted for verification', 'BA Admin', 'Admin of a1', null],
      ['Stage 1 approved', 'MLL Procurement', 'Priya Procurement', 'Documents fine'],
      ['Rejected at stage 2', 'MLL Commercial', 'Chitra Commercial', 'Fleet size missing'],
      ['Company details saved', 'BA Admin', 'Admin of a1', null],
      ['Resubmitted for verification (submission 2)', 'BA Admin', 'Admin of a1', null],
      ['Review overdue at stage 1', 'system', null, null],
      ['Stage 1 approved', 'MLL-ADMIN', 'Arun Admin', null],
      ['Stage 2 approved', 'MLL Commercial', 'Chitra Commercial', null],
      ['Verified', 'MLL Commercial', 'Chitra Commercial', null],
    ]);
    expect(rows[5]?.changes).toEqual({
      companyName: { before: 'Acme Logistics', after: 'Acme Logistics India' },
      cinNumber: { before: null, after: 'U12345MH2020PTC123456' },
    });
    expect(rows[1]?.changes).toMatchObject({ companyName: { before: null, after: 'Acme Logistics' } });
    expect(rows[0]).toMatchObject({ baId: 'a1', companyCode: '1000', eventType: 'BusinessAssociateCreated', streamVersion: 0 });
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));

    const newestFirst = await listActivity(db.pool, 'a1', { sort: { field: 'at', order: 'DESC' }, range: { offset: 0, limit: 2 } });
    expect(newestFirst.rows.map((r) => r.action)).toEqual(['Verified', 'Stage 2 approved']);
  });

  it('inserts nothing more when events are applied again, and ignores unknown events', async () => {
    await ba.create('a2');
    await ba.save('a2');
    const events = await store.readAll(0, 1000);
    await applyDirectly(db.pool, activityLogProjection, events);
    const once = await dumpTables(db.pool, ['activity_log']);
    await applyDirectly(db.pool, activityLogProjection, [...events, foreignEvent(events.length + 1)]);
    expect(await dumpTables(db.pool, ['activity_log'])).toEqual(once);
    expect(once.activity_log).toHaveLength(2);
  });
});

describe('activity_log: the onboarding items (issue 8)', () => {
  it('describes every item event, naming items that later events refer to by id, and filters before paging', async () => {
    await ba.create('i1');
    await fullItemHistory(createItemEvents(store), 'i1');
    const events = await store.readAll(0, 1000);
    // In pages of three: an item's name must survive across pages (the labels table).
    for (let i = 0; i < events.length; i += 3) await applyDirectly(db.pool, activityLogProjection, events.slice(i, i + 3));

    const all = await listActivity(db.pool, 'i1', { range: { offset: 0, limit: 100 } });
    expect(all.rows.map((r) => [r.action, r.status])).toEqual([
      ['Registered', 'created'],
      ['Primary bank account added (…9012)', 'created'],
      ['Bank account added (…7777)', 'created'],
      ['Bank account …7777 deleted', 'deleted'],
      ['Place of business added (GSTIN 27ABCDE1234F1Z5)', 'created'],
      ['Place of business added (GSTIN 29ABCDE1234F1Z5)', 'created'],
      ['Place of business (GSTIN 29ABCDE1234F1Z5) deleted', 'deleted'],
      ['Document PAN Card uploaded', 'created'],
      ['Document GST Certificate uploaded', 'created'],
      ['Document GST Certificate replaced', 'updated'],
      ['Document Cancelled Cheque uploaded', 'created'],
      ['Document Cancelled Cheque deleted', 'deleted'],
      ['Concession LDC-001 added', 'created'],
      ['Vertical mapping saved', 'updated'],
      ['Bank account …9012 approved', 'approved'],
      ['Document PAN Card rejected', 'rejected'],
      ['Document GST Certificate approved till 2027-06-30', 'approved'],
      ['Concession LDC-001 approved', 'approved'],
      ['Vertical mapping rejected', 'rejected'],
      ['Expiry reminder: GST Certificate expires in 30 days (2027-06-30)', 'reminder'],
      ['Document GST Certificate expired (valid till 2027-06-30)', 'expired'],
    ]);
    expect(all.rows.find((r) => r.eventType === 'DocumentReviewed' && r.status === 'rejected')?.remarks).toBe('Blurred scan');

    const q = await listActivity(db.pool, 'i1', { filter: { q: 'gst certificate' }, range: { offset: 0, limit: 2 } });
    expect(q.total).toBe(5);
    expect(q.rows).toHaveLength(2);
    // The description search reads the remarks too.
    expect((await listActivity(db.pool, 'i1', { filter: { q: 'blurred' } })).rows.map((r) => r.eventType)).toEqual(['DocumentReviewed']);
    const reviews = await listActivity(db.pool, 'i1', { filter: { action: ['DocumentReviewed', 'ConcessionReviewed'], status: 'approved' } });
    expect(reviews.rows.map((r) => r.action)).toEqual(['Document GST Certificate approved till 2027-06-30', 'Concession LDC-001 approved']);
    const at = all.rows[10]!.at;
    const window = await listActivity(db.pool, 'i1', { filter: { from: at, to: at } });
    expect(window.rows.map((r) => r.id)).toEqual([all.rows[10]!.id]);
    // Newest first, paged by two: every entry once.
    const paged: number[] = [];
    for (let offset = 0; offset < all.total; offset += 2)
      paged.push(...(await listActivity(db.pool, 'i1', { sort: { field: 'id', order: 'DESC' }, range: { offset, limit: 2 } })).rows.map((r) => r.id));
    expect(paged).toEqual(all.rows.map((r) => r.id).reverse());
  });
});
