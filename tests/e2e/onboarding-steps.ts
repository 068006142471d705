import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import { fillCompanyDetails, screenshot, world } from './support';

/**
 * The onboarding as a person does it in the browser (issue 8): the BA fills every tab of the portal's
 * onboarding page with real files and submits; a reviewer reviews every item on the console's BA page and
 * decides the stage. Journeys compose these steps; each step waits for what the person would see.
 */

/** A small real PDF, written once per name to a temp folder: what the BA picks in the file dialog. */
export function pdfFile(name: string): string {
  const dir = path.join(os.tmpdir(), 'e2e-onboarding-files');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^a-z0-9-]+/gi, '-')}.pdf`);
  const objects = [
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const o of objects) {
    offsets.push(body.length);
    body += `${o}\n`;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  writeFileSync(file, body);
  return file;
}

/** A date `days` from today as YYYY-MM-DD (validity dates must be today or later). */
export const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export type BankInput = {
  accountNo: string;
  ifscCode: string;
  micrNo?: string;
  accountName: string;
  bankName: string;
  bankBranch: string;
};

export type OnboardingInput = {
  /** Overrides of support's fillCompanyDetails (a complete Pune, Maharashtra, Transportation company). */
  company?: Record<string, string>;
  bank: BankInput;
  /** The Maharashtra place of business: GSTIN 27 + PAN + …, a Pune address. */
  gstin: string;
  /** Vertical names checked on the Vertical Mapping tab. */
  verticals?: string[];
};

/** The onboarding page of the portal on `tab`. */
export async function openTab(page: Page, tab: string): Promise<void> {
  await page.getByTestId(`tab-${tab}`).click();
  await page.waitForURL(tab === 'companyDetails' ? /ba-details\/[a-z]+$/ : new RegExp(`tab=${tab}`));
}

/** Waits for the snackbar saying `text` (the newest one when the same message shows twice). */
export async function sees(page: Page, text: string | RegExp): Promise<void> {
  try {
    await page.getByText(text).last().waitFor();
  } catch (e) {
    // Say what the user saw instead (an error snackbar, a field's error), so a failure under load explains itself.
    const alerts = await page.getByRole('alert').allInnerTexts().catch(() => []);
    const fieldErrors = await page.locator('.MuiFormHelperText-root.Mui-error').allInnerTexts().catch(() => []);
    const name = `missing-${String(text).replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`;
    const file = await screenshot(page, name).catch(() => 'none');
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`${message}\nshown instead: alerts ${JSON.stringify(alerts)}, field errors ${JSON.stringify(fieldErrors)}; screenshot ${file}`);
  }
}

export async function saveCompanyDetails(page: Page, overrides: Record<string, string> = {}): Promise<void> {
  await openTab(page, 'companyDetails');
  await fillCompanyDetails(page, overrides);
  await page.getByTestId('save-companyDetails').click();
  await sees(page, 'Company details saved successfully');
}

/** Fills a bank account form (primary account, or the Edit Profile bank change). */
export async function fillBank(form: Locator, bank: BankInput): Promise<void> {
  await form.getByLabel('Account Number').fill(bank.accountNo);
  await form.getByLabel('IFSC Code').fill(bank.ifscCode);
  await form.getByLabel('MICR Code').fill(bank.micrNo ?? '');
  await form.getByLabel('Account Holder Name').fill(bank.accountName);
  await form.getByLabel('Bank Name').fill(bank.bankName);
  await form.getByLabel('Bank Branch').fill(bank.bankBranch);
}

export async function saveBankDetails(page: Page, bank: BankInput): Promise<void> {
  await openTab(page, 'bankDetails');
  await fillBank(page.getByRole('form', { name: 'Primary bank account' }), bank);
  await page.getByTestId('save-bankDetails').click();
  await sees(page, 'Bank details saved successfully');
}

export async function addMaharashtraGstRow(page: Page, gstin: string): Promise<void> {
  await openTab(page, 'gstRegistrations');
  await page.getByTestId('add-gst-registration').click();
  const dialog = page.getByRole('dialog', { name: 'Add place of business' });
  await dialog.getByLabel('State').selectOption({ label: 'Maharashtra' });
  await dialog.getByLabel('GST Type').selectOption({ label: 'GST Registered' });
  await dialog.getByLabel('GSTIN').fill(gstin);
  await dialog.getByLabel('Address Line 1').fill('Gat 112, Chakan Industrial Area');
  await dialog.getByLabel('Pincode').fill('410501');
  // Cities load once the state is chosen.
  await dialog.getByLabel('City').locator('option', { hasText: 'Pune' }).waitFor({ state: 'attached' });
  await dialog.getByLabel('City').selectOption({ label: 'Pune' });
  const bankSelect = dialog.getByLabel('Bank Account');
  if ((await bankSelect.locator('option').count()) > 1) await bankSelect.selectOption({ index: 1 });
  await dialog.getByTestId('save-gstRegistration').click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByTestId('gst-row-27').waitFor();
}

/**
 * Uploads a document through its row's dialog: number, validity date when asked, a real PDF.
 * `slot` is the row key: `<typeId>` or `<typeId>-<stateId>` for GST documents.
 */
export async function uploadDocument(page: Page, slot: string, file: string, validTill = inDays(365)): Promise<void> {
  await page.getByTestId(`upload-${slot}`).click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('document-file') });
  await dialog.getByLabel('Document Number').fill(`DOC-${slot}`);
  const valid = dialog.getByLabel('Valid Till');
  if ((await valid.count()) > 0) await valid.fill(validTill);
  await dialog.getByTestId('document-file').setInputFiles(file);
  await dialog.getByTestId('save-document').click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Every mandatory document of the tab (rows marked *), each with its own PDF. Answers the slots uploaded. */
export async function uploadMandatoryDocuments(page: Page, label: string): Promise<string[]> {
  await openTab(page, 'documents');
  const rows = page.locator('tr[data-testid^="document-"]').filter({ has: page.getByTestId('mandatory-marker') });
  await rows.first().waitFor();
  const slots: string[] = [];
  for (const row of await rows.all()) slots.push(((await row.getAttribute('data-testid')) ?? '').replace(/^document-/, ''));
  for (const slot of slots) await uploadDocument(page, slot, pdfFile(`${label}-${slot}`));
  return slots;
}

export async function saveVerticalMapping(page: Page, verticals: string[] = ['Automotive', 'Consumer Goods']): Promise<void> {
  await openTab(page, 'verticalMapping');
  const group = page.getByTestId('group-verticalIds');
  for (const name of verticals) await group.getByRole('checkbox', { name, exact: true }).check();
  await page.getByTestId('save-verticalMapping').click();
  await sees(page, 'Vertical mapping saved successfully');
}

/** Submit for verification, confirmed; lands on the status page "under verification". */
export async function submitOnboarding(page: Page, shot?: string): Promise<void> {
  await page.getByTestId('submit-onboarding').click();
  const dialog = page.getByRole('dialog', { name: 'Submit for verification?' });
  await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
  await page
    .getByText('Your details are under verification')
    .waitFor()
    .catch(async (e: unknown) => {
      await screenshot(page, shot ?? 'submit-failed');
      throw e;
    });
}

/**
 * A pending BA, signed in on its status page, completes every tab (company details, bank, a Maharashtra
 * place of business, every mandatory document with a real PDF, the vertical mapping) and submits.
 */
export async function completeOnboarding(page: Page, input: OnboardingInput, label: string): Promise<void> {
  await page.getByRole('link', { name: 'Complete company details' }).click();
  await saveCompanyDetails(page, input.company);
  await saveBankDetails(page, input.bank);
  await addMaharashtraGstRow(page, input.gstin);
  await uploadMandatoryDocuments(page, label);
  await saveVerticalMapping(page, input.verticals);
  await screenshot(page, `${label}-tabs-complete`);
  await submitOnboarding(page, `${label}-submit-failed`);
}

/** A complete set of onboarding answers for a Pune company with this PAN. */
export function answersFor(pan: string, accountNo: string, company: Record<string, string> = {}): OnboardingInput {
  return {
    company: { 'PAN Number': pan, ...company },
    bank: {
      accountNo,
      ifscCode: 'HDFC0001234',
      micrNo: '411240002',
      accountName: company['Company Name'] ?? 'Godavari Roadways Private Limited',
      bankName: 'HDFC Bank',
      bankBranch: 'Bhosari, Pune',
    },
    gstin: `27${pan}1Z5`,
  };
}

// ---- the console --------------------------------------------------------------------------------------

/** The console's BA page, read afresh (the same hash again does not remount the page). */
export async function openBa(page: Page, baId: string): Promise<void> {
  await page.goto(`${world().base}/console/#/business-associates/${encodeURIComponent(baId)}/show`);
  await page.reload();
  await page.getByText('Vertical mapping').first().waitFor();
  await page.getByText('Loading…').first().waitFor({ state: 'detached' });
}

/**
 * Clicks an item's Approve/Reject button until its dialog shows `control` (a second click only if the first
 * landed while the section re-rendered under it, e.g. its items arriving).
 */
async function openItemDialog(page: Page, buttonTestId: string, control: (dialog: Locator) => Locator): Promise<Locator> {
  const dialog = page.getByRole('dialog');
  for (let attempt = 1; ; attempt++) {
    // Clicked only while no dialog is up: an open modal's backdrop would take the click.
    if ((await dialog.count()) === 0) await page.getByTestId(buttonTestId).click();
    try {
      await control(dialog).waitFor({ timeout: attempt < 3 ? 5_000 : 30_000 });
      return dialog;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Approves one item through its Approve button; documents get the approved-till date (prefilled or `till`). */
export async function approveItem(page: Page, testId: string, till?: string): Promise<void> {
  // Waits for the dialog before asking whether it has a date field: count() does not wait.
  const dialog = await openItemDialog(page, `approve-${testId}`, (d) => d.getByRole('button', { name: 'Approve', exact: true }));
  const date = dialog.getByTestId('approved-till');
  if ((await date.count()) > 0 && till) await date.fill(till);
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByTestId(`approve-${testId}`).waitFor({ state: 'detached' });
}

export async function rejectItem(page: Page, testId: string, remarks: string): Promise<void> {
  const dialog = await openItemDialog(page, `reject-${testId}`, (d) => d.getByLabel(/Remarks/));
  await dialog.getByLabel(/Remarks/).fill(remarks);
  await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByTestId(`reject-${testId}`).waitFor({ state: 'detached' });
}

/** The test ids of the Approve buttons still shown whose suffix starts with `prefix` ('document-', 'bank-'). */
export async function approvable(page: Page, prefix: string): Promise<string[]> {
  // The sections load their items after the page: read the buttons once none is still loading.
  await page.getByText('Loading…').first().waitFor({ state: 'detached' });
  const buttons = page.locator(`[data-testid^="approve-${prefix}"]`);
  const ids: string[] = [];
  for (const b of await buttons.all()) ids.push(((await b.getAttribute('data-testid')) ?? '').replace(/^approve-/, ''));
  return ids;
}

/**
 * Approves every document (each with an approved-till date: the BA's validity date, or `till` for those
 * that have none offered), every bank account and the vertical mapping still awaiting a review.
 */
export async function approveEveryItem(page: Page, till = inDays(300)): Promise<void> {
  for (const id of await approvable(page, 'document-')) await approveItem(page, id, till);
  for (const id of await approvable(page, 'bank-')) await approveItem(page, id);
  if ((await page.getByTestId('approve-vertical-mapping').count()) > 0) await approveItem(page, 'vertical-mapping');
}

/** Approve stage N / Reject (with remarks) of the whole application. */
export async function decideStage(
  page: Page,
  baId: string,
  verb: 'Approve' | 'Reject',
  stage: 1 | 2,
  remarks?: string,
): Promise<void> {
  await openBa(page, baId);
  const button = verb === 'Approve' ? `Approve stage ${stage}` : 'Reject';
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  if (remarks !== undefined) await dialog.getByLabel(/Remarks/).fill(remarks);
  await dialog.getByRole('button', { name: verb, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The event types of a BA's stream, in order. */
export const baEventTypes = async (baId: string): Promise<string[]> =>
  (await world().harness.store.readStream(`ba-${baId}`)).map((e) => e.type);

// ---- the API, where a journey needs an item review that is not its subject ----------------------------

type ItemRow = { id: string; reviewStatus: string | null; validTill?: string | null };

/**
 * Approves every pending document, bank account and the vertical mapping of a BA through the API as
 * `username` (a reviewer), for journeys whose subject is something else (the bell, a registration).
 * Answers how many items it approved.
 */
export async function approveItemsByApi(baId: string, username: string): Promise<number> {
  const { harness } = world();
  const token = await harness.login(username);
  const base = `/api/business-associates/${encodeURIComponent(baId)}`;
  const call = async (method: 'get' | 'post', url: string, body?: object) => {
    const res = await request(harness.app)[method](`${base}${url}`).set('Authorization', `Bearer ${token}`).send(body);
    if (res.status >= 300) throw new Error(`${method.toUpperCase()} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as unknown;
  };
  let approved = 0;
  for (const doc of (await call('get', '/documents')) as ItemRow[])
    if (doc.reviewStatus === 'pending') {
      await call('post', `/documents/${doc.id}/approve`, doc.validTill ? { approvedTill: doc.validTill } : {});
      approved++;
    }
  for (const account of (await call('get', '/bank-accounts')) as ItemRow[])
    if (account.reviewStatus === 'pending') {
      await call('post', `/bank-accounts/${account.id}/approve`, {});
      approved++;
    }
  const mapping = (await call('get', '/vertical-mapping')) as ItemRow;
  if (mapping.reviewStatus === 'pending') {
    await call('post', '/vertical-mapping/approve', {});
    approved++;
  }
  return approved;
}
