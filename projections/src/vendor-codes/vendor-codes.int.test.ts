import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import { baStreamId, type OnboardingEvent } from '../../../domain/src/onboarding/events';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { seedVerifiedBa } from '../../../workflows/src/vendor-code/testing';
import { applyDirectly } from '../test-support';
import { vendorCodesProjection } from './vendor-codes.projection';
import { getVendorCode } from './vendor-codes.queries';

let db: TestDatabase;
let store: EventStore;
let applied = 0;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
});
afterAll(async () => {
  await db?.drop();
});

/** Applies every event not applied yet, one event per page (the hardest split), as the runner would. */
async function project(): Promise<void> {
  for (;;) {
    const page = await store.readAll(applied, 1);
    const last = page[page.length - 1];
    if (!last) return;
    await applyDirectly(db.pool, vendorCodesProjection, page);
    applied = last.globalPosition;
  }
}

/** Onboarding events on the BA's stream as the lifecycle records them (a BA Admin's request, staff decisions). */
async function record(baId: string, events: OnboardingEvent[]): Promise<void> {
  await store.appendToStream(
    baStreamId(baId),
    events.map((e) => ({
      eventId: randomUUID(),
      type: e.type,
      data: e.data,
      metadata: {
        actor: { userId: 'u-staff', role: 'MLL Procurement', name: 'Staff' },
        companyCode: '1000',
        correlationId: randomUUID(),
        causationId: null,
        workflowId: null,
        requestId: null,
        at: new Date().toISOString(),
      },
    })),
    { expectedVersion: 'any' },
  );
}

const raised = (baId: string, requestId: string, proposed: Record<string, unknown>): OnboardingEvent => ({
  type: 'ChangeRequestRaised',
  data: { baId, requestId, section: 'company', proposed, changes: {} },
});
const approved = (baId: string, requestId: string, final: boolean): OnboardingEvent => ({
  type: 'ChangeRequestApproved',
  data: { baId, requestId, approvedBy: 'u-staff', role: 'MLL Procurement', at: new Date().toISOString(), final },
});

describe('vendor_codes rows follow the company’s name and PAN', () => {
  it('take an approved company change request’s name and PAN, only once it is finally approved; a rejected one changes nothing', async () => {
    const ba = await seedVerifiedBa(store, { pan: 'AAACN1234F', name: 'Nilgiri Carriers' });
    const rowId = `${ba.baId}:${ba.companyCode}`;
    await project();
    expect(await getVendorCode(db.pool, rowId)).toMatchObject({ companyName: 'Nilgiri Carriers', panNumber: 'AAACN1234F' });

    await record(ba.baId, [raised(ba.baId, 'cr-rejected', { companyName: 'Wrong Name' })]);
    await record(ba.baId, [
      { type: 'ChangeRequestRejected', data: { baId: ba.baId, requestId: 'cr-rejected', remarks: 'No proof', rejectedBy: 'u-staff', role: 'MLL Procurement' } },
    ]);
    await record(ba.baId, [raised(ba.baId, 'cr-1', { companyName: 'Nilgiri Carriers LLP', panNumber: 'AAFFN1234F', addressLine1: '2 Hill Road' })]);
    await record(ba.baId, [approved(ba.baId, 'cr-1', false)]);
    await project();
    expect(await getVendorCode(db.pool, rowId)).toMatchObject({ companyName: 'Nilgiri Carriers', panNumber: 'AAACN1234F' });

    await record(ba.baId, [approved(ba.baId, 'cr-1', true)]);
    await project();
    expect(await getVendorCode(db.pool, rowId)).toMatchObject({ companyName: 'Nilgiri Carriers LLP', panNumber: 'AAFFN1234F' });
  });

  it('leave the name alone for a change request that names neither', async () => {
    const ba = await seedVerifiedBa(store, { pan: 'AAACT1234F', name: 'Tapti Movers' });
    await record(ba.baId, [raised(ba.baId, 'cr-address', { addressLine1: '9 River Road' }), approved(ba.baId, 'cr-address', true)]);
    await project();
    expect(await getVendorCode(db.pool, `${ba.baId}:${ba.companyCode}`)).toMatchObject({ companyName: 'Tapti Movers', panNumber: 'AAACT1234F' });
  });
});
