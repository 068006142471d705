import { createHash, randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileTooLargeError, type PutResult } from './blob-store';

/**
 * Counts and hashes the bytes going through, and fails the pipeline with FileTooLargeError on the first byte
 * past the cap, so an oversized upload stops there instead of being read to its end.
 */
class Meter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new FileTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

/**
 * Writes `source` to a new temporary file in `dir` (0600, created exclusively), hashing as it goes, and
 * fsyncs it. The caller moves or uploads the file and then removes it; on any failure the file is removed
 * here and the error passed on.
 */
export async function spoolToTempFile(
  source: Readable,
  dir: string,
  maxBytes: number,
): Promise<PutResult & { file: string }> {
  const file = path.join(dir, `.upload-${randomUUID()}.tmp`);
  const handle = await open(file, 'wx', 0o600);
  let closed = false;
  try {
    const meter = new Meter(maxBytes);
    // Written through the handle (not a WriteStream that closes it) so it can be synced before it is closed.
    const out = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        handle.write(chunk).then(() => callback(), callback);
      },
    });
    await pipeline(source, meter, out);
    // Durable before it is named: a crash after the rename must not leave a blob with missing bytes.
    await handle.sync();
    await handle.close();
    closed = true;
    return { file, sha256: meter.hash.digest('hex'), size: meter.size };
  } catch (err) {
    if (!closed) await handle.close().catch(() => undefined);
    await rm(file, { force: true });
    throw err;
  }
}
