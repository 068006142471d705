import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startApiHarness, type ApiHarness } from '../../api/src/testing/harness';
import {
  getBusinessAssociate,
  type BusinessAssociateRow,
} from '../../projections/src/business-associates/business-associates.queries';
import { codeInMessage } from '../../platform/src/notifications/templates';
import { findUserByUsername, type UserRecord } from '../../projections/src/identity/users.queries';
import { waitForProjections } from '../../projections/src/runner';
import { DEMO_PASSWORD, seedDemo } from '../../scripts/seed';
import { launchBrowser, screenshot } from '../support/browser';

/**
 * What every browser journey (design.md §8) stands on: the real back end (PostgreSQL, Temporal, worker,
 * projector, api) serving the built console and portal bundles from dist/, the demo data, and Debian's
 * headless Chromium. Codes and links are read from the outbox table, as a person reads their SMS and e-mail.
 *
 * `setUpJourneys()` registers the suite's beforeAll/afterAll; the helpers below use what it started.
 */
export type World = { harness: ApiHarness; base: string; browser: Browser };

const dist = path.resolve(__dirname, '..', '..', 'dist');
let current: (World & { server: Server; closeBrowser: () => Promise<void> }) | null = null;

export function world(): World {
  if (!current) throw new Error('the journeys have not started: call setUpJourneys() at the top of the suite');
  return current;
}

export function setUpJourneys(name = 'e2e'): void {
  beforeAll(async () => {
    const harness = await startApiHarness(name, {
      staticDirs: { console: path.join(dist, 'console'), portal: path.join(dist, 'portal') },
    });
    await seedDemo({
      pool: harness.db.pool,
      store: harness.store,
      temporal: harness.temporal,
      taskQueue: harness.taskQueue,
      blobStore: harness.blobStore,
      log: () => undefined,
    });
    const server = harness.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { browser, close: closeBrowser } = await launchBrowser();
    current = { harness, base, browser, server, closeBrowser };
  });

  afterAll(async () => {
    const started = current;
    current = null;
    await started?.closeBrowser();
    await new Promise<void>((resolve) => (started ? started.server.close(() => resolve()) : resolve()));
    await started?.harness.stop();
  });
}

export type Visitor = { page: Page; context: BrowserContext };

/** Each person in a journey has a browser context of their own: their own cookies and session. */
export async function visitor(label: string): Promise<Visitor> {
  const context = await world().browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[${label}] page error: ${e.message}`));
  return { page, context };
}

export type SignInOptions = {
  password?: string;
  /** Where the portal should land (a glob for waitForURL); by default any of the portal's homes. */
  landing?: string | RegExp;
};

/** The portal's homes after sign-in (Me.home, spec 000 §2 "Post-login routing"). */
const PORTAL_HOME = /\/(onboard\/status|home|bill-hub|change-password)$/;

/** Signs `username` in through the UI of `app`, OTP step included, in a context of their own. */
export async function as(username: string, app: 'portal' | 'console', options: SignInOptions = {}): Promise<Visitor> {
  const v = await visitor(username);
  await v.page.goto(app === 'portal' ? `${world().base}/` : `${world().base}/console/`);
  if (app === 'portal') await portalSignIn(v.page, username, options);
  else await consoleSignIn(v.page, username, options);
  return v;
}

/** The portal's login tab: username and password, then the code from the outbox. The page must be on '/'. */
export async function portalSignIn(page: Page, username: string, options: SignInOptions = {}): Promise<void> {
  await submitPortalPassword(page, username, options.password ?? DEMO_PASSWORD);
  await enterPortalOtp(page, username);
  await page.waitForURL(options.landing ?? PORTAL_HOME).catch(async (e: unknown) => {
    await screenshot(page, `portal-login-failed-${username}`);
    throw e;
  });
}

/** Username and password on the portal's login tab, sent; the caller decides what should follow. */
export async function submitPortalPassword(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  // By name: "Password" is also in the show/hide button's label.
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** The portal's OTP step: waits for it, then types the newest sign-in code sent to `username`. */
export async function enterPortalOtp(page: Page, username: string): Promise<void> {
  // The challenge (and its outbox rows) is committed before the API answers, so once the step shows,
  // the newest code to the user is this challenge's.
  const otp = page.locator('input[name="otp"]');
  await otp.waitFor();
  await otp.fill(await codeFor(username, 6, 'login-otp'));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

/** The console's sign-in page: credentials, then the code; lands on the console's first screen. */
export async function consoleSignIn(page: Page, username: string, options: SignInOptions = {}): Promise<void> {
  // react-admin marks fields required ("Username *"): address them by name.
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(options.password ?? DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const otp = page.locator('input[name="otp"]');
  await otp.waitFor();
  await otp.fill(await codeFor(username, 6, 'login-otp'));
  await page.getByRole('button', { name: 'Verify OTP' }).click();
  await page
    .getByText('All Request')
    .first()
    .waitFor()
    .catch(async (e: unknown) => {
      await screenshot(page, `console-login-failed-${username}`);
      throw e;
    });
}

/** The portal's profile menu → Logout; back on the login page. */
export async function portalSignOut(page: Page): Promise<void> {
  await page.locator('header [data-testid="profile-menu"]').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
}

/** Closes the modal error dialog, answering its message. */
export async function dismissError(page: Page): Promise<string> {
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('error-message') });
  await dialog.waitFor();
  const message = (await dialog.getByTestId('error-message').textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return message;
}

type OutboxRow = { body: string; template: string };

/** The messages to `recipient`, newest first (e-mail addresses compare case-insensitively). */
async function messagesTo(recipient: string): Promise<OutboxRow[]> {
  const { rows } = await world().harness.db.pool.query<OutboxRow>(
    // Ordered by the column, not by a text alias of it (as text, '4' would sort after '10').
    'SELECT body, template FROM outbox WHERE lower(recipient) = lower($1) ORDER BY outbox.seq DESC',
    [recipient.trim()],
  );
  return rows;
}

/** The newest message to `recipient` that `pick` accepts, polled briefly (never from logs). */
async function newest<T>(recipient: string, pick: (row: OutboxRow) => T | null, what: string): Promise<T> {
  for (let i = 0; i < 50; i++) {
    for (const row of await messagesTo(recipient)) {
      const found = pick(row);
      if (found !== null) return found;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${what} to ${recipient} in the outbox`);
}

/**
 * The newest `digits`-digit code sent to `recipient` (a mobile number or an e-mail address), optionally of
 * one template ('login-otp', 'registration-otp', 'contact-change-otp').
 */
export async function codeFor(recipient: string, digits: number, template?: string): Promise<string> {
  const codeOf = (body: string) => {
    const code = codeInMessage(body);
    return code?.length === digits ? code : null;
  };
  return newest(
    recipient,
    (row) => (template && row.template !== template ? null : codeOf(row.body)),
    `${digits}-digit code`,
  );
}

/** The path of the newest link to `recipient` under `prefix` ('/reset-password/', '/email-mobile-change/'). */
export async function linkFor(recipient: string, prefix: string): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s/]+(${prefix.replace(/[/.]/g, '\\$&')}[^\\s]+)`);
  return newest(recipient, (row) => pattern.exec(row.body)?.[1] ?? null, `${prefix} link`);
}

/** The templates of every message to `recipient`, newest first. */
export async function templatesSentTo(recipient: string): Promise<string[]> {
  return (await messagesTo(recipient)).map((r) => r.template);
}

/** The users read model, polled briefly: the projector applies events asynchronously. */
export async function userRecord(
  username: string,
  until: (user: UserRecord) => boolean = () => true,
): Promise<UserRecord> {
  for (let i = 0; i < 100; i++) {
    const user = await findUserByUsername(world().harness.db.pool, username);
    if (user && until(user)) return user;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the users read model never showed ${username} as expected`);
}

/** The BA read model, polled briefly. */
export async function baRecord(
  baId: string,
  until: (row: BusinessAssociateRow) => boolean = () => true,
): Promise<BusinessAssociateRow> {
  for (let i = 0; i < 100; i++) {
    const row = await getBusinessAssociate(world().harness.db.pool, baId);
    if (row && until(row)) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`read model of ${baId} never reached the expected state`);
}

/**
 * Every projection has applied every event appended so far, so a page loaded next shows all of them. A command
 * waits for the projections only briefly (2 s) and each projection moves at its own pace, so under load one read
 * model (the BA's status) can show a write that another (its items) does not show yet.
 */
export async function projectionsCaughtUp(): Promise<void> {
  const head = await world().harness.store.headPosition();
  if (!(await waitForProjections(world().harness.db.pool, head, { timeoutMs: 30_000 })))
    throw new Error(`the projections never reached position ${head}`);
}

/** The event types of a user's stream, in order. */
export async function userEventTypes(userId: string): Promise<string[]> {
  return (await world().harness.store.readStream(`user-${userId}`)).map((e) => e.type);
}

/** Fills the portal's company-details form with a complete, valid set of details. */
export async function fillCompanyDetails(page: Page, overrides: Record<string, string> = {}): Promise<void> {
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

export { DEMO_PASSWORD, screenshot };
