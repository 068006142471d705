/**
 * A stored file as events name it: what the user called it, its size, its MIME type and the SHA-256 of its
 * bytes, which is the blob's name in the BlobStore (platform/src/files). Events never carry the bytes.
 */
export type StoredFile = {
  name: string;
  size: number;
  type: string;
  sha256: string;
};
