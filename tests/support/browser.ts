import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium (design.md §8, §10): never a test tool's own download. Playwright gives every launch a
 * fresh temporary profile, so no --user-data-dir is passed.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

/** Screenshots land in .test-artifacts/ (git-ignored) so a failing journey can be looked at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.resolve(__dirname, '..', '..', '.test-artifacts');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
