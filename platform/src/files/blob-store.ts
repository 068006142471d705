import type { Readable } from 'node:stream';

/**
 * Uploaded files (annexures now; BA documents, invoices and templates later) live outside PostgreSQL, named
 * by the SHA-256 of their bytes. Events record a file's name, size, MIME type and sha256, never the bytes:
 * the hash is the reference, the same content is stored once, and a stored blob never changes under the
 * events that name it.
 */
export type BlobStat = { size: number };

export type PutOptions = {
  /** The upload cap: a stream longer than this is refused with FileTooLargeError and nothing is kept. */
  maxBytes: number;
};

export type PutResult = { sha256: string; size: number };

export type BlobStore = {
  /**
   * Streams `source` into the store while hashing it (never held whole in memory). A blob that is already
   * there is not written again. Rejects with FileTooLargeError past `maxBytes`, with the source's own error if
   * it fails; in both cases nothing is left behind.
   */
  put(source: Readable, options: PutOptions): Promise<PutResult>;
  /** The blob's bytes as a stream, or null when there is no such blob. */
  get(sha256: string): Promise<Readable | null>;
  exists(sha256: string): Promise<boolean>;
  stat(sha256: string): Promise<BlobStat | null>;
  /** Releases connections (S3); the filesystem store holds none. */
  close(): Promise<void>;
};

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

/** Lower-case hex SHA-256: the only names a store accepts, so a caller's string never becomes a path. */
export const isSha256 = (value: string): boolean => /^[0-9a-f]{64}$/.test(value);

export function assertSha256(value: string): void {
  if (!isSha256(value)) throw new Error(`Not a SHA-256 blob name: ${JSON.stringify(value.slice(0, 80))}`);
}
