import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { FileTooLargeError, type BlobStore } from './blob-store';

/**
 * What every BlobStore adapter promises, run against each one (fs-blob-store.test.ts, s3-blob-store.test.ts).
 * `leftovers` names whatever the adapter left behind outside its blobs (temporary files, partial objects).
 */
export type BlobStoreUnderTest = { store: BlobStore; leftovers: () => Promise<string[]>; blobs: () => Promise<string[]> };

const sha256Of = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** A stream of `total` bytes made as it is read: nothing here holds the whole content. */
export function generated(total: number, chunk = 64 * 1024, fill = 0x61): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(chunk, total - sent);
      sent += n;
      this.push(Buffer.alloc(n, fill));
    },
  });
}

export function blobStoreContract(adapter: string, open: () => Promise<BlobStoreUnderTest>, close: () => Promise<void>): void {
  describe(`BlobStore contract: ${adapter}`, () => {
    let t: BlobStoreUnderTest;
    beforeEach(async () => {
      t = await open();
    });
    afterEach(async () => {
      await t.store.close();
      await close();
    });

    it('stores a stream under the SHA-256 of its bytes and gives the same bytes back', async () => {
      const content = 'Annexure A: PO terms for transport services\n'.repeat(500);
      const put = await t.store.put(Readable.from([Buffer.from(content)]), { maxBytes: 1024 * 1024 });
      expect(put).toEqual({ sha256: sha256Of(content), size: Buffer.byteLength(content) });
      expect(await t.store.exists(put.sha256)).toBe(true);
      expect(await t.store.stat(put.sha256)).toEqual({ size: put.size });
      const back = await t.store.get(put.sha256);
      expect(back).not.toBeNull();
      expect(await text(back as Readable)).toBe(content);
      expect(await t.leftovers()).toEqual([]);
    });

    it('stores the same content once, however often it is put', async () => {
      const first = await t.store.put(Readable.from([Buffer.from('same bytes')]), { maxBytes: 100 });
      const second = await t.store.put(Readable.from([Buffer.from('same '), Buffer.from('bytes')]), { maxBytes: 100 });
      expect(second).toEqual(first);
      expect(await t.blobs()).toEqual([first.sha256]);
      expect(await t.leftovers()).toEqual([]);
    });

    it('accepts a stream of exactly the cap and an empty one', async () => {
      const exact = await t.store.put(generated(4096, 1000), { maxBytes: 4096 });
      expect(exact.size).toBe(4096);
      const empty = await t.store.put(Readable.from([]), { maxBytes: 10 });
      expect(empty).toEqual({ sha256: sha256Of(''), size: 0 });
    });

    it('refuses a stream past the cap with FileTooLargeError and keeps nothing of it', async () => {
      const source = generated(10 * 64 * 1024);
      await expect(t.store.put(source, { maxBytes: 100 * 1024 })).rejects.toBeInstanceOf(FileTooLargeError);
      // It stopped reading at the cap rather than consuming the whole upload.
      expect(source.destroyed).toBe(true);
      expect(await t.blobs()).toEqual([]);
      expect(await t.leftovers()).toEqual([]);
    });

    it('passes on a failing source and keeps nothing of it', async () => {
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1000, 1));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(t.store.put(failing, { maxBytes: 1024 * 1024 })).rejects.toThrow('client went away');
      expect(await t.blobs()).toEqual([]);
      expect(await t.leftovers()).toEqual([]);
    });

    it('answers null and false for a blob it does not hold, and refuses names that are not hashes', async () => {
      const missing = sha256Of('never stored');
      expect(await t.store.get(missing)).toBeNull();
      expect(await t.store.exists(missing)).toBe(false);
      expect(await t.store.stat(missing)).toBeNull();
      await expect(t.store.get('../../etc/passwd')).rejects.toThrow(/Not a SHA-256/);
      await expect(t.store.exists(missing.toUpperCase())).rejects.toThrow(/Not a SHA-256/);
    });
  });
}
