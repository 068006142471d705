import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startApiHarness, type ApiHarness } from '../../api/src/testing/harness';
import { getBusinessAssociate } from '../../projections/src/business-associates/business-associates.queries';
import { DEMO_PASSWORD, demoBaId, seedDemo } from '../../scripts/seed';
import { launchBrowser, screenshot } from '../support/browser';

/**
 * Browser journeys (design.md §8): the real back end (PostgreSQL, Temporal, worker, projector, api) serving the
 * real console and portal bundles, driven in Debian's headless Chromium. Each journey drives the UI, then
 * checks the stored state through the read model and the event stream.
 */
const dist = path.resolve(__dirname, '..', '..', 'dist');
let harness: ApiHarness;
let server: Server;
let base: string;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  harness = await startApiHarness('e2e', {
    staticDirs: { console: path.join(dist, 'console'), portal: path.join(dist, 'portal') },
  });
  await seedDemo({
    pool: harness.db.pool,
    store: harness.store,
    temporal: harness.temporal,
    taskQueue: harness.taskQueue,
    log: () => undefined,
  });
  server = harness.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await harness?.stop();
});

/** Each person in a journey has a browser context of their own: their own cookies and session. */
async function as(username: string, app: 'portal' | 'console'): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[${username}] page error: ${e.message}`));
  if (app === 'portal') {
    await page.goto(`${base}/`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/onboard/status');
  } else {
    await page.goto(`${base}/console/`);
    // react-admin marks both fields required ("Username *"): address them by name.
    await page.locator('input[name="username"]').fill(username);
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByText('All Request')
      .first()
      .waitFor()
      .catch(async (e: unknown) => {
        await screenshot(page, `console-login-failed-${username}`);
        throw e;
      });
  }
  return { page, context };
}

async function fillCompanyDetails(page: Page, overrides: Record<string, string> = {}): Promise<void> {
  const text: Record<string, string> = {
    'Company Name': 'Godavari Roadways Private Limited',
    'PAN Number': 'AAGCG4321K',
    'Contact Person Name': 'Meera Joshi',
    'Address Line 1': 'Plot 14, MIDC Bhosari',
    Pincode: '411026',
    'Contact Person Mobile Number': '9823456789',
    'Own Fleet (vehicles)': '12',
    ...overrides,
  };
  for (const [label, value] of Object.entries(text)) await page.getByLabel(label).fill(value);
  await page.getByLabel('Service').selectOption({ label: 'Transportation' });
  await page.getByLabel('State').selectOption({ label: 'Maharashtra' });
  await page.getByLabel('City').selectOption({ label: 'Pune' });
}

async function decide(page: Page, baId: string, verb: 'Approve' | 'Reject', stage: 1 | 2, remarks?: string) {
  await page.goto(`${base}/console/#/business-associates/${encodeURIComponent(baId)}/show`);
  // The same hash again does not remount the page: reload so the reviewer sees the BA as it stands now.
  await page.reload();
  const button = verb === 'Approve' ? `Approve stage ${stage}` : 'Reject';
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  if (remarks !== undefined) await dialog.getByLabel(/Remarks/).fill(remarks);
  await dialog.getByRole('button', { name: verb, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The read model, polled briefly: the projector applies events asynchronously. */
async function readModel(baId: string, until: (row: { status: string; stage: number | null }) => boolean) {
  for (let i = 0; i < 100; i++) {
    const row = await getBusinessAssociate(harness.db.pool, baId);
    if (row && until(row)) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`read model of ${baId} never reached the expected state`);
}

const eventTypes = async (baId: string) => (await harness.store.readStream(`ba-${baId}`)).map((e) => e.type);

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
  await procurement.page.waitForLoadState('networkidle');
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

  const activity = await harness.db.pool.query<{ action: string; remarks: string | null; changes: unknown }>(
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
