import request from 'supertest';
import type { Actor } from '../../../domain/src/shared/events';
import { baStreamId } from '../../../domain/src/onboarding/events';
import { itemsOf } from '../../../domain/src/onboarding/state';
import { waitForProjections } from '../../../projections/src/runner';
import { getOnboardingState } from '../../../workflows/src/onboarding/client';
import { act, actors, approveEveryItem, fillEveryTab, validBankAccount, validDetails } from '../../../workflows/src/onboarding/scenarios';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../users/testing';

/**
 * Edit Profile of a verified BA over HTTP (api/src/onboarding/change-requests.ts), through the real onboarding
 * workflow and projections: a company change with one approval; a bank change that holds payments, needs two
 * different approvers (the second of stage 2) and releases them; a rejection; scoping and early validation.
 */
jest.setTimeout(240_000);

let h: ApiHarness;
let ba: TestBa;
const auth: Record<string, Record<string, string>> = {};

/** A BA taken through every tab, item review and both stages, as the lifecycle's own scenarios do. */
async function verifiedBa(key: string): Promise<TestBa> {
  const created = await addBa(h, key);
  const { baId } = created;
  const baActor: Actor = { userId: created.admin.id, role: 'BA Admin', name: created.admin.name };
  await act(h.temporal, baId, { kind: 'saveDetails', details: validDetails }, baActor);
  const tabs = await fillEveryTab(h.temporal, baId, baActor);
  await act(h.temporal, baId, { kind: 'submit' }, baActor);
  await approveEveryItem(h.temporal, baId, tabs);
  await act(h.temporal, baId, { kind: 'approve', stage: 1 }, actors.procurement);
  const last = await act(h.temporal, baId, { kind: 'approve', stage: 2 }, actors.commercial);
  expect(last.state.status).toBe('verified');
  await waitForProjections(h.db.pool, last.lastGlobalPosition, { timeoutMs: 15_000 });
  return created;
}

const typesOf = async (baId: string) => (await h.store.readStream(baStreamId(baId))).map((e) => e.type);
const path = (suffix = '') => `/api/business-associates/${ba.baId}/change-requests${suffix}`;
const post = (who: string, suffix: string, body: unknown, key?: string) => {
  const req = request(h.app).post(path(suffix)).set(auth[who] ?? {});
  return (key ? req.set('Idempotency-Key', key) : req).send(body as object);
};

beforeAll(async () => {
  h = await startApiHarness('api-change-requests');
  ba = await verifiedBa('cr');
  auth['admin'] = (await sessionOf(h, ba.admin)).auth;
  const user = await addUser(h, { email: 'user@cr.test', roles: ['BA User'], baId: ba.baId });
  auth['baUser'] = (await sessionOf(h, user)).auth;
  const staff = async (name: string, roles: ('MLL Procurement' | 'MLL Commercial' | 'MLL Operations')[], codes = ['1000']) =>
    (auth[name] = (await sessionOf(h, await addUser(h, { email: `${name}@cr.test`, roles, companyCodes: codes }))).auth);
  await staff('procurement', ['MLL Procurement']);
  await staff('commercial', ['MLL Commercial']);
  await staff('operations', ['MLL Operations']);
  await staff('procurement2000', ['MLL Procurement'], ['2000']);
});

afterAll(async () => {
  await h?.stop();
});

describe('change requests', () => {
  test('a company change: raised by the BA Admin with the changed fields flagged, one approval applies it', async () => {
    const raised = await post('admin', '', { section: 'company', proposed: { addressLine1: '15 MG Road' } }, 'cr-company-1');
    expect(raised.status).toBe(201);
    expect(raised.body).toMatchObject({
      baId: ba.baId,
      section: 'company',
      status: 'pending',
      changes: { addressLine1: { before: validDetails.addressLine1, after: '15 MG Road' } },
    });
    const requestId: string = raised.body.id;
    // The same request again (same Idempotency-Key) is the same change request, not a second one.
    const again = await post('admin', '', { section: 'company', proposed: { addressLine1: '15 MG Road' } }, 'cr-company-1');
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(requestId);

    const listed = await request(h.app).get(path()).set(auth['baUser'] ?? {});
    expect(listed.status).toBe(200);
    expect(listed.body.map((r: { id: string }) => r.id)).toEqual([requestId]);
    expect(listed.headers['content-range']).toBe('change-requests 0-0/1');
    expect((await request(h.app).get(path()).set(auth['procurement2000'] ?? {})).status).toBe(404);

    const approved = await post('procurement', `/${requestId}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: requestId, status: 'approved', message: 'Change request approved successfully' });
    const state = await getOnboardingState(h.temporal, ba.baId);
    expect(state?.details?.addressLine1).toBe('15 MG Road');
    // Decided requests are decided: a second approval is refused.
    expect((await post('commercial', `/${requestId}/approve`, {})).status).toBe(409);
  });

  test('a bank change holds payments, needs a second, different approver of stage 2, then releases them', async () => {
    const proposed = { ...validBankAccount, accountNo: '998877665544', ifscCode: 'icic0001234', bankName: 'ICICI Bank' };
    const raised = await post('admin', '', { section: 'bank', proposed });
    expect(raised.status).toBe(201);
    expect(raised.body).toMatchObject({ section: 'bank', status: 'pending', proposed: { ifscCode: 'ICIC0001234' } });
    const requestId: string = raised.body.id;
    expect((await typesOf(ba.baId)).slice(-2)).toEqual(['ChangeRequestRaised', 'PaymentsHeld']);
    // One open request per section.
    expect((await post('admin', '', { section: 'bank', proposed: { ...proposed, accountNo: '112233445566' } })).status).toBe(409);

    const first = await post('procurement', `/${requestId}/approve`, {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'first-approved', message: 'Change request approved successfully' });
    expect(itemsOf((await getOnboardingState(h.temporal, ba.baId))!).paymentsHeldFor).toBe(requestId);

    const twice = await post('procurement', `/${requestId}/approve`, {});
    expect(twice.status).toBe(422);
    expect(twice.body.message).toBe('A bank account change needs a second approver: you approved it already');

    const second = await post('commercial', `/${requestId}/approve`, {});
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'approved', message: 'Change request approved successfully' });
    expect((await typesOf(ba.baId)).slice(-2)).toEqual(['ChangeRequestApproved', 'PaymentsReleased']);
    const state = (await getOnboardingState(h.temporal, ba.baId))!;
    expect(itemsOf(state).paymentsHeldFor).toBeNull();
    const primary = Object.values(itemsOf(state).bankAccounts).find((a) => a.primary);
    expect(primary?.account.accountNo).toBe('998877665544');
  });

  test('a rejection needs remarks, tells why and releases nothing it did not hold', async () => {
    const raised = await post('admin', '', { section: 'company', proposed: { contactPersonName: 'Meera Iyer' } });
    expect(raised.status).toBe(201);
    const requestId: string = raised.body.id;
    const bare = await post('procurement', `/${requestId}/reject`, {});
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toMatchObject({ remarks: 'Remarks are required to reject' });
    const rejected = await post('procurement', `/${requestId}/reject`, { remarks: 'Name does not match the PAN' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', remarks: 'Name does not match the PAN', message: 'Change request rejected successfully' });
    expect((await typesOf(ba.baId)).at(-1)).toBe('ChangeRequestRejected');
  });

  test('who may do what, and bad proposals refused before any workflow round trip', async () => {
    const company = { section: 'company', proposed: { addressLine1: '16 MG Road' } };
    expect((await post('baUser', '', company)).status).toBe(403);
    expect((await post('procurement', '', company)).status).toBe(403);
    const before = (await typesOf(ba.baId)).length;
    const badBank = await post('admin', '', { section: 'bank', proposed: { ...validBankAccount, ifscCode: 'HDFC1' } });
    expect(badBank.status).toBe(400);
    expect(Object.keys(badBank.body.errors)).toContain('ifscCode');
    const badPin = await post('admin', '', { section: 'company', proposed: { pinCode: '110001' } });
    expect(badPin.status).toBe(400);
    expect(Object.keys(badPin.body.errors)).toContain('pinCode');
    expect((await post('admin', '', { section: 'address', proposed: {} })).status).toBe(400);
    expect((await typesOf(ba.baId)).length).toBe(before);
    // Operations does not review; unknown requests are not found.
    expect((await post('operations', '/00000000-0000-0000-0000-000000000000/approve', {})).status).toBe(403);
    expect((await post('procurement', '/00000000-0000-0000-0000-000000000000/approve', {})).status).toBe(404);
  });
});
