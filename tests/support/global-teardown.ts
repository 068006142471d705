import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const handles = (globalThis as { __baPortalServices?: { stop: () => Promise<void> }[] }).__baPortalServices ?? [];
  await Promise.allSettled(handles.reverse().map((h) => h.stop()));
  if (process.env.TEST_WORK_DIR) rmSync(process.env.TEST_WORK_DIR, { recursive: true, force: true });
}
