import { spawn } from 'node:child_process';
import { machineCpuSeconds, treeCpuSeconds } from './process-cpu';

describe('CPU seconds of a process tree', () => {
  it('counts a busy child under this process, and keeps counting it after it ended', async () => {
    const before = treeCpuSeconds(process.pid);
    // A child that spins until it has used 300 ms of CPU (not of wall time: the machine may be busy), then exits
    // and is reaped by node.
    const child = spawn(process.execPath, ['-e', 'while (process.cpuUsage().user < 300_000);']);
    await new Promise((resolve) => child.once('exit', resolve));
    const after = treeCpuSeconds(process.pid);
    expect(after - before).toBeGreaterThanOrEqual(0.2);
  });

  it('refuses a process that does not exist', () => {
    expect(() => treeCpuSeconds(2 ** 22 + 1)).toThrow(/no process/);
  });

  it("reads the machine's busy and total CPU time, busy never above total, both counting up", () => {
    const first = machineCpuSeconds();
    const start = process.cpuUsage().user;
    while (process.cpuUsage().user - start < 100_000);
    const second = machineCpuSeconds();
    expect(first.busy).toBeLessThanOrEqual(first.total);
    expect(second.busy - first.busy).toBeGreaterThan(0);
    expect(second.total).toBeGreaterThanOrEqual(first.total);
  });
});
