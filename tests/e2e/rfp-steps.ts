import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { rfpFileNames } from '../../domain/src/rfp/messages';
import { loadWorkbook, saveWorkbook } from '../../api/src/rfp-workbooks/testing';
import { indiaDateAt } from '../../domain/src/shared/india-date';
import { addDays } from '../../workflows/src/document-expiry/schedule';
import { as, screenshot, world, type Visitor } from './support';
import { choose } from './vendor-code-steps';

/**
 * The RFP screens as staff (console) and BAs (portal) use them (issue 10): the wizard's five steps, the RFP's
 * view with its actions and tabs, the BA's RFP view with the AG Grid lane grid and the bid workbook. Workbooks are
 * what a person would download, fill in Excel (exceljs here) and upload through the page's file input. Each step
 * waits for what the person would see, never for a fixed time.
 */

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The BAs of the journeys: verified demo BAs of company code 1000 (scripts/seed.ts DEMO_BAS). */
export const BAS = {
  coromandel: { username: 'ba.6@demo.test', name: 'Coromandel Warehousing Private Limited' },
  narmada: { username: 'ba.13@demo.test', name: 'Narmada Roadlines Private Limited' },
  godavari: { username: 'ba.14@demo.test', name: 'Godavari Fleet Services Private Limited' },
} as const;

/** How long a step may wait for what it expects on a loaded machine (uploads of 50 lanes, workflow round trips). */
const STEP_TIMEOUT_MS = 60_000;

/** Staff who run RFPs and decide them (MLL Procurement), signed in on the console. */
export async function procurement(): Promise<Visitor> {
  const v = await as('procurement@demo.test', 'console');
  v.page.setDefaultTimeout(STEP_TIMEOUT_MS);
  return v;
}

/**
 * A BA admin signed in on the portal, with a window wide enough for every lane-grid column to be drawn (AG Grid
 * draws only the columns in view).
 */
export async function baOnPortal(username: string): Promise<Visitor> {
  const v = await as(username, 'portal');
  await v.page.setViewportSize({ width: 1800, height: 1000 });
  v.page.setDefaultTimeout(STEP_TIMEOUT_MS);
  return v;
}

/** A date `days` from today in India (YYYY-MM-DD), as a date field takes it. */
export const indiaDay = (days: number) => addDays(indiaDateAt(Date.now()), days);

/** Clicks what starts a download and answers the file's name and bytes. */
export async function downloadBy(page: Page, start: () => Promise<void>): Promise<{ fileName: string; bytes: Buffer }> {
  const download = page.waitForEvent('download');
  await start();
  const file = await download;
  return { fileName: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
}

/** The newest snackbar (react-admin's or the portal's) saying `text`. */
export const sees = (page: Page, text: string | RegExp) => page.getByText(text).last().waitFor();

// ——— Workbooks ———

/** The "Lanes" sheet of a workbook, its header row's labels and where each label is (1-based, as exceljs counts). */
async function lanesSheet(bytes: Buffer) {
  const wb = await loadWorkbook(bytes);
  const ws = (wb.getWorksheet('Lanes') ?? wb.worksheets[0]) as ExcelJS.Worksheet;
  const headers = (ws.getRow(1).values as ExcelJS.CellValue[]).map((v) => (v === null || v === undefined ? '' : String(v)));
  const columnOf = (label: string) => {
    const at = headers.indexOf(label);
    if (at < 1) throw new Error(`no column "${label}" in the sheet: ${headers.join(', ')}`);
    return at;
  };
  return { wb, ws, headers: headers.slice(1), columnOf };
}

/** The downloaded lane template with `rows` typed under its header, each a value per header label. */
export async function filledLaneTemplate(template: Buffer, rows: Record<string, string>[]): Promise<{ bytes: Buffer; headers: string[] }> {
  const { wb, ws, headers, columnOf } = await lanesSheet(template);
  rows.forEach((row, i) => {
    for (const [label, value] of Object.entries(row)) ws.getRow(i + 2).getCell(columnOf(label)).value = value;
  });
  return { bytes: await saveWorkbook(wb), headers };
}

/** A customer's own lane sheet (a non-standard RFP): any header row the customer chose. */
export async function customerSheet(headers: string[], rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Customer lanes');
  ws.addRow(headers);
  for (const row of rows) ws.addRow(row);
  return saveWorkbook(wb);
}

/**
 * The downloaded bid template with the BA's quote typed in: `quoteOf(laneId)` gives a value per BA column label,
 * or null to leave the lane unquoted. Answers the workbook and the lane ids it listed.
 */
export async function filledBid(
  template: Buffer,
  quoteOf: (laneId: string) => Record<string, string> | null,
): Promise<{ bytes: Buffer; laneIds: string[] }> {
  const { wb, ws, columnOf } = await lanesSheet(template);
  const laneIds: string[] = [];
  for (let n = 2; n <= ws.rowCount; n++) {
    const laneId = ws.getRow(n).getCell(columnOf('Lane ID')).text;
    if (!laneId) continue;
    laneIds.push(laneId);
    for (const [label, value] of Object.entries(quoteOf(laneId) ?? {})) ws.getRow(n).getCell(columnOf(label)).value = value;
  }
  return { bytes: await saveWorkbook(wb), laneIds };
}

// ——— The console: the wizard ———

export type WizardRfp = {
  code: string;
  opportunityId: string;
  hireType: string | RegExp;
  rfpType: RegExp;
  /** Property labels as step 2 lists them. */
  mll: string[];
  ba: string[];
};

/**
 * The stepper's button of a wizard step, once enabled: a step the wizard enables late (a non-standard RFP's, after
 * 2000 ms) is waited for.
 */
const enabledStep = (page: Page, label: string) =>
  page.getByLabel('RFP wizard steps').locator('button:not([disabled])', { hasText: label });

/** Step 1 from the RFP dashboard's "Create RFP": the opportunity looked up in the CRM, the RFP code, saved. */
export async function startRfp(page: Page, rfp: WizardRfp): Promise<void> {
  await page.goto(`${world().base}/console/#/rfp/MLL/dashboard`);
  await page.getByRole('heading', { level: 1, name: 'RFP Dashboard' }).waitFor();
  await page.getByRole('link', { name: 'Create RFP' }).click();
  const form = page.getByRole('form', { name: 'Opportunity' });
  await form.getByLabel('Opportunity ID').fill(rfp.opportunityId);
  await form.getByRole('button', { name: 'Search' }).click();
  // The CRM's customer name fills in once the lookup answered.
  await page.waitForFunction(
    () => (document.querySelector<HTMLInputElement>('form[aria-label="Opportunity"] input[readonly]')?.value ?? '') !== '',
  );
  await form.getByLabel('RFP code').fill(rfp.code);
  await screenshot(page, `rfp-${rfp.code}-step1`);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/createRfp\/2\?code=/);
}

/** Step 2: vehicle hire type, RFP type and the properties by label; saved. */
export async function chooseProperties(page: Page, rfp: WizardRfp): Promise<void> {
  const form = page.getByRole('form', { name: 'Properties' });
  await form.waitFor();
  await choose(page, form, /Vehicle hire type/, rfp.hireType);
  await choose(page, form, /RFP type/, rfp.rfpType);
  await form.getByLabel('Required flags').waitFor();
  for (const label of [...rfp.mll, ...rfp.ba]) await form.getByRole('checkbox', { name: label, exact: true }).check();
  await screenshot(page, `rfp-${rfp.code}-step2`);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/createRfp\/3\?code=/);
}

/** Step 3: the lane sheet uploaded through the step's file input; waits for the upload's lane count. */
export async function uploadLaneSheet(page: Page, code: string, sheet: Buffer, lanes: number): Promise<void> {
  const step = page.getByRole('group', { name: 'Lanes' });
  await step.getByTestId('rfp-lanes-input').setInputFiles({ name: `lanes-${code}.xlsx`, mimeType: XLSX_MIME, buffer: sheet });
  await step.getByRole('alert').filter({ hasText: `Lanes uploaded: ${lanes}` }).waitFor();
  await screenshot(page, `rfp-${code}-step3`);
}

/** Step 3's template download: the file name the spec gives and its bytes. */
export async function downloadLaneTemplate(page: Page): Promise<{ fileName: string; bytes: Buffer }> {
  const step = page.getByRole('group', { name: 'Lanes' });
  await step.waitFor();
  return downloadBy(page, () => step.getByRole('button', { name: 'Download template' }).click());
}

/** Step 4: each BA found by name and added; saved (the wizard moves on to step 5). */
export async function selectBas(page: Page, code: string, names: string[]): Promise<void> {
  await enabledStep(page, 'BA selection')
    .click()
    .catch(async (e: unknown) => {
      console.error(await page.getByLabel('RFP wizard steps').innerHTML());
      throw e;
    });
  const form = page.getByRole('form', { name: 'BA selection' });
  await form.waitFor();
  for (const name of names) {
    await form.getByLabel('BA name').fill(name.split(' ')[0]!);
    await form.getByRole('button', { name: 'Search BAs' }).click();
    await form.getByRole('button', { name: `Add ${name}` }).click();
    await form.getByRole('table', { name: 'Selected BAs' }).getByText(name).waitFor();
  }
  await form.getByLabel('Comment').fill('Please quote your best rates for the lanes you serve.');
  await screenshot(page, `rfp-${code}-step4`);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/createRfp\/5\?code=/);
}

/** Step 5: the selected mix checked, then Float; the RFP's view opens. */
export async function floatToSelected(page: Page, code: string, names: string[]): Promise<void> {
  const step = page.getByRole('group', { name: 'Float' });
  await step.getByText(`Selected mix (${names.length})`).waitFor();
  for (const name of names) await step.getByText(name, { exact: true }).waitFor();
  await screenshot(page, `rfp-${code}-step5`);
  await step.getByRole('button', { name: 'Float' }).click();
  await page.waitForURL(new RegExp(`/rfp/MLL/view/${code}/`));
  await page.getByRole('heading', { level: 1, name: `RFP ${code}` }).waitFor();
}

// ——— The console: one RFP ———

/** The staff view of the RFP, read afresh. */
export async function openStaffRfp(page: Page, code: string): Promise<void> {
  await page.goto(`${world().base}/console/#/rfp/MLL/view/${code}/draft`);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: `RFP ${code}` }).waitFor();
}

/** Reads the RFP's view again until its status shows `label` (the read model follows the command). */
export async function staffSeesStatus(page: Page, code: string, label: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await openStaffRfp(page, code);
    try {
      await page.getByRole('group', { name: 'RFP details' }).getByText(label, { exact: true }).waitFor({ timeout: 3_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** One of the deciders' actions (Close bidding, Close, Reopen): its dialog, an optional field, submitted. */
export async function staffAction(page: Page, action: string, submit: string, field?: { label: string; value: string }): Promise<void> {
  await page.getByRole('group', { name: 'RFP actions' }).getByRole('button', { name: action, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  if (field) await dialog.getByLabel(field.label).fill(field.value);
  await dialog.getByRole('button', { name: submit, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** A tab of the RFP's view. */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
}

// ——— The portal: the BA's RFP ———

/** The BA's RFP dashboard, then the RFP's row: the RFP's view with its lane grid. */
export async function openBaRfp(page: Page, code: string): Promise<void> {
  await page.goto(`${world().base}/rfp/BA/dashboard`);
  const row = page.getByRole('table', { name: 'RFPs' }).getByRole('row').filter({ hasText: code });
  await row.click();
  await page.getByRole('heading', { level: 1, name: `RFP ${code}` }).waitFor();
}

/** A cell of the lane grid: AG Grid marks each row part with row-id (the lane id is pinned apart), cells with col-id. */
export const gridCell = (page: Page, laneId: string, column: string): Locator =>
  page.locator(`[data-testid="lane-grid"] [row-id="${laneId}"] [role="gridcell"][col-id="${column}"]`);

/** Types `value` into a BA cell of the lane grid (one click opens the editor), then leaves it with Enter. */
export async function typeInGrid(page: Page, laneId: string, column: string, value: string): Promise<void> {
  const cell = gridCell(page, laneId, column);
  await cell.click().catch(async (e: unknown) => {
    await screenshot(page, `rfp-grid-missing-${laneId}-${column}`);
    throw e;
  });
  const editor = page.locator('[data-testid="lane-grid"] .ag-cell-inline-editing input');
  await editor.fill(value);
  await editor.press('Enter');
  await expectCell(page, laneId, column, value);
}

/** Waits for a grid cell to show `text`. */
export async function expectCell(page: Page, laneId: string, column: string, text: string): Promise<void> {
  await gridCell(page, laneId, column).filter({ hasText: new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }).waitFor();
}

/** The BA's bid template downloaded from the RFP's view (its name is the spec's). */
export async function downloadBidTemplate(page: Page, code: string): Promise<Buffer> {
  const { fileName, bytes } = await downloadBy(page, () => page.getByRole('button', { name: 'Download Bid Template' }).click());
  if (fileName !== rfpFileNames.baBidTemplate(code)) throw new Error(`the bid template came as ${fileName}`);
  return bytes;
}

/** Uploads a filled bid through the view's "Upload Bid" input. */
export async function uploadBid(page: Page, code: string, bytes: Buffer): Promise<void> {
  await page.getByTestId('bid-upload').setInputFiles({ name: `bid-${code}.xlsx`, mimeType: XLSX_MIME, buffer: bytes });
}

// ——— Messages ———

/** The bodies of the messages to `recipient` that mention `text`, polled until `count` are there. */
export async function messagesMentioning(recipient: string, text: string, count = 1, timeoutMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await world().harness.db.pool.query<{ body: string }>(
      'SELECT body FROM outbox WHERE lower(recipient) = lower($1) AND body LIKE $2 ORDER BY seq',
      [recipient, `%${text}%`],
    );
    if (rows.length >= count || Date.now() > deadline) return rows.map((r) => r.body);
    await new Promise((r) => setTimeout(r, 250));
  }
}
