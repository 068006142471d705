import { writeFileSync } from 'node:fs';
import { freePort, waitForPort } from '../platform/src/temporal/cli';
import { spawnProcess, stopProcess } from './api-process';

/**
 * The bare Express baseline (bare-json-server.ts) in its own process, serving `bodies` at GET /<name>
 * (written to `file` for it to read): what Express itself costs, loaded by the same generator as the api.
 */
export async function startBareServer(
  file: string,
  bodies: Record<string, unknown>,
): Promise<{ base: string; pid: number | undefined; stop: () => Promise<void> }> {
  writeFileSync(file, JSON.stringify(bodies));
  const port = await freePort();
  const child = spawnProcess('bench/bare-json-server.ts', { ...process.env, BARE_BODIES_FILE: file, PORT: String(port) });
  if (!(await waitForPort(port, 60_000))) {
    await stopProcess(child);
    throw new Error('the bare Express baseline did not start');
  }
  return { base: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stopProcess(child) };
}
