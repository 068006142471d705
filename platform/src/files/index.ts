import { mkdir } from 'node:fs/promises';
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { createFsBlobStore } from './fs-blob-store';
import { createS3BlobStore } from './s3-blob-store';

export { FileTooLargeError, isSha256, type BlobStat, type BlobStore, type PutOptions, type PutResult } from './blob-store';
export { createFsBlobStore, DEFAULT_FILES_DIR } from './fs-blob-store';
export { createS3BlobStore, s3KeyOf, type S3BlobStoreConfig } from './s3-blob-store';

/**
 * The store FILE_STORE names. The filesystem folder is created here, at start, so a folder the process may
 * not write is a start-up error rather than the first upload's.
 */
export async function openBlobStore(files: Config['files']): Promise<BlobStore> {
  if (files.kind === 'fs') {
    await mkdir(files.dir, { recursive: true, mode: 0o750 });
    return createFsBlobStore(files.dir);
  }
  return createS3BlobStore({
    endpoint: files.endpoint,
    bucket: files.bucket,
    region: files.region,
    credentials:
      files.accessKeyId && files.secretAccessKey
        ? { accessKeyId: files.accessKeyId, secretAccessKey: files.secretAccessKey }
        : null,
  });
}
