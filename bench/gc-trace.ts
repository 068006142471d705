import type { Readable } from 'node:stream';

/**
 * The live heap of another node process over time, from its `--trace-gc` lines on stdout: after each full
 * (mark-compact) collection, what is left is what the process still holds. RSS alone cannot tell a leak from
 * V8 sizing its heap up under load or the allocator keeping freed pages; the heap left after full
 * collections can: a leak makes it climb window after window.
 *
 * A trace line (Node 20, V8 11):
 *   [4242:0x62f7e40]    61234 ms: Mark-Compact 120.5 (140.2) -> 80.1 (138.0) MB, 25.1 / 0.0 ms  (…) …
 * "Mark-Compact (reduce)" lines are full collections too; scavenges (young generation only) are not.
 */
export type MajorGc = {
  /** Milliseconds since the traced process started, as V8 prints it. */
  atMs: number;
  /** Heap in use after the collection, MB (V8's MB: 2^20 bytes). */
  liveMb: number;
};

const MARK_COMPACT = /\s(\d+) ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;

export function parseMajorGc(line: string): MajorGc | null {
  const m = MARK_COMPACT.exec(line);
  return m ? { atMs: Number(m[1]), liveMb: Number(m[2]) } : null;
}

/** Collects the major collections from a child's stdout until it ends; other lines are dropped. */
export function collectMajorGcs(stdout: Readable): readonly MajorGc[] {
  const seen: MajorGc[] = [];
  let rest = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const gc = parseMajorGc(line);
      if (gc) seen.push(gc);
    }
  });
  return seen;
}
