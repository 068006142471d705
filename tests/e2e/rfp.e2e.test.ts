import { laneIdOf } from '../../domain/src/rfp/lanes';
import { rfpMessages } from '../../domain/src/rfp/messages';
import { uniqueRfpCode } from '../../workflows/src/rfp/testing';
import { screenshot, setUpJourneys, type Visitor } from './support';
import {
  BAS,
  baOnPortal,
  chooseProperties,
  customerSheet,
  downloadBidTemplate,
  downloadLaneTemplate,
  expectCell,
  filledBid,
  filledLaneTemplate,
  floatToSelected,
  indiaDay,
  messagesMentioning,
  openBaRfp,
  openStaffRfp,
  openTab,
  procurement,
  sees,
  selectBas,
  staffAction,
  staffSeesStatus,
  startRfp,
  typeInGrid,
  uploadBid,
  uploadLaneSheet,
  type WizardRfp,
} from './rfp-steps';

/**
 * Browser journeys of issue 10 against the whole back end, its RFP workflow and the sandbox CRM:
 * (1) MLL Procurement creates a standard RFP from a CRM opportunity in the wizard, uploads 50 lanes from the
 *     downloaded template and floats it to three BAs; one BA quotes in the lane grid, another by the bid
 *     template; staff close bidding, compare by location and award, one lane split between the two; each BA
 *     sees its own outcome.
 * (2) A non-standard RFP (the customer's own sheet) is quoted, closed for bidding, reopened for a second round,
 *     and the BA's revised quote is what staff compare.
 * (3) Backhaul: staff invite a BA of journey 1's RFP; the BA is told and sees the invitation on the RFP.
 * Everything a person does goes through the UI; the outbox is read as the BA's mailbox.
 */
setUpJourneys('e2e-rfp');

/** A journey drives a few hundred UI steps on a 2-core machine. */
const JOURNEY_MS = 900_000;

const ROUTES: readonly [string, string, number][] = [
  ['Mumbai', 'Pune', 150],
  ['Chennai', 'Bengaluru', 350],
  ['Delhi', 'Jaipur', 280],
  ['Ahmedabad', 'Surat', 265],
  ['Kolkata', 'Patna', 580],
];
const VEHICLES = ['32 FT MXL', '20 FT SXL'] as const;

/** 50 lanes: five routes, each with ten lanes of two vehicle types. Lane i gets the id laneIdOf(i). */
const LANES = Array.from({ length: 50 }, (_, i) => {
  const [from, to, km] = ROUTES[i % ROUTES.length]!;
  return { 'From City': from, 'To City': to, 'Vehicle Type': VEHICLES[Math.floor(i / 5) % 2]!, 'Distance (km)': String(km + Math.floor(i / 5)) };
});
/** Narmada quotes every lane by the bid file; Coromandel quotes the first five in the grid, each 1,000 cheaper. */
const narmadaRate = (i: number) => 20_000 + i * 100;
const coromandelRate = (i: number) => 19_000 + i * 100;
const GRID_LANES = [0, 1, 2, 3, 4];

const STANDARD: WizardRfp = {
  code: uniqueRfpCode(),
  opportunityId: 'OPP-2026-0002',
  hireType: 'Trip based',
  rfpType: /^Standard$/,
  mll: ['From City', 'To City', 'Vehicle Type', 'Distance (km)'],
  ba: ['Rate per Trip (INR)', 'Transit Time (days)'],
};
let awarded = false;

/** One console session of MLL Procurement for the suite (each sign-in spends an OTP). */
let staffVisitor: Visitor | null = null;
const staff = async () => (staffVisitor ??= await procurement());
afterAll(async () => {
  await staffVisitor?.context.close();
});

test('[RFP][STANDARD]: wizard from a CRM opportunity → 50 lanes from the template → floated to three BAs → one quotes in the grid, one by the bid template → close bidding → compare by location → award with a split lane → each BA sees its outcome', async () => {
  const { code } = STANDARD;
  const { page } = await staff();

  // Steps 1–3: the opportunity, the properties, and the 50 lanes typed into the downloaded template.
  await startRfp(page, STANDARD);
  await chooseProperties(page, STANDARD);
  const template = await downloadLaneTemplate(page);
  expect(template.fileName).toMatch(/^RFP Template_-Narmada Motors Ltd-.+\.xlsx$/);
  const sheet = await filledLaneTemplate(template.bytes, LANES);
  expect(sheet.headers).toEqual(STANDARD.mll);
  await uploadLaneSheet(page, code, sheet.bytes, LANES.length);

  // Steps 4–5: three BAs by name, floated; each is told.
  const invited = [BAS.coromandel, BAS.narmada, BAS.godavari];
  await selectBas(page, code, invited.map((b) => b.name));
  await floatToSelected(page, code, invited.map((b) => b.name));
  await staffSeesStatus(page, code, 'Floated');
  await page.getByRole('group', { name: 'RFP details' }).getByText('3 / 0').waitFor();
  await screenshot(page, 'rfp-standard-floated');
  for (const ba of invited) expect(await messagesMentioning(ba.username, code)).not.toHaveLength(0);

  // Coromandel quotes five lanes in the grid and saves.
  const coromandel = await baOnPortal(BAS.coromandel.username);
  await openBaRfp(coromandel.page, code);
  for (const i of GRID_LANES) {
    await typeInGrid(coromandel.page, laneIdOf(i), 'ratePerTrip', String(coromandelRate(i)));
    await typeInGrid(coromandel.page, laneIdOf(i), 'transitDays', '1');
  }
  await screenshot(coromandel.page, 'rfp-standard-grid-quote');
  await coromandel.page.getByRole('button', { name: 'Save', exact: true }).click();
  await sees(coromandel.page, rfpMessages.laneResponseSaved.trim());

  // Narmada downloads the bid template, quotes every lane in it and uploads it.
  const narmada = await baOnPortal(BAS.narmada.username);
  await openBaRfp(narmada.page, code);
  const bid = await filledBid(await downloadBidTemplate(narmada.page, code), (laneId) => {
    const i = Number(laneId.slice(1)) - 1;
    return { 'Rate per Trip (INR)': String(narmadaRate(i)), 'Transit Time (days)': '2' };
  });
  expect(bid.laneIds).toEqual(LANES.map((_, i) => laneIdOf(i)));
  await uploadBid(narmada.page, code, bid.bytes);
  // The view reads its lanes again after the upload: the grid shows the file's quotes, never another BA's.
  await expectCell(narmada.page, laneIdOf(0), 'ratePerTrip', String(narmadaRate(0)));
  await expectCell(narmada.page, laneIdOf(4), 'ratePerTrip', String(narmadaRate(4)));
  await screenshot(narmada.page, 'rfp-standard-bid-uploaded');

  // Staff close bidding, then compare the quotes by location.
  await staffSeesStatus(page, code, 'Floated');
  await page.getByRole('group', { name: 'RFP details' }).getByText('3 / 2').waitFor();
  await staffAction(page, 'Close bidding', 'Close bidding');
  await staffSeesStatus(page, code, 'Evaluation');
  await openTab(page, 'Responses');
  await page.getByRole('button', { name: 'Location', exact: true }).click();
  const comparison = page.getByRole('table', { name: 'Comparison' });
  const mumbaiPune = comparison.getByRole('row').filter({ hasText: 'Mumbai → Pune' });
  await mumbaiPune.getByText('(10 lanes)').waitFor();
  const groupText = (await mumbaiPune.textContent()) ?? '';
  // Lowest first: Coromandel's one lane on the route is cheaper than Narmada's average over ten.
  expect(groupText.indexOf(BAS.coromandel.name)).toBeGreaterThanOrEqual(0);
  expect(groupText.indexOf(BAS.coromandel.name)).toBeLessThan(groupText.indexOf(BAS.narmada.name));
  expect(groupText).toContain('(1 lane)');
  expect(await comparison.getByRole('row').count()).toBe(ROUTES.length + 1);
  await screenshot(page, 'rfp-standard-comparison-location');

  // Award: each lane to its lowest bidder, except L0001, split 60/40 between the two.
  await page.getByRole('group', { name: 'RFP actions' }).getByRole('button', { name: 'Award', exact: true }).click();
  const dialog = page.getByRole('dialog');
  const split = dialog.getByTestId(`award-lane-${laneIdOf(0)}`);
  await split.getByRole('textbox', { name: `Share 1 of lane ${laneIdOf(0)}` }).fill('60');
  await split.getByRole('button', { name: 'Add BA' }).click();
  // The new share's BA select (the first is the lowest bidder's).
  await split.getByRole('combobox', { name: 'BA for share 2', exact: true }).click();
  await page.getByRole('listbox').getByRole('option', { name: new RegExp(BAS.narmada.name) }).click();
  await split.getByRole('textbox', { name: `Share 2 of lane ${laneIdOf(0)}` }).fill('40');
  await screenshot(page, 'rfp-standard-award');
  await dialog.getByRole('button', { name: 'Award', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await staffSeesStatus(page, code, 'Awarded');
  awarded = true;

  // Each BA sees its own awarded lanes and shares, and nothing of the other's.
  const outcomeOf = async (v: Visitor, lanes: number) => {
    await v.page.goto(`${v.page.url().split('/rfp/')[0]}/rfp/BA/dashboard`);
    const row = v.page.getByRole('table', { name: 'RFPs' }).getByRole('row').filter({ hasText: code });
    await row.getByText('Awarded').waitFor();
    expect((await row.getByRole('cell').last().textContent())?.trim()).toBe(String(lanes));
    await openBaRfp(v.page, code);
    const table = v.page.getByTestId('rfp-outcome').getByRole('table', { name: 'Awarded lanes' });
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(lanes + 1);
    return table;
  };
  const coromandelAwards = await outcomeOf(coromandel, GRID_LANES.length);
  expect(await coromandelAwards.getByRole('row').filter({ hasText: laneIdOf(0) }).getByRole('cell').nth(1).textContent()).toBe('60');
  expect(await coromandelAwards.getByRole('row').filter({ hasText: laneIdOf(1) }).getByRole('cell').nth(1).textContent()).toBe('100');
  await screenshot(coromandel.page, 'rfp-standard-outcome-coromandel');
  const narmadaAwards = await outcomeOf(narmada, LANES.length - GRID_LANES.length + 1);
  expect(await narmadaAwards.getByRole('row').filter({ hasText: laneIdOf(0) }).getByRole('cell').nth(1).textContent()).toBe('40');
  expect(await narmadaAwards.getByRole('row').filter({ hasText: laneIdOf(1) }).count()).toBe(0);
  await screenshot(narmada.page, 'rfp-standard-outcome-narmada');
  await Promise.all([coromandel.context.close(), narmada.context.close()]);
}, JOURNEY_MS);

test('[RFP][NON-STANDARD]: the customer’s own sheet → floated → quoted in the grid → bidding closed → reopened for round 2 → the BA revises its quote → staff compare the revised rate', async () => {
  const rfp: WizardRfp = {
    code: uniqueRfpCode(),
    opportunityId: 'OPP-2026-0004',
    hireType: 'Trip based',
    rfpType: /^Non-standard$/,
    mll: ['From City', 'To City', 'Vehicle Type'],
    ba: ['Rate per Trip (INR)'],
  };
  const { code } = rfp;
  const { page } = await staff();
  await startRfp(page, rfp);
  await chooseProperties(page, rfp);
  // The customer's sheet has columns of its own: the chosen ones are found by their labels.
  const sheet = await customerSheet(
    ['Customer Lane Ref', 'From City', 'To City', 'Vehicle Type', 'Annual Volume'],
    [
      ['CUST-01', 'Nagpur', 'Raipur', '32 FT MXL', '240'],
      ['CUST-02', 'Nagpur', 'Hyderabad', '32 FT MXL', '180'],
      ['CUST-03', 'Indore', 'Bhopal', '20 FT SXL', '300'],
    ],
  );
  await uploadLaneSheet(page, code, sheet, 3);
  await selectBas(page, code, [BAS.narmada.name]);
  await floatToSelected(page, code, [BAS.narmada.name]);
  await staffSeesStatus(page, code, 'Floated');

  // Round 1: Narmada quotes two lanes in the grid.
  const narmada = await baOnPortal(BAS.narmada.username);
  await openBaRfp(narmada.page, code);
  await typeInGrid(narmada.page, laneIdOf(0), 'ratePerTrip', '15000');
  await typeInGrid(narmada.page, laneIdOf(1), 'ratePerTrip', '26000');
  await narmada.page.getByRole('button', { name: 'Save', exact: true }).click();
  await sees(narmada.page, rfpMessages.laneResponseSaved.trim());

  // Staff close bidding, then reopen for a second round with a new due date.
  await staffAction(page, 'Close bidding', 'Close bidding');
  await staffSeesStatus(page, code, 'Evaluation');
  await openTab(page, 'Responses');
  await page.getByText('Round 1').waitFor();
  await staffAction(page, 'Reopen', 'Reopen', { label: 'New due date', value: indiaDay(10) });
  await staffSeesStatus(page, code, 'Floated');
  await page.getByRole('group', { name: 'RFP details' }).getByText('Round', { exact: true }).locator('..').getByText('2', { exact: true }).waitFor();
  expect(await messagesMentioning(BAS.narmada.username, code, 2)).toHaveLength(2);

  // Round 2: the BA sees the new round with its round-1 quotes filled in, revises lane 1 and saves both.
  await openBaRfp(narmada.page, code);
  await narmada.page.getByText('Round', { exact: true }).locator('..').getByText('2', { exact: true }).waitFor();
  await narmada.page.getByTestId('carried-forward').waitFor();
  await expectCell(narmada.page, laneIdOf(1), 'ratePerTrip', '26000');
  await typeInGrid(narmada.page, laneIdOf(0), 'ratePerTrip', '14200');
  await screenshot(narmada.page, 'rfp-nonstandard-round2-revised');
  await narmada.page.getByRole('button', { name: 'Save', exact: true }).click();
  await sees(narmada.page, rfpMessages.laneResponseSaved.trim());

  // Staff close round 2 and compare: the revised rate is the one compared.
  await staffAction(page, 'Close bidding', 'Close bidding');
  await staffSeesStatus(page, code, 'Evaluation');
  await openTab(page, 'Responses');
  await page.getByText('Round 2').waitFor();
  const lane1 = page.getByRole('table', { name: 'Comparison' }).getByRole('row').filter({ hasText: laneIdOf(0) });
  await lane1.getByText(/14,200/).first().waitFor();
  expect(await lane1.textContent()).not.toMatch(/15,000/);
  await page.getByRole('table', { name: 'Comparison' }).getByRole('row').filter({ hasText: laneIdOf(1) }).getByText(/26,000/).first().waitFor();
  await screenshot(page, 'rfp-nonstandard-round2-comparison');
  await narmada.context.close();
}, JOURNEY_MS);

test('[RFP][BACKHAUL]: staff invite a BA of the awarded RFP for backhaul → the BA is told and sees the invitation; the others are not invited', async () => {
  expect(awarded).toBe(true);
  const { code } = STANDARD;
  const { page } = await staff();
  await openStaffRfp(page, code);
  await openTab(page, 'Invited BAs');
  const table = page.getByRole('table', { name: 'Invited BAs' });
  const godavari = table.getByRole('row').filter({ hasText: BAS.godavari.name });
  expect((await godavari.getByRole('cell').nth(3).textContent())?.trim()).toBe('0');
  const toggle = godavari.getByRole('switch', { name: `Backhaul invite ${BAS.godavari.name}` }).or(godavari.getByRole('checkbox'));
  expect(await toggle.isChecked()).toBe(false);
  await toggle.click();
  await sees(page, rfpMessages.inviteSent);
  await openStaffRfp(page, code);
  await openTab(page, 'Invited BAs');
  await page
    .getByRole('table', { name: 'Invited BAs' })
    .getByRole('row')
    .filter({ hasText: BAS.godavari.name })
    .locator('input:checked')
    .waitFor();
  await screenshot(page, 'rfp-backhaul-invited');
  const others = page.getByRole('table', { name: 'Invited BAs' }).getByRole('row').filter({ hasNotText: BAS.godavari.name });
  expect(await others.locator('input:checked').count()).toBe(0);

  // The BA is told (in-app and by e-mail) and sees the invitation on the RFP.
  const invitation = `You are invited to offer backhaul for RFP ${code}`;
  const notices = await messagesMentioning(BAS.godavari.username, invitation);
  expect(notices).toHaveLength(1);
  const ba = await baOnPortal(BAS.godavari.username);
  await openBaRfp(ba.page, code);
  await ba.page.getByTestId('backhaul-invited').waitFor();
  await screenshot(ba.page, 'rfp-backhaul-ba');
  expect(await messagesMentioning(BAS.coromandel.username, invitation, 1, 0)).toHaveLength(0);
  await ba.context.close();
}, JOURNEY_MS);
