import type { IncomingMessage } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import FileType from 'file-type';
import {
  EXTENSIONS,
  extensionOf,
  kindRule,
  uploadMessages,
  type FileExtension,
  type FileKind,
} from '../../../domain/src/validation/files';
import { FileTooLargeError, type BlobStore } from '../../../platform/src/files';
import { HttpError, messages } from './problem';

/**
 * Multipart uploads (spec 000 §5 "Files"): one file part streamed into the BlobStore, never held whole in
 * memory. The extension is checked first (before a byte is read), then the first bytes are held back until
 * `file-type` has looked at them, then the stream goes on into the store, which enforces the size cap.
 *
 * A refused upload records nothing. Only one case writes a blob first: a form field checked by the route
 * after the upload (e.g. an empty title) — the blob then stays unreferenced; being content-addressed it
 * harms nothing and a later upload of the same bytes reuses it.
 */
export type UploadedFile = {
  /** The client's file name without any path, control characters or quotes. */
  name: string;
  size: number;
  /** MIME type from the (checked) extension, e.g. application/pdf. */
  type: string;
  sha256: string;
};

export type UploadOptions = {
  blobStore: BlobStore;
  /** The multipart field of the file (default 'file'). */
  field?: string;
  kinds: FileKind | readonly FileKind[];
  maxBytes: number;
  /** Text fields to collect; any others are ignored. */
  textFields?: readonly string[];
  /** No file part is fine (a replace that changes only the title): `file` is then null. */
  optional?: boolean;
};

export type Upload<F = UploadedFile> = { fields: Record<string, string>; file: F };

/** What file-type needs to recognise every format we accept (its own minimum). */
export const SNIFF_BYTES = 4100;

/** Types a browser may show in place (preview); anything else is always downloaded. */
const INLINE_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png', 'image/gif']);

export function receiveUpload(req: Request, options: UploadOptions & { optional: true }): Promise<Upload<UploadedFile | null>>;
export function receiveUpload(req: Request, options: UploadOptions): Promise<Upload>;
export function receiveUpload(req: Request, options: UploadOptions): Promise<Upload<UploadedFile | null>> {
  const field = options.field ?? 'file';
  const textFields = options.textFields ?? [];
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Busboy's default is latin1; browsers send UTF-8 file names ("दस्तावेज़.pdf").
        defParamCharset: 'utf8',
        // One byte past the cap reaches the store, which refuses it (busboy alone would silently truncate).
        limits: { fileSize: options.maxBytes + 1, fields: 20, fieldSize: 16 * 1024, parts: 30, headerPairs: 100 },
      });
    } catch {
      // Not multipart/form-data at all (a JSON body, no body).
      reject(new HttpError(400, uploadMessages.notMultipart));
      return;
    }
    const fields: Record<string, string> = {};
    let stored: Promise<UploadedFile> | null = null;
    let abortFile: ((err: Error) => void) | null = null;
    let settled = false;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      abortFile?.(err instanceof Error ? err : new Error(String(err)));
      discardRest(req, options.maxBytes);
      reject(err);
    };

    parser.on('field', (name, value) => {
      if (textFields.includes(name) && !(name in fields)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (settled || name !== field) return void stream.resume();
      if (stored) {
        stream.resume();
        return fail(new HttpError(400, uploadMessages.oneFile));
      }
      const sniffer = new Sniffer();
      abortFile = (err) => sniffer.destroy(err);
      stored = storeFile(stream, sniffer, info.filename ?? '', options);
      stored.catch(fail);
    });
    parser.on('error', () => fail(new HttpError(400, uploadMessages.incomplete)));
    parser.on('close', () => {
      if (settled) return;
      if (!stored) {
        if (options.optional) {
          settled = true;
          return resolve({ fields, file: null });
        }
        return fail(new HttpError(400, uploadMessages.noFile));
      }
      stored.then((file) => {
        if (settled) return;
        settled = true;
        resolve({ fields, file });
      }, fail);
    });
    // A client that goes away mid-upload: the part stream would otherwise wait for bytes that never come.
    req.on('close', () => {
      if (!req.complete) fail(new HttpError(400, uploadMessages.incomplete));
    });
    req.pipe(parser);
  });
}

async function storeFile(source: Readable, sniffer: Sniffer, filename: string, options: UploadOptions): Promise<UploadedFile> {
  const rule = kindRule(options.kinds);
  const name = safeFileName(filename);
  const ext = extensionOf(name);
  try {
    if (name === '') throw new HttpError(400, uploadMessages.noFile);
    if (!ext || !rule.extensions.includes(ext)) throw new HttpError(415, rule.message);
    source.pipe(sniffer);
    await sniffer.verdict((head) => checkContent(head, ext, rule.message));
    const { sha256, size } = await options.blobStore.put(sniffer, { maxBytes: options.maxBytes });
    return { name, size, type: EXTENSIONS[ext].mime, sha256 };
  } catch (err) {
    // Let busboy finish the part (its bytes are discarded) so the request can be answered.
    source.unpipe(sniffer);
    source.resume();
    if (err instanceof FileTooLargeError) throw new HttpError(413, uploadMessages.tooLarge(options.maxBytes));
    throw err;
  }
}

/** The content must be what the extension says: magic bytes, or for csv text without NUL bytes. */
async function checkContent(head: Buffer, ext: FileExtension, message: string): Promise<void> {
  if (head.length === 0) throw new HttpError(400, uploadMessages.empty);
  const expected = EXTENSIONS[ext].magic;
  const detected = await FileType.fromBuffer(head);
  if (expected === null) {
    if (detected !== undefined || head.includes(0)) throw new HttpError(415, message);
    return;
  }
  if (!detected || !expected.includes(detected.ext)) throw new HttpError(415, message);
}

/**
 * Holds back the first SNIFF_BYTES (plus at most the rest of the chunk that crossed them) until `verdict`'s
 * check has passed, then lets everything through unchanged. Nothing downstream sees a byte of a refused file.
 */
class Sniffer extends Transform {
  private head: Buffer[] = [];
  private headBytes = 0;
  private decided = false;
  private check: ((head: Buffer) => Promise<void>) | null = null;
  private pending: TransformCallback | null = null;
  private settle: { resolve: () => void; reject: (err: Error) => void } | null = null;
  private readonly result: Promise<void>;

  constructor() {
    super();
    this.result = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // The verdict carries the error; the stream's own 'error' event must not go unheard.
    this.result.catch(() => undefined);
    this.on('error', () => undefined);
  }

  /** Resolves once the first bytes passed `check`; rejects with its refusal (or the stream's failure). */
  verdict(check: (head: Buffer) => Promise<void>): Promise<void> {
    this.check = check;
    if (this.pending) this.decide(this.pending);
    return this.result;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.decided) return callback(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return callback();
    this.decide(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.decided) return callback();
    this.decide(callback);
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.decided) this.settle?.reject(err ?? new Error('upload aborted'));
    callback(err);
  }

  private decide(callback: TransformCallback): void {
    if (!this.check) {
      this.pending = callback;
      return;
    }
    this.pending = null;
    this.decided = true;
    const head = Buffer.concat(this.head);
    this.head = [];
    this.check(head).then(
      () => {
        this.settle?.resolve();
        callback(null, head.length > 0 ? head : undefined);
      },
      (err: Error) => {
        this.settle?.reject(err);
        callback(err);
      },
    );
  }
}

/**
 * After a refusal the rest of the request is read and dropped, so the client (which is still sending) gets
 * the answer instead of a reset connection; past another `limit` bytes the connection is closed instead.
 */
function discardRest(req: IncomingMessage, limit: number): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limit) req.socket.destroy();
  });
  req.resume();
}

/** The last path segment, without control characters, quotes and characters Windows refuses; ≤ 200 chars. */
export function safeFileName(raw: string): string {
  const base = raw.replace(/\\/g, '/').split('/').pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f"<>:|?*]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (cleaned.length <= 200) return cleaned;
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(cleaned)?.[0] ?? '';
  return cleaned.slice(0, 200 - ext.length) + ext;
}

/** RFC 6266 with an RFC 5987 `filename*` for the real (UTF-8) name and an ASCII stand-in for old clients. */
export function contentDisposition(name: string, disposition: 'inline' | 'attachment'): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Streams a stored file to the client with its MIME type and length; `inline` (a preview) only for PDFs and
 * images, every other type is always an attachment. 404 when the blob is missing.
 */
export async function sendFile(
  res: Response,
  blobStore: BlobStore,
  file: UploadedFile,
  options: { inline?: boolean } = {},
): Promise<void> {
  const stream = await blobStore.get(file.sha256);
  if (!stream) throw new HttpError(404, 'File not found');
  const inline = options.inline === true && INLINE_TYPES.has(file.type);
  res.status(200);
  res.setHeader('Content-Type', file.type);
  res.setHeader('Content-Length', String(file.size));
  res.setHeader('Content-Disposition', contentDisposition(file.name, inline ? 'inline' : 'attachment'));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  try {
    await pipeline(stream, res);
  } catch {
    // The client went away or the store failed mid-stream: the response is already cut short.
    res.destroy();
  }
}

/** UPLOAD_MAX_BYTES's default (platform/src/config): what an app built without configuration caps at. */
export const DEFAULT_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;

/** The store of an app given none: every use answers 503 rather than losing a file. */
export function unavailableBlobStore(): BlobStore {
  const refuse = async (): Promise<never> => {
    throw new HttpError(503, messages.unavailable);
  };
  return { put: refuse, get: refuse, exists: refuse, stat: refuse, close: async () => undefined };
}
