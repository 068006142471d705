import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { blobStoreContract } from './blob-store.contract';
import { createFsBlobStore } from './fs-blob-store';
import { openBlobStore } from '.';

jest.setTimeout(15_000);

let dir = '';

/** Every file below `dir`, relative: blobs are `<aa>/<sha256>`, anything else is a leftover. */
function files(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(root, full));
    }
  };
  walk(root);
  return out.sort();
}
const isBlob = (f: string) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f) && f.slice(0, 2) === f.slice(3, 5);

blobStoreContract(
  'filesystem',
  async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-blobs-'));
    return {
      store: createFsBlobStore(dir),
      blobs: async () => files(dir).filter(isBlob).map((f) => f.slice(3)),
      leftovers: async () => files(dir).filter((f) => !isBlob(f)),
    };
  },
  async () => rmSync(dir, { recursive: true, force: true }),
);

describe('filesystem blob store', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-blobs-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lays blobs out as <dir>/<first two hex digits>/<sha256> and never rewrites one', async () => {
    const store = createFsBlobStore(root);
    const { sha256 } = await store.put(Readable.from([Buffer.from('PO annexure')]), { maxBytes: 100 });
    const file = path.join(root, sha256.slice(0, 2), sha256);
    const before = statSync(file);
    await new Promise((r) => setTimeout(r, 20));
    await store.put(Readable.from([Buffer.from('PO annexure')]), { maxBytes: 100 });
    const after = statSync(file);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    // Private to the service's user: nobody else on the host reads uploaded documents.
    expect(after.mode & 0o077).toBe(0);
  });

  it('openBlobStore creates the configured folder at start', async () => {
    const dirOfFiles = path.join(root, 'nested', 'files');
    const store = await openBlobStore({ kind: 'fs', dir: dirOfFiles, maxBytes: 1024 });
    expect(statSync(dirOfFiles).isDirectory()).toBe(true);
    expect(await store.exists('0'.repeat(64))).toBe(false);
  });
});
