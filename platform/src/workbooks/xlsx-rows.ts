import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import yauzl from 'yauzl';

/**
 * A lean reader of .xlsx rows for large uploads (a 100,000-row mass upload). exceljs' stream reader builds a
 * Row and a Cell object (with address, style and type machinery) for every cell through a generic SAX parser;
 * for the few value types an upload holds that costs four times the work of the whole validation. This reader
 * takes the zip apart with yauzl (the central directory, so the parts may come in any order: Excel writes the
 * shared strings after the sheets) and scans each sheet's XML one complete <row> at a time, handing over cell
 * values of the same shapes exceljs' reader gives (string, number, boolean, {formula, result}, {error}, Date),
 * so `cellText` and every rule downstream are unchanged. A differential test holds it to exceljs.
 *
 * Memory: the zip itself (bounded by the upload's size limit), the shared strings, and one inflated chunk.
 */
export type XlsxCellValue = string | number | boolean | Date | { formula: string; result?: string | number } | { error: string };

export type XlsxSheet = { name: string; /** 0-based position in the workbook's sheet order */ position: number };

/** Called per sheet; returns the row handler for it, or null to skip the sheet. */
export type XlsxSheetVisitor = (sheet: XlsxSheet) => ((number: number, values: (XlsxCellValue | undefined)[]) => void) | null;

/** The file's parts could not be read as a workbook (a damaged file, a zip of something else). */
export class NotAWorkbookError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAWorkbookError';
  }
}

export async function readXlsxRows(input: Buffer | Readable, visit: XlsxSheetVisitor): Promise<void> {
  const zip = await openZip(Buffer.isBuffer(input) ? input : await readAll(input));
  try {
    const entries = await listEntries(zip);
    const text = async (name: string): Promise<string | null> => {
      const entry = entries.get(name);
      if (!entry) return null;
      let all = '';
      await inflate(zip, entry, (chunk) => {
        all += chunk;
      });
      return all;
    };
    const workbook = await text('xl/workbook.xml');
    if (workbook === null) throw new NotAWorkbookError('The file has no workbook part (xl/workbook.xml)');
    const targets = relationshipTargets((await text('xl/_rels/workbook.xml.rels')) ?? '');
    const shared = entries.has('xl/sharedStrings.xml') ? await sharedStrings(zip, entries.get('xl/sharedStrings.xml')!) : [];

    const sheets = [...workbook.matchAll(/<(?:\w+:)?sheet\b([^>]*?)\/?>/g)].map((m, position) => {
      const attrs = attributes(m[1]!);
      const rel = attrs['r:id'] ?? Object.entries(attrs).find(([k]) => k.endsWith(':id'))?.[1] ?? '';
      return { name: decodeXml(attrs['name'] ?? ''), position, part: targets.get(rel) ?? null };
    });
    for (const sheet of sheets) {
      const onRow = visit({ name: sheet.name, position: sheet.position });
      if (!onRow) continue;
      const entry = sheet.part ? entries.get(sheet.part) : undefined;
      if (!entry) continue; // a chart sheet or a dangling reference: no rows
      await scanSheet(zip, entry, shared, onRow);
    }
  } finally {
    zip.close();
  }
}

async function readAll(input: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (err, zip) =>
      err || !zip ? reject(new NotAWorkbookError(err?.message ?? 'Not a zip file')) : resolve(zip),
    ),
  );
}

function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName.replace(/^\//, ''), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (err: Error) => reject(new NotAWorkbookError(err.message)));
    zip.readEntry();
  });
}

/** Streams one part, inflated and decoded as UTF-8 text chunk by chunk. */
function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(new NotAWorkbookError(err?.message ?? `Cannot read ${entry.fileName}`));
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => {
        try {
          onText(decoder.write(chunk));
        } catch (error) {
          stream.destroy(error as Error);
        }
      });
      stream.once('end', () => {
        try {
          onText(decoder.end());
          resolve();
        } catch (error) {
          reject(error);
        }
      });
      stream.once('error', (error) => reject(error instanceof NotAWorkbookError ? error : new NotAWorkbookError(error.message)));
    });
  });
}

/**
 * Feeds `onUnit` every complete element matched by `unit` (a global regex matching whole elements), as the
 * part streams in: text after the last complete element waits for the next chunk.
 */
async function scanUnits(zip: yauzl.ZipFile, entry: yauzl.Entry, unit: RegExp, onUnit: (m: RegExpExecArray) => void): Promise<void> {
  let pending = '';
  await inflate(zip, entry, (chunk) => {
    pending += chunk;
    unit.lastIndex = 0;
    let end = 0;
    for (let m = unit.exec(pending); m !== null; m = unit.exec(pending)) {
      onUnit(m);
      end = unit.lastIndex;
    }
    pending = pending.slice(end);
  });
}

const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTRIBUTE)) out[m[1]!] = m[2] ?? m[3] ?? '';
  return out;
}

function relationshipTargets(rels: string): Map<string, string> {
  const targets = new Map<string, string>();
  for (const m of rels.matchAll(/<(?:\w+:)?Relationship\b([^>]*?)\/?>/g)) {
    const a = attributes(m[1]!);
    if (!a['Id'] || !a['Target']) continue;
    const target = a['Target'];
    // Targets are relative to xl/ unless absolute ("/xl/worksheets/sheet1.xml").
    targets.set(a['Id'], target.startsWith('/') ? target.slice(1) : normalise(`xl/${target}`));
  }
  return targets;
}

function normalise(path: string): string {
  const parts: string[] = [];
  for (const p of path.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
export function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : NAMED[e]!,
  );
}

/** The text of a string item (<si> or <is>): its <t> runs joined, phonetic guides (<rPh>) left out. */
const RUN_TEXT = /<(?:\w+:)?t\b[^>]*?(?:\/>|>([^<]*)<\/(?:\w+:)?t>)/g;
function stringItemText(xml: string): string {
  const body = xml.includes('rPh') ? xml.replace(/<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g, '') : xml;
  let text = '';
  for (const m of body.matchAll(RUN_TEXT)) text += m[1] ?? '';
  return decodeXml(text);
}

async function sharedStrings(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string[]> {
  const strings: string[] = [];
  await scanUnits(zip, entry, /<(?:\w+:)?si\b(?:[^>]*?\/>|[^>]*>([\s\S]*?)<\/(?:\w+:)?si>)/g, (m) => {
    strings.push(stringItemText(m[1] ?? ''));
  });
  return strings;
}

const ROW = /<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g;
const CELL = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
const ROW_NUMBER = /\br\s*=\s*"(\d+)"/;
const CELL_REF = /\br\s*=\s*"([A-Za-z]+)\d*"/;
const CELL_TYPE = /\bt\s*=\s*"(\w+)"/;
const VALUE = /<(?:\w+:)?v\b[^>]*>([^<]*)<\/(?:\w+:)?v>/;
const FORMULA = /<(?:\w+:)?f\b[^>]*?(?:\/>|>([^<]*)<\/(?:\w+:)?f>)/;
const INLINE = /<(?:\w+:)?is\b[^>]*>([\s\S]*?)<\/(?:\w+:)?is>/;

/** "A" → 0, "AB" → 27. */
function columnIndex(letters: string): number {
  let n = 0;
  for (let i = 0; i < letters.length; i += 1) n = n * 26 + (letters.toUpperCase().charCodeAt(i) - 64);
  return n - 1;
}

async function scanSheet(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  shared: readonly string[],
  onRow: (number: number, values: (XlsxCellValue | undefined)[]) => void,
): Promise<void> {
  let previousRow = 0;
  await scanUnits(zip, entry, ROW, (row) => {
    const rowNumber = Number(ROW_NUMBER.exec(row[1]!)?.[1] ?? previousRow + 1);
    previousRow = rowNumber;
    const values: (XlsxCellValue | undefined)[] = [];
    const body = row[2];
    if (body) {
      let column = -1;
      CELL.lastIndex = 0;
      for (let c = CELL.exec(body); c !== null; c = CELL.exec(body)) {
        const ref = CELL_REF.exec(c[1]!);
        column = ref ? columnIndex(ref[1]!) : column + 1;
        const value = cellValue(CELL_TYPE.exec(c[1]!)?.[1], c[2], shared);
        if (value !== undefined) values[column] = value;
      }
    }
    onRow(rowNumber, values);
  });
}

/** One cell's value, as exceljs' stream reader gives it with styles ignored (so dates stay serial numbers). */
function cellValue(type: string | undefined, inner: string | undefined, shared: readonly string[]): XlsxCellValue | undefined {
  if (!inner) return undefined;
  const f = FORMULA.exec(inner);
  const v = VALUE.exec(inner)?.[1];
  if (f) {
    const formula = decodeXml(f[1] ?? '');
    if (v === undefined) return { formula };
    return { formula, result: type === 'str' ? decodeXml(v) : parseFloat(v) };
  }
  if (type === 'inlineStr') {
    const is = INLINE.exec(inner);
    return is ? stringItemText(is[1]!) : v === undefined ? undefined : decodeXml(v);
  }
  if (v === undefined) return undefined;
  switch (type) {
    case 's':
      return shared[parseInt(v, 10)] ?? '';
    case 'str':
      return decodeXml(v);
    case 'b':
      return parseInt(v, 10) !== 0;
    case 'e':
      return { error: decodeXml(v) };
    case 'd':
      return new Date(decodeXml(v));
    default:
      return parseFloat(v);
  }
}
