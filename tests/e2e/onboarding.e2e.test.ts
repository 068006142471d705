import type { Page } from 'playwright-core';
import { demoBaId } from '../../scripts/seed';
import {
  addMaharashtraGstRow,
  answersFor,
  approveEveryItem,
  approveItem,
  baEventTypes as eventTypes,
  completeOnboarding,
  decideStage as decide,
  inDays,
  openBa,
  openTab,
  pdfFile,
  rejectItem,
  saveBankDetails,
  saveCompanyDetails,
  saveVerticalMapping,
  sees,
  submitOnboarding,
  uploadDocument,
  uploadMandatoryDocuments,
} from './onboarding-steps';
import { as as signedIn, baRecord, projectionsCaughtUp, screenshot, setUpJourneys, world } from './support';

/**
 * Browser journeys (design.md §8, issue 8 "Tests and bench" 1 and 2): the real back end (PostgreSQL, Temporal,
 * worker, projector, api) serving the real console and portal bundles, driven in Debian's headless Chromium.
 * The BA completes every onboarding tab with real files; reviewers review each item on the console's BA page
 * and decide the stages. Each journey then checks the read model and the event stream.
 */
setUpJourneys('e2e');

/** A BA signs in on the portal and lands on its onboarding status; staff on the console. */
const as = (username: string, app: 'portal' | 'console') =>
  signedIn(username, app, app === 'portal' ? { landing: '**/onboard/status' } : {});

const readModel = baRecord;

/** The id in a console row's data-testid (`document-<id>`, `bank-account-<id>`), found by the row's text. */
async function rowId(page: Page, prefix: string, text: string): Promise<string> {
  const row = page.locator(`tr[data-testid^="${prefix}"]`).filter({ hasText: text }).first();
  await row.waitFor();
  return ((await row.getAttribute('data-testid')) ?? '').slice(prefix.length);
}

type Reviewed = { docId?: string; accountId?: string; decision: string; approvedTill?: string | null };
async function reviews(baId: string, type: 'DocumentReviewed' | 'BankAccountReviewed' | 'VerticalMappingReviewed') {
  return (await world().harness.store.readStream(`ba-${baId}`))
    .filter((e) => e.type === type)
    .map((e) => e.data as Reviewed);
}

test('[ONBOARDING][APPROVE]: BA completes every tab with real files and submits → procurement approves each item and stage 1 → commercial approves stage 2 → BA sees verified', async () => {
  const baId = demoBaId('konkan');
  const ba = await as('ba.2@demo.test', 'portal');
  const answers = answersFor('AAGCG4321K', '50100123456789');
  await ba.page.getByRole('link', { name: 'Complete company details' }).click();
  await saveCompanyDetails(ba.page, answers.company);
  await saveBankDetails(ba.page, answers.bank);
  // Submitting too early is refused tab by tab, and nothing is submitted.
  await ba.page.getByTestId('submit-onboarding').click();
  await ba.page.getByRole('dialog', { name: 'Submit for verification?' }).getByRole('button', { name: 'Submit', exact: true }).click();
  const problems = ba.page.getByTestId('submit-problems');
  await problems.waitFor();
  expect(await problems.textContent()).toContain('Please complete every tab before submitting');
  for (const tab of ['gstRegistrations', 'documents', 'verticalMapping'])
    await problems.getByTestId(`problem-${tab}`).waitFor();
  expect(await problems.getByTestId('problem-bankDetails').count()).toBe(0);
  expect(await problems.getByTestId('problem-companyDetails').count()).toBe(0);
  expect(await problems.getByTestId('problem-documents').textContent()).toContain('PAN Card');
  await screenshot(ba.page, 'approve-0-submit-refused');
  expect(await eventTypes(baId)).not.toContain('OnboardingSubmitted');
  await addMaharashtraGstRow(ba.page, answers.gstin);
  await uploadMandatoryDocuments(ba.page, 'approve-1');
  await saveVerticalMapping(ba.page);
  await submitOnboarding(ba.page, 'approve-submit-failed');
  await screenshot(ba.page, 'approve-1-ba-submitted');
  const submitted = await readModel(baId, (r) => r.status === 'inprogress');
  expect(submitted).toMatchObject({ stage: 1, companyName: 'Godavari Roadways Private Limited', panNumber: 'AAGCG4321K' });

  const procurement = await as('procurement@demo.test', 'console');
  await openBa(procurement.page, baId);
  // Stage 1 waits for the item reviews: the page says so before anything is reviewed.
  await procurement.page.getByTestId('stage-approval-blocked').waitFor();
  await approveEveryItem(procurement.page, inDays(200));
  await screenshot(procurement.page, 'approve-2-items-approved');
  await decide(procurement.page, baId, 'Approve', 1);
  await readModel(baId, (r) => r.stage === 2);
  // The stage-1 approver is offered no approval of stage 2 (nobody approves both stages).
  await procurement.page.reload();
  // Not 'networkidle': the notification bell keeps a stream open. The record's name shows once it has loaded.
  await procurement.page.getByText('Godavari Roadways Private Limited').first().waitFor();
  expect(await procurement.page.getByRole('button', { name: 'Approve stage 2' }).count()).toBe(0);

  const commercial = await as('commercial@demo.test', 'console');
  await decide(commercial.page, baId, 'Approve', 2);
  await screenshot(commercial.page, 'approve-3-commercial-approved');
  await readModel(baId, (r) => r.status === 'verified');

  await ba.page.reload();
  const welcome = ba.page.getByTestId('welcome-message');
  await welcome.waitFor();
  expect(await welcome.textContent()).toContain('Welcome aboard');
  await ba.page.getByTestId('next-steps').waitFor();
  await screenshot(ba.page, 'approve-4-ba-verified');

  // The stream: the items saved, each reviewed (documents with their validity date), then both stages.
  const types = await eventTypes(baId);
  const uploads = types.filter((t) => t === 'DocumentUploaded').length;
  // Transportation: PAN, GST certificate (Maharashtra), cancelled cheque, RC, transporter licence, insurance.
  expect(uploads).toBe(6);
  expect(types).toEqual(
    expect.arrayContaining(['CompanyDetailsSaved', 'BankAccountSaved', 'GstRegistrationSaved', 'VerticalMappingSaved']),
  );
  const documentReviews = await reviews(baId, 'DocumentReviewed');
  expect(documentReviews).toHaveLength(uploads);
  expect(documentReviews.every((r) => r.decision === 'approved' && r.approvedTill !== null)).toBe(true);
  expect(await reviews(baId, 'BankAccountReviewed')).toEqual([expect.objectContaining({ decision: 'approved' })]);
  expect(await reviews(baId, 'VerticalMappingReviewed')).toEqual([expect.objectContaining({ decision: 'approved' })]);
  expect(types.slice(types.indexOf('OnboardingSubmitted'))).toEqual([
    'OnboardingSubmitted',
    ...Array<string>(uploads + 2).fill(expect.stringMatching(/Reviewed$/) as unknown as string),
    'ReviewStageApproved',
    'ReviewStageApproved',
    'BusinessAssociateVerified',
  ]);
  await Promise.all([ba.context.close(), procurement.context.close(), commercial.context.close()]);
});

test('[ONBOARDING][REJECT]: stage 2 rejects the cheque and the bank account with remarks → BA sees each reason, fixes only those and resubmits → approved', async () => {
  const baId = demoBaId('sahyadri');
  const remarks = 'Address proof does not match the PAN holder.\nPlease correct the address.';
  const chequeRemarks = 'The cheque is not cancelled.';
  const bankRemarks = 'Account number does not match the cheque.';
  const ba = await as('ba.admin@demo.test', 'portal');
  await completeOnboarding(
    ba.page,
    answersFor('AAHCS7788M', '50100987654321', { 'Company Name': 'Sahyadri Freight Carriers' }),
    'reject-1',
  );

  const procurement = await as('procurement@demo.test', 'console');
  await openBa(procurement.page, baId);
  await approveEveryItem(procurement.page, inDays(200));
  await decide(procurement.page, baId, 'Approve', 1);
  await readModel(baId, (r) => r.stage === 2);

  // The stage-2 reviewer finds two items wrong: each rejected with its reason, then the stage.
  const commercial = await as('commercial@demo.test', 'console');
  await openBa(commercial.page, baId);
  const chequeId = await rowId(commercial.page, 'document-', 'Cancelled Cheque');
  const accountId = await rowId(commercial.page, 'bank-account-', '50100987654321');
  await rejectItem(commercial.page, `document-${chequeId}`, chequeRemarks);
  await rejectItem(commercial.page, `bank-${accountId}`, bankRemarks);
  await decide(commercial.page, baId, 'Reject', 2, remarks);
  await readModel(baId, (r) => r.status === 'rejected');
  // The rejected items come from another read model than the status: wait for both before the page loads.
  await projectionsCaughtUp();

  await ba.page.reload();
  const shown = ba.page.getByTestId('rejection-remarks');
  await shown.waitFor();
  expect(await shown.textContent()).toBe(remarks);
  const items = ba.page.getByTestId('rejected-items');
  await items.waitFor();
  expect(await items.locator('li').count()).toBe(2);
  expect(await items.textContent()).toContain('Cancelled Cheque');
  expect(await items.textContent()).toContain(`Reason: ${chequeRemarks}`);
  expect(await items.textContent()).toContain(`Reason: ${bankRemarks}`);
  await screenshot(ba.page, 'reject-1-ba-sees-remarks');

  // Only the rejected items change (approved ones are locked), plus the address the remarks ask for.
  const before = (await eventTypes(baId)).length;
  await ba.page.getByRole('link', { name: 'Edit and resubmit' }).click();
  await ba.page.getByLabel('Address Line 1').fill('Plot 21, MIDC Bhosari');
  await ba.page.getByTestId('save-companyDetails').click();
  await sees(ba.page, 'Company details saved successfully');
  await openTab(ba.page, 'documents');
  expect(await ba.page.getByTestId('upload-1').count()).toBe(0); // the approved PAN card is locked
  await uploadDocument(ba.page, '3', pdfFile('reject-2-cancelled-cheque'));
  await saveBankDetails(ba.page, {
    accountNo: '50100987650000',
    ifscCode: 'HDFC0001234',
    micrNo: '411240002',
    accountName: 'Sahyadri Freight Carriers',
    bankName: 'HDFC Bank',
    bankBranch: 'Bhosari, Pune',
  });
  await screenshot(ba.page, 'reject-2-ba-corrected');
  await submitOnboarding(ba.page, 'reject-resubmit-failed');
  const resubmitted = await readModel(baId, (r) => r.status === 'inprogress');
  expect(resubmitted).toMatchObject({ stage: 1, submission: 2, remarks: null });
  expect((await eventTypes(baId)).slice(before)).toEqual([
    'CompanyDetailsSaved',
    'DocumentUploaded',
    'BankAccountSaved',
    'OnboardingSubmitted',
  ]);

  // A new submission: only the two corrected items wait for a review; then stage 1 and stage 2 again.
  await openBa(procurement.page, baId);
  const newChequeId = await rowId(procurement.page, 'document-', 'Cancelled Cheque');
  expect(newChequeId).not.toBe(chequeId);
  await approveItem(procurement.page, `document-${newChequeId}`, inDays(200));
  await approveItem(procurement.page, `bank-${accountId}`);
  expect(await procurement.page.locator('[data-testid^="approve-document-"]').count()).toBe(0);
  await decide(procurement.page, baId, 'Approve', 1);
  await readModel(baId, (r) => r.stage === 2);
  await decide(commercial.page, baId, 'Approve', 2);
  await readModel(baId, (r) => r.status === 'verified');
  await ba.page.reload();
  await ba.page.getByTestId('welcome-message').waitFor();

  const activity = await world().harness.db.pool.query<{ action: string; remarks: string | null; changes: unknown }>(
    'select action, remarks, changes from activity_log where ba_id = $1 order by id',
    [baId],
  );
  expect(activity.rows.some((r) => r.remarks === remarks)).toBe(true);
  expect(activity.rows.some((r) => JSON.stringify(r.changes ?? {}).includes('Plot 21, MIDC Bhosari'))).toBe(true);
  const types = await eventTypes(baId);
  expect(types.filter((t) => t === 'OnboardingSubmitted')).toHaveLength(2);
  expect(types.filter((t) => t === 'OnboardingRejected')).toHaveLength(1);
  expect(types.at(-1)).toBe('BusinessAssociateVerified');
  expect((await reviews(baId, 'DocumentReviewed')).filter((r) => r.decision === 'rejected')).toEqual([
    expect.objectContaining({ docId: chequeId }),
  ]);
  expect((await reviews(baId, 'BankAccountReviewed')).map((r) => r.decision)).toEqual(['approved', 'rejected', 'approved']);
  await Promise.all([ba.context.close(), procurement.context.close(), commercial.context.close()]);
  // The longest journey (two full review rounds through the UI): on a shared machine it can pass the global
  // 120 s while every step is still answering, so it gets twice that.
}, 240_000);
