import type { Page, Response } from 'playwright-core';
import { consoleSignIn, dismissError, screenshot, setUpJourneys, submitPortalPassword, visitor, world, type Visitor } from './support';

/**
 * The Content-Security-Policy (api/src/http/security-headers.ts) against the real built console and portal in
 * Chromium: every page a visitor meets before and after sign-in, the ALTCHA widget solving its proof of work
 * in a worker included, must run without one violation. A policy too strict for the bundles would show up
 * here as a `securitypolicyviolation` event (or Chromium's console error), a too-loose one in the header test.
 */
setUpJourneys('e2e-security-headers');

type Watched = Visitor & { violations: () => Promise<string[]>; documents: Response[] };

/** A visitor whose pages record every CSP violation from their first script on, and every document response. */
async function watchedVisitor(label: string): Promise<Watched> {
  const v = await visitor(label);
  await v.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const fromConsole: string[] = [];
  v.page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) fromConsole.push(`console: ${m.text()}`);
  });
  const documents: Response[] = [];
  v.page.on('response', (r) => {
    if (r.request().resourceType() === 'document') documents.push(r);
  });
  const violations = async () => {
    const inPage = await v.page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []).catch(() => []);
    return [...inPage, ...fromConsole];
  };
  return { ...v, violations, documents };
}

/** Every page's violations so far, collected before leaving it (a navigation drops the page's list). */
async function expectNoViolations(w: Watched, page: Page, where: string): Promise<void> {
  // Let late work (lazy chunks, emotion's style inserts, workers) happen before reading the list. Not
  // 'networkidle': a signed-in page keeps the notification stream open, so the network is never idle.
  await page.waitForLoadState('load');
  await page.waitForTimeout(2000);
  const found = await w.violations();
  if (found.length > 0) await screenshot(page, `csp-violation-${where}`);
  expect({ where, violations: found }).toEqual({ where, violations: [] });
}

test('[CSP] portal: login page, the captcha solved in its worker, and the register page run without a violation', async () => {
  const w = await watchedVisitor('csp portal');
  const { page } = w;
  await page.goto(`${world().base}/`);
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
  await expectNoViolations(w, page, 'portal-login');

  // Three wrong passwords bring the ALTCHA widget; ticking it runs the proof of work in a Web Worker.
  for (let attempt = 1; attempt <= 3; attempt++) {
    await submitPortalPassword(page, 'ba.5@demo.test', `Wrong@pass${attempt}`);
    await dismissError(page);
  }
  const widget = page.getByTestId('captcha');
  await widget.waitFor();
  await widget.getByText("I'm not a robot").click();
  await widget.locator('[data-state="verified"]').waitFor();
  await expectNoViolations(w, page, 'portal-captcha');

  await page.getByRole('tab', { name: 'Register' }).click();
  await page.waitForURL('**/signup');
  await page.getByLabel('Mobile Number').waitFor();
  await expectNoViolations(w, page, 'portal-register');

  // The policy the pages ran under is the one the server sends; plain http here, so no HSTS.
  const headers = await w.documents[0]?.allHeaders();
  expect(headers?.['content-security-policy']).toContain("script-src 'self'");
  expect(headers?.['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers?.['strict-transport-security']).toBeUndefined();
  await w.context.close();
});

test("[CSP] the watch can fail: the portal under a policy without 'unsafe-inline' styles reports violations", async () => {
  // Guards the two tests around it: were the listener never to fire, they would pass against any policy.
  const w = await watchedVisitor('csp watch');
  const { page } = w;
  await page.route(`${world().base}/`, async (route) => {
    const response = await route.fetch();
    const headers = response.headers();
    headers['content-security-policy'] = (headers['content-security-policy'] ?? '').replace(" 'unsafe-inline'", '');
    await route.fulfill({ response, headers });
  });
  await page.goto(`${world().base}/`);
  await page.waitForLoadState('networkidle');
  expect((await w.violations()).some((v) => v.startsWith('style-src'))).toBe(true);
  await w.context.close();
});

test('[CSP] console: login page, sign-in with its code, and the lists run without a violation', async () => {
  const w = await watchedVisitor('csp console');
  const { page } = w;
  await page.goto(`${world().base}/console/`);
  await page.locator('input[name="username"]').waitFor();
  await expectNoViolations(w, page, 'console-login');

  await consoleSignIn(page, 'procurement@demo.test');
  await expectNoViolations(w, page, 'console-tasks');

  // A second list, reached the way a person does: the hash route of react-admin.
  await page.goto(`${world().base}/console/#/business-associates`);
  await page.getByRole('table').first().waitFor();
  await expectNoViolations(w, page, 'console-business-associates');

  const headers = await w.documents[0]?.allHeaders();
  expect(headers?.['content-security-policy']).toContain("frame-ancestors 'none'");
  await w.context.close();
});
