import { open, stat } from 'node:fs/promises';

/**
 * Pages of the anchor file for the API (latest first) without reading the whole file per request: the line
 * ends are indexed once and, since the file only grows, each request scans only the bytes added since. A
 * file that shrank or was replaced (another inode) is indexed again from the start.
 */
export type AnchorFileIndex = {
  /** Lines [offset, offset + limit) in the given order; `total` counts complete lines. */
  page(offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<{ total: number; lines: { line: number; text: string }[] }>;
};

const SCAN_CHUNK = 1 << 20;

export function anchorFileIndex(file: string): AnchorFileIndex {
  /** ends[k] = byte offset of the newline ending line k + 1. */
  let ends: number[] = [];
  let scanned = 0;
  let inode: number | null = null;

  const scan = async (): Promise<void> => {
    let size: number;
    let ino: number;
    try {
      ({ size, ino } = await stat(file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      ends = [];
      scanned = 0;
      inode = null;
      return;
    }
    if (ino !== inode || size < scanned) {
      ends = [];
      scanned = 0;
      inode = ino;
    }
    if (size === scanned) return;
    const handle = await open(file, 'r');
    try {
      const chunk = Buffer.alloc(SCAN_CHUNK);
      for (let pos = scanned; pos < size; ) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(SCAN_CHUNK, size - pos), pos);
        if (bytesRead === 0) break;
        for (let i = chunk.indexOf(0x0a); i >= 0 && i < bytesRead; i = chunk.indexOf(0x0a, i + 1)) ends.push(pos + i);
        pos += bytesRead;
      }
      // Indexed up to the last newline: an unterminated tail is a line still being written, read again next time.
      scanned = ends.length > 0 ? (ends[ends.length - 1] ?? -1) + 1 : 0;
    } finally {
      await handle.close();
    }
  };

  // One scan at a time: two concurrent requests must not both push the same line ends.
  let scanning: Promise<void> = Promise.resolve();
  const refresh = () => (scanning = scanning.catch(() => undefined).then(scan));

  return {
    page: async (offset, limit, order) => {
      await refresh();
      // A later scan may start again from an empty index: keep this one's.
      const snapshot = ends;
      const total = snapshot.length;
      const numbers: number[] = [];
      for (let k = offset; k < Math.min(total, offset + limit); k++) numbers.push(order === 'ASC' ? k : total - 1 - k);
      if (numbers.length === 0) return { total, lines: [] };
      const low = Math.min(...numbers);
      const high = Math.max(...numbers);
      const from = low === 0 ? 0 : (snapshot[low - 1] ?? 0) + 1;
      const to = snapshot[high] ?? 0;
      const handle = await open(file, 'r');
      const bytes = Buffer.alloc(to - from);
      try {
        await handle.read(bytes, 0, bytes.length, from);
      } finally {
        await handle.close();
      }
      const lines = numbers.map((k) => {
        const start = (k === 0 ? 0 : (snapshot[k - 1] ?? 0) + 1) - from;
        return { line: k + 1, text: bytes.subarray(start, (snapshot[k] ?? 0) - from).toString('utf8') };
      });
      return { total, lines };
    },
  };
}
