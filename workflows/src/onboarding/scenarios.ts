import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import type { Actor } from '../../../domain/src/shared/events';
import { sendOnboardingAction, startOnboarding, type OnboardingAction } from './client';
import type { OnboardingInput, OnboardingUpdateResult } from './messages';

/**
 * The lifecycle journeys the integration tests drive and the golden histories are recorded from, kept in
 * one place so the recorded histories are exactly what the tests prove.
 */

export const actors = {
  ba: (baId: string): Actor => ({ userId: `ba-admin-${baId}`, role: 'BA Admin', name: 'BA Admin' }),
  procurement: { userId: 'staff-procurement', role: 'MLL Procurement', name: 'Priya P' } satisfies Actor,
  commercial: { userId: 'staff-commercial', role: 'MLL Commercial', name: 'Chetan C' } satisfies Actor,
  admin: { userId: 'staff-admin', role: 'MLL-ADMIN', name: 'Asha Admin' } satisfies Actor,
  seed: { userId: 'seed', role: 'system', name: 'Seed' } satisfies Actor,
};

/** Company details that pass every field rule and are complete enough to submit. */
export const validDetails = {
  companyName: 'Acme Logistics Pvt Ltd',
  panNumber: 'ABCDE1234F',
  contactPersonName: 'Ravi Kumar',
  cinNumber: '',
  serviceId: 1,
  stateId: 27,
  cityId: 2701,
  addressLine1: '12 MG Road',
  addressLine2: '',
  pinCode: '400001',
  companyLandline: '',
  contactPersonMobileNumber: '9876543210',
  ownFleet: '4',
  attachedFleet: '',
};

export function onboardingInput(overrides: Partial<OnboardingInput> = {}): OnboardingInput {
  const baId = overrides.baId ?? randomUUID();
  return {
    baId,
    companyCode: '1000',
    adminUserId: `ba-admin-${baId}`,
    mobileNo: '9876543210',
    email: 'admin@acme.test',
    actor: actors.seed,
    correlationId: randomUUID(),
    requestId: randomUUID(),
    ...overrides,
  };
}

/** Sends one action with a fresh request id (a new HTTP request). */
export const act = (
  client: Client,
  baId: string,
  action: OnboardingAction,
  actor: Actor,
  requestId: string = randomUUID(),
): Promise<OnboardingUpdateResult> => sendOnboardingAction(client, baId, action, { actor, requestId });

/**
 * Creates the BA and brings it to review stage 1: save details, fill every tab, submit; with `approveItems`
 * every item is approved too, so stage 1 may be decided.
 */
export async function startAndSubmit(
  client: Client,
  taskQueue: string,
  input: OnboardingInput,
  options: { approveItems?: boolean } = { approveItems: true },
): Promise<FilledTabs> {
  await startOnboarding(client, taskQueue, input);
  await act(client, input.baId, { kind: 'saveDetails', details: validDetails }, actors.ba(input.baId));
  const tabs = await fillEveryTab(client, input.baId);
  await act(client, input.baId, { kind: 'submit' }, actors.ba(input.baId));
  if (options.approveItems) await approveEveryItem(client, input.baId, tabs);
  return tabs;
}

/**
 * create → save (and every tab) → submit → items approved → stage 1 approved (Procurement) → stage 2 approved
 * (Commercial) → verified. Answers the four lifecycle steps.
 */
export async function happyPath(
  client: Client,
  taskQueue: string,
  input: OnboardingInput,
): Promise<OnboardingUpdateResult[]> {
  const { baId } = input;
  await startOnboarding(client, taskQueue, input);
  const saved = await act(client, baId, { kind: 'saveDetails', details: validDetails }, actors.ba(baId));
  const tabs = await fillEveryTab(client, baId);
  const submitted = await act(client, baId, { kind: 'submit' }, actors.ba(baId));
  await approveEveryItem(client, baId, tabs);
  return [
    saved,
    submitted,
    await act(client, baId, { kind: 'approve', stage: 1, remarks: 'Documents verified' }, actors.procurement),
    await act(client, baId, { kind: 'approve', stage: 2 }, actors.commercial),
  ];
}

export const REJECTION_REMARKS = 'Address proof does not match the PAN holder';

/** As the happy path, but stage 2 rejects with remarks; the BA corrects the address and resubmits. */
export async function rejectResubmit(
  client: Client,
  taskQueue: string,
  input: OnboardingInput,
): Promise<OnboardingUpdateResult[]> {
  const { baId } = input;
  const corrected = { ...validDetails, addressLine1: '14 MG Road' };
  await startOnboarding(client, taskQueue, input);
  const saved = await act(client, baId, { kind: 'saveDetails', details: validDetails }, actors.ba(baId));
  const tabs = await fillEveryTab(client, baId);
  const submitted = await act(client, baId, { kind: 'submit' }, actors.ba(baId));
  await approveEveryItem(client, baId, tabs);
  return [
    saved,
    submitted,
    await act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement),
    await act(client, baId, { kind: 'reject', stage: 2, remarks: REJECTION_REMARKS }, actors.commercial),
    await act(client, baId, { kind: 'saveDetails', details: corrected }, actors.ba(baId)),
    await act(client, baId, { kind: 'submit' }, actors.ba(baId)),
    await act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement),
    await act(client, baId, { kind: 'approve', stage: 2, remarks: 'Welcome' }, actors.commercial),
  ];
}

/*
 * Issue 8: a submission needs every tab (bank, GST, documents, vertical mapping) and stage 1 needs every item
 * approved. These fill and approve them for `validDetails` (Transportation in Mumbai, PAN ABCDE1234F).
 */

/** A file as the API would have stored it (the decider checks its shape, not the blob). */
export const storedFile = (name = 'document.pdf') => ({
  name,
  size: 1234,
  type: 'application/pdf',
  sha256: 'a'.repeat(64),
});

/** The documents `validDetails` (service 1, Transportation) must upload: document-types.ts ids, and the validity each needs. */
export const MANDATORY_DOCUMENTS: readonly { documentTypeId: number; validity: boolean; gst?: boolean }[] = [
  { documentTypeId: 1, validity: false },
  { documentTypeId: 2, validity: false, gst: true },
  { documentTypeId: 3, validity: false },
  { documentTypeId: 6, validity: true },
  { documentTypeId: 7, validity: true },
  { documentTypeId: 8, validity: true },
];

/** A day a year ahead (YYYY-MM-DD): a validity date every rule accepts. */
export const nextYear = (): string => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

export const validBankAccount = {
  accountNo: '123456789012',
  ifscCode: 'HDFC0001234',
  micrNo: '',
  accountName: 'Acme Logistics Pvt Ltd',
  bankName: 'HDFC Bank',
  bankBranch: 'Fort, Mumbai',
};

export const validGstRegistration = {
  stateId: 27,
  gstType: '',
  gstNo: '27ABCDE1234F1Z5',
  addressLine1: '12 MG Road',
  addressLine2: '',
  pinCode: '400001',
  cityId: 2701,
  bankAccountId: null,
  vendorCategory: '',
};

export const validVerticalMapping = {
  verticalIds: [1],
  subServiceIds: [1],
  vehicleTypeIds: [1],
  zoneIds: [],
  pickupZoneIds: [],
  deliveryZoneIds: [],
};

/** Item ids of one BA's filled tabs, so reviews can name them. */
export type FilledTabs = { accountId: string; gstId: string; docIds: string[] };

const command = (c: OnboardingCommand): OnboardingAction => ({ kind: 'command', command: c });


/** Saves the primary bank account, the GST row of the company's state, every mandatory document and the mapping. */
export async function fillEveryTab(
  client: Client,
  baId: string,
  actor: Actor = actors.ba(baId),
  options: { gst?: Partial<typeof validGstRegistration>; mapping?: Partial<typeof validVerticalMapping> } = {},
): Promise<FilledTabs> {
  const accountId = randomUUID();
  const gstId = randomUUID();
  await act(client, baId, command({ type: 'SaveBankAccount', accountId, primary: true, account: validBankAccount }), actor);
  await act(client, baId, command({ type: 'SaveGstRegistration', gstId, registration: { ...validGstRegistration, ...options.gst } }), actor);
  const docIds: string[] = [];
  for (const doc of MANDATORY_DOCUMENTS) {
    const docId = randomUUID();
    const document = {
      documentTypeId: doc.documentTypeId,
      kind: 'onboarding',
      documentNumber: null,
      validTill: doc.validity ? nextYear() : null,
      stateId: doc.gst ? 27 : null,
      file: storedFile(`document-${doc.documentTypeId}.pdf`),
    };
    await act(client, baId, command({ type: 'UploadDocument', docId, document }), actor);
    docIds.push(docId);
  }
  await act(client, baId, command({ type: 'SaveVerticalMapping', mapping: { ...validVerticalMapping, ...options.mapping } }), actor);
  return { accountId, gstId, docIds };
}

/** A reviewer approves every item of the filled tabs (documents with a validity date until next year). */
export async function approveEveryItem(client: Client, baId: string, tabs: FilledTabs, reviewer: Actor = actors.procurement): Promise<void> {
  await act(client, baId, command({ type: 'ReviewBankAccount', accountId: tabs.accountId, decision: 'approved' }), reviewer);
  for (const [i, docId] of tabs.docIds.entries()) {
    const approvedTill = MANDATORY_DOCUMENTS[i]?.validity ? nextYear() : null;
    await act(client, baId, command({ type: 'ReviewDocument', docId, decision: 'approved', approvedTill }), reviewer);
  }
  await act(client, baId, command({ type: 'ReviewVerticalMapping', decision: 'approved' }), reviewer);
}

/** A new primary account the verified BA asks to change to (Edit Profile): another number, another branch. */
export const changedBankAccount = { ...validBankAccount, accountNo: '987654321098', bankBranch: 'Bandra Kurla Complex, Mumbai' };

/**
 * The happy path continued past verification (issue 8), as the demo seed's verified BAs show it
 * (scripts/seed-onboarding.ts `nextVerifiedStep`): the BA Admin raises a bank change request, approved first by
 * Procurement and then by a second person with a stage-2 role (Commercial); the BA uploads an additional
 * document (ISO 9001, additional-documents master id 2, with a validity date) that Procurement approves, which
 * starts its expiry timer as a child. Answers the happy path's four steps and the five after verification.
 */
export async function verifiedChanges(
  client: Client,
  taskQueue: string,
  input: OnboardingInput,
): Promise<OnboardingUpdateResult[]> {
  const { baId } = input;
  const verified = await happyPath(client, taskQueue, input);
  const requestId = randomUUID();
  const docId = randomUUID();
  const additional = {
    documentTypeId: 2,
    kind: 'additional',
    documentNumber: 'QMS/IN/2025/11873',
    validTill: nextYear(),
    stateId: null,
    file: storedFile('iso-9001-certificate.pdf'),
  };
  return [
    ...verified,
    await act(client, baId, command({ type: 'RaiseChangeRequest', requestId, section: 'bank', proposed: changedBankAccount }), actors.ba(baId)),
    await act(client, baId, command({ type: 'ApproveChangeRequest', requestId }), actors.procurement),
    await act(client, baId, command({ type: 'ApproveChangeRequest', requestId }), actors.commercial),
    await act(client, baId, command({ type: 'UploadDocument', docId, document: additional }), actors.ba(baId)),
    await act(client, baId, command({ type: 'ReviewDocument', docId, decision: 'approved', approvedTill: nextYear() }), actors.procurement),
  ];
}
