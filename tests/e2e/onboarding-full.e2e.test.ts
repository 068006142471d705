import request from 'supertest';
import { demoBaId } from '../../scripts/seed';
import { addMaharashtraGstRow, baEventTypes, fillBank, openBa, saveCompanyDetails, sees } from './onboarding-steps';
import { as, baRecord, screenshot, setUpJourneys, world } from './support';

/**
 * Browser journeys of issue 8 beyond the first onboarding (its "Tests and bench" 3 and 4; 1 and 2 — every tab
 * with real files, per-item review, rejection of single items and resubmission — are the journeys of
 * onboarding.e2e.test.ts): a verified BA's bank change with its two approvers and the payments hold, and the
 * duplicate-vendor warning a reviewer sees. Each drives the UI, then checks the read model and the stream.
 */
setUpJourneys('e2e-onboarding-full');

const portal = (username: string) => as(username, 'portal');

test('[ONBOARDING][BANK CHANGE]: verified BA requests a bank change in Edit Profile → payments on hold → first approver, then a second with a stage-2 role → hold lifted', async () => {
  const baId = demoBaId('coromandel');
  const ba = await portal('ba.6@demo.test');
  await ba.page.locator('header [data-testid="profile-menu"]').click();
  await ba.page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  await ba.page.waitForURL('**/onboard/profile/edit');
  const form = ba.page.getByRole('form', { name: 'Bank account change' });
  await fillBank(form, {
    accountNo: '912010034567890',
    ifscCode: 'UTIB0000123',
    micrNo: '600211002',
    accountName: 'Coromandel Warehousing Private Limited',
    bankName: 'Axis Bank',
    bankBranch: 'Guindy, Chennai',
  });
  await ba.page.getByTestId('request-bank-change').click();
  await sees(ba.page, 'Request sent successfully!');
  await ba.page.getByTestId('payments-on-hold').waitFor();
  await screenshot(ba.page, 'bank-change-1-ba-payments-on-hold');
  expect(await baRecord(baId, (r) => r.paymentsOnHold)).toMatchObject({ paymentsOnHold: true, status: 'verified' });

  // First approval: any reviewer. The request stays open and payments stay held.
  const procurement = await as('procurement@demo.test', 'console');
  await openBa(procurement.page, baId);
  const approve = procurement.page.locator('[data-testid^="approve-change-request-"]');
  await procurement.page.getByTestId('payments-on-hold').waitFor();
  await approve.click();
  const first = procurement.page.getByRole('dialog');
  await first.getByRole('button', { name: 'Approve', exact: true }).click();
  await first.waitFor({ state: 'hidden' });
  await procurement.page.getByText('Needs a second approver', { exact: false }).waitFor();
  await screenshot(procurement.page, 'bank-change-2-first-approval');
  expect((await baRecord(baId)).paymentsOnHold).toBe(true);

  // Second approval: another person holding a stage-2 role. The hold is lifted.
  const commercial = await as('commercial@demo.test', 'console');
  await openBa(commercial.page, baId);
  await commercial.page.locator('[data-testid^="approve-change-request-"]').click();
  const second = commercial.page.getByRole('dialog');
  await second.getByRole('button', { name: 'Approve', exact: true }).click();
  await second.waitFor({ state: 'hidden' });
  await commercial.page.locator('[data-testid^="approve-change-request-"]').waitFor({ state: 'detached' });
  await screenshot(commercial.page, 'bank-change-3-second-approval');
  expect(await baRecord(baId, (r) => !r.paymentsOnHold)).toMatchObject({ paymentsOnHold: false });

  await ba.page.reload();
  await ba.page.getByTestId('change-request-bank').getByText('Approved').waitFor();
  expect(await ba.page.getByTestId('payments-on-hold').count()).toBe(0);
  await screenshot(ba.page, 'bank-change-4-ba-hold-lifted');

  const events = (await world().harness.store.readStream(`ba-${baId}`)).filter((e) =>
    ['ChangeRequestRaised', 'ChangeRequestApproved', 'PaymentsHeld', 'PaymentsReleased'].includes(e.type),
  );
  expect(events.map((e) => e.type)).toEqual([
    'ChangeRequestRaised',
    'PaymentsHeld',
    'ChangeRequestApproved',
    'ChangeRequestApproved',
    'PaymentsReleased',
  ]);
  const approvals = events.filter((e) => e.type === 'ChangeRequestApproved').map((e) => e.data as { final: boolean; by?: string });
  expect(approvals.map((a) => a.final)).toEqual([false, true]);
  // The new account is the BA's primary account once approved.
  const token = await world().harness.login('commercial@demo.test');
  const accounts = await request(world().harness.app)
    .get(`/api/business-associates/${baId}/bank-accounts`)
    .set('Authorization', `Bearer ${token}`);
  expect(accounts.body).toEqual(expect.arrayContaining([expect.objectContaining({ primary: true, accountNo: '912010034567890' })]));
  await Promise.all([ba.context.close(), procurement.context.close(), commercial.context.close()]);
});

test('[ONBOARDING][DUPLICATE]: a second BA (another company code) registers the same GSTIN → its reviewer sees the duplicate warning linking the first BA', async () => {
  const pan = 'AABCK7310L';
  const gstin = `27${pan}1Z5`;
  const first = demoBaId('konkan');
  const second = demoBaId('hooghly');

  const konkan = await portal('ba.2@demo.test');
  await konkan.page.getByRole('link', { name: 'Complete company details' }).click();
  await saveCompanyDetails(konkan.page, { 'PAN Number': pan, 'Company Name': 'Konkan Cargo Movers Private Limited' });
  await addMaharashtraGstRow(konkan.page, gstin);

  // Company code 2000: the same PAN is not refused there (only twice under one code), the match is a warning.
  const hooghly = await portal('ba.8@demo.test');
  await hooghly.page.getByRole('link', { name: 'Complete company details' }).click();
  await saveCompanyDetails(hooghly.page, { 'PAN Number': pan, 'Company Name': 'Hooghly Shipping Agencies Private Limited' });
  await addMaharashtraGstRow(hooghly.page, gstin);
  await screenshot(hooghly.page, 'duplicate-1-second-ba-gst-row');

  const reviewer = await as('procurement.2000@demo.test', 'console');
  await openBa(reviewer.page, second);
  const panel = reviewer.page.getByTestId('duplicates-panel');
  await panel.waitFor();
  expect(await panel.textContent()).toContain(`GSTIN ${gstin} is also used by`);
  const link = panel.getByRole('link', { name: 'Konkan Cargo Movers Private Limited' }).first();
  expect(await link.getAttribute('href')).toContain(`/business-associates/${first}/show`);
  await screenshot(reviewer.page, 'duplicate-2-reviewer-warning');

  // The stored side: both streams hold the GST row; the duplicates read answers the match.
  for (const baId of [first, second]) expect(await baEventTypes(baId)).toContain('GstRegistrationSaved');
  const token = await world().harness.login('procurement.2000@demo.test');
  const duplicates = await request(world().harness.app)
    .get(`/api/business-associates/${second}/duplicates`)
    .set('Authorization', `Bearer ${token}`);
  expect(duplicates.status).toBe(200);
  expect(duplicates.body).toEqual(
    expect.arrayContaining([expect.objectContaining({ field: 'gstNo', value: gstin, otherBaId: first })]),
  );
  await Promise.all([konkan.context.close(), hooghly.context.close(), reviewer.context.close()]);
});
