import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { masterDefinition, MASTERS, type MasterDefinition } from '../../../domain/src/masters/definitions';
import { sampleValues } from '../../../domain/src/masters/testing';
import { messages } from '../../../domain/src/validation/fields';
import { createFsBlobStore } from '../../../platform/src/files';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';
import { columnsOf, MESSAGES_HEADER, workbookMessages } from './workbook';
import { importMessages } from './workbook-routes';

/**
 * Masters as workbooks: every master exports and imports its own export back unchanged; new and changed
 * rows are written once (a second upload of the same file appends nothing); one bad row means nothing is
 * written and the rows come back with their messages.
 */
jest.setTimeout(600_000);

type Auth = { Authorization: string };
let h: ApiHarness;
let admin: Auth;
let ba: Auth;
const refIds: Record<string, number> = {};

const eventCount = async () => Number((await h.db.pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n);

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

async function exported(def: MasterDefinition): Promise<{ res: request.Response; rows: unknown[][] }> {
  const res = await request(h.app).get(`/api/${def.resource}/export`).set(admin).buffer(true).parse(binary);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.body as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { res, rows };
}

async function workbookOf(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const upload = (def: MasterDefinition, file: Buffer, name = `${def.resource}.xlsx`) =>
  request(h.app).post(`/api/${def.resource}/import`).set(admin).attach('file', file, name).buffer(true).parse(binary);

const json = (res: request.Response) => JSON.parse((res.body as Buffer).toString('utf8'));

beforeAll(async () => {
  const blobStore = createFsBlobStore(mkdtempSync(path.join(tmpdir(), 'masters-files-')));
  h = await startApiHarness('api-masters-workbook', { projectionWaitMs: 5000, blobStore });
  admin = (await sessionOf(h, await addUser(h, { email: 'admin@workbook.test', name: 'Anil Admin', roles: ['MLL-ADMIN'] }))).auth;
  ba = (await sessionOf(h, await addUser(h, { email: 'ba@workbook.test', roles: ['BA Admin'], baId: 'ba-workbook' }))).auth;
  // A hire type of its own: the reference data already holds a required-flags row for every pair of its own.
  for (const resource of ['states', 'services', 'vehicle-hire-types']) {
    const def = masterDefinition(resource);
    const res = await request(h.app).post(`/api/${resource}`).set(admin).send(sampleValues(def, 2000, refIds));
    expect(res.status).toBe(201);
    refIds[resource] = (res.body as { id: number }).id;
  }
});

afterAll(async () => {
  await h?.stop();
});

describe.each(MASTERS.map((d, i) => [d.resource, d, 40 + i] as const))('%s workbook', (_r, def, n) => {
  it('exports every item under the field labels and imports its own export back without a change', async () => {
    // A master with a fixed set of codes (GST types, RFP types) may have none free; its export is still read back.
    if (def.resource !== 'gst-types' && def.resource !== 'rfp-types') {
      expect((await request(h.app).post(`/api/${def.resource}`).set(admin).send(sampleValues(def, n, refIds))).status).toBe(201);
    }
    const { res, rows } = await exported(def);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(`attachment; filename="${def.resource}.xlsx"`);
    expect(rows[0]).toEqual(columnsOf(def).map((c) => c.header));
    const list = await request(h.app).get(`/api/${def.resource}?range=[0,0]`).set(admin);
    expect(rows.length - 1).toBe(Number(/\/(\d+)$/.exec(String(list.headers['content-range']))![1]));

    const before = await eventCount();
    const back = await upload(def, res.body as Buffer);
    expect({ status: back.status, body: json(back) }).toEqual({
      status: 200,
      body: { created: 0, updated: 0, unchanged: rows.length - 1, message: `${def.label} imported successfully` },
    });
    expect(await eventCount()).toBe(before);
  });
});

describe('importing cities', () => {
  const cities = masterDefinition('cities');
  const header = columnsOf(cities).map((c) => c.header);

  it('creates rows without an Id and updates rows with one, once, however often the file is uploaded', async () => {
    const stateId = refIds['states']!;
    const created = await request(h.app).post('/api/cities').set(admin).send({ name: 'Old Name Pur', stateId });
    const file = await workbookOf([
      header,
      [created.body.id, 'New Name Pur', stateId, 'ignored', 'active'],
      [null, 'Fresh Nagar', stateId, null, null],
      [null, 'Sleepy Nagar', stateId, null, 'inactive'],
    ]);
    const first = await upload(cities, file);
    expect({ status: first.status, body: json(first) }).toEqual({
      status: 200,
      body: { created: 2, updated: 1, unchanged: 0, message: 'Cities imported successfully' },
    });
    expect((await request(h.app).get(`/api/cities/${created.body.id}`).set(admin)).body.name).toBe('New Name Pur');
    const fresh = await request(h.app).get(`/api/cities?filter=${encodeURIComponent(JSON.stringify({ q: 'Fresh Nagar' }))}`).set(ba);
    expect((fresh.body as { name: string }[]).map((c) => c.name)).toEqual(['Fresh Nagar']);
    const sleepy = await request(h.app).get(`/api/cities?filter=${encodeURIComponent(JSON.stringify({ q: 'Sleepy Nagar' }))}`).set(admin);
    expect((sleepy.body as { status: string }[]).map((c) => c.status)).toEqual(['inactive']);
    const history = await request(h.app).get(`/api/cities/${created.body.id}/events`).set(admin);
    expect(history.body.at(-1)).toMatchObject({ type: 'MasterItemChanged', data: { before: { name: 'Old Name Pur' }, after: { name: 'New Name Pur' } } });

    const before = await eventCount();
    const again = await upload(cities, file);
    expect(json(again)).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await eventCount()).toBe(before);
  });

  it('writes nothing when one row fails and answers the rows with their messages as a workbook', async () => {
    const stateId = refIds['states']!;
    const before = await eventCount();
    const file = await workbookOf([
      [...header, MESSAGES_HEADER],
      [null, 'Good Nagar', stateId, null, null, 'old message'],
      [null, '=HYPERLINK("x")', stateId, null, null],
      [null, 'Lost Nagar', 999_999, null, null],
      [null, 'Twin Nagar', stateId, null, null],
      [null, 'twin nagar', stateId, null, null],
    ]);
    const res = await upload(cities, file);
    expect(res.status).toBe(422);
    expect(res.headers['content-disposition']).toContain('attachment; filename="cities-import-errors.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([...header, MESSAGES_HEADER]);
    const messageOf = (i: number) => (rows[i]![header.length] ?? '') as string;
    // What would run as a formula in a spreadsheet comes back escaped as text.
    expect(rows.map((r) => r[1])).toEqual(['City Name', 'Good Nagar', `'=HYPERLINK("x")`, 'Lost Nagar', 'Twin Nagar', 'twin nagar']);
    expect(messageOf(1)).toBe('');
    expect(messageOf(2)).toBe(`City Name: ${messages.name}`);
    expect(messageOf(3)).toBe('State Id: Please select a valid State');
    expect(messageOf(4)).toBe('');
    expect(messageOf(5)).toBe(workbookMessages.duplicateInFile(5));
    expect(await eventCount()).toBe(before);
  });

  it('refuses what is not an .xlsx of the master', async () => {
    const before = await eventCount();
    const csv = await request(h.app).post('/api/cities/import').set(admin).attach('file', Buffer.from('name\nPune\n'), 'cities.csv');
    expect(csv.status).toBe(415);
    expect(csv.body.message).toBe(importMessages.xlsxOnly);
    const pdf = await request(h.app).post('/api/cities/import').set(admin).attach('file', Buffer.from('%PDF-1.4\n'), 'cities.xlsx');
    expect(pdf.status).toBe(415);
    const missing = await upload(cities, await workbookOf([['Id', 'City Name'], [null, 'Half Nagar']]));
    expect(missing.status).toBe(422);
    expect(json(missing).message).toBe(`${workbookMessages.missingColumn}: State Id`);
    const empty = await upload(cities, await workbookOf([header]));
    expect(json(empty).message).toBe(workbookMessages.noRows);
    expect((await request(h.app).post('/api/cities/import').set(ba).attach('file', await workbookOf([header]), 'c.xlsx')).status).toBe(403);
    expect((await request(h.app).get('/api/cities/export').set(ba)).status).toBe(403);
    expect(await eventCount()).toBe(before);
  });
});
