import ExcelJS from 'exceljs';
import request from 'supertest';
import { columnsOf, massUploadMessages } from '../../../domain/src/mass-upload/columns';
import type { NucleusVendorRow } from '../../../projections/src/nucleus-vendors/nucleus-vendors.queries';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';
import { panOf, rowFor, workbook, type Row } from './testing';
import * as XLSX from '@e965/xlsx';

/**
 * Nucleus / SAP-verified mass upload through the API: templates, the spec's refusals (415 code 101, the sheet
 * messages), 201 with an error workbook holding exactly the bad rows and nothing written, 200 once fixed, the
 * same file twice writing nothing, roles, and the nucleus-vendor list scoped by company code.
 */
jest.setTimeout(120_000);

type Auth = { Authorization: string };
let h: ApiHarness;
let admin: Auth;
let mdm: Auth;
let procurement: Auth;
let auditor: Auth;
let staff2000: Auth;
let ba: Auth;

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
const json = (res: request.Response) => JSON.parse((res.body as Buffer).toString('utf8'));

/** Events the upload itself writes (rows, batches, the upload; the ERP step may add its own meanwhile). */
const uploadEvents = async () =>
  Number(
    (await h.db.pool.query(`SELECT count(*) AS n FROM events WHERE type IN ('NucleusVendorRecorded', 'MassUploadBatchRecorded', 'MassUploadRecorded')`)).rows[0].n,
  );

const upload = (kind: string, file: Buffer, name = 'vendors.xlsx', auth: Auth = admin) =>
  request(h.app).post(`/api/mass-uploads?kind=${kind}`).set(auth).attach('file', file, name).buffer(true).parse(binary);

async function readBack(body: Buffer): Promise<Record<string, unknown[][]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const out: Record<string, unknown[][]> = {};
  for (const ws of wb.worksheets) {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    out[ws.name] = rows;
  }
  return out;
}

beforeAll(async () => {
  h = await startApiHarness('api-mass-upload', { projectionWaitMs: 5000 });
  admin = (await sessionOf(h, await addUser(h, { email: 'admin@mass.test', name: 'Asha Admin', roles: ['MLL-ADMIN'], companyCodes: ['1000', '2000'] }))).auth;
  mdm = (await sessionOf(h, await addUser(h, { email: 'mdm@mass.test', roles: ['MDM'] }))).auth;
  procurement = (await sessionOf(h, await addUser(h, { email: 'proc@mass.test', roles: ['MLL Procurement'] }))).auth;
  auditor = (await sessionOf(h, await addUser(h, { email: 'audit@mass.test', roles: ['Auditor'], companyCodes: ['1000', '2000'] }))).auth;
  staff2000 = (await sessionOf(h, await addUser(h, { email: 'acc2000@mass.test', roles: ['MLL Accounts'], companyCodes: ['2000'] }))).auth;
  ba = (await sessionOf(h, await addUser(h, { email: 'ba@mass.test', roles: ['BA Admin'], baId: 'ba-mass' }))).auth;
});

afterAll(async () => {
  await h?.stop();
});

describe('templates', () => {
  it.each([
    ['nucleus', 'Nucleus-Mass-Upload-Template.xlsx'],
    ['sap-verified', 'SAP-Verified-Mass-Upload-Template.xlsx'],
  ] as const)('%s: sheets Parent and Child with the spec columns and an example row that passes', async (kind, fileName) => {
    const res = await request(h.app).get(`/api/mass-uploads/templates/${kind}`).set(mdm).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(`filename="${fileName}"`);
    const sheets = await readBack(res.body as Buffer);
    expect(Object.keys(sheets)).toEqual(['Parent', 'Child']);
    expect(sheets['Parent']![0]).toEqual(columnsOf(kind, 'Parent').map((c) => c.column));
    expect(sheets['Child']![0]).toEqual(columnsOf(kind, 'Child').map((c) => c.column));
    expect(sheets['Parent']).toHaveLength(2);
    // The template itself uploads: its example rows are valid (nothing left out by the rules).
    const again = await upload(kind, res.body as Buffer, fileName, mdm);
    expect(again.status).toBe(200);
  });
});

describe('refusals', () => {
  it.each(['vendors.csv', 'vendors.pdf', 'vendors.txt', 'vendors'])('%s → 415 code 101', async (name) => {
    const before = await uploadEvents();
    const res = await upload('nucleus', Buffer.from('PAN,Name\nABCDE1234F,Acme\n'), name);
    expect(res.status).toBe(415);
    expect(json(res)).toMatchObject({ code: 101, message: 'Please Select Only xlsx or xls File' });
    expect(await uploadEvents()).toBe(before);
  });

  it('an .xlsx name on other content → 415 code 101', async () => {
    const res = await upload('nucleus', Buffer.from('%PDF-1.4 not a workbook'), 'vendors.xlsx');
    expect(res.status).toBe(415);
    expect(json(res)).toMatchObject({ code: 101, message: massUploadMessages.notExcel });
  });

  it('sheet rules: no rows, a missing mandatory column, an empty header', async () => {
    const cols = columnsOf('nucleus', 'Parent').map((c) => c.column);
    const cases: [Buffer, string][] = [
      [await workbook('nucleus', [{ sheet: 'Parent', rows: [] }]), massUploadMessages.noRows],
      [await workbook('nucleus', [{ sheet: 'Parent', rows: [rowFor('nucleus', 'Parent', panOf('QQQ', 1))] }, { sheet: 'Child', rows: [] }]), massUploadMessages.noRows],
      [
        await workbook('nucleus', [{ sheet: 'Parent', rows: [rowFor('nucleus', 'Parent', panOf('QQQ', 1))], headers: cols.map((c) => (c === 'PAN Number' ? 'PAN' : c)) }]),
        massUploadMessages.missingColumn,
      ],
      [
        await workbook('nucleus', [{ sheet: 'Parent', rows: [rowFor('nucleus', 'Parent', panOf('QQQ', 1))], headers: cols.map((c) => (c === 'GSTIN category' ? null : c)) }]),
        massUploadMessages.emptyHeader,
      ],
    ];
    const before = await uploadEvents();
    for (const [file, message] of cases) {
      const res = await upload('nucleus', file);
      expect({ status: res.status, message: json(res).message }).toEqual({ status: 422, message });
    }
    expect(await uploadEvents()).toBe(before);
  });

  it('unknown kind → 400; roles other than MLL-ADMIN and MDM → 403', async () => {
    const file = await workbook('nucleus', [{ sheet: 'Parent', rows: [rowFor('nucleus', 'Parent', panOf('QRX', 1))] }]);
    expect((await upload('other', file)).status).toBe(400);
    for (const auth of [procurement, auditor, staff2000, ba]) {
      expect((await upload('nucleus', file, 'v.xlsx', auth)).status).toBe(403);
      expect((await request(h.app).get('/api/mass-uploads/templates/nucleus').set(auth)).status).toBe(403);
    }
    expect((await request(h.app).post('/api/mass-uploads?kind=nucleus').attach('file', file, 'v.xlsx')).status).toBe(401);
  });
});

describe('journey: three bad rows → error workbook → fixed file → vendors listed', () => {
  const pans = Array.from({ length: 8 }, (_, i) => panOf('JRN', i));
  const good = (i: number, over: Row = {}) => rowFor('nucleus', 'Parent', pans[i]!, over);

  it('201 with exactly the bad rows and an Errors column; nothing written', async () => {
    const parents = [
      good(0),
      good(1, { pan: 'ABC123' }), // bad PAN
      good(2),
      good(3, { companyCode: '2000' }),
      good(4, { bankKey: null }), // missing mandatory
      good(5, { mobileNo: '12345' }), // bad pattern
      good(6),
    ];
    const children = [rowFor('nucleus', 'Child', pans[0]!, { parentVendorCode: null }), rowFor('nucleus', 'Child', pans[2]!, { parentVendorCode: null, region: '29', gstin: `29${pans[2]}1Z5` })];
    const before = await uploadEvents();
    const res = await upload('nucleus', await workbook('nucleus', [{ sheet: 'Parent', rows: parents }, { sheet: 'Child', rows: children }]));
    expect(res.status).toBe(201);
    expect(res.headers['content-disposition']).toContain('filename="Nucleus-Mass-Upload-Error.xlsx"');
    const back = await readBack(res.body as Buffer);
    const header = back['Parent']![0]!;
    expect(header).toEqual([...columnsOf('nucleus', 'Parent').map((c) => c.column), 'Errors']);
    const panAt = header.indexOf('PAN Number');
    const errorsAt = header.indexOf('Errors');
    const rows = back['Parent']!.slice(1);
    expect(rows.map((r) => r[panAt])).toEqual(['ABC123', pans[4], pans[5]]);
    expect(rows.map((r) => r[errorsAt])).toEqual([
      'PAN Number must be a PAN (5 letters, 4 digits, 1 letter)',
      massUploadMessages.required('Bank Key'),
      'Mobile Number must be 10 digits starting with 6-9',
    ]);
    // The child sheet is there (with its header) and holds no bad row.
    expect(back['Child']).toHaveLength(1);
    expect(await uploadEvents()).toBe(before);
  });

  let uploadId = '';
  it('the fixed file → 200 summary; the vendors are listed', async () => {
    const parents = [good(0), good(1), good(2), good(3, { companyCode: '2000' }), good(4), good(5), good(6)];
    const children = [rowFor('nucleus', 'Child', pans[0]!, { parentVendorCode: null })];
    const file = await workbook('nucleus', [{ sheet: 'Parent', rows: parents }, { sheet: 'Child', rows: children }]);
    const res = await upload('nucleus', file);
    expect(res.status).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({ message: 'File uploaded successfully', rows: 8, parents: 7, children: 1, created: 8, unchanged: 0 });
    uploadId = body.uploadId;

    const list = await request(h.app).get('/api/nucleus-vendors').query({ filter: JSON.stringify({ q: 'JRN' }), range: '[0,99]' }).set(admin);
    expect(list.status).toBe(200);
    const listed = (list.body as NucleusVendorRow[]).map((r) => r.pan).sort();
    expect(listed).toEqual(pans.slice(0, 7).sort());
    expect(list.headers['content-range']).toBe('nucleus-vendors 0-6/7');

    const one = await request(h.app).get(`/api/nucleus-vendors/${pans[0]}`).set(auditor);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ pan: pans[0], companyCode: '1000', source: 'nucleus', blocked: false });
    expect((one.body as { childCodes: unknown[] }).childCodes).toHaveLength(1);
    expect((one.body as { history: { type: string }[] }).history.map((e) => e.type)).toContain('NucleusVendorRecorded');

    // The same file again: nothing new.
    const before = await uploadEvents();
    const again = await upload('nucleus', file);
    expect(again.status).toBe(200);
    expect(json(again)).toMatchObject({ uploadId, created: 0, unchanged: 8 });
    expect(await uploadEvents()).toBe(before);

    // One row changed: only that row is written.
    const changed = await workbook('nucleus', [{ sheet: 'Parent', rows: [good(0, { city: 'Pune' }), good(1)] }]);
    const third = await upload('nucleus', changed);
    expect(json(third)).toMatchObject({ created: 1, unchanged: 1 });
    expect(await uploadEvents()).toBe(before + 3); // the row, the batch, the upload
  });

  it('an Excel 97-2003 .xls of the same rows is read like the .xlsx: no vendor row written again', async () => {
    const parents = [good(0), good(1), good(2), good(3, { companyCode: '2000' }), good(4), good(5), good(6)];
    const xlsx = await workbook('nucleus', [{ sheet: 'Parent', rows: parents }]);
    // Saved as Excel 97-2003 does (BIFF8 in an OLE2 file).
    const xls = XLSX.write(XLSX.read(xlsx, { type: 'buffer' }), { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect((await upload('nucleus', xlsx)).status).toBe(200);
    const before = await uploadEvents();
    const res = await upload('nucleus', xls, 'vendors.xls');
    expect(res.status).toBe(200);
    expect(json(res)).toMatchObject({ rows: 7, parents: 7, created: 0, unchanged: 7 });
    // Another file (its own upload id): the batch and the upload are recorded, no vendor row.
    expect(await uploadEvents()).toBe(before + 2);

    // …and its bad rows come back in the error workbook as from an .xlsx.
    const bad = await workbook('nucleus', [{ sheet: 'Parent', rows: [good(0), good(1, { pan: 'ABC123' })] }]);
    const refused = await upload('nucleus', XLSX.write(XLSX.read(bad, { type: 'buffer' }), { type: 'buffer', bookType: 'biff8' }) as Buffer, 'vendors.xls');
    expect(refused.status).toBe(201);
    const back = await readBack(refused.body as Buffer);
    expect(back['Parent']!.slice(1).map((r) => r[back['Parent']![0]!.indexOf('PAN Number')])).toEqual(['ABC123']);
  });

  it('progress of a recorded upload', async () => {
    const res = await request(h.app).get(`/api/mass-uploads/${uploadId}`).set(admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uploadId, kind: 'nucleus', processed: 8, total: 8, created: 8 });
    expect(['recorded', 'done']).toContain(res.body.state);
    expect((await request(h.app).get(`/api/mass-uploads/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`).set(admin)).status).toBe(404);
  });

  it('the ERP step creates the vendors in the (sandbox) ERP and the list shows their codes', async () => {
    const deadline = Date.now() + 60_000;
    let progress: { state: string; erp: { assigned: number } } = { state: '', erp: { assigned: 0 } };
    while (Date.now() < deadline) {
      progress = (await request(h.app).get(`/api/mass-uploads/${uploadId}`).set(admin)).body;
      if (progress.state === 'done') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(progress).toMatchObject({ state: 'done', erp: { assigned: 8, refused: 0 } });
    const one = (await request(h.app).get(`/api/nucleus-vendors/${pans[0]}`).set(admin)).body as NucleusVendorRow;
    const erp = (await h.erpSandbox.vendors()).filter((v) => v.pan === pans[0]);
    expect(one.parentCode).toBe(erp.find((v) => v.kind === 'parent')!.vendorCode);
    expect(one.childCodes[0]!.childCode).toBe(erp.find((v) => v.kind === 'child')!.vendorCode);
    expect(one.erpStatus).toBe('assigned');
    const byCode = await request(h.app).get('/api/nucleus-vendors').query({ filter: JSON.stringify({ vendorCode: one.parentCode }) }).set(admin);
    // Every row found carries the code (another test's sap-verified row may name the same parent code, which
    // the sandbox allots from 1000000001 onwards), and the vendor is among them.
    const found = byCode.body as NucleusVendorRow[];
    expect(found.map((r) => r.pan)).toContain(pans[0]);
    for (const r of found) expect([r.parentCode, ...r.childCodes.map((c) => c.childCode)]).toContain(one.parentCode);
  });

  it('the list is scoped by company code and filtered by name, PAN and vendor code', async () => {
    const of2000 = await request(h.app).get('/api/nucleus-vendors').query({ filter: JSON.stringify({ q: 'JRN' }) }).set(staff2000);
    expect((of2000.body as NucleusVendorRow[]).map((r) => r.pan)).toEqual([pans[3]]);
    expect((await request(h.app).get(`/api/nucleus-vendors/${pans[0]}`).set(staff2000)).status).toBe(404);
    const byPan = await request(h.app).get('/api/nucleus-vendors').query({ filter: JSON.stringify({ pan: pans[1]!.toLowerCase() }) }).set(admin);
    expect((byPan.body as NucleusVendorRow[]).map((r) => r.pan)).toEqual([pans[1]]);
    const byName = await request(h.app).get('/api/nucleus-vendors').query({ filter: JSON.stringify({ companyName: 'acme logistics', q: 'JRN' }), range: '[0,0]' }).set(admin);
    expect(byName.headers['content-range']).toBe('nucleus-vendors 0-0/7');
    expect((await request(h.app).get('/api/nucleus-vendors').set(ba)).status).toBe(403);
    expect((await request(h.app).get('/api/nucleus-vendors').set(procurement)).status).toBe(200);
  });
});

describe('a row the ERP refused is sent again when a new file holds it', () => {
  const refusedPan = panOf('RFS', 0);
  const otherPan = panOf('RFS', 1);

  async function erpStep(uploadId: string): Promise<{ state: string; erp: { assigned: number; refused: number } }> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const progress = (await request(h.app).get(`/api/mass-uploads/${uploadId}`).set(admin)).body;
      if (progress.state === 'done' || Date.now() > deadline) return progress;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  afterAll(() => h.erpSandbox.resetFaults());

  it('refused by the ERP → the next file with the same row → the row is recorded and asked for again, and created', async () => {
    h.erpSandbox.setFaults({ rejectPans: [refusedPan] });
    const first = await upload('nucleus', await workbook('nucleus', [{ sheet: 'Parent', rows: [rowFor('nucleus', 'Parent', refusedPan)] }]));
    expect(first.status).toBe(200);
    expect(await erpStep(json(first).uploadId)).toMatchObject({ state: 'done', erp: { assigned: 0, refused: 1 } });
    const refused = (await request(h.app).get(`/api/nucleus-vendors/${refusedPan}`).set(admin)).body as NucleusVendorRow;
    expect(refused.erpStatus).toBe('refused');

    // The ERP takes the PAN now; the user uploads a file holding the same row (unchanged) and a new one.
    h.erpSandbox.resetFaults();
    const rows = [rowFor('nucleus', 'Parent', refusedPan), rowFor('nucleus', 'Parent', otherPan)];
    const second = await upload('nucleus', await workbook('nucleus', [{ sheet: 'Parent', rows }]));
    expect(second.status).toBe(200);
    expect(json(second)).toMatchObject({ rows: 2, created: 2, unchanged: 0 });
    expect(await erpStep(json(second).uploadId)).toMatchObject({ state: 'done', erp: { assigned: 2, refused: 0 } });
    const created = (await request(h.app).get(`/api/nucleus-vendors/${refusedPan}`).set(admin)).body as NucleusVendorRow;
    expect(created.erpStatus).toBe('assigned');
    expect(created.parentCode).toBe((await h.erpSandbox.vendors()).find((v) => v.pan === refusedPan && v.kind === 'parent')!.vendorCode);

    // The same file once more: every row has its answer now, nothing is recorded again.
    const third = await upload('nucleus', await workbook('nucleus', [{ sheet: 'Parent', rows: [...rows].reverse() }]));
    expect(json(third)).toMatchObject({ created: 0, unchanged: 2 });
  });
});
