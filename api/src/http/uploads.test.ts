import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import express, { type Express } from 'express';
import request from 'supertest';
import { FILE_KINDS, type FileKind } from '../../../domain/src/validation/files';
import { createFsBlobStore, type BlobStore } from '../../../platform/src/files';
import { problemHandler } from './problem';
import { contentDisposition, receiveUpload, safeFileName, sendFile, type UploadedFile } from './uploads';

jest.setTimeout(30_000);

/** Real bytes of each format, as small as the magic-byte check needs. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(200, 1)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(50, 0)]);
/** The OLE compound file header of .doc and .xls. */
const CFB = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 0)]);
const CSV = Buffer.from('Vendor Code,Name,City\n100234,Sharma Roadways,Pune\n');

/** Stored (uncompressed) zip entries: what a .docx starts with. */
function zipOf(entries: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(parts);
}
const DOCX = zipOf({ '[Content_Types].xml': '<Types/>', '_rels/.rels': '<Relationships/>', 'word/document.xml': '<w:document/>' });

async function xlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Rates').addRow(['Lane', 'Rate']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const sha256Of = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dir = '';
let store: BlobStore;

/** Everything in the store's folder: blobs and any temporary file. */
function stored(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else out.push(path.relative(dir, path.join(d, e.name)));
    }
  };
  walk(dir);
  return out;
}

function appFor(kinds: FileKind | FileKind[], maxBytes = 1024 * 1024, optional = false): Express {
  const app = express();
  app.post('/upload', async (req, res) => {
    const upload = await receiveUpload(req, { blobStore: store, kinds, maxBytes, textFields: ['title'], ...(optional ? { optional: true } : {}) });
    res.status(201).json(upload);
  });
  app.get('/file', async (req, res) => {
    const file = JSON.parse(String(req.query['file'])) as UploadedFile;
    await sendFile(res, store, file, { inline: req.query['inline'] === '1' });
  });
  app.use(problemHandler());
  return app;
}

const upload = (app: Express, name: string, content: Buffer, title = 'Transport policy') =>
  request(app).post('/upload').field('title', title).attach('file', content, name);

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-uploads-'));
  store = createFsBlobStore(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('receiveUpload', () => {
  it('streams an accepted file into the store and answers its name, size, MIME type and sha256 with the fields', async () => {
    const res = await upload(appFor('annexure'), 'PO Policy 2026.pdf', PDF);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      fields: { title: 'Transport policy' },
      file: { name: 'PO Policy 2026.pdf', size: PDF.length, type: 'application/pdf', sha256: sha256Of(PDF) },
    });
    expect(stored()).toEqual([`${sha256Of(PDF).slice(0, 2)}/${sha256Of(PDF)}`]);
  });

  it.each([
    ['document', 'scan.jpg', JPEG, 'image/jpeg'],
    ['document', 'scan.JPEG', JPEG, 'image/jpeg'],
    ['document', 'photo.png', PNG, 'image/png'],
    ['document', 'logo.gif', GIF, 'image/gif'],
    ['document', 'agreement.doc', CFB, 'application/msword'],
    ['document', 'agreement.docx', DOCX, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['imageOrPdf', 'cheque.png', PNG, 'image/png'],
    ['imageOrPdf', 'cheque.pdf', PDF, 'application/pdf'],
    ['excel', 'vendors.xls', CFB, 'application/vnd.ms-excel'],
    ['excel', 'vendors.csv', CSV, 'text/csv'],
  ] as const)('a %s upload takes %s', async (kind, name, content, type) => {
    const res = await upload(appFor(kind), name, content);
    expect(res.status).toBe(201);
    expect(res.body.file).toMatchObject({ name, type, size: content.length });
  });

  it('takes a real .xlsx as excel and as an annexure', async () => {
    const book = await xlsx();
    for (const kind of ['excel', 'annexure'] as const) {
      const res = await upload(appFor(kind), 'Rate sheet.xlsx', book);
      expect(res.status).toBe(201);
      expect(res.body.file.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    }
  });

  it.each([
    ['excel', 'vendors.pdf'],
    ['excel', 'vendors.docx'],
    ['document', 'rates.xlsx'],
    ['document', 'script.exe'],
    ['imageOrPdf', 'agreement.docx'],
    ['annexure', 'rates.csv'],
    ['annexure', 'noextension'],
  ] as const)('refuses a %s upload named %s with 415 and the spec message, writing nothing', async (kind, name) => {
    const res = await upload(appFor(kind), name, PDF);
    expect(res.status).toBe(415);
    expect(res.body.message).toBe(FILE_KINDS[kind].message);
    expect(stored()).toEqual([]);
  });

  it.each([
    ['document', 'invoice.pdf', PNG],
    ['document', 'photo.png', PDF],
    ['document', 'letter.docx', CFB],
    ['document', 'letter.doc', DOCX],
    ['imageOrPdf', 'scan.jpg', Buffer.from('just some text pretending to be a photo')],
    ['excel', 'vendors.xlsx', PDF],
    ['excel', 'vendors.xls', DOCX],
    ['excel', 'vendors.csv', PNG],
    ['excel', 'vendors.csv', Buffer.from('Vendor\0Code\n')],
  ] as const)('refuses a %s upload named %s whose bytes are something else (415), writing nothing', async (kind, name, content) => {
    const res = await upload(appFor(kind), name, content);
    expect(res.status).toBe(415);
    expect(res.body.message).toBe(FILE_KINDS[kind].message);
    expect(stored()).toEqual([]);
  });

  it('refuses a file past the cap with 413 and the limit in MB, leaving nothing behind', async () => {
    const tooBig = Buffer.concat([PDF, Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    const res = await upload(appFor('document', 1024 * 1024), 'big.pdf', tooBig);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The file is too large. The maximum size is 1 MB.');
    expect(stored()).toEqual([]);
    // The connection stays usable: the rest of the body was read and dropped, not left in the socket.
    const next = await upload(appFor('document', 1024 * 1024), 'small.pdf', PDF);
    expect(next.status).toBe(201);
  });

  it('takes a file of exactly the cap', async () => {
    const exact = Buffer.concat([PDF, Buffer.alloc(1024 - PDF.length, 0x20)]);
    expect((await upload(appFor('document', 1024), 'exact.pdf', exact)).status).toBe(201);
    expect((await upload(appFor('document', 1023), 'exact.pdf', exact)).status).toBe(413);
  });

  it('answers 400 "Please choose a file" without a file, with an empty file name, or without a multipart body', async () => {
    const app = appFor('document');
    const none = await request(app).post('/upload').field('title', 'No file');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Please choose a file');
    const blank = await request(app).post('/upload').attach('file', Buffer.alloc(0), { filename: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Please choose a file');
    const json = await request(app).post('/upload').send({ title: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe('Please choose a file');
    const empty = await upload(app, 'empty.pdf', Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(stored()).toEqual([]);
  });

  it('lets an optional file be left out (fields only)', async () => {
    const res = await request(appFor('annexure', 1024, true)).post('/upload').field('title', 'Renamed');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ fields: { title: 'Renamed' }, file: null });
  });

  it('refuses a second file in the same field', async () => {
    const res = await request(appFor('document')).post('/upload').attach('file', PDF, 'a.pdf').attach('file', PNG, 'b.png');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please choose one file only');
  });

  it('keeps only the file name (no path) and UTF-8 names intact', async () => {
    const app = appFor('document');
    expect((await upload(app, '../../etc/passwd.pdf', PDF)).body.file.name).toBe('passwd.pdf');
    expect((await upload(app, 'दस्तावेज़ नीति.pdf', PDF)).body.file.name).toBe('दस्तावेज़ नीति.pdf');
    expect(safeFileName('C:\\Users\\ops\\Desktop\\po "final".pdf')).toBe('po final.pdf');
    expect(safeFileName('..\\..\\boot.ini')).toBe('boot.ini');
    expect(safeFileName('...hidden.pdf')).toBe('hidden.pdf');
    expect(safeFileName('a\u0000b\r\nc.pdf')).toBe('abc.pdf');
    expect(safeFileName(`${'x'.repeat(300)}.pdf`)).toBe(`${'x'.repeat(196)}.pdf`);
  });

  it('streams: the store is writing the file while the client is still sending it', async () => {
    // A 20 MB upload sent in two halves; the second half only goes once the first is on disk. An upload
    // buffered in memory before it is stored would never let this test finish.
    const total = 20 * 1024 * 1024;
    const app = appFor('document', 25 * 1024 * 1024);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const boundary = '----ba-portal-test-boundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const half = total / 2;
      const tempFileSize = () => {
        const temp = stored().find((f) => f.endsWith('.tmp'));
        return temp ? statSync(path.join(dir, temp)).size : 0;
      };
      let firstHalfOnDisk = 0;
      async function* body() {
        yield head;
        yield PDF;
        for (let sent = PDF.length; sent < half; sent += 64 * 1024) yield Buffer.alloc(Math.min(64 * 1024, half - sent), 0x20);
        const deadline = Date.now() + 20_000;
        while ((firstHalfOnDisk = tempFileSize()) < half / 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        for (let sent = 0; sent < half; sent += 64 * 1024) yield Buffer.alloc(64 * 1024, 0x20);
        yield tail;
      }
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: (server.address() as AddressInfo).port,
            path: '/upload',
            method: 'POST',
            headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        Readable.from(body()).pipe(req);
      });
      expect(answer.status).toBe(201);
      expect(firstHalfOnDisk).toBeGreaterThanOrEqual(half / 2);
      expect(JSON.parse(answer.body).file.size).toBe(total);
      expect(stored().filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('sendFile', () => {
  const pdfFile = (): UploadedFile => ({ name: 'PO Policy – 2026.pdf', size: PDF.length, type: 'application/pdf', sha256: sha256Of(PDF) });

  it('streams the stored bytes with their type, length, attachment name (RFC 5987) and nosniff', async () => {
    await upload(appFor('document'), 'x.pdf', PDF);
    const res = await request(appFor('document')).get('/file').query({ file: JSON.stringify(pdfFile()) }).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(PDF.length));
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="PO Policy _ 2026.pdf"; filename*=UTF-8''PO%20Policy%20%E2%80%93%202026.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(res.body as Buffer, PDF)).toBe(0);
  });

  it('shows PDFs and images inline when asked, never anything else', async () => {
    const book = await xlsx();
    await upload(appFor('annexure'), 'x.pdf', PDF);
    await upload(appFor('annexure'), 'r.xlsx', book);
    const pdf = await request(appFor('annexure')).get('/file').query({ file: JSON.stringify(pdfFile()), inline: '1' });
    expect(pdf.headers['content-disposition']).toMatch(/^inline; /);
    const sheet: UploadedFile = {
      name: 'Rates.xlsx',
      size: book.length,
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      sha256: sha256Of(book),
    };
    const res = await request(appFor('annexure')).get('/file').query({ file: JSON.stringify(sheet), inline: '1' });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Rates.xlsx"/);
  });

  it('answers 404 when the blob is not in the store', async () => {
    const res = await request(appFor('document')).get('/file').query({ file: JSON.stringify(pdfFile()) });
    expect(res.status).toBe(404);
  });

  it('quotes names safely in the ASCII fallback', () => {
    expect(contentDisposition('a"b\\c%.pdf', 'attachment')).toBe(`attachment; filename="a_b_c_.pdf"; filename*=UTF-8''a%22b%5Cc%25.pdf`);
    expect(contentDisposition("it's (1).pdf", 'inline')).toBe(`inline; filename="it's (1).pdf"; filename*=UTF-8''it%27s%20%281%29.pdf`);
  });
});
