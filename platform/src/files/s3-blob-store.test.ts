import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { blobStoreContract, generated } from './blob-store.contract';
import { createS3BlobStore } from './s3-blob-store';

/**
 * There is no MinIO (nor Docker, nor network) on the build machines, so the S3 adapter is run against this
 * in-process stand-in: a test double of the few S3 calls it makes (HeadObject, GetObject, PutObject,
 * path-style). It checks what a real server checks on a PutObject (the declared length and the SHA-256
 * checksum) and records every request. It proves the adapter's own logic and wire format, not
 * compatibility with a particular MinIO release.
 */
type Seen = { method: string; url: string; headers: IncomingMessage['headers']; bytes: number };

function s3Stub(bucket: string) {
  const objects = new Map<string, Buffer>();
  const seen: Seen[] = [];
  const faults = { puts: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes: body.length });
      const url = new URL(req.url ?? '/', 'http://stub');
      const prefix = `/${bucket}/`;
      const error = (status: number, code: string) => {
        res.writeHead(status, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : `<?xml version="1.0"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
      };
      if (!req.headers.authorization?.startsWith('AWS4-HMAC-SHA256 ')) return error(403, 'AccessDenied');
      if (!url.pathname.startsWith(prefix)) return error(404, 'NoSuchBucket');
      const key = decodeURIComponent(url.pathname.slice(prefix.length));
      const object = objects.get(key);
      switch (req.method) {
        case 'HEAD':
        case 'GET':
          if (!object) return error(404, 'NoSuchKey');
          res.writeHead(200, { 'content-length': String(object.length), 'content-type': 'application/octet-stream', etag: '"x"' });
          return void res.end(req.method === 'GET' ? object : undefined);
        case 'PUT': {
          if (faults.puts > 0) {
            faults.puts -= 1;
            return error(500, 'InternalError');
          }
          if (Number(req.headers['content-length']) !== body.length) return error(400, 'IncompleteBody');
          const checksum = req.headers['x-amz-checksum-sha256'];
          if (checksum !== createHash('sha256').update(body).digest('base64')) return error(400, 'BadDigest');
          objects.set(key, body);
          res.writeHead(200, { etag: '"x"', 'content-length': '0' });
          return void res.end();
        }
        default:
          return error(405, 'MethodNotAllowed');
      }
    });
  });
  return {
    objects,
    seen,
    faults,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

jest.setTimeout(15_000);

const BUCKET = 'ba-portal-files';
let stub = s3Stub(BUCKET);
let spoolDir = '';

const open = async () => {
  stub = s3Stub(BUCKET);
  const endpoint = await stub.start();
  spoolDir = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-spool-'));
  const store = createS3BlobStore({
    endpoint,
    bucket: BUCKET,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test-key', secretAccessKey: 'test-secret-0123456789' },
    spoolDir,
  });
  return {
    store,
    endpoint,
    blobs: async () => [...stub.objects.keys()].map((k) => k.replace(/^sha256\/[0-9a-f]{2}\//, '')).sort(),
    leftovers: async () => [
      ...readdirSync(spoolDir),
      ...[...stub.objects.keys()].filter((k) => !/^sha256\/([0-9a-f]{2})\/\1[0-9a-f]{62}$/.test(k)),
    ],
  };
};
const close = async () => {
  await stub.stop();
  rmSync(spoolDir, { recursive: true, force: true });
};

blobStoreContract('S3 (in-process stub)', open, close);

describe('S3 blob store', () => {
  afterEach(close);

  it('sends one PutObject per new content, with its length and SHA-256, under sha256/<aa>/<sha256>', async () => {
    const { store } = await open();
    const put = await store.put(generated(300 * 1024), { maxBytes: 1024 * 1024 });
    await store.put(generated(300 * 1024), { maxBytes: 1024 * 1024 });
    const puts = stub.seen.filter((s) => s.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.url.split('?')[0]).toBe(`/${BUCKET}/sha256/${put.sha256.slice(0, 2)}/${put.sha256}`);
    expect(puts[0]?.headers['content-length']).toBe(String(300 * 1024));
    // The body went as plain bytes of a known length, not re-encoded as aws-chunked.
    expect(puts[0]?.headers['content-encoding']).toBeUndefined();
    expect(await store.stat(put.sha256)).toEqual({ size: 300 * 1024 });
    await store.close();
  });

  it('sends the spooled file again after a server error (the SDK cannot retry a stream)', async () => {
    const { store } = await open();
    stub.faults.puts = 1;
    const put = await store.put(generated(100 * 1024), { maxBytes: 1024 * 1024 });
    expect(stub.seen.filter((s) => s.method === 'PUT').map((s) => s.bytes)).toEqual([100 * 1024, 100 * 1024]);
    expect(await store.stat(put.sha256)).toEqual({ size: 100 * 1024 });
    expect(readdirSync(spoolDir)).toEqual([]);
    await store.close();
  });

  it('sends nothing to the bucket when the upload passes the cap', async () => {
    const { store } = await open();
    await expect(store.put(generated(2 * 1024 * 1024), { maxBytes: 1024 * 1024 })).rejects.toThrow(/larger than/);
    expect(stub.seen.filter((s) => s.method === 'PUT')).toEqual([]);
    await store.close();
  });

  it('passes on a refusal of the server instead of reporting the blob stored', async () => {
    const { store, endpoint } = await open();
    const broken = createS3BlobStore({
      endpoint,
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
      spoolDir,
    });
    await expect(broken.put(Readable.from([Buffer.from('x')]), { maxBytes: 10 })).rejects.toThrow();
    expect(readdirSync(spoolDir)).toEqual([]);
    await broken.close();
    await store.close();
  });
});
