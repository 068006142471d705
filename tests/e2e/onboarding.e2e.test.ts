import type { Page } from 'playwright-core';
import { demoBaId } from '../../scripts/seed';
import { as as signedIn, baRecord, fillCompanyDetails, screenshot, setUpJourneys, world } from './support';

/**
 * Browser journeys (design.md §8): the real back end (PostgreSQL, Temporal, worker, projector, api) serving the
 * real console and portal bundles, driven in Debian's headless Chromium. Each journey drives the UI, then
 * checks the stored state through the read model and the event stream. Sign-in goes through the OTP step with
 * the code from the outbox (tests/e2e/support.ts).
 */
setUpJourneys('e2e');

/** A BA signs in on the portal and lands on its onboarding status; staff on the console. */
const as = (username: string, app: 'portal' | 'console') =>
  signedIn(username, app, app === 'portal' ? { landing: '**/onboard/status' } : {});

async function decide(page: Page, baId: string, verb: 'Approve' | 'Reject', stage: 1 | 2, remarks?: string) {
  await page.goto(`${world().base}/console/#/business-associates/${encodeURIComponent(baId)}/show`);
  // The same hash again does not remount the page: reload so the reviewer sees the BA as it stands now.
  await page.reload();
  const button = verb === 'Approve' ? `Approve stage ${stage}` : 'Reject';
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  if (remarks !== undefined) await dialog.getByLabel(/Remarks/).fill(remarks);
  await dialog.getByRole('button', { name: verb, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const readModel = baRecord;

const eventTypes = async (baId: string) => (await world().harness.store.readStream(`ba-${baId}`)).map((e) => e.type);

test('[ONBOARDING][APPROVE]: BA submits → procurement approves stage 1 → commercial approves stage 2 → BA sees verified', async () => {
  const baId = demoBaId('konkan');
  const ba = await as('ba.2@demo.test', 'portal');
  await ba.page.getByRole('link', { name: 'Complete company details' }).click();
  await fillCompanyDetails(ba.page);
  await ba.page.getByRole('button', { name: 'Submit for verification' }).click();
  await ba.page.getByText('Your details are under verification').waitFor();
  await screenshot(ba.page, 'approve-1-ba-submitted');
  const submitted = await readModel(baId, (r) => r.status === 'inprogress');
  expect(submitted).toMatchObject({ stage: 1, companyName: 'Godavari Roadways Private Limited', panNumber: 'AAGCG4321K' });

  const procurement = await as('procurement@demo.test', 'console');
  await decide(procurement.page, baId, 'Approve', 1);
  await readModel(baId, (r) => r.stage === 2);
  // The stage-1 approver is offered no approval of stage 2 (nobody approves both stages).
  await procurement.page.reload();
  // Not 'networkidle': the notification bell keeps a stream open. The record's name shows once it has loaded.
  await procurement.page.getByText('Godavari Roadways Private Limited').first().waitFor();
  expect(await procurement.page.getByRole('button', { name: 'Approve stage 2' }).count()).toBe(0);

  const commercial = await as('commercial@demo.test', 'console');
  await decide(commercial.page, baId, 'Approve', 2);
  await screenshot(commercial.page, 'approve-2-commercial-approved');
  await readModel(baId, (r) => r.status === 'verified');

  await ba.page.reload();
  const welcome = ba.page.getByTestId('welcome-message');
  await welcome.waitFor();
  expect(await welcome.textContent()).toContain('Welcome aboard');
  await screenshot(ba.page, 'approve-3-ba-verified');
  expect(await eventTypes(baId)).toEqual([
    'BusinessAssociateCreated',
    'CompanyDetailsSaved',
    'OnboardingSubmitted',
    'ReviewStageApproved',
    'ReviewStageApproved',
    'BusinessAssociateVerified',
  ]);
  await Promise.all([ba.context.close(), procurement.context.close(), commercial.context.close()]);
});

test('[ONBOARDING][REJECT]: stage 2 rejects with remarks → BA sees them, edits and resubmits → approved', async () => {
  const baId = demoBaId('sahyadri');
  const remarks = 'Address proof does not match the PAN holder.\nPlease correct the address.';
  const ba = await as('ba.admin@demo.test', 'portal');
  await ba.page.getByRole('link', { name: 'Complete company details' }).click();
  await fillCompanyDetails(ba.page, { 'PAN Number': 'AAHCS7788M', 'Company Name': 'Sahyadri Freight Carriers' });
  await ba.page.getByRole('button', { name: 'Submit for verification' }).click();
  await ba.page.getByText('Your details are under verification').waitFor();

  const procurement = await as('procurement@demo.test', 'console');
  await decide(procurement.page, baId, 'Approve', 1);
  await readModel(baId, (r) => r.stage === 2);

  const commercial = await as('commercial@demo.test', 'console');
  await decide(commercial.page, baId, 'Reject', 2, remarks);
  await readModel(baId, (r) => r.status === 'rejected');

  await ba.page.reload();
  const shown = ba.page.getByTestId('rejection-remarks');
  await shown.waitFor();
  expect(await shown.textContent()).toBe(remarks);
  await screenshot(ba.page, 'reject-1-ba-sees-remarks');
  await ba.page.getByRole('link', { name: 'Edit and resubmit' }).click();
  await ba.page.getByLabel('Address Line 1').fill('Plot 21, MIDC Bhosari');
  await ba.page.getByRole('button', { name: 'Submit for verification' }).click();
  await ba.page.getByText('Your details are under verification').waitFor();
  const resubmitted = await readModel(baId, (r) => r.status === 'inprogress');
  expect(resubmitted).toMatchObject({ stage: 1, submission: 2, remarks: null });

  // A new submission: the same reviewers decide again, stage 1 then stage 2.
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
  await Promise.all([ba.context.close(), procurement.context.close(), commercial.context.close()]);
});
