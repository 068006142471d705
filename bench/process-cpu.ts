import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds used by a process and everything under it, read from /proc on Linux (no cooperation from the
 * processes needed). PostgreSQL forks a backend per connection and reaps the ones that end: a reaped child's
 * time moves into its parent's cutime/cstime, so summing utime+stime+cutime+cstime over the live tree counts
 * every process that ever ran under the root exactly once.
 */
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux ABI Node runs on.

type Stat = { pid: number; ppid: number; ticks: number };

function readStat(pid: number): Stat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // Ended between the listing and the read.
  }
  // Fields after the command name, which may itself hold spaces and parentheses: state is field 3.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(f[n - 3]);
  return { pid, ppid: field(4), ticks: field(14) + field(15) + field(16) + field(17) };
}

export function treeCpuSeconds(rootPid: number): number {
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is Stat => s !== null);
  const children = new Map<number, Stat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const root = stats.find((s) => s.pid === rootPid);
  if (!root) throw new Error(`no process ${rootPid}`);
  let ticks = 0;
  const todo = [root];
  while (todo.length > 0) {
    const s = todo.pop()!;
    ticks += s.ticks;
    todo.push(...(children.get(s.pid) ?? []));
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** The whole machine's CPU seconds since boot, from /proc/stat: busy (everything but idle and iowait) and total. */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = ticks[3]! + ticks[4]!;
  return { busy: (total - idle) / CLOCK_TICKS_PER_SECOND, total: total / CLOCK_TICKS_PER_SECOND };
}
