import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import type { PerformanceReport } from '../../projections/src/performance/performance.queries';
import { demoBaId } from '../../scripts/seed';
import { as, screenshot, world, type Visitor } from './support';
import { indiaDay, sees } from './rfp-steps';

/**
 * The Bill-Hub as its people use it (issue 11): the BA on the portal (invoice form, attachments, list, memo,
 * printable memo and its PDF, performance dashboard), commercial and accounts staff on the console (the
 * invoice's show page and its action buttons). Each step waits for what the person would see, never for a
 * fixed time; read models follow commands asynchronously, so "sees status X" reads the page again until it does.
 */

/** The verified demo BA with a child vendor code for its Karnataka GST row (scripts/seed.ts 'chamundi'). */
export const BA = {
  username: 'ba.verified@demo.test',
  name: 'Chamundi Roadlines Private Limited',
  baId: demoBaId('chamundi'),
} as const;

/** Staff of company code 1000: commercial acknowledges and verifies; MLL-ADMIN (INVOICE_ACCOUNTS) books and releases. */
export const COMMERCIAL = { username: 'commercial@demo.test', name: 'Rahul Mehta' } as const;
export const ACCOUNTS = { username: 'admin@demo.test', name: 'Anil Kumar' } as const;

/** Hoskote Distribution Centre, in Karnataka like the BA's child vendor code (locations master). */
export const BILLING_TO = 'HSK';
/** Road transport of goods (HSN master). */
export const HSN = '996511';

/** How long a step may wait on a loaded machine (workflow round trips, the sandbox ERP). */
export const STEP_TIMEOUT_MS = 60_000;

/**
 * A fresh invoice number: unique per run, since numbers are reserved per BA and financial year for ever. Short,
 * so the memo PDF's invoice column shows it on one line (pdftotext then reads it whole).
 */
export const invoiceNumber = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 6).toUpperCase()}`;

/** What the BA types into the invoice form (contract InvoiceFields less the selects' choices). */
export type InvoiceInput = {
  invoiceNumber: string;
  invoiceDate: string;
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  comments: string;
};

export const anInvoice = (number: string, overrides: Partial<InvoiceInput> = {}): InvoiceInput => ({
  invoiceNumber: number,
  // Today (India): inside the 61-day window, and in the current month of the performance dashboard.
  invoiceDate: indiaDay(0),
  taxableAmount: '48500.00',
  cgst: '1212.50',
  sgst: '1212.50',
  igst: '0',
  td: '970.00',
  comments: 'Freight for November trips, Hoskote distribution centre',
  ...overrides,
});

// ——— The portal ———

/**
 * The BA signed in on the portal, then the header's "Bill Hub" button: the Bill-Hub opens in a new window and
 * the session carries over through the refresh cookie. The journey goes on in that window; the first one is
 * closed, as a person would leave it.
 */
export async function baOnBillHub(): Promise<Visitor> {
  const v = await as(BA.username, 'portal');
  v.page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const opened = v.context.waitForEvent('page');
  await v.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bill Hub' }).click();
  const page = await opened;
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on('pageerror', (e) => console.error(`[${BA.username} bill-hub] page error: ${e.message}`));
  reportRenderErrors(page, `${BA.username} bill-hub`);
  await page.waitForURL((url) => url.pathname === '/bill-hub');
  await page.getByRole('heading', { level: 1, name: 'Bill-Hub Invoices' }).waitFor();
  await v.page.close();
  return { page, context: v.context };
}

/** The BA signed in on the portal (the window the journey stays in). */
export async function baOnPortal(): Promise<Visitor> {
  const v = await as(BA.username, 'portal');
  v.page.setDefaultTimeout(STEP_TIMEOUT_MS);
  reportRenderErrors(v.page, BA.username);
  return v;
}

/**
 * A render error a React error boundary caught reaches the console, not `pageerror`: printed, so a journey that
 * times out on a "Page Broken" screen says why. (Failed requests are the API's answers, checked by the steps.)
 */
export function reportRenderErrors(page: Page, label: string): void {
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      console.error(`[${label}] console error: ${message.text().slice(0, 500)}`);
  });
}

/** "Create Invoice" from the list: the empty form, once its choices (vendor codes, locations, users) are loaded. */
export async function openNewInvoice(page: Page): Promise<void> {
  await page.goto(`${world().base}/bill-hub`);
  await page.getByRole('link', { name: 'Create Invoice' }).click();
  await page.waitForURL('**/bill-hub/invoice/new');
  await page.getByRole('heading', { level: 1, name: 'Create Invoice' }).waitFor();
  // The selects fill once GET /api/invoices/form-options answered.
  await page.locator('select[name="billingFromCode"] option').nth(1).waitFor({ state: 'attached' });
  await page.locator(`select[name="billingToCode"] option[value="${BILLING_TO}"]`).waitFor({ state: 'attached' });
}

/**
 * Fills the invoice form: the text fields, the BA's (first) child vendor code, the location billed to, the
 * HSN code and the commercial user it goes to (listed once the vendor code, hence the company code, is chosen).
 */
export async function fillInvoice(page: Page, invoice: InvoiceInput): Promise<void> {
  await page.locator('input[name="invoiceNumber"]').fill(invoice.invoiceNumber);
  await page.locator('input[name="invoiceDate"]').fill(invoice.invoiceDate);
  await page.locator('select[name="billingFromCode"]').selectOption({ index: 1 });
  await page.locator('select[name="billingToCode"]').selectOption(BILLING_TO);
  await page.locator(`select[name="hsnCode"] option[value="${HSN}"]`).waitFor({ state: 'attached' });
  await page.locator('select[name="hsnCode"]').selectOption(HSN);
  await page.locator('select[name="submitToUserId"]').selectOption({ label: COMMERCIAL.name });
  for (const name of ['taxableAmount', 'cgst', 'sgst', 'igst', 'td'] as const) {
    await page.locator(`input[name="${name}"]`).fill(invoice[name]);
  }
  await page.locator('textarea[name="comments"]').fill(invoice.comments);
}

/** "Save as draft" on a new invoice: the spec's message, then the draft's own address. Answers its id. */
export async function saveNewDraft(page: Page, number: string): Promise<string> {
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await sees(page, 'Invoice Saved successfully');
  await page.waitForURL(/\/bill-hub\/invoice\/(?!new$)[^/]+$/);
  await page.getByRole('heading', { level: 1, name: `Invoice ${number}` }).waitFor();
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
}

/** Attaches files through the page's file input (one choice of several files); waits for each to be listed. */
export async function attachFiles(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  await page.getByText('PDF, JPEG, JPG, TIFF, PNG, BMP, xls, xlsx, doc, docx, max 5MB each, up to 5 files').waitFor();
  await page.getByTestId('invoice-file-input').setInputFiles(files);
  const list = page.getByRole('list', { name: 'Attachments' });
  for (const file of files) await list.getByText(file.name, { exact: true }).waitFor();
}

/** "Submit" on the form: the spec's message, back on the list. */
export async function submitFromForm(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await sees(page, 'Invoice submitted successfully');
  await page.waitForURL((url) => url.pathname === '/bill-hub');
}

/** The status chip of the BA's invoice page, read again until it shows `label`. */
export async function baSeesStatus(page: Page, id: string, label: string, timeoutMs = STEP_TIMEOUT_MS): Promise<void> {
  await until(
    async () => {
      await page.goto(`${world().base}/bill-hub/invoice/${encodeURIComponent(id)}`);
      await page.getByTestId('invoice-status').filter({ hasText: new RegExp(`^${label}$`) }).waitFor({ timeout: 5_000 });
    },
    timeoutMs,
    async () => screenshot(page, `bill-hub-ba-status-${label}-missing`),
  );
}

/**
 * The row of `number` in the BA's invoice list under the tab `tab`, found with the list's search (the demo seed
 * may list more invoices than a page holds).
 */
export async function baListRow(page: Page, tab: string, number: string): Promise<Locator> {
  await page.goto(`${world().base}/bill-hub`);
  await page.getByRole('heading', { level: 1, name: 'Bill-Hub Invoices' }).waitFor();
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await page.getByLabel('Search invoice number').fill(number);
  return page.getByRole('table', { name: 'Invoices' }).getByRole('row').filter({ hasText: number });
}

/** The row of `number` under the tab `tab` with its status chip showing `label`, read again until it does. */
export async function baListShows(page: Page, tab: string, number: string, label: string): Promise<void> {
  await until(
    async () => {
      const row = await baListRow(page, tab, number);
      await row.getByTestId('invoice-status').filter({ hasText: new RegExp(`^${label}$`) }).waitFor({ timeout: 5_000 });
    },
    STEP_TIMEOUT_MS,
    async () => screenshot(page, `bill-hub-ba-list-${tab}-missing`),
  );
}

// ——— The console ———

/** A staff member signed in on the console. */
export async function staffOnConsole(username: string): Promise<Visitor> {
  const v = await as(username, 'console');
  v.page.setDefaultTimeout(STEP_TIMEOUT_MS);
  return v;
}

/** The invoice's show page (resource `invoices`), read afresh. */
export async function openStaffInvoice(page: Page, id: string, number: string): Promise<void> {
  await page.goto(`${world().base}/console/#/invoices/${encodeURIComponent(id)}/show`);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: `Invoice ${number}` }).waitFor();
}

/** Reads the invoice's show page again until its status chip shows `label` (the ERP may take its time). */
export async function staffSeesStatus(page: Page, id: string, number: string, label: string, timeoutMs = STEP_TIMEOUT_MS): Promise<void> {
  await until(
    async () => {
      await openStaffInvoice(page, id, number);
      await page.getByTestId('invoice-status-chip').filter({ hasText: new RegExp(`^${label}$`) }).waitFor({ timeout: 5_000 });
    },
    timeoutMs,
    async () => screenshot(page, `bill-hub-staff-status-${label}-missing`),
  );
}

/** One of the buttons the API allows (Acknowledge, Verify, Book, Release): its confirmation dialog, confirmed. */
export async function staffAction(page: Page, action: string): Promise<void> {
  await page.getByRole('button', { name: action, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

// ——— The API, where a journey needs history that is not its subject ———

export type BillHubApi = {
  get: <T>(url: string) => Promise<T>;
  post: <T>(url: string, body?: object) => Promise<T>;
};

/** The API with `username`'s bearer token (signed in with the code from the outbox); throws on a refusal. */
export async function apiAs(username: string): Promise<BillHubApi> {
  const { harness } = world();
  const token = await harness.login(username);
  const checked = <T>(what: string, res: request.Response): T => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  };
  return {
    get: async (url) => checked(`GET ${url}`, await request(harness.app).get(url).set('Authorization', `Bearer ${token}`)),
    post: async (url, body = {}) =>
      checked(
        `POST ${url}`,
        await request(harness.app)
          .post(url)
          .set('Authorization', `Bearer ${token}`)
          .set('Idempotency-Key', randomUUID())
          .send(body),
      ),
  };
}

type FormOptions = {
  billingFrom: { code: string; companyCode: string; stateId: number; stateName: string }[];
  billingTo: { code: string; name: string; stateId: number; stateName: string }[];
  commercialUsers: { userId: string; name: string; companyCodes: string[] }[];
};

/** The BA's form choices: its first child vendor code, the location billed to, the commercial user. */
export async function invoiceChoices(api: BillHubApi) {
  const options = await api.get<FormOptions>('/api/invoices/form-options');
  const from = options.billingFrom[0];
  const to = options.billingTo.find((t) => t.code === BILLING_TO);
  const submitTo = options.commercialUsers.find((u) => u.name === COMMERCIAL.name);
  if (!from || !to || !submitTo) throw new Error(`unexpected form options: ${JSON.stringify(options)}`);
  return { from, to, submitTo };
}

/** Creates and submits an invoice through the API as the BA; answers its id. */
export async function submittedByApi(api: BillHubApi, invoice: InvoiceInput): Promise<string> {
  const { from, submitTo } = await invoiceChoices(api);
  const fields = {
    ...invoice,
    hsnCode: HSN,
    submitToUserId: submitTo.userId,
    billingFromCode: from.code,
    billingToCode: BILLING_TO,
  };
  const created = await api.post<{ id: string }>('/api/invoices', fields);
  await api.post(`/api/invoices/${encodeURIComponent(created.id)}/submit`, {});
  return created.id;
}

/** The BA's memo candidates of a state pair (S, A or V in no memo), polled until `numbers` are all there. */
export async function waitForMemoCandidates(api: BillHubApi, fromStateId: number, toStateId: number, numbers: string[]): Promise<void> {
  const query = new URLSearchParams({
    filter: JSON.stringify({ memoCandidates: true, fromStateId, toStateId }),
    range: JSON.stringify([0, 99]),
  });
  await until(async () => {
    const rows = await api.get<{ invoiceNumber: string }[]>(`/api/invoices?${query.toString()}`);
    const listed = new Set(rows.map((r) => r.invoiceNumber));
    const missing = numbers.filter((n) => !listed.has(n));
    if (missing.length > 0) throw new Error(`not yet memo candidates: ${missing.join(', ')}`);
  }, STEP_TIMEOUT_MS);
}

/** GET /api/performance/:baId as the BA. */
export const performanceOf = (api: BillHubApi, period: 'month' | 'quarter' | 'year') =>
  api.get<PerformanceReport>(`/api/performance/${encodeURIComponent(BA.baId)}?period=${period}`);

// ——— The performance dashboard ———

/** The dashboard's own number format (whole numbers with en-IN grouping). */
export const countText = (n: number): string => new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 }).format(n);

/** The text of a totals card (data-testid "kpi-<label>"). */
export async function kpi(page: Page, label: string): Promise<string> {
  const card = page.getByTestId(`kpi-${label}`);
  await card.waitFor();
  return ((await card.textContent()) ?? '').trim();
}

// ——— PDFs (poppler-utils, as a person opens the file) ———

/** Writes the downloaded PDF to a folder of its own and renders its first page at 50 dpi; answers both paths. */
export function renderFirstPage(bytes: Buffer, name: string): { pdf: string; png: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bill-hub-pdf-'));
  const pdf = path.join(dir, name);
  writeFileSync(pdf, bytes);
  const prefix = path.join(dir, 'page');
  execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', pdf, prefix]);
  // pdftoppm numbers pages with as many digits as the document's page count needs (page-1.png, page-01.png).
  const png = readdirSync(dir).find((f) => /^page-0*1\.png$/.test(f));
  if (!png) throw new Error(`pdftoppm wrote no first page: ${readdirSync(dir).join(', ')}`);
  const file = path.join(dir, png);
  if (!existsSync(file) || statSync(file).size === 0) throw new Error(`empty page image ${file}`);
  return { pdf, png: file };
}

/** The PDF's text (pdftotext, layout kept so table rows stay on their lines). */
export const pdfText = (pdf: string): string => execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });

// ——— Waiting ———

/** Runs `attempt` until it succeeds or `timeoutMs` passed (then `onGiveUp` and the last error). */
export async function until(attempt: () => Promise<void>, timeoutMs: number, onGiveUp?: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await attempt();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        await onGiveUp?.().catch(() => undefined);
        throw error;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
