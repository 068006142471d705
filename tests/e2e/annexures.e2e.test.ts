import type { Page } from 'playwright-core';
import request from 'supertest';
import { pdfDocument, pngImage, xlsxWorkbook } from '../fixtures/documents';
import { as, screenshot, setUpJourneys, world } from './support';

/**
 * PO annexures across both front ends (issue 7): staff upload in the console, BAs see cards on /po-policy
 * and preview PDFs in a dialog whose frame shows bytes fetched with the BA's session (an object URL). The
 * journeys check the stored state (the annexure's events) and that the portal ran without a CSP violation.
 */
setUpJourneys('e2e-annexures');

/** The screen size the screenshots are taken at; large enough for four cards a row (lg ≥ 1200 px). */
const WIDE = { width: 1440, height: 900 };

/** Records every CSP violation of the page's documents from their first script on. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.context().addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} blocked ${e.blockedURI}`));
  });
  const fromConsole: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) fromConsole.push(m.text());
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []).catch(() => [])),
    ...fromConsole,
  ];
}

async function annexureEvents(): Promise<{ stream_id: string; type: string; data: Record<string, unknown> }[]> {
  const { rows } = await world().harness.db.pool.query<{ stream_id: string; type: string; data: Record<string, unknown> }>(
    "SELECT stream_id, type, data FROM events WHERE stream_id LIKE 'annexure-%' ORDER BY global_position",
  );
  return rows;
}

test('[ANNEXURES][UPLOAD→PREVIEW]: MLL-ADMIN uploads a PDF in the console; a BA opens PO Annexures and previews it', async () => {
  const staff = await as('admin@demo.test', 'console');
  await staff.page.setViewportSize(WIDE);
  await staff.page.getByRole('menuitem', { name: /PO Annexures/ }).click();
  await staff.page.getByRole('link', { name: 'Upload' }).first().click();
  await staff.page.getByLabel(/^Title/).fill('Freight Payment Policy');
  await staff.page.locator('input[type="file"][name="file"]').setInputFiles({
    name: 'freight-payment-policy.pdf',
    mimeType: 'application/pdf',
    buffer: pdfDocument('Freight Payment Policy - MLL Logistics'),
  });
  await staff.page.getByTestId('chosen-file').waitFor();
  await screenshot(staff.page, 'annexures-1-console-upload');
  await staff.page.getByRole('button', { name: 'Upload' }).click();
  await staff.page.getByText('Uploaded successfully').waitFor();
  const row = staff.page.getByRole('row').filter({ hasText: 'Freight Payment Policy' });
  await row.waitFor();
  expect(await row.textContent()).toContain('freight-payment-policy.pdf');
  await screenshot(staff.page, 'annexures-2-console-list');

  const events = await annexureEvents();
  expect(events.map((e) => e.type)).toEqual(['AnnexureUploaded']);
  expect(events[0]?.data).toMatchObject({ title: 'Freight Payment Policy' });

  const ba = await as('ba.6@demo.test', 'portal');
  await ba.page.setViewportSize(WIDE);
  const violations = await watchCsp(ba.page);
  await ba.page.reload();
  await ba.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'PO Annexures' }).click();
  await ba.page.waitForURL('**/po-policy');
  const card = ba.page.getByTestId('annexure-card').filter({ hasText: 'Freight Payment Policy' });
  await card.waitFor();
  expect(await card.getByText('Only applicable if you have a MLL PO').count()).toBe(1);
  expect(await card.locator('[data-file-kind="pdf"]').count()).toBe(1);

  await card.getByRole('button', { name: 'Preview & Download' }).click();
  const dialog = ba.page.getByRole('dialog', { name: 'Freight Payment Policy' });
  const frame = dialog.locator('iframe[data-testid="annexure-preview-frame"]');
  await frame.waitFor();
  const src = (await frame.getAttribute('src')) ?? '';
  expect(src).toMatch(/^blob:http:\/\/127\.0\.0\.1:\d+\//);
  // The frame holds the object URL and Chromium's PDF viewer (its built-in extension) opened inside it: the
  // bytes were a PDF and the CSP let the viewer run. Headless Chromium paints no PDF pages in screenshots, so
  // the viewer's frame is the evidence, not the picture.
  const preview = await (await frame.elementHandle())?.contentFrame();
  expect(preview?.url()).toBe(src);
  const viewer = async () => (preview?.childFrames() ?? []).some((f) => f.url().startsWith('chrome-extension://'));
  for (let i = 0; i < 100 && !(await viewer()); i++) await ba.page.waitForTimeout(100);
  expect(await viewer()).toBe(true);
  await screenshot(ba.page, 'annexures-4-portal-preview');
  expect(await violations()).toEqual([]);

  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await Promise.all([staff.context.close(), ba.context.close()]);
});

test('[ANNEXURES][CARDS]: four cards a row at 1440 px; an .xlsx downloads at once under its name', async () => {
  const token = await world().harness.login('admin@demo.test');
  const upload = async (title: string, name: string, bytes: Buffer) => {
    const res = await request(world().harness.app)
      .post('/api/annexures')
      .set('Authorization', `Bearer ${token}`)
      .field('title', title)
      .attach('file', bytes, name);
    expect(res.status).toBe(201);
  };
  await upload('Vehicle Placement Photo Guide', 'placement-guide.png', pngImage());
  await upload('Rate Card Format', 'rate-card-format.xlsx', await xlsxWorkbook([['Lane', 'Vehicle', 'Rate (INR)'], ['Pune - Mumbai', '32 ft MXL', 28500]]));
  await upload('Penalty Matrix', 'penalty-matrix.pdf', pdfDocument('Penalty Matrix'));
  await upload('Code of Conduct for Drivers', 'driver-code.pdf', pdfDocument('Code of Conduct'));

  const ba = await as('ba.6@demo.test', 'portal');
  await ba.page.setViewportSize(WIDE);
  await ba.page.goto(`${world().base}/po-policy`);
  const cards = ba.page.getByTestId('annexure-card');
  await cards.nth(4).waitFor();
  const tops = await cards.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
  expect(tops.length).toBeGreaterThanOrEqual(5);
  expect(new Set(tops.slice(0, 4)).size).toBe(1);
  expect(tops[4]).toBeGreaterThan(tops[0]!);
  await screenshot(ba.page, 'annexures-3-portal-cards');

  const download = ba.page.waitForEvent('download');
  await cards.filter({ hasText: 'Rate Card Format' }).getByRole('button', { name: 'Preview & Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('rate-card-format.xlsx');
  expect(await ba.page.getByRole('dialog').count()).toBe(0);

  await cards.filter({ hasText: 'Vehicle Placement Photo Guide' }).getByRole('button', { name: 'Preview & Download' }).click();
  const image = ba.page.getByRole('dialog', { name: 'Vehicle Placement Photo Guide' }).getByRole('img');
  await image.waitFor();
  expect(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(320);
  await screenshot(ba.page, 'annexures-5-portal-image-preview');
  await ba.context.close();
});
