import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import type { Role } from '../../domain/src/identity/roles';
import { approveAllItemsViaApi, completeOnboardingViaApi } from '../../api/src/testing/onboarding';
import { TEST_PASSWORD, addBa, addUser, details, sessionOf } from '../../api/src/users/testing';
import { findUserByUsername } from '../../projections/src/identity/users.queries';
import type { VendorCodeRow } from '../../projections/src/vendor-codes/vendor-codes.queries';
import { as, world, type Visitor } from './support';

/**
 * The SAP area of the console as staff use it (issue 9): the BA's ERP page (/sap/view/:baId) with its command
 * dialogs, the SAP dashboard, the block requests queue and the mass upload page. Set-up that is not a journey's
 * subject (a verified BA, staff of one role) goes through the API helpers; each step waits for what a person
 * would see (the page's sections, a dialog, the snackbar), never for the network to be idle.
 */

/** Where the lead looks at the journey's pages. */
export const SCREENS = '/work/brief/screens';

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true });
}

/** A staff user of one role (company code 1000) registered through the user decider, signed in on the console. */
export async function staff(email: string, role: Role, name: string): Promise<Visitor> {
  await addUser(world().harness, { email, name, roles: [role], companyCodes: ['1000'] });
  return as(email, 'console', { password: TEST_PASSWORD });
}

const expectStatus = (res: request.Response, status: number, what: string): request.Response => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};

/**
 * A bearer header of an existing user (a demo reviewer or a user of the journey): a session issued with the app's
 * own keys (api/src/users/testing.ts sessionOf), so the API set-up and checks never spend the sign-in attempts
 * the browser's sign-ins need.
 */
export async function bearer(username: string): Promise<Record<string, string>> {
  const h = world().harness;
  const user = await findUserByUsername(h.db.pool, username);
  if (!user) throw new Error(`no user ${username}`);
  return (await sessionOf(h, user)).auth;
}

/**
 * A BA verified through the API the way the portal and the console would do it (issue 8): company details with
 * this PAN (a Pune, Maharashtra company, so one GST row of state 27), every tab, Submit, every item approved,
 * stage 1 by procurement@demo.test and stage 2 by commercial@demo.test. Waits for its vendor-code row.
 */
export async function verifiedBa(key: string, pan: string, companyName: string): Promise<{ baId: string; admin: string }> {
  const h = world().harness;
  const ba = await addBa(h, key);
  const admin = (await sessionOf(h, ba.admin)).auth;
  const base = `/api/business-associates/${ba.baId}`;
  expectStatus(await request(h.app).post(`${base}/details`).set(admin).send(details({ panNumber: pan, companyName })), 200, 'details');
  await completeOnboardingViaApi(h, ba.baId, admin);
  expectStatus(await request(h.app).post(`${base}/submit`).set(admin).send({}), 200, 'submit');
  const procurement = await bearer('procurement@demo.test');
  await approveAllItemsViaApi(h, ba.baId, procurement);
  expectStatus(await request(h.app).post(`${base}/approve`).set(procurement).send({ stage: 1 }), 200, 'stage 1');
  expectStatus(await request(h.app).post(`${base}/approve`).set(await bearer('commercial@demo.test')).send({ stage: 2 }), 200, 'stage 2');
  await vendorCodeRow(ba.baId, () => true);
  return { baId: ba.baId, admin: ba.admin.username };
}

/** The BA's vendor-code row of company code 1000 as the API answers it, polled until `until` holds. */
export async function vendorCodeRow(baId: string, until: (row: VendorCodeRow) => boolean, timeoutMs = 60_000): Promise<VendorCodeRow> {
  const h = world().harness;
  const auth = await bearer('admin@demo.test');
  const deadline = Date.now() + timeoutMs;
  let last: VendorCodeRow | undefined;
  while (Date.now() < deadline) {
    const res = await request(h.app).get(`/api/vendor-codes/${encodeURIComponent(`${baId}:1000`)}`).set(auth);
    if (res.status === 200) {
      last = res.body as VendorCodeRow;
      if (until(last)) return last;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the vendor-code row of ${baId} never reached the expected state; last: ${JSON.stringify(last)}`);
}

/** Waits for the snackbar saying `text` (the newest one). */
export async function sees(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).last().waitFor();
}

/** The BA's ERP page, read afresh, once its rows have loaded (the action bar shows with the first row). */
export async function openSapPage(page: Page, baId: string): Promise<void> {
  await page.goto(`${world().base}/console/#/sap/view/${encodeURIComponent(baId)}`);
  await page.reload();
  await page.getByRole('heading', { name: /SAP \/ ERP$/ }).waitFor();
  await page.getByTestId('sap-actions').waitFor();
}

/** Reloads the ERP page until `locator` shows (the page reads the ERP's answers when it is opened). */
export async function reloadUntil(page: Page, baId: string, locator: () => Locator, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await openSapPage(page, baId);
    try {
      await locator().first().waitFor({ timeout: 3_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** Clicks one of the ERP page's action buttons and answers its dialog. */
export async function openSapAction(page: Page, label: string): Promise<Locator> {
  await page.getByTestId('sap-actions').getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

/**
 * Picks an option of a select (MUI TextField select or a master select) by its label: the option matching
 * `option`, or the first one once the master's items arrived. Answers the option's text.
 */
export async function choose(page: Page, scope: Locator, label: RegExp, option?: string | RegExp): Promise<string> {
  await scope.getByRole('combobox', { name: label }).click();
  const listbox = page.getByRole('listbox');
  const item = option ? listbox.getByRole('option', { name: option }) : listbox.getByRole('option').first();
  await item.waitFor();
  const text = ((await item.textContent()) ?? '').trim();
  await item.click();
  await listbox.waitFor({ state: 'hidden' });
  return text;
}

/** Submits a dialog with its button `submit` and waits for it to close. */
export async function submitDialog(dialog: Locator, submit: string): Promise<void> {
  await dialog.getByRole('button', { name: submit, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}
