import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import { baStreamId, type OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { NewEvent } from '../../../domain/src/shared/events';

/**
 * Tests only: a BA verified for `companyCode`, written straight onto its stream (created, company details, a
 * primary bank account, one GST row per state, verified) — what the vendor-code lifecycle reads of onboarding,
 * without running the onboarding lifecycle. The GSTIN is the state's GST code + PAN + "1Z5".
 */
export async function seedVerifiedBa(
  store: EventStore,
  options: { baId?: string; companyCode?: string; pan: string; name?: string; gstStateIds?: number[]; verified?: boolean },
): Promise<{ baId: string; companyCode: string; gstIds: Record<number, string> }> {
  const baId = options.baId ?? randomUUID();
  const companyCode = options.companyCode ?? '1000';
  const name = options.name ?? `Vendor ${options.pan}`;
  const gstIds: Record<number, string> = {};
  const events: OnboardingEvent[] = [
    { type: 'BusinessAssociateCreated', data: { baId, companyCode, adminUserId: null, mobileNo: '9876543210', email: null } },
    {
      type: 'CompanyDetailsSaved',
      data: {
        baId,
        changes: {},
        details: {
          companyName: name,
          panNumber: options.pan,
          contactPersonName: 'Ravi Kumar',
          cinNumber: null,
          serviceId: 1,
          stateId: 27,
          cityId: 2701,
          addressLine1: '1 MG Road',
          addressLine2: null,
          pinCode: '400001',
          companyLandline: null,
          contactPersonMobileNumber: '9876543210',
          ownFleet: null,
          attachedFleet: null,
        },
      },
    },
    {
      type: 'BankAccountSaved',
      data: {
        baId,
        accountId: `${baId}-bank`,
        primary: true,
        changes: {},
        account: { accountNo: '123456789012', ifscCode: 'HDFC0000001', micrNo: null, accountName: name, bankName: 'HDFC Bank', bankBranch: 'Fort' },
      },
    },
    ...(options.gstStateIds ?? [27]).map((stateId): OnboardingEvent => {
      const gstId = `${baId}-gst-${stateId}`;
      gstIds[stateId] = gstId;
      return {
        type: 'GstRegistrationSaved',
        data: {
          baId,
          gstId,
          changes: {},
          registration: {
            stateId,
            gstType: '',
            gstNo: `${String(stateId).padStart(2, '0')}${options.pan}1Z5`,
            addressLine1: '1 MG Road',
            addressLine2: null,
            pinCode: '400001',
            cityId: 2701,
            bankAccountId: null,
            vendorCategory: null,
          },
        },
      };
    }),
    ...(options.verified === false ? [] : [{ type: 'BusinessAssociateVerified', data: { baId, submission: 1, welcomeMessage: 'Welcome' } } as OnboardingEvent]),
  ];
  const at = new Date().toISOString();
  const toAppend: NewEvent[] = events.map((e) => ({
    eventId: randomUUID(),
    type: e.type,
    data: e.data,
    metadata: {
      actor: { userId: 'test-seed', role: 'system', name: 'Test seed' },
      companyCode,
      correlationId: `seed:${baId}`,
      causationId: null,
      workflowId: null,
      requestId: null,
      at,
    },
  }));
  await store.appendToStream(baStreamId(baId), toAppend, { expectedVersion: 'no_stream' });
  return { baId, companyCode, gstIds };
}
