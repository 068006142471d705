import { pdfDocument, pngImage } from '../fixtures/documents';
import { dismissError, screenshot, setUpJourneys, world, type Visitor } from './support';
import { downloadBy, sees } from './rfp-steps';
import {
  ACCOUNTS,
  anInvoice,
  apiAs,
  attachFiles,
  BA,
  baListRow,
  baListShows,
  baOnBillHub,
  baOnPortal,
  baSeesStatus,
  COMMERCIAL,
  countText,
  fillInvoice,
  invoiceChoices,
  invoiceNumber,
  kpi,
  openNewInvoice,
  openStaffInvoice,
  pdfText,
  performanceOf,
  renderFirstPage,
  saveNewDraft,
  staffAction,
  staffOnConsole,
  staffSeesStatus,
  submitFromForm,
  submittedByApi,
  until,
  waitForMemoCandidates,
  STEP_TIMEOUT_MS,
} from './bill-hub-steps';

/**
 * Browser journeys of issue 11 (Bill-Hub) against the whole back end, its invoice and memo workflows and the
 * sandbox ERP:
 * (1) The verified BA opens the Bill-Hub from the header (a new window), drafts an invoice with two files,
 *     submits it, and is refused a second invoice of the same number; commercial staff acknowledge and verify
 *     it, accounts (MLL-ADMIN) book it in the ERP and release it; the BA sees every status.
 * (2) Three submitted invoices of one state pair go into a memo on the memo page; its printable page downloads
 *     the PDF, which poppler renders and reads: the memo number and the three invoice numbers are in it.
 * (3) The performance dashboard shows what the API computes for the BA, by month, quarter and financial year.
 */
setUpJourneys('e2e-bill-hub');

/** A journey drives a few hundred UI steps and several workflow round trips on a shared 2-core machine. */
const JOURNEY_MS = 900_000;

/** Invoices this suite submitted and released: the performance dashboard must count at least these. */
let submitted = 0;
let released = 0;

const closeAll = (...visitors: (Visitor | null)[]) => Promise.all(visitors.map((v) => v?.context.close()));

test('[BILL-HUB][INVOICE]: header "Bill Hub" opens a new window → draft with a PDF and a PNG → saved → submitted → same number refused → commercial acknowledges and verifies → accounts book in the ERP and release → the BA sees every status', async () => {
  const number = invoiceNumber('INV1');
  const ba = await baOnBillHub();
  await screenshot(ba.page, 'bill-hub-1-list');

  // The draft: the form filled, saved ("Invoice Saved successfully"), then two files attached to it.
  await openNewInvoice(ba.page);
  await fillInvoice(ba.page, anInvoice(number));
  await ba.page.getByTestId('invoice-totals').getByText(/50,925\.00/).waitFor();
  await screenshot(ba.page, 'bill-hub-1-form');
  const id = await saveNewDraft(ba.page, number);
  await baSeesStatus(ba.page, id, 'Draft');
  await attachFiles(ba.page, [
    { name: 'tax-invoice.pdf', mimeType: 'application/pdf', buffer: pdfDocument(`Tax invoice ${number}`) },
    { name: 'proof-of-delivery.png', mimeType: 'image/png', buffer: pngImage() },
  ]);
  await screenshot(ba.page, 'bill-hub-1-draft-with-files');

  // Submitted from the form; the list shows it under Submitted.
  await submitFromForm(ba.page);
  submitted += 1;
  await baListShows(ba.page, 'Submitted', number, 'Submitted');
  await baSeesStatus(ba.page, id, 'Submitted');
  // The files went with it.
  const files = ba.page.getByRole('list', { name: 'Attachments' });
  await files.getByText('tax-invoice.pdf', { exact: true }).waitFor();
  await files.getByText('proof-of-delivery.png', { exact: true }).waitFor();
  await screenshot(ba.page, 'bill-hub-1-submitted');

  // A second invoice with the same number, in other letter case, is refused.
  await openNewInvoice(ba.page);
  await fillInvoice(ba.page, anInvoice(number.toLowerCase(), { taxableAmount: '1000.00', cgst: '25.00', sgst: '25.00', td: '0' }));
  await ba.page.getByRole('button', { name: 'Save as draft' }).click();
  const refusal = await dismissError(ba.page);
  expect(['Invoice already exists', 'Duplicate Invoice']).toContain(refusal.trim());
  await screenshot(ba.page, 'bill-hub-1-duplicate-refused');

  // Commercial staff (company code 1000) acknowledge, then verify.
  const commercial = await staffOnConsole(COMMERCIAL.username);
  await staffSeesStatus(commercial.page, id, number, 'Submitted');
  await staffAction(commercial.page, 'Acknowledge');
  await sees(commercial.page, 'Invoice acknowledged');
  await staffSeesStatus(commercial.page, id, number, 'Acknowledged');
  await baSeesStatus(ba.page, id, 'Acknowledged');
  await staffAction(commercial.page, 'Verify');
  await sees(commercial.page, 'Invoice verified');
  await staffSeesStatus(commercial.page, id, number, 'Verified');
  await screenshot(commercial.page, 'bill-hub-1-console-verified');
  // Commercial staff may not book or release: the API allows them no such button.
  expect(await commercial.page.getByRole('button', { name: 'Book', exact: true }).count()).toBe(0);
  await baSeesStatus(ba.page, id, 'Verified');

  // Accounts book it: the sandbox ERP answers (at once or after the 202), and the invoice shows Booked.
  const accounts = await staffOnConsole(ACCOUNTS.username);
  await openStaffInvoice(accounts.page, id, number);
  await staffAction(accounts.page, 'Book');
  await sees(accounts.page, /^(Invoice booked|Booking requested; waiting for ERP)$/);
  await staffSeesStatus(accounts.page, id, number, 'Booked', 3 * STEP_TIMEOUT_MS);
  // The ERP's document number is shown on the invoice once booked.
  const erpDocument = accounts.page.getByText('ERP document number', { exact: true }).locator('..');
  expect(((await erpDocument.textContent()) ?? '').replace('ERP document number', '').trim()).not.toMatch(/^(NA)?$/);
  await screenshot(accounts.page, 'bill-hub-1-console-booked');
  await baSeesStatus(ba.page, id, 'Booked');

  // Released: terminal; the BA sees it under Released.
  await staffAction(accounts.page, 'Release');
  await sees(accounts.page, 'Invoice released');
  await staffSeesStatus(accounts.page, id, number, 'Released');
  released += 1;
  expect(await accounts.page.getByRole('button', { name: 'Release', exact: true }).count()).toBe(0);
  await baSeesStatus(ba.page, id, 'Released');
  // The history lists each step, in the order they happened.
  const steps = ['Submitted', 'Acknowledged', 'Verified', 'Booked', 'Released'];
  const history = ba.page.getByRole('table', { name: 'Status history' });
  await history.getByRole('cell', { name: 'Released', exact: true }).first().waitFor();
  const shown = (await history.locator('tbody tr td:first-child').allTextContents()).map((t) => t.trim());
  expect(steps.map((label) => shown.indexOf(label))).toEqual(steps.map((label) => shown.indexOf(label)).sort((a, b) => a - b));
  expect(steps.filter((label) => !shown.includes(label))).toEqual([]);
  await screenshot(ba.page, 'bill-hub-1-released');
  await baListShows(ba.page, 'Released', number, 'Released');
  await closeAll(ba, commercial, accounts);
}, JOURNEY_MS);

test('[BILL-HUB][MEMO]: three submitted invoices of one state pair → memo page: select the three → "Memo submitted successfully." → print page → Download PDF → poppler renders it and reads the memo and invoice numbers', async () => {
  // The invoices are history here, not the subject: created and submitted through the API as the BA.
  const api = await apiAs(BA.username);
  const { from, to } = await invoiceChoices(api);
  const numbers = [invoiceNumber('M1'), invoiceNumber('M2'), invoiceNumber('M3')];
  for (const [i, n] of numbers.entries())
    await submittedByApi(api, anInvoice(n, { taxableAmount: `${10_000 * (i + 1)}.00`, cgst: '250.00', sgst: '250.00', td: '100.00' }));
  submitted += numbers.length;
  await waitForMemoCandidates(api, from.stateId, to.stateId, numbers);

  // The memo through the UI: states chosen, the three invoices selected, submitted.
  const ba = await baOnPortal();
  const { page } = ba;
  await page.goto(`${world().base}/bill-hub`);
  await page.getByRole('link', { name: 'Create Memo' }).click();
  await page.getByRole('heading', { level: 1, name: 'Create Memo' }).waitFor();
  await page
    .getByLabel('From State')
    .locator(`option[value="${from.stateId}"]`)
    .waitFor({ state: 'attached' })
    .catch(async (e: unknown) => {
      await screenshot(page, 'bill-hub-2-create-memo-failed');
      throw e;
    });
  await page.getByLabel('From State').selectOption(String(from.stateId));
  await page.getByLabel('To State').selectOption(String(to.stateId));
  await page.waitForURL(new RegExp(`creatememo\\?.*fromState=${from.stateId}`));
  const candidates = page.getByRole('table', { name: 'Memo candidates' });
  for (const n of numbers) await candidates.getByRole('checkbox', { name: `Select invoice ${n}` }).check();
  await page.getByTestId('memo-totals').getByText(/^3 selected/).waitFor();
  await page.getByLabel('Comments').fill('November freight, Hoskote');
  await screenshot(page, 'bill-hub-2-create-memo');
  await page.getByRole('button', { name: 'Submit Memo' }).click();
  await sees(page, 'Memo submitted successfully.');
  await page.waitForURL(/\/bill-hub\/viewMemo\/[^/]+$/);
  const heading = page.getByRole('heading', { level: 1, name: /^Memo MEMO\// });
  await heading.waitFor();
  const memoNumber = ((await heading.textContent()) ?? '').replace(/^Memo /, '').trim();
  expect(memoNumber).toMatch(/^MEMO\/1000\/\d{4}-\d{2}\/\d{6}$/);
  const memoInvoices = page.getByRole('table', { name: 'Memo invoices' });
  for (const n of numbers) await memoInvoices.getByRole('cell', { name: n, exact: true }).waitFor();
  await screenshot(page, 'bill-hub-2-view-memo');

  // The printable page and its PDF, as the BA downloads and opens it.
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await page.waitForURL(/\/bill-hub\/printMemo\/[^/]+$/);
  await page.getByTestId('print-memo').waitFor();
  await screenshot(page, 'bill-hub-2-print-memo');
  const download = await downloadBy(page, () => page.getByRole('button', { name: 'Download PDF' }).click());
  expect(download.fileName).toBe(`Memo-${memoNumber.replace(/\//g, '-')}.pdf`);
  expect(download.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const { pdf, png } = renderFirstPage(download.bytes, download.fileName);
  expect(png).toMatch(/\.png$/);
  const text = pdfText(pdf);
  expect(text).toContain(memoNumber);
  for (const n of numbers) expect(text).toContain(n);

  // The list now shows each invoice in the memo.
  for (const n of numbers) {
    await until(async () => {
      const row = await baListRow(page, 'All', n);
      await row.getByRole('cell', { name: memoNumber, exact: true }).waitFor({ timeout: 5_000 });
    }, STEP_TIMEOUT_MS);
  }
  await screenshot(page, 'bill-hub-2-list-in-memo');
  await closeAll(ba);
}, JOURNEY_MS);

test('[BILL-HUB][PERFORMANCE]: the dashboard shows the figures of GET /api/performance by month; Quarter and Year switch to the API’s figures for those periods', async () => {
  const api = await apiAs(BA.username);
  const ba = await baOnPortal();
  const { page } = ba;

  /** The totals cards against the API's totals for `period`; the read model may still be catching up. */
  const matches = async (period: 'month' | 'quarter' | 'year', reload: boolean) => {
    let report = await performanceOf(api, period);
    await until(async () => {
      report = await performanceOf(api, period);
      if (reload) {
        await page.goto(`${world().base}/performance-dashboard`);
        await page.getByRole('heading', { level: 1, name: 'Performance Dashboard' }).waitFor();
      }
      expect(await kpi(page, 'RFPs invited')).toBe(countText(report.totals.rfpsInvited));
      expect(await kpi(page, 'Invoices submitted')).toBe(countText(report.totals.invoicesSubmitted));
      expect(await kpi(page, 'Invoices released')).toBe(countText(report.totals.invoicesReleased));
      expect(await kpi(page, 'RFPs won')).toBe(countText(report.totals.rfpsWon));
    }, STEP_TIMEOUT_MS, async () => screenshot(page, `bill-hub-3-performance-${period}-mismatch`));
    return report;
  };

  const month = await matches('month', true);
  expect(month.period).toBe('month');
  expect(month.baId).toBe(BA.baId);
  expect(month.buckets).toHaveLength(12);
  // The demo RFPs invite this BA; this suite's invoices were submitted (and one released) this month.
  expect(month.totals.rfpsInvited).toBeGreaterThanOrEqual(1);
  expect(month.totals.invoicesSubmitted).toBeGreaterThanOrEqual(submitted);
  expect(month.totals.invoicesReleased).toBeGreaterThanOrEqual(released);
  expect(month.buckets.at(-1)?.invoicesSubmitted).toBeGreaterThanOrEqual(submitted);
  await screenshot(page, 'bill-hub-3-performance-month');

  const periods = page.getByRole('group', { name: 'Period' });
  await periods.getByRole('button', { name: 'Quarter' }).click();
  const quarter = await matches('quarter', false);
  expect(quarter.buckets).toHaveLength(8);
  expect(quarter.buckets.every((b) => /^\d{4}-Q[1-4]$/.test(b.key))).toBe(true);
  expect(await periods.getByRole('button', { name: 'Quarter' }).getAttribute('aria-pressed')).toBe('true');
  await screenshot(page, 'bill-hub-3-performance-quarter');

  await periods.getByRole('button', { name: 'Year' }).click();
  const year = await matches('year', false);
  expect(year.buckets).toHaveLength(5);
  expect(year.buckets.every((b) => /^\d{4}-\d{2}$/.test(b.key))).toBe(true);
  expect(year.totals.invoicesSubmitted).toBeGreaterThanOrEqual(submitted);
  await screenshot(page, 'bill-hub-3-performance-year');
  await closeAll(ba);
}, JOURNEY_MS);
