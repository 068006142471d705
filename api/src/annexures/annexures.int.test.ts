import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { annexureMessages } from '../../../domain/src/annexures/decide';
import { messages as fieldMessages } from '../../../domain/src/validation/fields';
import { FILE_KINDS } from '../../../domain/src/validation/files';
import { annexuresProjection } from '../../../projections/src/annexures/annexures.projection';
import { rebuildProjections, rebuildTables } from '../../../projections/src/rebuild';
import { dumpTables } from '../../../projections/src/test-support';
import type { UserRecord } from '../../../projections/src/identity/users.queries';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';
import { annexureRouteMessages } from './routes';

/**
 * PO annexures over HTTP with the real stores: staff (MLL-ADMIN, MDM) upload, replace and withdraw; every
 * signed-in user lists and downloads; refusals record nothing; the table rebuilds from the events alone.
 */
jest.setTimeout(120_000);

const MAX_BYTES = 256 * 1024;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PDF_V2 = Buffer.concat([PDF, Buffer.from('% revised March 2026\n')]);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const sha256Of = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let h: ApiHarness;
let admin: Record<string, string>;
let mdm: Record<string, string>;
let procurement: Record<string, string>;
let baAdmin: Record<string, string>;
let baUser: Record<string, string>;
let rateSheet: Buffer;

const as = async (user: UserRecord) => (await sessionOf(h, user)).auth;

/** Every file in the harness's store folder (blobs and any temporary file). */
function storedFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else out.push(path.relative(h.filesDir, path.join(d, e.name)));
    }
  };
  walk(h.filesDir);
  return out.sort();
}

async function annexureEvents(): Promise<{ stream_id: string; type: string; data: Record<string, unknown> }[]> {
  const { rows } = await h.db.pool.query(
    `SELECT stream_id, type, data FROM events WHERE stream_id LIKE 'annexure-%' ORDER BY global_position`,
  );
  return rows;
}

const upload = (auth: Record<string, string>, title: string | null, file: Buffer | null, name = 'PO Policy.pdf') => {
  let req = request(h.app).post('/api/annexures').set(auth);
  if (title !== null) req = req.field('title', title);
  if (file !== null) req = req.attach('file', file, name);
  return req;
};

beforeAll(async () => {
  h = await startApiHarness('annexures', { uploadMaxBytes: MAX_BYTES });
  admin = await as(await addUser(h, { email: 'admin@annexures.test', roles: ['MLL-ADMIN'] }));
  mdm = await as(await addUser(h, { email: 'mdm@annexures.test', roles: ['MDM'] }));
  procurement = await as(await addUser(h, { email: 'procurement@annexures.test', roles: ['MLL Procurement'] }));
  baAdmin = await as(await addUser(h, { email: 'admin@ba.annexures.test', roles: ['BA Admin'], baId: 'ba-annexures-1' }));
  baUser = await as(await addUser(h, { email: 'user@ba.annexures.test', roles: ['BA User'], baId: 'ba-annexures-1' }));
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Rates').addRow(['Lane', 'Vehicle', 'Rate']);
  rateSheet = Buffer.from(await wb.xlsx.writeBuffer());
});

afterAll(async () => {
  await h?.stop();
});

describe('uploading an annexure', () => {
  it('MLL-ADMIN uploads one: 201 with the item and "Uploaded successfully"; the event names the file, never its bytes', async () => {
    const res = await upload(admin, 'PO Terms and Conditions', PDF, 'PO Terms 2026.pdf');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'PO Terms and Conditions',
      fileName: 'PO Terms 2026.pdf',
      fileType: 'application/pdf',
      size: PDF.length,
      status: 'active',
      uploadedAt: expect.any(String),
      updatedAt: expect.any(String),
      message: annexureRouteMessages.uploaded,
    });
    const events = (await annexureEvents()).filter((e) => e.stream_id === `annexure-${res.body.id}`);
    expect(events).toEqual([
      {
        stream_id: `annexure-${res.body.id}`,
        type: 'AnnexureUploaded',
        data: {
          id: res.body.id,
          title: 'PO Terms and Conditions',
          file: { name: 'PO Terms 2026.pdf', size: PDF.length, type: 'application/pdf', sha256: sha256Of(PDF) },
        },
      },
    ]);
    expect(storedFiles()).toContain(`${sha256Of(PDF).slice(0, 2)}/${sha256Of(PDF)}`);
  });

  it('MDM uploads an .xlsx rate sheet', async () => {
    const res = await upload(mdm, 'Rate Card Format', rateSheet, 'Rate card.xlsx');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fileType: XLSX_TYPE, size: rateSheet.length });
  });

  it('refuses BAs, BA users and other staff (403) before reading the file', async () => {
    const before = storedFiles();
    const png = Buffer.concat([PNG, Buffer.from('unique-to-this-test')]);
    for (const auth of [baAdmin, baUser, procurement]) {
      const res = await upload(auth, 'Not mine to upload', png, 'x.png');
      expect(res.status).toBe(403);
    }
    expect(storedFiles()).toEqual(before);
  });

  it('refuses a missing or unsafe title (400), a wrong type (415) and a file past the cap (413), recording nothing', async () => {
    const events = (await annexureEvents()).length;
    const noTitle = await upload(admin, null, PDF);
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toMatchObject({ message: annexureRouteMessages.titleRequired, errors: { title: annexureRouteMessages.titleRequired } });
    const blank = await upload(admin, '   ', PDF);
    expect(blank.status).toBe(400);
    const formula = await upload(admin, '=HYPERLINK("http://evil")', PDF);
    expect(formula.status).toBe(400);
    expect(formula.body.message).toBe(fieldMessages.leadingCharacter);
    const noFile = await upload(admin, 'No file', null);
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe('Please choose a file');

    const before = storedFiles();
    const csv = await upload(admin, 'Vendors', Buffer.from('a,b\n1,2\n'), 'vendors.csv');
    expect(csv.status).toBe(415);
    expect(csv.body.message).toBe(FILE_KINDS.annexure.message);
    const disguised = await upload(admin, 'Disguised', PNG, 'policy.pdf');
    expect(disguised.status).toBe(415);
    const big = await upload(admin, 'Too big', Buffer.concat([PDF, Buffer.alloc(MAX_BYTES, 0x20)]), 'big.pdf');
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('The file is too large. The maximum size is 0.3 MB.');
    expect(storedFiles()).toEqual(before);
    expect((await annexureEvents()).length).toBe(events);
  });

  it('an Idempotency-Key makes a retried upload land on the same annexure, appended once', async () => {
    const send = () => upload(admin, 'Retried policy', PDF_V2, 'retry.pdf').set('Idempotency-Key', 'annexure-retry-1');
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect((await annexureEvents()).filter((e) => e.stream_id === `annexure-${first.body.id}`)).toHaveLength(1);
    // The same key for a different upload is refused, not answered with the first.
    const other = await upload(admin, 'Another title', PDF_V2, 'retry.pdf').set('Idempotency-Key', 'annexure-retry-1');
    expect(other.status).toBe(422);
  });
});

describe('listing and downloading', () => {
  it('every signed-in user lists them, in upload order, as ra-data-simple-rest; anonymous callers get 401', async () => {
    for (const auth of [baAdmin, baUser, procurement, admin]) {
      const res = await request(h.app).get('/api/annexures').set(auth);
      expect(res.status).toBe(200);
      expect(res.headers['content-range']).toMatch(/^annexures 0-\d+\/\d+$/);
      const titles = (res.body as { title: string }[]).map((a) => a.title);
      expect(titles.indexOf('PO Terms and Conditions')).toBeLessThan(titles.indexOf('Rate Card Format'));
      expect(res.body[0]).not.toHaveProperty('sha256');
    }
    expect((await request(h.app).get('/api/annexures')).status).toBe(401);
    const searched = await request(h.app).get('/api/annexures').query({ filter: JSON.stringify({ q: 'rate card' }) }).set(baUser);
    expect(searched.body.map((a: { title: string }) => a.title)).toEqual(['Rate Card Format']);
  });

  it('a BA downloads the file with its type and name, previews a PDF inline, and always downloads an .xlsx', async () => {
    const list = (await request(h.app).get('/api/annexures').set(baAdmin)).body as { id: string; title: string }[];
    const policy = list.find((a) => a.title === 'PO Terms and Conditions')!;
    const sheet = list.find((a) => a.title === 'Rate Card Format')!;

    const file = await request(h.app).get(`/api/annexures/${policy.id}/file`).set(baAdmin).buffer(true);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="PO Terms 2026.pdf"; filename*=UTF-8''PO%20Terms%202026.pdf`);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.body as Buffer, PDF)).toBe(0);

    const preview = await request(h.app).get(`/api/annexures/${policy.id}/file?inline=1`).set(baUser);
    expect(preview.headers['content-disposition']).toMatch(/^inline; /);
    const xlsx = await request(h.app).get(`/api/annexures/${sheet.id}/file?inline=1`).set(baUser).buffer(true);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-type']).toBe(XLSX_TYPE);
    expect(xlsx.headers['content-disposition']).toMatch(/^attachment; filename="Rate card.xlsx"/);
    expect(Number(xlsx.headers['content-length'])).toBe(rateSheet.length);
  });

  it('answers 404 for an unknown annexure and for a file missing from the store', async () => {
    expect((await request(h.app).get('/api/annexures/00000000-0000-4000-8000-000000000000/file').set(baAdmin)).status).toBe(404);
    expect((await request(h.app).get('/api/annexures/not-a-uuid').set(baAdmin)).status).toBe(404);
    const lost = await upload(admin, 'Lost file', Buffer.concat([PDF, Buffer.from('lost')]), 'lost.pdf');
    const sha = sha256Of(Buffer.concat([PDF, Buffer.from('lost')]));
    rmSync(path.join(h.filesDir, sha.slice(0, 2), sha));
    const res = await request(h.app).get(`/api/annexures/${lost.body.id}/file`).set(baAdmin);
    expect(res.status).toBe(404);
  });
});

describe('replacing and withdrawing', () => {
  it('replaces the file ("File uploaded successfully"), recording the previous one; then only the title', async () => {
    const created = await upload(admin, 'Warehousing PO policy', PDF, 'warehousing.pdf');
    const id = created.body.id as string;
    const replaced = await request(h.app).put(`/api/annexures/${id}`).set(mdm).attach('file', PDF_V2, 'warehousing-v2.pdf');
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id,
      title: 'Warehousing PO policy',
      fileName: 'warehousing-v2.pdf',
      size: PDF_V2.length,
      message: annexureRouteMessages.replaced,
    });
    const file = await request(h.app).get(`/api/annexures/${id}/file`).set(baUser).buffer(true);
    expect(Buffer.compare(file.body as Buffer, PDF_V2)).toBe(0);

    const renamed = await request(h.app).put(`/api/annexures/${id}`).set(admin).field('title', 'Warehousing PO policy 2026');
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'Warehousing PO policy 2026', fileName: 'warehousing-v2.pdf' });

    const events = (await annexureEvents()).filter((e) => e.stream_id === `annexure-${id}`);
    expect(events.map((e) => e.type)).toEqual(['AnnexureUploaded', 'AnnexureReplaced', 'AnnexureReplaced']);
    expect(events[1]?.data).toMatchObject({
      file: { name: 'warehousing-v2.pdf', sha256: sha256Of(PDF_V2) },
      previous: { title: 'Warehousing PO policy', file: { name: 'warehousing.pdf', sha256: sha256Of(PDF) } },
    });
  });

  it('refuses a replacement with nothing in it (400), of the wrong type (415), by a BA (403) or of an unknown annexure (404)', async () => {
    const created = await upload(admin, 'Security PO policy', PDF, 'security.pdf');
    const id = created.body.id as string;
    const empty = await request(h.app).put(`/api/annexures/${id}`).set(admin).field('other', 'x');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(annexureRouteMessages.nothingToChange);
    const wrong = await request(h.app).put(`/api/annexures/${id}`).set(admin).attach('file', PNG, 'security.docx');
    expect(wrong.status).toBe(415);
    expect((await request(h.app).put(`/api/annexures/${id}`).set(baAdmin).field('title', 'Mine')).status).toBe(403);
    const unknown = await request(h.app).put('/api/annexures/00000000-0000-4000-8000-000000000000').set(admin).field('title', 'T');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(annexureMessages.notFound);
    expect((await annexureEvents()).filter((e) => e.stream_id === `annexure-${id}`)).toHaveLength(1);
  });

  it('withdraws one: off the list, its file and edits 404, a second withdrawal appends nothing', async () => {
    const created = await upload(admin, 'Old fuel surcharge policy', PDF, 'fuel.pdf');
    const id = created.body.id as string;
    expect((await request(h.app).post(`/api/annexures/${id}/withdraw`).set(baAdmin)).status).toBe(403);
    const withdrawn = await request(h.app).post(`/api/annexures/${id}/withdraw`).set(mdm);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ id, status: 'withdrawn', message: annexureRouteMessages.withdrawn });
    const list = await request(h.app).get('/api/annexures').set(baUser);
    expect(list.body.map((a: { id: string }) => a.id)).not.toContain(id);
    expect((await request(h.app).get(`/api/annexures/${id}/file`).set(baUser)).status).toBe(404);
    expect((await request(h.app).put(`/api/annexures/${id}`).set(admin).field('title', 'Back')).status).toBe(404);
    expect((await request(h.app).post(`/api/annexures/${id}/withdraw`).set(admin)).status).toBe(200);
    const events = (await annexureEvents()).filter((e) => e.stream_id === `annexure-${id}`);
    expect(events.map((e) => e.type)).toEqual(['AnnexureUploaded', 'AnnexureWithdrawn']);
  });
});

describe('the annexures read model', () => {
  it('rebuilds from the events alone, equal row for row to the live table', async () => {
    const live = await dumpTables(h.db.pool, ['annexures']);
    expect(live['annexures']!.length).toBeGreaterThanOrEqual(6);
    await rebuildProjections({ pool: h.db.pool, store: h.store, projections: [annexuresProjection], swap: false });
    const rebuilt = await dumpTables(h.db.pool, [rebuildTables('annexures')]);
    expect(Object.values(rebuilt)).toEqual(Object.values(live));
  });
});
