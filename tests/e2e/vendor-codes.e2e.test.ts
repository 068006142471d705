import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { pdfDocument } from '../fixtures/documents';
import { openBa } from './onboarding-steps';
import { baRecord, screenshot, setUpJourneys, world } from './support';
import {
  bearer,
  choose,
  openSapAction,
  openSapPage,
  reloadUntil,
  sees,
  shot,
  staff,
  submitDialog,
  vendorCodeRow,
  verifiedBa,
} from './vendor-code-steps';

/**
 * Browser journeys of issue 9 ("Tests and bench" 1–3) against the whole back end and its sandbox ERP
 * (harness.erpSandbox): (1) a verified BA's parent code, vendor category and child codes through the console's
 * ERP page until the SAP dashboard shows it processed; (2) a block with a PDF attachment approved by a second
 * person, applied in the ERP, then unblocked the same way; (3) a nucleus mass upload with three bad rows → the
 * error workbook the console downloads → the fixed file → the vendors listed. Each drives the UI, then checks
 * what is stored: the read model through the API and the sandbox ERP's vendor master.
 */
setUpJourneys('e2e-vendor-codes');

const vendorsOf = async (pan: string) => (await world().harness.erpSandbox.vendors()).filter((v) => v.pan === pan);

test('[SAP][VENDOR CODES]: verified BA → MLL Accounts requests the parent code → code from the ERP → category set, approved by Accounts_HEAD → child code per GST row → processed on the dashboard', async () => {
  const pan = 'AAKCS5501P';
  const name = 'Sahyadri Freight Carriers Private Limited';
  const { baId } = await verifiedBa('sahyadri', pan, name);
  const accounts = await staff('sap.requester@e2e.test', 'MLL Accounts', 'Anil Accounts');
  const head = await staff('sap.approver@e2e.test', 'MLL Accounts_HEAD', 'Hema Head');
  const { page } = accounts;

  // The parent code: requested on the BA's ERP page; the ERP answers later, the page shows it once there.
  await openSapPage(page, baId);
  await page.getByText('Not requested').first().waitFor();
  const request1 = await openSapAction(page, 'Request SAP Code');
  await submitDialog(request1, 'Request SAP Code');
  await sees(page, 'SAP Code requested successfully.');
  const assigned = await vendorCodeRow(baId, (r) => r.parentCode !== null);
  const parentCode = assigned.parentCode!;
  expect(parentCode).toMatch(/^\d{10}$/);
  await reloadUntil(page, baId, () => page.getByText(parentCode, { exact: true }));
  await page.getByText('Verification pending').first().waitFor();

  // Vendor category: set by the requester, approved by another person (Approve is not offered to the setter).
  const setCategory = await openSapAction(page, 'Set vendor category');
  await choose(page, setCategory, /Vendor category/);
  await submitDialog(setCategory, 'Set category');
  await sees(page, /Vendor category (saved|sent)/);
  await openSapPage(page, baId);
  await page.getByText('Awaiting approval', { exact: false }).first().waitFor();
  expect(await page.getByTestId('sap-actions').getByRole('button', { name: 'Approve vendor category' }).count()).toBe(0);

  await openSapPage(head.page, baId);
  const approve = await openSapAction(head.page, 'Approve vendor category');
  await submitDialog(approve, 'Approve');
  await sees(head.page, /Vendor category approved/);

  // One child code per GST row, each with a payment term.
  await openSapPage(page, baId);
  const childRows = (await vendorCodeRow(baId, () => true)).childCodes;
  expect(childRows.length).toBeGreaterThan(0);
  const terms: string[] = [];
  for (const child of childRows) {
    const dialog = await openSapAction(page, 'Request child code');
    await choose(page, dialog, /GST state/, new RegExp(child.gstNo ?? String(child.stateName)));
    terms.push((await choose(page, dialog, /Payment term/)).split(' – ')[0]!);
    await submitDialog(dialog, 'Request child code');
    await sees(page, /Child code requested successfully/);
    await openSapPage(page, baId);
  }
  const processed = await vendorCodeRow(baId, (r) => r.status === 'processed' && r.childCodes.every((c) => c.childCode));
  await reloadUntil(page, baId, () => page.getByText('Processed', { exact: true }));

  // The BA's ERP page: the parent code, the category and each child code with its payment term.
  const childTable = page.getByRole('table', { name: 'Child codes' });
  for (const [i, child] of processed.childCodes.entries()) {
    const row = childTable.getByRole('row').filter({ hasText: child.childCode! });
    await row.waitFor();
    expect(await row.textContent()).toContain(terms[i]);
  }
  await page.getByText(parentCode, { exact: true }).first().waitFor();
  expect(processed).toMatchObject({ vendorCategoryStatus: 'approved', parentCode });
  expect(processed.vendorCategory).toBeTruthy();
  await page.getByText(`${processed.vendorCategory} (Approved)`).waitFor();
  await page.getByRole('table', { name: 'SAP history' }).waitFor();
  await shot(page, 'sap-ba-page-processed');

  // The SAP dashboard's processed tab ("SAP Code Created") finds it by PAN.
  await page.goto(`${world().base}/console/#/sap/dashboard/processed`);
  await page.getByRole('tab', { name: /SAP Code Created/, selected: true }).waitFor();
  await page.getByPlaceholder('Search name or PAN').fill(pan);
  // The search applies after a short pause: only this BA is left.
  await page.getByText('1-1 of 1', { exact: true }).waitFor();
  const dashboardRow = page.getByRole('row').filter({ hasText: pan });
  await dashboardRow.waitFor();
  expect(await dashboardRow.textContent()).toContain(parentCode);
  expect(await dashboardRow.textContent()).toContain('Processed');
  expect(await dashboardRow.textContent()).toContain(`${processed.childCodes.length} of ${processed.childCodes.length}`);
  await shot(page, 'sap-dashboard-processed');

  // The sandbox ERP: exactly one parent vendor for the PAN, and the child codes under it.
  const vendors = await vendorsOf(pan);
  const parents = vendors.filter((v) => v.kind === 'parent');
  expect(parents).toHaveLength(1);
  expect(parents[0]).toMatchObject({ vendorCode: parentCode, companyCode: '1000' });
  expect(vendors.filter((v) => v.kind === 'child').map((v) => v.vendorCode).sort()).toEqual(
    processed.childCodes.map((c) => c.childCode).sort(),
  );
  expect(vendors.filter((v) => v.kind === 'child').every((v) => v.parentCode === parentCode)).toBe(true);
  await Promise.all([accounts.context.close(), head.context.close()]);
});

test('[SAP][BLOCK]: MLL Accounts blocks a BA with a PDF → Accounts_HEAD approves in the queue → "Successfully Blocked" in the ERP → unblocked the same way', async () => {
  const pan = 'AAKCB5502Q';
  const name = 'Bhima Logistics Private Limited';
  const { baId } = await verifiedBa('bhima', pan, name);
  // The parent code is set-up here (journey 1 is the one about it): requested through the API.
  const res = await request(world().harness.app)
    .post(`/api/business-associates/${baId}/vendor-codes/request-parent`)
    .set(await bearer('admin@demo.test'))
    .send({});
  expect(res.status).toBe(200);
  const parentCode = (await vendorCodeRow(baId, (r) => r.parentCode !== null)).parentCode!;

  const requester = await staff('block.requester@e2e.test', 'MLL Accounts', 'Bharat Accounts');
  const approver = await staff('block.approver@e2e.test', 'MLL Accounts_HEAD', 'Leela Head');

  const ask = async (action: 'Block' | 'Unblock', file: string) => {
    await openBa(requester.page, baId);
    // The BA page's button says what the vendor's state allows; the dialog proposes the same action.
    await requester.page.getByRole('button', { name: action, exact: true }).click();
    const dialog = requester.page.getByRole('dialog');
    await dialog.getByRole('heading', { name: /Block \/ Unblock/ }).waitFor();
    expect(await dialog.getByRole('radio', { name: action, exact: true }).isChecked()).toBe(true);
    await choose(requester.page, dialog, /Reason/);
    await dialog.getByLabel(/Comments/).fill(`${action} requested by Accounts after the vendor review.`);
    await dialog.getByTestId('block-file').setInputFiles({ name: file, mimeType: 'application/pdf', buffer: pdfDocument(`${action} of ${name}`) });
    await dialog.getByTestId('block-file-state').getByText(file).waitFor();
    await submitDialog(dialog, 'Send request');
    await sees(requester.page, 'Block request sent successfully');
  };
  /** The console's Onboard sidebar → Blocked Users: the BA list filtered on blocked BAs. */
  const blockedUsers = async () => {
    const { page } = requester;
    await page.goto(`${world().base}/console/#/`);
    await page.reload();
    await page.getByRole('menuitem', { name: /Blocked Users/ }).click();
    await page.waitForURL(/blocked/);
    await page.getByText('Loading…').first().waitFor({ state: 'detached' });
    return page.getByRole('row').filter({ hasText: name });
  };
  const approve = async (action: 'block' | 'unblock', message: string) => {
    // The requester sees the request in the queue but cannot decide it.
    await requester.page.goto(`${world().base}/console/#/sap/blocks`);
    const own = requester.page.getByRole('row').filter({ hasText: name });
    await own.getByText('Awaiting another approver').waitFor();
    const { page } = approver;
    await page.goto(`${world().base}/console/#/sap/blocks`);
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Pending approval' });
    await row.waitFor();
    expect(await row.textContent()).toContain(parentCode);
    await row.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Approve the ${action} request?` }).waitFor();
    await submitDialog(dialog, 'Approve');
    await sees(page, message);
  };

  await ask('Block', 'block-approval-note.pdf');
  await approve('block', 'Successfully Blocked');
  await screenshot(approver.page, 'sap-block-approved');
  expect((await vendorsOf(pan)).find((v) => v.vendorCode === parentCode)?.blocked).toBe(true);
  expect((await baRecord(baId, (r) => r.blocked)).blocked).toBe(true);
  expect((await vendorCodeRow(baId, (r) => r.blocked)).blocked).toBe(true);
  await openSapPage(requester.page, baId);
  await requester.page.getByTestId('blocked-chip').first().waitFor();
  await (await blockedUsers()).waitFor();
  await screenshot(requester.page, 'sap-block-blocked-users');
  // The block's attachment is stored as it was sent.
  const blocks = await request(world().harness.app)
    .get('/api/blocks')
    .query({ filter: JSON.stringify({ baId }) })
    .set(await bearer('admin@demo.test'));
  expect(blocks.status).toBe(200);
  expect(blocks.body).toEqual([expect.objectContaining({ action: 'block', status: 'applied', fileName: 'block-approval-note.pdf', vendorCode: parentCode })]);

  await ask('Unblock', 'unblock-clearance.pdf');
  await approve('unblock', 'Successfully Unblocked');
  expect((await vendorsOf(pan)).find((v) => v.vendorCode === parentCode)?.blocked).toBe(false);
  expect((await baRecord(baId, (r) => !r.blocked)).blocked).toBe(false);
  expect((await vendorCodeRow(baId, (r) => !r.blocked)).blocked).toBe(false);
  const unblocked = await blockedUsers();
  await requester.page.getByText('No Business Associates found using the current filters.').waitFor();
  expect(await unblocked.count()).toBe(0);
  const decided = await request(world().harness.app)
    .get('/api/blocks')
    .query({ filter: JSON.stringify({ baId }) })
    .set(await bearer('admin@demo.test'));
  expect((decided.body as { action: string; status: string }[]).map((b) => [b.action, b.status]).sort()).toEqual([
    ['block', 'applied'],
    ['unblock', 'applied'],
  ]);
  await Promise.all([requester.context.close(), approver.context.close()]);
});

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A distinct valid company PAN per index. */
const panOf = (i: number) => `NUC${'C'}${LETTERS[i]}${String(7100 + i)}${LETTERS[(i * 7) % 26]}`;

type Sheet = { header: string[]; rows: (string | null)[][] };

/** The template's sheets as header and rows (every value as text). */
async function sheetsOf(buffer: Buffer | ArrayBuffer): Promise<Record<string, Sheet>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as ArrayBuffer);
  const out: Record<string, Sheet> = {};
  for (const ws of wb.worksheets) {
    const rows: (string | null)[][] = [];
    ws.eachRow((row) =>
      rows.push(
        (row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v))),
      ),
    );
    out[ws.name] = { header: (rows[0] ?? []) as string[], rows: rows.slice(1) };
  }
  return out;
}

test('[SAP][MASS UPLOAD]: nucleus upload with three bad rows → the console downloads Nucleus-Mass-Upload-Error.xlsx with exactly those rows → fixed file → vendors listed', async () => {
  const h = world().harness;
  const mdm = await staff('mdm.upload@e2e.test', 'MDM', 'Mohan MDM');
  const { page } = mdm;

  // The workbook is built from the API's own template: its headers, its example rows as the model of a row.
  const template = await request(h.app)
    .get('/api/mass-uploads/templates/nucleus')
    .set(await bearer('mdm.upload@e2e.test'))
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  expect(template.status).toBe(200);
  const model = await sheetsOf(template.body as Buffer);
  expect(Object.keys(model)).toEqual(['Parent', 'Child']);
  const col = (sheet: string, header: string) => {
    const i = model[sheet]!.header.indexOf(header);
    if (i < 0) throw new Error(`the template's ${sheet} sheet has no column ${header}`);
    return i;
  };
  const vendor = (sheet: 'Parent' | 'Child', i: number, over: Record<string, string | null> = {}) => {
    const row = [...model[sheet]!.rows[0]!];
    const pan = panOf(i);
    const values: Record<string, string | null> = {
      'PAN Number': pan,
      Name: `Nucleus Carrier ${LETTERS[i]} Private Limited`,
      'GSTIN number': `27${pan}1Z5`,
      Region: '27',
      ...(sheet === 'Child' ? { 'Parent Vendor Code': null } : {}),
      ...over,
    };
    for (const [header, value] of Object.entries(values)) row[col(sheet, header)] = value;
    return row;
  };
  const workbook = async (parents: (string | null)[][], children: (string | null)[][]) => {
    const wb = new ExcelJS.Workbook();
    for (const [sheet, rows] of [
      ['Parent', parents],
      ['Child', children],
    ] as const) {
      const ws = wb.addWorksheet(sheet);
      ws.addRow(model[sheet]!.header);
      for (const r of rows) ws.addRow(r);
    }
    return Buffer.from(await wb.xlsx.writeBuffer());
  };
  const bad = [
    vendor('Parent', 1, { 'PAN Number': 'NUC12' }),
    vendor('Parent', 3, { 'Mobile Number': '12345' }),
    vendor('Parent', 4, { 'Postal Code': '4000' }),
  ];
  const good = [0, 2, 5].map((i) => vendor('Parent', i));
  const children = [vendor('Child', 0)];

  await page.goto(`${world().base}/console/#/sap/mass-upload`);
  const card = page.getByTestId('mass-upload-nucleus');
  await card.getByRole('heading', { name: 'Nucleus Mass Upload' }).waitFor();
  const download = page.waitForEvent('download');
  await card.getByTestId('mass-upload-file-nucleus').setInputFiles({
    name: 'nucleus-vendors.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await workbook([good[0]!, bad[0]!, good[1]!, bad[1]!, bad[2]!, good[2]!], children),
  });
  const errors = await download;
  expect(errors.suggestedFilename()).toBe('Nucleus-Mass-Upload-Error.xlsx');
  await card.getByTestId('mass-upload-result').getByText(/Some Errors occured with uploaded data/).waitFor();
  await screenshot(page, 'sap-mass-upload-errors');
  const back = await sheetsOf(readFileSync((await errors.path())!));
  const parentSheet = back['Parent']!;
  expect(parentSheet.header).toEqual([...model['Parent']!.header, 'Errors']);
  expect(parentSheet.rows.map((r) => r[col('Parent', 'PAN Number')])).toEqual(['NUC12', panOf(3), panOf(4)]);
  const errorsAt = parentSheet.header.indexOf('Errors');
  expect(parentSheet.rows.map((r) => r[errorsAt])).toEqual([
    expect.stringContaining('PAN Number'),
    expect.stringContaining('Mobile Number'),
    expect.stringContaining('Postal Code'),
  ]);
  expect(back['Child']!.rows).toHaveLength(0);
  // Nothing was written.
  const listed = await request(h.app)
    .get('/api/nucleus-vendors')
    .query({ filter: JSON.stringify({ q: 'NUCC' }), range: '[0,49]' })
    .set(await bearer('admin@demo.test'));
  expect(listed.body).toEqual([]);

  // The fixed file: every row saved.
  const fixed = [0, 1, 2, 3, 4, 5].map((i) => vendor('Parent', i));
  await card.getByTestId('mass-upload-file-nucleus').setInputFiles({
    name: 'nucleus-vendors-fixed.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await workbook(fixed, children),
  });
  await card.getByTestId('mass-upload-result').getByText(/File uploaded successfully/).waitFor();
  expect(await card.getByTestId('mass-upload-result').textContent()).toContain('7 rows: 7 created, 0 unchanged');

  // The nucleus vendors page lists them (once the read model has them: the page shows what it holds).
  const pans = [0, 1, 2, 3, 4, 5].map(panOf);
  const admin = await bearer('admin@demo.test');
  const deadline = Date.now() + 30_000;
  let stored: { pan: string; source: string }[] = [];
  while (Date.now() < deadline && stored.length < pans.length) {
    const res = await request(h.app).get('/api/nucleus-vendors').query({ filter: JSON.stringify({ q: 'NUCC' }), range: '[0,49]' }).set(admin);
    stored = res.status === 200 ? (res.body as typeof stored) : [];
    if (stored.length < pans.length) await new Promise((r) => setTimeout(r, 250));
  }
  expect(stored.map((r) => [r.pan, r.source]).sort()).toEqual(pans.map((p) => [p, 'nucleus']).sort());
  await page.goto(`${world().base}/console/#/onboard/nucleus/view`);
  await page.reload();
  await page.getByPlaceholder('Search name or PAN').fill('NUCC');
  for (const pan of pans) await page.getByRole('row').filter({ hasText: pan }).waitFor();
  expect(await page.getByRole('row').filter({ hasText: /NUCC/ }).count()).toBe(pans.length);
  await screenshot(page, 'sap-nucleus-vendors');
  await mdm.context.close();
});
