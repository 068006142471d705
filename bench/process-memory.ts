import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Memory of another process on Linux, read from /proc/<pid>/status (no cooperation from the process needed):
 * VmRSS is what it holds now, VmHWM its peak since the peak was last reset. Writing 5 to clear_refs resets
 * the peak to the current RSS (Linux ≥ 4.0), so "peak during the upload above idle" is HWM after minus RSS
 * before. A poll every few milliseconds is kept as a cross-check where clear_refs is not allowed.
 */
const statusField = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const line = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line?.[1]) throw new Error(`no ${field} for process ${pid}`);
  return Number(line[1]) * 1024;
};

export const rssBytes = (pid: number): number => statusField(pid, 'VmRSS');
export const peakRssBytes = (pid: number): number => statusField(pid, 'VmHWM');

/** Resets the process's peak RSS to its current RSS; false where the kernel refuses. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Polls RSS every `everyMs` until stopped; answers the highest value seen. */
export function pollPeakRss(pid: number, everyMs = 5): { stop: () => number } {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // The process ended: keep what was seen.
    }
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}
