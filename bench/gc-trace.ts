import type { Readable } from 'node:stream';

/**
 * Another node process's collections over time, from its `--trace-gc` lines on stdout.
 * - The live heap: after each full (mark-compact) collection, what is left is what the process still holds. RSS
 *   alone cannot tell a leak from V8 sizing its heap up under load or the allocator keeping freed pages; the heap
 *   left after full collections can: a leak makes it climb window after window.
 * - The main thread's time in collections: the final pause, plus a full collection's incremental marking steps
 *   (also on the main thread, spread between tasks). A latency spike that lines up with these is the collector's.
 *
 * Trace lines (Node 20, V8 11):
 *   [4242:0x62f7e40]    61200 ms: Scavenge 120.1 (140.2) -> 119.0 (140.2) MB, 1.2 / 0.0 ms  (…) allocation failure;
 *   [4242:0x62f7e40]    61234 ms: Mark-Compact 120.5 (140.2) -> 80.1 (138.0) MB, 25.1 / 0.0 ms  (+ 35.4 ms in 2 steps
 *     since start of marking, biggest step 34.7 ms, walltime since start of marking 135 ms) (…) …
 * "Mark-Compact (reduce)" lines are full collections too.
 */
export type Gc = {
  /** Milliseconds since the traced process started, as V8 prints it. */
  atMs: number;
  /** Mark-compact (the whole heap) or a young-generation collection. */
  full: boolean;
  /** Heap in use after the collection, MB (V8's MB: 2^20 bytes). */
  liveMb: number;
  /** Main-thread milliseconds: the final pause plus any incremental marking steps. */
  mainThreadMs: number;
  /** The longest single stop of the main thread: the final pause or the biggest marking step. */
  longestStopMs: number;
};

const GC_LINE =
  /\s(\d+) ms: (Mark-Compact(?: \(reduce\))?|Scavenge|Minor Mark-Compact|Minor Mark-Sweep) [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, ([\d.]+) \/ [\d.]+ ms/;
const MARKING_STEPS = /\(\+ ([\d.]+) ms in \d+ steps since start of marking, biggest step ([\d.]+) ms/;

export function parseGc(line: string): Gc | null {
  const m = GC_LINE.exec(line);
  if (!m) return null;
  const pause = Number(m[4]);
  const steps = MARKING_STEPS.exec(line);
  return {
    atMs: Number(m[1]),
    full: m[2]!.startsWith('Mark-Compact'),
    liveMb: Number(m[3]),
    mainThreadMs: pause + (steps ? Number(steps[1]) : 0),
    longestStopMs: Math.max(pause, steps ? Number(steps[2]) : 0),
  };
}

/** Collects the collections from a child's stdout until it ends; other lines are dropped. */
export function collectGcs(stdout: Readable): readonly Gc[] {
  const seen: Gc[] = [];
  let rest = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const gc = parseGc(line);
      if (gc) seen.push(gc);
    }
  });
  return seen;
}
