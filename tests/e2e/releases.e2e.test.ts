import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { getRelease } from '../../projections/src/releases/releases.queries';
import { DEMO_RELEASES } from '../../scripts/seed-releases';
import { as, setUpJourneys, visitor, world } from './support';

/**
 * Release notes, help and complaints in both front ends (spec 000 §1, §2): the seeded releases in a BA's
 * What's New, the public release page, Help's manual (served by the api) and mailbox, the Complaints alert;
 * an admin publishing a release in the console that a BA then finds in What's New.
 */
setUpJourneys('e2e-releases');

const base = () => world().base;
const shots = process.env['SHOTS_DIR'] ?? path.resolve(__dirname, '..', '..', '.test-artifacts');
async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `releases-${name}.png`) });
}

const newest = DEMO_RELEASES[DEMO_RELEASES.length - 1]!;

test("[RELEASES][READ]: a BA opens What's New → the seeded releases, newest first → a release page with its date, features and fixes; Help and Complaints", async () => {
  const { page } = await as('ba.6@demo.test', 'portal');
  await page.getByRole('button', { name: "What's New" }).click();
  const entries = page.getByRole('menuitem');
  // The menu opens with a "Loading…" entry: wait for the releases themselves.
  await page.getByRole('menuitem', { name: /BA Portal Release 1\.0\.0 - Web/ }).waitFor();
  expect(await entries.allTextContents()).toEqual([
    'BA Portal Release 1.2.0 - Web16-Nov-2026',
    'BA Portal Release 1.1.0 - Web14-Sep-2026',
    'BA Portal Release 1.0.0 - Web06-Jul-2026',
  ]);
  await shot(page, 'portal-whats-new');

  await entries.first().click();
  await page.waitForURL('**/newFeaturesList/1.2.0/web');
  await page.getByRole('heading', { name: 'BA Portal Release 1.2.0 - Web' }).waitFor();
  expect(await page.getByTestId('release-date').textContent()).toBe('16-Nov-2026');
  for (const f of [...newest.newFeatures, ...newest.bugFixes]) await page.getByText(f.featureDesc).waitFor();
  await shot(page, 'portal-release-page');

  await page.goBack();
  // The header wraps on a phone rather than hiding entries.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: "What's New" }).waitFor();
  await shot(page, 'portal-header-phone');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.getByRole('button', { name: 'Complaints' }).click();
  await page.getByRole('alert').filter({ hasText: 'Feature Coming Soon!!' }).waitFor();
  await shot(page, 'portal-complaints');

  // The profile menu carries the user's name (the BA's contact person).
  await page.getByRole('button', { name: 'Lakshmi Narayanan' }).click();
  await page.getByRole('menuitem', { name: 'Help' }).click();
  const help = page.getByRole('dialog', { name: 'Help' });
  const manual = help.getByRole('link', { name: 'User Manual' });
  await manual.waitFor();
  await shot(page, 'portal-help');
  const href = (await manual.getAttribute('href')) ?? '';
  expect(href).toMatch(/\/user-manual\.pdf$/);
  // The manual is served (from the portal build) as a PDF.
  const pdf = await page.request.get(`${base()}/user-manual.pdf`);
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
  expect(await help.getByRole('link', { name: /@/ }).getAttribute('href')).toMatch(/^mailto:/);
});

test('[RELEASES][PAGE]: the release page needs no sign-in, and says "Release not found" for an unknown one', async () => {
  const { page } = await visitor('anonymous');
  await page.goto(`${base()}/newFeaturesList/1.1.0/web`);
  await page.getByRole('heading', { name: 'BA Portal Release 1.1.0 - Web' }).waitFor();
  expect(await page.getByTestId('release-date').textContent()).toBe('14-Sep-2026');
  await page.goto(`${base()}/newFeaturesList/9.9.9/ios`);
  await page.getByRole('heading', { name: 'Release not found' }).waitFor();
  await shot(page, 'release-not-found');
});

test("[RELEASES][PUBLISH]: an admin publishes a release in the console → it is stored → a BA's What's New lists it first", async () => {
  const { page } = await as('admin@demo.test', 'console');
  await page.getByRole('menuitem', { name: 'Releases' }).click();
  await page.getByRole('table').getByText('1.2.0').waitFor();
  await shot(page, 'console-list');

  await page.getByRole('link', { name: 'New release' }).click();
  await page.locator('input[name="versionReleased"]').fill('1.3.0');
  await page.locator('input[name="releasedOn"]').fill('2026-11-23');
  await page.locator('[name="newFeatures.0.featureDesc"]').first().fill('PO annexures with preview and download');
  await shot(page, 'console-create');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Release published successfully').waitFor();
  await page.getByRole('table').getByText('1.3.0').waitFor();

  expect(await getRelease(world().harness.db.pool, '1.3.0-web')).toMatchObject({
    featureClass: 'ba',
    releasedOn: '2026-11-23',
    newFeatures: [{ featureDesc: 'PO annexures with preview and download', releasedOn: '2026-11-23' }],
  });

  // The console's own What's New lists the releases meant for everyone (class all).
  await page.getByRole('button', { name: "What's New" }).click();
  await page.getByRole('menuitem', { name: /BA Portal Release 1\.2\.0 - Web/ }).waitFor();
  expect(await page.getByRole('menuitem', { name: /1\.3\.0/ }).count()).toBe(0);
  await shot(page, 'console-whats-new');
  await page.keyboard.press('Escape');

  const ba = await as('ba.6@demo.test', 'portal');
  await ba.page.getByRole('button', { name: "What's New" }).click();
  // Past the "Loading…" entry the menu opens with.
  await ba.page.getByRole('menuitem', { name: /BA Portal Release/ }).first().waitFor();
  expect(await ba.page.getByRole('menuitem').first().textContent()).toBe('BA Portal Release 1.3.0 - Web23-Nov-2026');
});
