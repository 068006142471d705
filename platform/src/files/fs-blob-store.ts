import { link, mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertSha256, type BlobStore } from './blob-store';
import { spoolToTempFile } from './spool';

/** Where the embedded set-up keeps files (config: FILES_DIR, default `<DATA_DIR>/files`). */
export const DEFAULT_FILES_DIR = '.data/files';

/**
 * Blobs as files: `<dir>/<first two hex digits>/<sha256>` (256 folders keep directories small). An upload is
 * streamed to a temporary file in `dir` itself, so the final step is a same-filesystem link, which is atomic
 * and never replaces a blob that is already there (two uploads of the same bytes race harmlessly).
 */
export function createFsBlobStore(dir: string = DEFAULT_FILES_DIR): BlobStore {
  const root = path.resolve(dir);
  const blobPath = (sha256: string): string => {
    assertSha256(sha256);
    return path.join(root, sha256.slice(0, 2), sha256);
  };

  const statOf = async (sha256: string) => {
    try {
      const s = await stat(blobPath(sha256));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };

  return {
    async put(source, { maxBytes }) {
      await mkdir(root, { recursive: true, mode: 0o750 });
      const spooled = await spoolToTempFile(source, root, maxBytes);
      try {
        const target = blobPath(spooled.sha256);
        await mkdir(path.dirname(target), { recursive: true, mode: 0o750 });
        try {
          await link(spooled.file, target);
          await syncDirectory(path.dirname(target));
        } catch (err) {
          // Already stored (same bytes, same name): the existing blob stays as it is.
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        return { sha256: spooled.sha256, size: spooled.size };
      } finally {
        await rm(spooled.file, { force: true });
      }
    },

    async get(sha256): Promise<Readable | null> {
      // Opened before the stream is handed out, so a missing blob is a null here rather than a stream error.
      try {
        const handle = await open(blobPath(sha256), 'r');
        return handle.createReadStream();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },

    exists: async (sha256) => (await statOf(sha256)) !== null,
    stat: statOf,
    close: async () => undefined,
  };
}

/** The new directory entry survives a crash only once its directory is synced (Linux; a no-op elsewhere). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
