import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
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

/** Creates the BA and brings it to review stage 1: save details, submit. */
export async function startAndSubmit(
  client: Client,
  taskQueue: string,
  input: OnboardingInput,
): Promise<void> {
  await startOnboarding(client, taskQueue, input);
  await act(client, input.baId, { kind: 'saveDetails', details: validDetails }, actors.ba(input.baId));
  await act(client, input.baId, { kind: 'submit' }, actors.ba(input.baId));
}

/** create → save → submit → stage 1 approved (Procurement) → stage 2 approved (Commercial) → verified. */
export async function happyPath(
  client: Client,
  taskQueue: string,
  input: OnboardingInput,
): Promise<OnboardingUpdateResult[]> {
  const { baId } = input;
  await startOnboarding(client, taskQueue, input);
  return [
    await act(client, baId, { kind: 'saveDetails', details: validDetails }, actors.ba(baId)),
    await act(client, baId, { kind: 'submit' }, actors.ba(baId)),
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
  return [
    await act(client, baId, { kind: 'saveDetails', details: validDetails }, actors.ba(baId)),
    await act(client, baId, { kind: 'submit' }, actors.ba(baId)),
    await act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement),
    await act(client, baId, { kind: 'reject', stage: 2, remarks: REJECTION_REMARKS }, actors.commercial),
    await act(client, baId, { kind: 'saveDetails', details: corrected }, actors.ba(baId)),
    await act(client, baId, { kind: 'submit' }, actors.ba(baId)),
    await act(client, baId, { kind: 'approve', stage: 1 }, actors.procurement),
    await act(client, baId, { kind: 'approve', stage: 2, remarks: 'Welcome' }, actors.commercial),
  ];
}
