import type { EventStore } from '../../../domain/src/event-store/port';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { businessAssociatesProjection } from '../business-associates/business-associates.projection';
import { actors, applyDirectly, createOnboardingDriver, dumpTables, foreignEvent, type Onboarding } from '../test-support';
import { ITEM_TABLES } from './items.evolve';
import { onboardingItemsProjection } from './items.projection';
import {
  countPendingAdditionalDocuments,
  getBankAccount,
  getChangeRequest,
  getDocument,
  getDocumentFile,
  getVerticalMapping,
  listAdditionalDocuments,
  listBankAccounts,
  listCompanyApplications,
  listConcessions,
  listDocuments,
  listGstRegistrations,
} from './items.queries';
import { bankAccount, baDocument, createItemEvents, fileOf, fullItemHistory, reviewBy } from './test-events';

let db: TestDatabase;
let store: EventStore;
let ba: Onboarding;
let items: ReturnType<typeof createItemEvents>;
let start = 0;

/** Every event since the test began, in pages of `pageSize`, through both projections the reads join. */
async function project(pageSize = 1000, projections = [businessAssociatesProjection, onboardingItemsProjection]) {
  let from = start;
  for (;;) {
    const page = await store.readAll(from, pageSize);
    const last = page[page.length - 1];
    if (!last) return;
    for (const p of projections) await applyDirectly(db.pool, p, page);
    from = last.globalPosition;
  }
}

const itemTables = () => dumpTables(db.pool, [...ITEM_TABLES]);

async function clearItems() {
  for (const table of ITEM_TABLES) await db.pool.query(`DELETE FROM ${table}`);
}

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
  ba = createOnboardingDriver(store);
  items = createItemEvents(store);
  start = await store.headPosition();
});

afterEach(async () => {
  await db.drop();
});

describe('onboarding items projection', () => {
  it('shows the current items with their reviews; deleted and replaced ones are gone', async () => {
    await ba.create('b1');
    await ba.save('b1');
    const ids = await fullItemHistory(items, 'b1');
    await project();

    const accounts = await listBankAccounts(db.pool, 'b1');
    expect(accounts).toEqual([
      expect.objectContaining({ id: ids.primaryAccount, primary: true, accountNo: '123456789012', reviewStatus: 'approved' }),
    ]);
    expect(await getBankAccount(db.pool, 'b1', 'b1-acc2')).toBeNull();

    const gst = await listGstRegistrations(db.pool, 'b1');
    expect(gst).toEqual([
      expect.objectContaining({
        id: ids.gst,
        stateId: 27,
        stateName: 'Maharashtra',
        cityName: 'Mumbai',
        gstType: '',
        gstTypeLabel: 'GST Registered',
        gstNo: '27ABCDE1234F1Z5',
      }),
    ]);

    const documents = await listDocuments(db.pool, 'b1');
    expect(documents.map((d) => [d.id, d.reviewStatus, d.reviewRemarks, d.expired])).toEqual([
      [ids.gstCertificate, 'approved', null, true],
      [ids.pan, 'rejected', 'Blurred scan', false],
    ]);
    expect(await getDocument(db.pool, 'b1', ids.gstCertificate)).toMatchObject({
      documentTypeName: 'GST Certificate',
      stateId: 27,
      stateName: 'Maharashtra',
      validTill: '2027-06-30',
      approvedTill: '2027-06-30',
      fileName: 'pan.pdf',
      fileType: 'application/pdf',
      fileSize: 2048,
      replaces: 'b1-gstc',
    });
    // The replaced and the deleted document are no longer answered, nor are their files.
    expect(await getDocument(db.pool, 'b1', 'b1-gstc')).toBeNull();
    expect(await getDocumentFile(db.pool, 'b1', 'b1-chq')).toBeNull();
    expect(await getDocumentFile(db.pool, 'b1', ids.pan)).toEqual(fileOf('pan.pdf'));

    expect(await listConcessions(db.pool, 'b1')).toEqual([
      expect.objectContaining({ id: ids.concession, exemptionNumber: 'LDC-001', reviewStatus: 'approved', fileName: 'ldc.pdf' }),
    ]);
    expect(await getVerticalMapping(db.pool, 'b1')).toMatchObject({
      verticalIds: [3, 1],
      zoneIds: [1],
      reviewStatus: 'rejected',
      reviewRemarks: 'Add zones',
    });
    expect(await getVerticalMapping(db.pool, 'nobody')).toMatchObject({ verticalIds: [], reviewStatus: null });
  });

  it('resets a review to pending when the item is saved again', async () => {
    await ba.create('b2');
    await items.append('b2', { type: 'BankAccountSaved', data: { baId: 'b2', accountId: 'a', primary: true, account: bankAccount(), changes: {} } });
    await items.append(
      'b2',
      { type: 'BankAccountReviewed', data: { baId: 'b2', accountId: 'a', decision: 'rejected', ...reviewBy(actors.procurement, items.now(), 'Wrong IFSC') } },
      actors.procurement,
    );
    await project();
    expect(await getBankAccount(db.pool, 'b2', 'a')).toMatchObject({ reviewStatus: 'rejected', reviewRemarks: 'Wrong IFSC' });
    await items.append('b2', {
      type: 'BankAccountSaved',
      data: { baId: 'b2', accountId: 'a', primary: true, account: bankAccount({ ifscCode: 'HDFC0009999' }), changes: {} },
    });
    await project();
    expect(await getBankAccount(db.pool, 'b2', 'a')).toMatchObject({ ifscCode: 'HDFC0009999', reviewStatus: 'pending', reviewRemarks: null });
  });

  it('gives the same rows applied in pages of one, applied twice, or overlapping', async () => {
    await ba.create('b3');
    await ba.save('b3');
    await fullItemHistory(items, 'b3');
    await ba.create('b4', '2000');
    await fullItemHistory(items, 'b4');
    await project(1000, [onboardingItemsProjection]);
    const once = await itemTables();
    expect(once.ba_documents?.length).toBeGreaterThan(0);

    await project(1000, [onboardingItemsProjection]);
    expect(await itemTables()).toEqual(once);

    await clearItems();
    await project(1, [onboardingItemsProjection]);
    expect(await itemTables()).toEqual(once);

    // A page overlapping what was applied (the first half again, then everything).
    await clearItems();
    const events = await store.readAll(start, 1000);
    await applyDirectly(db.pool, onboardingItemsProjection, events.slice(0, Math.floor(events.length / 2)));
    await applyDirectly(db.pool, onboardingItemsProjection, events.slice(3));
    await applyDirectly(db.pool, onboardingItemsProjection, events);
    expect(await itemTables()).toEqual(once);
  });

  it('ignores events it does not know', async () => {
    const before = await itemTables();
    const unknown: StoredEvent[] = [foreignEvent(999_999)];
    await applyDirectly(db.pool, onboardingItemsProjection, unknown);
    expect(await itemTables()).toEqual(before);
  });

  it('keeps an application per company code, the first one included', async () => {
    await ba.create('b5');
    await ba.save('b5');
    await ba.submit('b5');
    await ba.approve('b5', 1, actors.procurement);
    await ba.approve('b5', 2, actors.commercial);
    await items.append('b5', { type: 'CompanyCodeApplied', data: { baId: 'b5', companyCode: '2000' } });
    await project();
    expect((await listCompanyApplications(db.pool, 'b5')).map((a) => [a.companyCode, a.first, a.status, a.stage])).toEqual([
      ['1000', true, 'verified', null],
      ['2000', false, 'pending', null],
    ]);
    // Stage events naming the other code move only its application.
    const other = { baId: 'b5', companyCode: '2000' };
    await items.append('b5', { type: 'OnboardingSubmitted', data: { ...other, submission: 1, resubmission: false } });
    await items.append(
      'b5',
      {
        type: 'OnboardingRejected',
        data: { ...other, submission: 1, stage: 1, remarks: 'Not for this code', rejectedBy: 'u-procurement', role: 'MLL Procurement' },
      },
      actors.procurement,
    );
    await project();
    expect(await listCompanyApplications(db.pool, 'b5')).toEqual([
      expect.objectContaining({ id: '1000', status: 'verified', submission: 1 }),
      expect.objectContaining({ id: '2000', status: 'rejected', submission: 1, remarks: 'Not for this code' }),
    ]);
  });

  it('applies a bank change request once finally approved', async () => {
    await ba.create('b6');
    await items.append('b6', { type: 'BankAccountSaved', data: { baId: 'b6', accountId: 'p', primary: true, account: bankAccount(), changes: {} } });
    const proposed = bankAccount({ accountNo: '555566667777', ifscCode: 'ICIC0000001', bankName: 'ICICI Bank' });
    await items.append('b6', {
      type: 'ChangeRequestRaised',
      data: { baId: 'b6', requestId: 'cr1', section: 'bank', proposed, changes: { accountNo: { before: '123456789012', after: '555566667777' } } },
    });
    const approve = (by: typeof actors.procurement, final: boolean) =>
      items.append('b6', { type: 'ChangeRequestApproved', data: { baId: 'b6', requestId: 'cr1', approvedBy: by.userId, role: by.role, at: items.now(), final } }, by);
    await approve(actors.procurement, false);
    await project();
    expect(await getChangeRequest(db.pool, 'b6', 'cr1')).toMatchObject({ status: 'first-approved', approvals: [{ by: 'u-procurement' }] });
    expect(await getBankAccount(db.pool, 'b6', 'p')).toMatchObject({ accountNo: '123456789012', reviewStatus: 'pending' });
    await approve(actors.commercial, true);
    await project();
    expect(await getChangeRequest(db.pool, 'b6', 'cr1')).toMatchObject({ status: 'approved', decidedBy: 'u-commercial' });
    expect(await getBankAccount(db.pool, 'b6', 'p')).toMatchObject({
      primary: true,
      accountNo: '555566667777',
      bankName: 'ICICI Bank',
      reviewStatus: 'approved',
      reviewedBy: 'u-commercial',
    });
  });

  it('queues additional documents for staff within their company codes', async () => {
    await ba.create('q1', '1000');
    await ba.save('q1', { companyName: 'Queue One' });
    await ba.create('q2', '2000');
    const upload = (baId: string, docId: string) =>
      items.append(baId, {
        type: 'DocumentUploaded',
        data: {
          baId,
          docId,
          document: baDocument({ kind: 'additional', documentTypeId: 9, documentTypeName: 'Insurance' }),
          replaces: null,
          uploadedBy: actors.ba(baId).userId,
          role: 'BA Admin',
        },
      });
    await upload('q1', 'd1');
    await upload('q1', 'd2');
    await upload('q2', 'd3');
    await items.append('q1', { type: 'DocumentUploaded', data: { baId: 'q1', docId: 'd4', document: baDocument(), replaces: null, uploadedBy: 'x', role: 'BA Admin' } });
    await items.append(
      'q1',
      { type: 'DocumentReviewed', data: { baId: 'q1', docId: 'd2', decision: 'approved', approvedTill: null, ...reviewBy(actors.procurement, items.now()) } },
      actors.procurement,
    );
    await project();

    const mine = await listAdditionalDocuments(db.pool, { companyCodes: ['1000'] });
    expect(mine.total).toBe(2);
    expect(mine.rows.map((r) => [r.id, r.companyName, r.companyCode, r.reviewStatus])).toEqual([
      ['d1', 'Queue One', '1000', 'pending'],
      ['d2', 'Queue One', '1000', 'approved'],
    ]);
    expect((await listAdditionalDocuments(db.pool, { companyCodes: ['1000'], reviewStatus: 'pending' })).rows.map((r) => r.id)).toEqual(['d1']);
    expect((await listAdditionalDocuments(db.pool, { companyCodes: 'all', baId: 'q2' })).rows.map((r) => r.id)).toEqual(['d3']);
    expect(
      (await listAdditionalDocuments(db.pool, { companyCodes: 'all', sort: { field: 'uploadedAt', order: 'DESC' } })).rows.map((r) => r.id),
    ).toEqual(['d3', 'd2', 'd1']);
    expect(await countPendingAdditionalDocuments(db.pool, ['1000'])).toBe(1);
    expect(await countPendingAdditionalDocuments(db.pool, 'all')).toBe(2);
    expect(await listDocuments(db.pool, 'q1', { kind: 'onboarding' })).toEqual([expect.objectContaining({ id: 'd4' })]);
  });
});
