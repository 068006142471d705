import { createHash } from 'node:crypto';
import request from 'supertest';
import { DOCUMENT_TYPES } from '../../../domain/src/masters/reference-data/document-types';
import { baStreamId, evolve, initialState, itemsOf, type OnboardingEvent, type OnboardingState } from '../../../domain/src/onboarding';
import type { ApiHarness } from './harness';

/**
 * Test-only: an onboarding completed the way the portal and the console do it (issue 8), over HTTP. A BA may
 * submit only with every tab filled, and stage 1 may be approved only once a reviewer approved every item;
 * tests about what comes after (submission, stages, audit, notifications) go through these.
 */
type Auth = Record<string, string>;

/** A small but real PDF: the uploads check the bytes, not the name. */
export const TEST_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/** The BA as its event stream says (the tests' own view; the API is what they exercise). */
export async function onboardingStateOf(h: ApiHarness, baId: string): Promise<OnboardingState> {
  const events = await h.store.readStream(baStreamId(baId));
  return events.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as OnboardingEvent), initialState);
}

const dayFromNow = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** An account number of the BA's own, so BAs of one test do not look like duplicates of each other. */
const accountNoOf = (baId: string): string =>
  `6010${BigInt(`0x${createHash('sha256').update(baId).digest('hex').slice(0, 15)}`).toString().slice(-8).padStart(8, '0')}`;

const expectStatus = (res: request.Response, status: number, what: string): request.Response => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};

/**
 * Fills every tab of a BA whose company details are saved (service, state, city, PAN): the primary bank
 * account, the GST row of the company's state, every document its service makes mandatory (real PDF bytes,
 * multipart; validity dates where the type needs one) and a vertical mapping. `auth`: the BA's user.
 */
export async function completeOnboardingViaApi(h: ApiHarness, baId: string, auth: Auth): Promise<void> {
  const { details } = await onboardingStateOf(h, baId);
  if (!details?.serviceId || !details.stateId || !details.cityId || !details.panNumber)
    throw new Error(`completeOnboardingViaApi: BA ${baId} has no complete company details yet`);
  const base = `/api/business-associates/${baId}`;
  const bank = await request(h.app)
    .post(`${base}/bank-accounts`)
    .set(auth)
    .send({ accountNo: accountNoOf(baId), ifscCode: 'HDFC0001234', micrNo: '', accountName: details.companyName, bankName: 'HDFC Bank', bankBranch: 'Fort, Mumbai' });
  expectStatus(bank, 201, 'bank account');
  const gst = await request(h.app)
    .post(`${base}/gst-registrations`)
    .set(auth)
    .send({
      stateId: details.stateId,
      gstType: '',
      gstNo: `${String(details.stateId).padStart(2, '0')}${details.panNumber}1Z5`,
      addressLine1: details.addressLine1 ?? 'No. 1, Main Road',
      pinCode: details.pinCode,
      cityId: details.cityId,
    });
  expectStatus(gst, 201, 'GST registration');
  for (const type of DOCUMENT_TYPES.filter((t) => t.mandatoryServiceIds.includes(details.serviceId as number))) {
    let upload = request(h.app).post(`${base}/documents`).set(auth).field('documentTypeId', String(type.id));
    if (type.needsValidityDate) upload = upload.field('validTill', dayFromNow(365));
    if (type.isGstDocument) upload = upload.field('stateId', String(details.stateId));
    expectStatus(await upload.attach('file', TEST_PDF, `document-${type.id}.pdf`), 201, `document ${type.name}`);
  }
  const mapping = await request(h.app)
    .post(`${base}/vertical-mapping`)
    .set(auth)
    .send({ verticalIds: [1], subServiceIds: [1], vehicleTypeIds: [1], zoneIds: [], pickupZoneIds: [], deliveryZoneIds: [] });
  expectStatus(mapping, 200, 'vertical mapping');
}

/** A reviewer approves every item still pending: bank accounts, documents (until their validity date), concessions, the mapping. */
export async function approveAllItemsViaApi(h: ApiHarness, baId: string, reviewer: Auth): Promise<void> {
  const items = itemsOf(await onboardingStateOf(h, baId));
  const base = `/api/business-associates/${baId}`;
  const approve = async (path: string, body: object = {}) => expectStatus(await request(h.app).post(`${base}${path}`).set(reviewer).send(body), 200, path);
  for (const [accountId, { review }] of Object.entries(items.bankAccounts))
    if (review.status === 'pending') await approve(`/bank-accounts/${accountId}/approve`);
  for (const [docId, { document, review }] of Object.entries(items.documents))
    if (review.status === 'pending') await approve(`/documents/${docId}/approve`, { approvedTill: document.validTill });
  for (const [concessionId, { review }] of Object.entries(items.concessions))
    if (review.status === 'pending') await approve(`/concessions/${concessionId}/approve`);
  if (items.verticalMapping?.review.status === 'pending') await approve('/vertical-mapping/approve');
}
