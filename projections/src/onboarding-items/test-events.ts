import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import { baStreamId, type OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { BankAccount, BaDocument, Concession, GstRegistration } from '../../../domain/src/onboarding/items';
import type { Actor } from '../../../domain/src/shared/events';
import { actors } from '../test-support';

/**
 * Appends item events straight to a BA's stream (test-only): the projections' tests pin how events become
 * rows, independent of how the decider arrives at them. `at` moves one minute per event.
 */
export function createItemEvents(store: EventStore, options: { start?: string } = {}) {
  let clock = new Date(options.start ?? '2026-03-02T09:00:00.000Z').getTime();
  async function append(baId: string, event: OnboardingEvent, actor: Actor = actors.ba(baId)): Promise<number> {
    clock += 60_000;
    const result = await store.appendToStream(
      baStreamId(baId),
      [
        {
          eventId: randomUUID(),
          type: event.type,
          data: event.data,
          metadata: {
            actor,
            companyCode: null,
            correlationId: randomUUID(),
            causationId: null,
            workflowId: null,
            requestId: null,
            at: new Date(clock).toISOString(),
          },
        },
      ],
      { expectedVersion: 'stream_exists' },
    );
    return result.lastGlobalPosition;
  }
  return { append, now: () => new Date(clock).toISOString() };
}

export const bankAccount = (overrides: Partial<BankAccount> = {}): BankAccount => ({
  accountNo: '123456789012',
  ifscCode: 'HDFC0001234',
  micrNo: null,
  accountName: 'Acme Logistics',
  bankName: 'HDFC Bank',
  bankBranch: 'Fort, Mumbai',
  ...overrides,
});

export const gstRow = (overrides: Partial<GstRegistration> = {}): GstRegistration => ({
  stateId: 27,
  gstType: '',
  gstNo: '27ABCDE1234F1Z5',
  addressLine1: '12 Dock Road',
  addressLine2: null,
  pinCode: '400001',
  cityId: 2701,
  bankAccountId: null,
  vendorCategory: null,
  ...overrides,
});

export const fileOf = (name: string) => ({ name, size: 2048, type: 'application/pdf', sha256: 'a'.repeat(64) });

export const baDocument = (overrides: Partial<BaDocument> = {}): BaDocument => ({
  kind: 'onboarding',
  documentTypeId: 1,
  documentTypeName: 'PAN Card',
  documentNumber: 'ABCDE1234F',
  validTill: null,
  stateId: null,
  file: fileOf('pan.pdf'),
  ...overrides,
});

export const concession = (overrides: Partial<Concession> = {}): Concession => ({
  exemptionNumber: 'LDC-001',
  exemptionRate: '1.00',
  exemptionFrom: '2026-04-01',
  exemptionTo: '2027-03-31',
  exemptionReasonId: 1,
  exemptionThreshold: '500000.00',
  withHoldingTaxType: 'TDS',
  withHoldingTaxCode: 'C1',
  sectionCode: '194C',
  file: fileOf('ldc.pdf'),
  isInternalUpload: false,
  ...overrides,
});

export const reviewBy = (actor: Actor, at: string, remarks: string | null = null) => ({
  remarks,
  reviewedBy: actor.userId,
  role: actor.role,
  at,
});

/**
 * A BA's every item, reviewed, deleted and replaced along the way: the sequence the projection and rebuild
 * tests share. Returns the ids it used.
 */
export async function fullItemHistory(items: ReturnType<typeof createItemEvents>, baId: string) {
  const a = items.append;
  await a(baId, { type: 'BankAccountSaved', data: { baId, accountId: `${baId}-acc1`, primary: true, account: bankAccount(), changes: {} } });
  await a(baId, {
    type: 'BankAccountSaved',
    data: { baId, accountId: `${baId}-acc2`, primary: false, account: bankAccount({ accountNo: '999988887777' }), changes: {} },
  });
  await a(baId, { type: 'BankAccountDeleted', data: { baId, accountId: `${baId}-acc2` } });
  await a(baId, { type: 'GstRegistrationSaved', data: { baId, gstId: `${baId}-gst1`, registration: gstRow(), changes: {} } });
  await a(baId, {
    type: 'GstRegistrationSaved',
    data: { baId, gstId: `${baId}-gst2`, registration: gstRow({ stateId: 29, gstNo: '29ABCDE1234F1Z5', cityId: 2901 }), changes: {} },
  });
  await a(baId, { type: 'GstRegistrationDeleted', data: { baId, gstId: `${baId}-gst2` } });
  const up = (docId: string, document: BaDocument, replaces: string | null = null) =>
    a(baId, { type: 'DocumentUploaded', data: { baId, docId, document, replaces, uploadedBy: actors.ba(baId).userId, role: 'BA Admin' } });
  await up(`${baId}-pan`, baDocument());
  await up(`${baId}-gstc`, baDocument({ documentTypeId: 5, documentTypeName: 'GST Certificate', stateId: 27, validTill: '2027-01-31' }));
  await up(`${baId}-gstc2`, baDocument({ documentTypeId: 5, documentTypeName: 'GST Certificate', stateId: 27, validTill: '2027-06-30' }), `${baId}-gstc`);
  await up(`${baId}-chq`, baDocument({ documentTypeId: 2, documentTypeName: 'Cancelled Cheque' }));
  await a(baId, { type: 'DocumentDeleted', data: { baId, docId: `${baId}-chq` } });
  await a(baId, { type: 'ConcessionSaved', data: { baId, concessionId: `${baId}-c1`, concession: concession(), changes: {} } });
  await a(baId, {
    type: 'VerticalMappingSaved',
    data: {
      baId,
      mapping: { verticalIds: [3, 1], subServiceIds: [1], vehicleTypeIds: [2], zoneIds: [1], pickupZoneIds: [1], deliveryZoneIds: [2] },
      changes: {},
    },
  });
  const at = items.now();
  await a(baId, { type: 'BankAccountReviewed', data: { baId, accountId: `${baId}-acc1`, decision: 'approved', ...reviewBy(actors.procurement, at) } }, actors.procurement);
  await a(
    baId,
    { type: 'DocumentReviewed', data: { baId, docId: `${baId}-pan`, decision: 'rejected', approvedTill: null, ...reviewBy(actors.procurement, at, 'Blurred scan') } },
    actors.procurement,
  );
  await a(
    baId,
    { type: 'DocumentReviewed', data: { baId, docId: `${baId}-gstc2`, decision: 'approved', approvedTill: '2027-06-30', ...reviewBy(actors.procurement, at) } },
    actors.procurement,
  );
  await a(baId, { type: 'ConcessionReviewed', data: { baId, concessionId: `${baId}-c1`, decision: 'approved', ...reviewBy(actors.procurement, at) } }, actors.procurement);
  await a(baId, { type: 'VerticalMappingReviewed', data: { baId, decision: 'rejected', ...reviewBy(actors.procurement, at, 'Add zones') } }, actors.procurement);
  await a(baId, { type: 'DocumentExpiryReminded', data: { baId, docId: `${baId}-gstc2`, documentTypeName: 'GST Certificate', validTill: '2027-06-30', daysBefore: 30 } }, actors.system);
  await a(baId, { type: 'DocumentExpired', data: { baId, docId: `${baId}-gstc2`, documentTypeName: 'GST Certificate', validTill: '2027-06-30' } }, actors.system);
  return { primaryAccount: `${baId}-acc1`, gst: `${baId}-gst1`, pan: `${baId}-pan`, gstCertificate: `${baId}-gstc2`, concession: `${baId}-c1` };
}
