import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { assertSha256, type BlobStore } from './blob-store';
import { spoolToTempFile } from './spool';

export type S3BlobStoreConfig = {
  /** An S3-compatible endpoint (MinIO: http://minio:9000); null for AWS itself. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Null: the SDK's default chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Where uploads are spooled while hashed (default: the OS temporary folder). */
  spoolDir?: string;
};

/** Object key of a blob: a prefix per first byte, like the filesystem layout. */
export const s3KeyOf = (sha256: string): string => {
  assertSha256(sha256);
  return `sha256/${sha256.slice(0, 2)}/${sha256}`;
};

const isNotFound = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * The SDK cannot retry a streamed body; the spooled file can simply be read again. Refusals (4xx) are final,
 * a server error or a dropped connection is tried up to three times.
 */
async function withRetries<T>(send: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send();
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (attempt >= attempts || (status !== undefined && status < 500)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}

/**
 * Blobs in an S3 bucket. The key is the content's hash, and the hash is only known at the end of the
 * stream, so an upload is first spooled to a temporary file while it is hashed and capped (memory stays
 * flat; nothing reaches the bucket when the cap is passed), then sent in one PutObject with its length and
 * its SHA-256 checksum, which the server verifies. An object that is already there is not sent again.
 */
export function createS3BlobStore(config: S3BlobStoreConfig): BlobStore {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // We send our own SHA-256 checksum; the SDK's default CRC32 would re-read the body as aws-chunked.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;
  const spoolDir = config.spoolDir ?? os.tmpdir();

  const stat = async (sha256: string) => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: s3KeyOf(sha256) }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };

  return {
    async put(source, { maxBytes }) {
      const spooled = await spoolToTempFile(source, spoolDir, maxBytes);
      try {
        if ((await stat(spooled.sha256)) === null) {
          const file = spooled.file;
          await withRetries(() =>
            client.send(
              new PutObjectCommand({
                Bucket,
                Key: s3KeyOf(spooled.sha256),
                Body: createReadStream(file),
                ContentLength: spooled.size,
                ContentType: 'application/octet-stream',
                ChecksumSHA256: Buffer.from(spooled.sha256, 'hex').toString('base64'),
              }),
            ),
          );
        }
        return { sha256: spooled.sha256, size: spooled.size };
      } finally {
        await rm(spooled.file, { force: true });
      }
    },

    async get(sha256) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: s3KeyOf(sha256) }));
        const body = object.Body;
        if (!body) return null;
        return body instanceof Readable ? body : Readable.fromWeb(body.transformToWebStream() as never);
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    exists: async (sha256) => (await stat(sha256)) !== null,
    stat,
    close: async () => client.destroy(),
  };
}
