import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { as, screenshot, setUpJourneys, world } from './support';

/**
 * Masters journey (issue 7): an MLL-ADMIN adds a city (in a state) and a vehicle type through the console's
 * Masters forms; a BA then finds the new city in the portal's company-details form once the state is chosen.
 * Checked against what was stored: the master_items read model and the item's event stream.
 */
setUpJourneys('e2e-masters');

const CITY = 'Khopoli';
const VEHICLE_TYPE = 'Hydraulic Axle Trailer';
const RENAMED = 'Hydraulic Axle Trailer 8 Axle';

/** Screens worth a look: the whole page beside the journey's artifacts, the window under /tmp/shots/masters-ui. */
async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, `masters-${name}`);
  const dir = '/tmp/shots/masters-ui';
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

type ItemRow = { id: string; status: string; values: Record<string, unknown> };

/**
 * The master item as the read model holds it, polled until `until` holds (10 s at most): the projector applies
 * events asynchronously, and on a loaded machine the API may answer before its bounded wait saw them.
 */
async function masterItem(
  master: string,
  field: string,
  value: string,
  until: (row: ItemRow) => boolean = () => true,
): Promise<ItemRow | undefined> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await world().harness.db.pool.query<ItemRow>(
      `select id, status, values from master_items where master = $1 and values->>$2 = $3`,
      [master, field, value],
    );
    if ((rows[0] && until(rows[0])) || Date.now() > deadline) return rows[0];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The console routes by hash: waits until the hash's path is `route` (a list may add its query). Same-document
 * navigations fire no load event, so waitForURL is not the tool.
 */
async function at(page: Page, route: string): Promise<void> {
  await page.waitForFunction((expected) => window.location.hash.split('?')[0] === `#${expected}`, route);
}

async function sidebar(page: Page, entry: string): Promise<void> {
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
}

test('[MASTERS][CREATE]: admin adds a city and a vehicle type → a BA picks the new city in its form', async () => {
  const admin = await as('admin@demo.test', 'console');
  const page = admin.page;

  await sidebar(page, 'Dashboard');
  await at(page, '/meta-data/dashboard');
  await page.getByTestId('cities-active').filter({ hasText: /\d/ }).waitFor();
  await shot(page, '1-dashboard');

  await sidebar(page, 'City');
  await at(page, '/meta-data/city');
  // A master's table shows 100 rows a page (spec 000 §9); the search narrows it.
  await page.locator('tbody tr').nth(99).waitFor();
  expect(await page.locator('tbody tr').count()).toBe(100);
  await shot(page, '2-city-list');
  await page.getByPlaceholder('Search cities').fill('Mumb');
  await page.getByRole('cell', { name: 'Mumbai', exact: true }).waitFor();
  expect(await page.locator('tbody tr').count()).toBeLessThan(10);

  await page.getByRole('link', { name: 'Create' }).click();
  await at(page, '/meta-data/city/create');
  // Saved empty: the fields say what is missing, in the schema's words, and nothing is sent.
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Please select a State').waitFor();
  await page.getByRole('textbox', { name: /City Name/ }).fill('Khopoli-1');
  await page.getByText('Only letters, hyphen, dot and space are allowed').waitFor();
  await shot(page, '3-city-create-error');

  await page.getByRole('textbox', { name: /City Name/ }).fill(CITY);
  await page.getByRole('combobox', { name: /State/ }).fill('Mahara');
  await page.getByRole('option', { name: 'Maharashtra', exact: true }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('City saved successfully').waitFor();
  await at(page, '/meta-data/city');

  const city = await masterItem('cities', 'name', CITY);
  expect(city).toMatchObject({ status: 'active', values: { name: CITY, stateId: 27 } });
  const events = await world().harness.store.readStream(`master-cities-${city!.id}`);
  expect(events.map((e) => e.type)).toEqual(['MasterItemCreated']);
  expect(events[0]!.metadata.actor).toMatchObject({ role: 'MLL-ADMIN' });

  // The new city's page: its history says who created it.
  await page.getByPlaceholder('Search cities').fill(CITY);
  await page.getByRole('cell', { name: CITY, exact: true }).click();
  await at(page, `/meta-data/city/${city!.id}`);
  const history = page.getByRole('table', { name: 'Change history' });
  await history.getByRole('cell', { name: 'Created', exact: true }).waitFor();
  await history.getByText('Maharashtra').waitFor();
  await shot(page, '4-city-edit-history');

  await sidebar(page, 'Vehicle Type');
  await at(page, '/meta-data/vehicle-type');
  await page.getByRole('link', { name: 'Create' }).click();
  await page.getByRole('textbox', { name: /Vehicle Type/ }).fill(VEHICLE_TYPE);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Vehicle Type saved successfully').waitFor();
  await at(page, '/meta-data/vehicle-type');
  const vehicle = await masterItem('vehicle-types', 'name', VEHICLE_TYPE);
  expect(vehicle).toMatchObject({ status: 'active' });

  // A rename and a deactivation: each an event an auditor reads on the item's page, before → after.
  await page.goto(`${world().base}/console/#/meta-data/vehicle-type/${vehicle!.id}`);
  await page.getByRole('textbox', { name: /Vehicle Type/ }).fill(RENAMED);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Vehicle Type saved successfully').waitFor();
  await at(page, '/meta-data/vehicle-type');
  await page.getByPlaceholder('Search vehicle types').fill('Hydraulic');
  await page.getByRole('button', { name: `Deactivate ${RENAMED}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await page.getByText('Vehicle Type deactivated successfully').waitFor();
  expect(await masterItem('vehicle-types', 'name', RENAMED, (row) => row.status === 'inactive')).toMatchObject({ status: 'inactive' });
  const vehicleEvents = await world().harness.store.readStream(`master-vehicle-types-${vehicle!.id}`);
  expect(vehicleEvents.map((e) => [e.type, e.data])).toEqual([
    ['MasterItemCreated', expect.objectContaining({ values: { name: VEHICLE_TYPE } })],
    ['MasterItemChanged', expect.objectContaining({ before: { name: VEHICLE_TYPE }, after: { name: RENAMED } })],
    ['MasterItemStatusChanged', expect.objectContaining({ status: 'inactive' })],
  ]);
  await page.getByRole('cell', { name: RENAMED, exact: true }).click();
  const vehicleHistory = page.getByRole('table', { name: 'Change history' });
  await vehicleHistory.getByRole('cell', { name: 'Deactivated', exact: true }).waitFor();
  await vehicleHistory.getByRole('cell', { name: 'Changed', exact: true }).waitFor();
  await shot(page, '5-vehicle-type-history');

  const ba = await as('ba.2@demo.test', 'portal', { landing: '**/onboard/status' });
  await ba.page.getByRole('link', { name: 'Complete company details' }).click();
  await ba.page.getByLabel('State').selectOption({ label: 'Maharashtra' });
  await ba.page.getByLabel('City').locator('option', { hasText: CITY }).waitFor({ state: 'attached' });
  await ba.page.getByLabel('City').selectOption({ label: CITY });
  expect(await ba.page.getByLabel('City').inputValue()).toBe(city!.id);
  await shot(ba.page, '6-ba-picks-new-city');

  await Promise.all([admin.context.close(), ba.context.close()]);
});
