import ExcelJS from 'exceljs';
import request from 'supertest';
import type { Role } from '../../../domain/src/identity/roles';
import {
  CHILD_SHEET,
  COL,
  companyCodeMessage,
  PARENT_SHEET,
  SHEET_NAMES,
  TEMPLATE_EXAMPLES,
  TEMPLATE_FILE_NAMES,
  WORKBOOK_COLUMNS,
  WORKBOOK_KINDS,
  workbookMessages as m,
  resultMessages,
  type WorkbookKind,
} from '../../../domain/src/vendor-code-workbook/rules';
import type { StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';
import { vendorCodeWorkbookRouteMessages } from './routes';
import * as XLSX from '@e965/xlsx';

/**
 * The vendor-code workbook API end to end: templates, the 415/101 refusal, the Validation Error rows, the
 * preview, and a submit that has the sandbox ERP create each vendor exactly once (the same file again answers
 * the same codes). The harness's worker talks to the harness's sandbox ERP.
 */
jest.setTimeout(300_000);

type Auth = { Authorization: string };
let h: ApiHarness;
let sandbox: StartedErpSandbox;
let admin: Auth;
const others: { role: Role; auth: Auth }[] = [];

beforeAll(async () => {
  h = await startApiHarness('vendor-code-workbook-api');
  sandbox = h.erpSandbox;
  admin = (await sessionOf(h, await addUser(h, { email: 'admin@vcw.test', roles: ['MLL-ADMIN'], companyCodes: ['1000', '2000'] }))).auth;
  for (const role of ['MDM', 'MLL Accounts_HEAD', 'MLL Procurement', 'Auditor'] as Role[])
    others.push({ role, auth: (await sessionOf(h, await addUser(h, { email: `${role.replace(/\W/g, '')}@vcw.test`, roles: [role] }))).auth });
});

afterAll(async () => {
  await h?.stop();
});

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

type Rows = Record<string, string>[];

/** A workbook with both sheets: the kind's headers (or `headers`), then the rows' values under them. */
async function workbook(kind: WorkbookKind, parents: Rows, children: Rows, headers?: Partial<Record<string, string[]>>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of [
    [PARENT_SHEET, parents],
    [CHILD_SHEET, children],
  ] as const) {
    const ws = wb.addWorksheet(name);
    const cols = headers?.[name] ?? WORKBOOK_COLUMNS[kind][name].map((r) => r.column);
    ws.addRow(cols);
    for (const r of rows) ws.addRow(cols.map((c) => r[c] ?? ''));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The same workbook saved as Excel 97-2003 (BIFF8 in an OLE2 file), as Excel's "Save as .xls" does. */
const asXls = (xlsx: Buffer): Buffer => XLSX.write(XLSX.read(xlsx, { type: 'buffer' }), { type: 'buffer', bookType: 'biff8' }) as Buffer;

const parent = (kind: WorkbookKind, over: Record<string, string> = {}) => ({ ...TEMPLATE_EXAMPLES[kind][PARENT_SHEET], ...over });
const child = (kind: WorkbookKind, over: Record<string, string> = {}) => ({ ...TEMPLATE_EXAMPLES[kind][CHILD_SHEET], ...over });

const validate = (kind: string, file: Buffer, name = 'vendors.xlsx', auth: Auth = admin) =>
  request(h.app).post(`/api/vendor-code-workbooks/validate?kind=${kind}`).set(auth).attach('file', file, name);
const submit = (kind: string, file: Buffer, name = 'vendors.xlsx', auth: Auth = admin) =>
  request(h.app).post(`/api/vendor-code-workbooks?kind=${kind}`).set(auth).attach('file', file, name);

describe('templates', () => {
  test.each(WORKBOOK_KINDS)('%s: downloads under the spec name and parses back into the rules and their example', async (kind) => {
    const res = await request(h.app).get(`/api/vendor-code-workbooks/templates/${kind}`).set(admin).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(`filename="${TEMPLATE_FILE_NAMES[kind]}"`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual([...SHEET_NAMES]);
    for (const name of SHEET_NAMES) {
      const ws = wb.getWorksheet(name)!;
      const cols = WORKBOOK_COLUMNS[kind][name].map((r) => r.column);
      expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(cols);
      const example = (ws.getRow(2).values as unknown[]).slice(1);
      expect(cols.map((c, i) => String(example[i] ?? ''))).toEqual(cols.map((c) => TEMPLATE_EXAMPLES[kind][name][c] ?? ''));
    }
    expect(TEMPLATE_FILE_NAMES).toEqual({ utility: 'Utility-Vendor-Code-Template.xlsx', 'other-company': 'External-Vendor-Code-Template.xlsx' });
    // The template itself passes validation.
    const back = await validate(kind, Buffer.from(res.body as Buffer), TEMPLATE_FILE_NAMES[kind]);
    expect(back.status).toBe(200);
  });
});

describe('access', () => {
  test('MLL-ADMIN only: 403 for every other staff role and the auditor, 401 without a session', async () => {
    const file = await workbook('utility', [parent('utility')], []);
    for (const { role, auth } of others) {
      const calls = [
        request(h.app).get('/api/vendor-code-workbooks/templates/utility').set(auth),
        request(h.app).get('/api/vendor-code-workbooks/templates/other-company').set(auth),
        validate('utility', file, 'v.xlsx', auth),
        submit('utility', file, 'v.xlsx', auth),
        request(h.app).get(`/api/vendor-code-workbooks/${'a'.repeat(64)}`).set(auth),
      ];
      for (const res of await Promise.all(calls)) expect([role, res.status]).toEqual([role, 403]);
    }
    expect((await request(h.app).get('/api/vendor-code-workbooks/templates/utility')).status).toBe(401);
    expect((await request(h.app).post('/api/vendor-code-workbooks?kind=utility').attach('file', file, 'v.xlsx')).status).toBe(401);
  });
});

describe('upload refusals', () => {
  test.each([
    ['vendors.csv', Buffer.from('Company Code,Name\n1000,X\n')],
    ['vendors.pdf', Buffer.from('%PDF-1.4\n%%EOF\n')],
    ['vendors.txt', Buffer.from('hello')],
  ])('%s → 415 with code 101 and the spec message', async (name, bytes) => {
    for (const call of [validate, submit]) {
      const res = await call('utility', bytes, name);
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ code: 101, message: 'Please Select Only xlsx or xls File' });
    }
  });

  test('an .xlsx name on content that is no workbook → 415 with code 101', async () => {
    const res = await validate('utility', Buffer.from('not a zip at all, just text'), 'vendors.xlsx');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 101, message: vendorCodeWorkbookRouteMessages.excelOnly });
  });

  test('a damaged Excel 97-2003 .xls passes the type check but cannot be read: 422 saying so', async () => {
    // The OLE compound-file signature (what file-type calls cfb), then nothing a reader can read.
    const cfb = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4096)]);
    const res = await validate('utility', cfb, 'vendors.xls');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(vendorCodeWorkbookRouteMessages.xlsUnreadable);
  });

  test('an unknown kind → 400', async () => {
    const res = await validate('nucleus', await workbook('utility', [parent('utility')], []));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(vendorCodeWorkbookRouteMessages.badKind);
  });

  test('400 "Validation Error" with exactly the error rows; nothing reaches the ERP', async () => {
    const before = await sandbox.requestCount();
    const file = await workbook(
      'utility',
      [parent('utility'), parent('utility', { [COL.pan]: 'AAECM2933', [COL.emailDept]: '', [COL.companyCode]: '3000' })],
      [
        child('utility'),
        child('utility', { [COL.region]: '29', [COL.cin]: '' }),
        child('utility', { [COL.gstin]: '27AAECX2933K1ZA', [COL.email]: 'nope' }),
      ],
    );
    for (const call of [validate, submit]) {
      const res = await call('utility', file);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Validation Error');
      expect(res.body.errors).toEqual([
        { sheet: PARENT_SHEET, row: 3, column: COL.pan, value: 'AAECM2933', message: m.mismatch },
        { sheet: PARENT_SHEET, row: 3, column: COL.emailDept, value: '', message: m.noData },
        { sheet: CHILD_SHEET, row: 3, column: COL.gstin, value: '27AAECM2933K1ZA', message: m.regionMismatch },
        { sheet: CHILD_SHEET, row: 3, column: COL.cin, value: '', message: m.cinRequired },
        { sheet: CHILD_SHEET, row: 4, column: COL.email, value: 'nope', message: m.mismatch },
        { sheet: CHILD_SHEET, row: 4, column: COL.gstin, value: '27AAECX2933K1ZA', message: m.panMismatch },
        { sheet: CHILD_SHEET, row: 3, column: COL.gstin, value: '27AAECM2933K1ZA', message: m.duplicateChild(2) },
        { sheet: PARENT_SHEET, row: 3, column: COL.companyCode, value: '3000', message: companyCodeMessage('3000') },
      ]);
    }
    expect(await sandbox.requestCount()).toBe(before);
  });

  test('sheet-level errors: a missing sheet and a missing column', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(PARENT_SHEET);
    const cols = WORKBOOK_COLUMNS.utility[PARENT_SHEET].map((r) => r.column).filter((c) => c !== COL.bankKey);
    ws.addRow(cols);
    ws.addRow(cols.map((c) => TEMPLATE_EXAMPLES.utility[PARENT_SHEET][c] ?? ''));
    const res = await validate('utility', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { sheet: PARENT_SHEET, row: 1, column: COL.bankKey, value: '', message: m.missingColumn },
      { sheet: CHILD_SHEET, row: 0, column: '', value: '', message: m.noRows },
    ]);
  });
});

describe('preview and submit', () => {
  test('an Excel 97-2003 .xls is read like the .xlsx: the same 200 preview, and the same error rows', async () => {
    const good = await workbook('other-company', [parent('other-company')], [child('other-company')]);
    const fromXlsx = await validate('other-company', good);
    const fromXls = await validate('other-company', asXls(good), 'vendors.xls');
    expect(fromXls.status).toBe(200);
    expect(fromXls.body.rows).toEqual(fromXlsx.body.rows);

    const bad = await workbook('utility', [parent('utility', { [COL.pan]: 'AAECM2933' })], [child('utility')]);
    const errorsXlsx = await validate('utility', bad);
    const errorsXls = await validate('utility', asXls(bad), 'vendors.xls');
    expect(errorsXls.status).toBe(400);
    expect(errorsXls.body.errors).toEqual(errorsXlsx.body.errors);
    expect(errorsXls.body.errors.length).toBeGreaterThan(0);
  });

  test('200 preview: every row of both sheets under the template columns, row numbers as reported', async () => {
    const file = await workbook('other-company', [parent('other-company')], [child('other-company')]);
    const res = await validate('other-company', file);
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([
      { sheet: PARENT_SHEET, row: 2, values: Object.fromEntries(WORKBOOK_COLUMNS['other-company'][PARENT_SHEET].map((r) => [r.column, parent('other-company')[r.column] ?? ''])) },
      { sheet: CHILD_SHEET, row: 2, values: Object.fromEntries(WORKBOOK_COLUMNS['other-company'][CHILD_SHEET].map((r) => [r.column, child('other-company')[r.column] ?? ''])) },
    ]);
    expect(res.body.columns[PARENT_SHEET]).toContain(COL.purchaseOrganisation);
  });

  test('submit: the ERP creates each code exactly once; the same file again answers the same codes', async () => {
    const pans = ['AAGCU1001K', 'AAGCU1002K'];
    const file = await workbook(
      'utility',
      pans.map((pan, i) => parent('utility', { [COL.pan]: pan, [COL.companyCode]: i === 0 ? '1000' : '2000' })),
      [child('utility', { [COL.pan]: pans[0]!, [COL.gstin]: `27${pans[0]}1ZA` }), child('utility', { [COL.pan]: pans[1]!, [COL.gstin]: `27${pans[1]}1ZB`, [COL.companyCode]: '2000' })],
    );
    const before = await sandbox.requestCount();
    const res = await submit('utility', file, 'Utility-Vendor-Code-Template.xlsx');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', message: resultMessages.uploaded });
    expect(res.body.id).toMatch(/^[0-9a-f]{64}$/);
    const data = res.body.data as { Type: string; PAN: string; MSG: string; MSGTYPE: string; VEN_CODE: string }[];
    expect(data.map((r) => [r.Type, r.PAN, r.MSGTYPE])).toEqual([
      ['Parent', pans[0], 'S'],
      ['Parent', pans[1], 'S'],
      ['Child', pans[0], 'S'],
      ['Child', pans[1], 'S'],
    ]);
    for (const r of data) {
      expect(r.VEN_CODE).toMatch(/^\d{10}$/);
      expect(typeof r.MSG).toBe('string');
    }
    const vendors = await sandbox.vendors();
    for (const r of data) {
      const v = vendors.filter((x) => x.vendorCode === r.VEN_CODE);
      expect(v).toHaveLength(1);
      expect(v[0]).toMatchObject({ pan: r.PAN, kind: r.Type === 'Parent' ? 'parent' : 'child' });
    }
    expect(vendors.filter((v) => pans.includes(v.pan))).toHaveLength(4);
    expect(vendors.find((v) => v.vendorCode === data[3]!.VEN_CODE)).toMatchObject({ parentCode: data[1]!.VEN_CODE, companyCode: '2000' });
    expect(await sandbox.requestCount()).toBe(before + 4);

    const again = await submit('utility', file, 'a-different-name.xlsx');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await sandbox.requestCount()).toBe(before + 4);
    expect((await sandbox.vendors()).filter((v) => pans.includes(v.pan))).toHaveLength(4);

    const read = await request(h.app).get(`/api/vendor-code-workbooks/${res.body.id}`).set(admin);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect((await request(h.app).get(`/api/vendor-code-workbooks/${'0'.repeat(64)}`).set(admin)).status).toBe(404);
    expect((await request(h.app).get('/api/vendor-code-workbooks/not-a-sha').set(admin)).status).toBe(404);
  });

  test('a refused row: status fail, E with the ERP message, its child not attempted (INVALID CODE)', async () => {
    const pan = 'AAGCU2001K';
    sandbox.setFaults({ rejectPans: [pan] });
    try {
      const file = await workbook('utility', [parent('utility', { [COL.pan]: pan })], [child('utility', { [COL.pan]: pan, [COL.gstin]: `27${pan}1ZA` })]);
      const res = await submit('utility', file);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('fail');
      expect(res.body.message).toBe(resultMessages.someFailed);
      expect(res.body.data[0]).toMatchObject({ Type: 'Parent', PAN: pan, MSGTYPE: 'E', VEN_CODE: '' });
      expect(res.body.data[1]).toMatchObject({ Type: 'Child', PAN: pan, MSGTYPE: '', VEN_CODE: '', MSG: resultMessages.noParent(pan, '1000') });
    } finally {
      sandbox.resetFaults();
    }
  });
});
