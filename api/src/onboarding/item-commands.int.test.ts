import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { baStreamId } from '../../../domain/src/onboarding';
import { submissionRefusals } from '../../../domain/src/onboarding/submission';
import {
  MANDATORY_DOCUMENTS,
  nextYear,
  validBankAccount,
  validGstRegistration,
  validVerticalMapping,
} from '../../../workflows/src/onboarding/scenarios';
import { IDEMPOTENCY_KEY_REUSED } from '../http/idempotency';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, details, sessionOf, type TestBa } from '../users/testing';
import { itemMessages } from './item-commands';
import { DUPLICATE_PAN } from './pan-claims';

/**
 * Issue 8's item commands over HTTP, on the whole back end: each goes through the BA's onboarding workflow
 * (`command` update), waits for the projections and answers the read-model row. Its own BAs, in company code
 * 2000 (the seeded 1000 ones are other tests' to read).
 */
jest.setTimeout(300_000);

type Auth = { Authorization: string };
let h: ApiHarness;
let ba: TestBa;
let baAuth: Auth;
let otherBaAuth: Auth;
let reviewerAuth: Auth;
let stage2Auth: Auth;
let foreignStaffAuth: Auth;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const PAN = 'AAHCT4821K';

beforeAll(async () => {
  h = await startApiHarness('item-commands');
  ba = await addBa(h, 'items', { companyCode: '2000' });
  baAuth = (await sessionOf(h, ba.admin)).auth;
  const other = await addBa(h, 'other', { companyCode: '2000' });
  otherBaAuth = (await sessionOf(h, other.admin)).auth;
  const staff = async (role: 'MLL Procurement' | 'MLL Commercial', codes: string[]) =>
    (await sessionOf(h, await addUser(h, { email: `${role.replace(/\W/g, '')}-${randomUUID().slice(0, 8)}@items.test`, roles: [role], companyCodes: codes }))).auth;
  reviewerAuth = await staff('MLL Procurement', ['2000']);
  stage2Auth = await staff('MLL Commercial', ['2000']);
  foreignStaffAuth = await staff('MLL Procurement', ['1000']);
});

afterAll(async () => {
  await h?.stop();
});

const url = (path: string, baId = ba.baId) => `/api/business-associates/${baId}${path}`;
const post = (path: string, auth: Auth, body: object = {}, key?: string) => {
  const r = request(h.app).post(url(path)).set(auth);
  return (key ? r.set('Idempotency-Key', key) : r).send(body);
};
const eventsOf = async (type: string, baId = ba.baId) =>
  (await h.store.readStream(baStreamId(baId))).filter((e) => e.type === type);
const upload = (path: string, auth: Auth, fields: Record<string, string | number>, file: { bytes: Buffer; name: string } | null = { bytes: PDF, name: 'doc.pdf' }) => {
  let r = request(h.app).post(url(path)).set(auth);
  for (const [k, v] of Object.entries(fields)) r = r.field(k, String(v));
  return file ? r.attach('file', file.bytes, file.name) : r;
};

describe('onboarding items over HTTP', () => {
  let accountId: string;

  it('bank accounts: the first is primary; bad input 400, staff 403, another BA 404; a retried request is one account', async () => {
    const details = await post('/details', baAuth, { ...detailsFor() });
    expect(details.status).toBe(200);

    expect((await post('/bank-accounts', baAuth, { ...validBankAccount, accountNo: '12' })).status).toBe(400);
    expect((await post('/bank-accounts', reviewerAuth, validBankAccount)).status).toBe(403);
    expect((await post('/bank-accounts', otherBaAuth, validBankAccount)).status).toBe(404);

    const key = randomUUID();
    const first = await post('/bank-accounts', baAuth, { ...validBankAccount, ifscCode: 'hdfc0001234' }, key);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ primary: true, ifscCode: 'HDFC0001234', reviewStatus: 'pending', message: itemMessages.bankAccountSaved });
    accountId = first.body.id;
    const again = await post('/bank-accounts', baAuth, { ...validBankAccount, ifscCode: 'hdfc0001234' }, key);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(accountId);
    expect(await eventsOf('BankAccountSaved')).toHaveLength(1);
    const reused = await post('/bank-accounts', baAuth, { ...validBankAccount, accountNo: '999999999' }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.message).toBe(IDEMPOTENCY_KEY_REUSED);

    // The primary account cannot be deleted (422); an unknown one is 404.
    expect((await request(h.app).delete(url(`/bank-accounts/${accountId}`)).set(baAuth)).status).toBe(422);
    expect((await request(h.app).delete(url(`/bank-accounts/${randomUUID()}`)).set(baAuth)).status).toBe(404);
    // Reviews are for reviewers, and only while the application is in review.
    expect((await post(`/bank-accounts/${accountId}/approve`, baAuth)).status).toBe(403);
    expect((await post(`/bank-accounts/${accountId}/approve`, reviewerAuth)).status).toBe(422);
  });

  it('GST rows: one per state (409), GSTIN must fit the state (400)', async () => {
    const wrongState = await post('/gst-registrations', baAuth, { ...validGstRegistration, gstNo: `29${PAN}1Z5` });
    expect(wrongState.status).toBe(400);
    expect(wrongState.body.errors.gstNo).toBe('GSTIN does not match the selected state');
    const created = await post('/gst-registrations', baAuth, { ...validGstRegistration, gstNo: `27${PAN}1Z5` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ stateId: 27, cityId: 2701, gstNo: `27${PAN}1Z5`, message: itemMessages.gstSaved });
    const second = await post('/gst-registrations', baAuth, { ...validGstRegistration, gstNo: `27${PAN}1Z5` });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('A place of business for this state already exists');
  });

  it('documents: upload → event → projection → download; file type 415; a missing validity date 400', async () => {
    const wrongType = await upload('/documents', baAuth, { documentTypeId: 1 }, { bytes: Buffer.from('hello'), name: 'notes.txt' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.message).toBe('Invalid file type selected. Please select image/pdf/doc/docx file only.');
    const noDate = await upload('/documents', baAuth, { documentTypeId: 6 });
    expect(noDate.status).toBe(400);
    expect(noDate.body.errors.validTill).toBe('Please enter the validity date');

    const uploaded = await upload('/documents', baAuth, { documentTypeId: 1, documentNumber: PAN }, { bytes: PDF, name: 'pan card.pdf' });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ documentTypeName: 'PAN Card', fileName: 'pan card.pdf', reviewStatus: 'pending', message: itemMessages.documentUploaded });
    const [event] = await eventsOf('DocumentUploaded');
    expect(event?.data).toMatchObject({ docId: uploaded.body.id, document: { file: { name: 'pan card.pdf', size: PDF.length } } });
    const file = await request(h.app).get(url(`/documents/${uploaded.body.id}/file`)).set(reviewerAuth).buffer(true);
    expect(file.status).toBe(200);
    expect(Buffer.from(file.body as Buffer).equals(PDF)).toBe(true);
    // Another company code's staff do not see the BA.
    expect((await post(`/documents/${uploaded.body.id}/approve`, foreignStaffAuth)).status).toBe(404);
  });

  it('submit names what each tab lacks (422); after every tab and every review the BA is verified, and the lifecycle goes on', async () => {
    const refused = await post('/submit', baAuth);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(submissionRefusals.incompleteTabs);
    expect(refused.body.errors.documents).toMatch(/^Missing: GST Registration Certificate \(Maharashtra\), Cancelled Cheque/);
    expect(refused.body.errors.verticalMapping).toBeDefined();

    const docIds: string[] = [];
    for (const doc of MANDATORY_DOCUMENTS.filter((d) => d.documentTypeId !== 1)) {
      const fields: Record<string, string | number> = { documentTypeId: doc.documentTypeId };
      if (doc.validity) fields['validTill'] = nextYear();
      if (doc.gst) fields['stateId'] = 27;
      const res = await upload('/documents', baAuth, fields);
      expect(res.status).toBe(201);
      docIds.push(res.body.id);
    }
    const mapping = await post('/vertical-mapping', baAuth, validVerticalMapping);
    expect(mapping.status).toBe(200);
    expect(mapping.body).toMatchObject({ verticalIds: [1], reviewStatus: 'pending', message: itemMessages.verticalMappingSaved });
    expect((await post('/submit', baAuth)).status).toBe(200);

    // Stage 1 waits for the items.
    const early = await post('/approve', reviewerAuth, { stage: 1 });
    expect(early.status).toBe(422);
    const docs = (await request(h.app).get(url('/documents')).set(reviewerAuth)).body as { id: string; validTill: string | null }[];
    expect(docs).toHaveLength(6);
    const rejectNoRemarks = await post(`/documents/${docs[0]?.id}/reject`, reviewerAuth, {});
    expect(rejectNoRemarks.status).toBe(400);
    for (const doc of docs) {
      const res = await post(`/documents/${doc.id}/approve`, reviewerAuth, doc.validTill ? { approvedTill: nextYear() } : {});
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ reviewStatus: 'approved', message: itemMessages.documentApproved });
    }
    expect((await post(`/bank-accounts/${accountId}/approve`, reviewerAuth)).body.message).toBe(itemMessages.bankAccountApproved);
    expect((await post('/vertical-mapping/approve', reviewerAuth)).status).toBe(200);
    expect((await post('/approve', reviewerAuth, { stage: 1 })).status).toBe(200);
    const verified = await post('/approve', stage2Auth, { stage: 2 });
    expect(verified.status).toBe(200);
    expect(verified.body.status).toBe('verified');

    // Verified: the lifecycle still takes commands (an additional document, its review).
    const additional = await upload('/documents', baAuth, { documentTypeId: 4, kind: 'additional' });
    expect(additional.status).toBe(201);
    expect(additional.body).toMatchObject({ kind: 'additional', reviewStatus: 'pending' });
    const rejected = await post(`/documents/${additional.body.id}/reject`, reviewerAuth, { remarks: 'Unreadable scan' });
    expect(rejected.body).toMatchObject({ reviewStatus: 'rejected', reviewRemarks: 'Unreadable scan', message: itemMessages.documentRejected });
  });

  it('concessions: staff upload on the BA\'s behalf is an internal upload; the file is required', async () => {
    const fields = {
      exemptionNumber: 'LDC-2026-001',
      exemptionRate: '2',
      exemptionFrom: nextYear(),
      exemptionTo: nextYear(),
      exemptionReasonId: 1,
      exemptionThreshold: '500000',
      withHoldingTaxType: 'TDS',
      withHoldingTaxCode: 'C2',
      sectionCode: '194C',
    };
    expect((await upload('/concessions', reviewerAuth, fields, null)).status).toBe(400);
    const saved = await upload('/concessions', reviewerAuth, fields);
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ isInternalUpload: true, message: itemMessages.concessionSaved });
    const approved = await post(`/concessions/${saved.body.id}/approve`, stage2Auth);
    expect(approved.body).toMatchObject({ reviewStatus: 'approved', message: itemMessages.concessionApproved });
  });

  it('the same PAN under one company code is refused for a second BA (409); under another code it is free', async () => {
    const twin = await addBa(h, 'twin', { companyCode: '2000' });
    const twinAuth = (await sessionOf(h, twin.admin)).auth;
    const res = await request(h.app).post(url('/details', twin.baId)).set(twinAuth).send(detailsFor());
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(DUPLICATE_PAN);
    expect(await eventsOf('CompanyDetailsSaved', twin.baId)).toHaveLength(0);

    const elsewhere = await addBa(h, 'elsewhere', { companyCode: '1000' });
    const elsewhereAuth = (await sessionOf(h, elsewhere.admin)).auth;
    expect((await request(h.app).post(url('/details', elsewhere.baId)).set(elsewhereAuth).send(detailsFor())).status).toBe(200);
  });
});

function detailsFor() {
  return details({ panNumber: PAN });
}
