/**
 * #6 in the browser: every page loads under the Content-Security-Policy and Permissions-Policy
 * without a single violation, and with API_KEYS set an operator signs in once at /signin and the
 * pages then work through the session cookie.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../scripts/lib/server';
import { expectNoAxeViolations } from './support/axe';
import { keepScreenshot } from './support/page-errors';

const PAGES = ['/', '/console', '/register', '/people', '/recognize', '/lab/browser-inference', '/signin'];

/** Collects CSP violation events (page and workers' reports reach the console) and policy console lines. */
async function watchPolicies(page: Page): Promise<string[]> {
  const found: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
  const policyLine = /Content Security Policy|Content-Security-Policy|Permissions-Policy|Permissions policy|CSP violation/i;
  page.on('console', (msg) => {
    if (policyLine.test(msg.text())) found.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('worker', (w) => w.on('console', (msg) => policyLine.test(msg.text()) && found.push(`worker: ${msg.text()}`)));
  return found;
}

test.describe('security headers in the browser', () => {
  for (const p of PAGES) {
    test(`${p} loads with no CSP or Permissions-Policy violation`, async ({ page }) => {
      const violations = await watchPolicies(page);
      const res = await page.goto(p);
      expect(res?.status()).toBe(200);
      const headers = res!.headers();
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['permissions-policy']).toContain('camera=(self)');
      await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => undefined);
      // Let late work (model loads in Workers, camera start) report too.
      await page.waitForTimeout(1_500);
      expect(violations).toEqual([]);
    });
  }
});

test.describe('signing in with an API key', () => {
  const KEY = 'e2e-operator-key-0123456789abcdef';
  let server: RunningServer;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-e2e-keys-'));
    server = await startServer({ API_KEYS: KEY, DATA_DIR: dataDir, FACE_WARM_ON_START: 'false', RATE_LIMIT_PER_MINUTE: '0' });
  });
  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('the pages ask for a key once, then work through the session cookie', async ({ page, context }, testInfo) => {
    const violations = await watchPolicies(page);
    await page.goto(`${server.url}/people`);
    await expect(page.getByRole('alert').filter({ hasText: 'Sign in first' })).toBeVisible();
    const signIn = page.getByTestId('nav-signin');
    await expect(signIn).toBeVisible();
    await signIn.click();
    await expect(page).toHaveURL(/\/signin\?next=%2Fpeople$/);

    await page.getByTestId('signin-key').fill('wrong-key-0123456789abcdefgh');
    await page.getByTestId('signin-submit').click();
    await expect(page.getByTestId('signin-error')).toContainText('That key was not accepted');

    await page.getByTestId('signin-key').fill(KEY);
    const listed = page.waitForResponse((r) => r.url().includes('/api/v1/persons') && r.status() === 200);
    await page.getByTestId('signin-submit').click();
    await expect(page).toHaveURL(`${server.url}/people`);
    await listed;
    await expect(page.getByTestId('people-count')).toHaveText('0 people registered.');
    await expect(page.getByTestId('nav-signin')).toHaveCount(0);

    const cookie = (await context.cookies(server.url)).find((c) => c.name === 'vigil_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    // Script cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('vigil_session');
    await keepScreenshot(page, testInfo, 'people-signed-in');
    expect(violations).toEqual([]);
  });

  test('signed out, the review queue shows only a sign-in prompt; a wrong key is refused in plain words', async ({ page }, testInfo) => {
    await page.goto(`${server.url}/console`);
    await page.getByTestId('tab-reviews').click();
    const prompt = page.getByTestId('review-signin');
    await expect(prompt).toContainText('Sign in to see the review queue');
    await expect(prompt).toHaveClass(/alert/);
    await expect(page.getByTestId('review-empty')).toHaveCount(0);
    await expect(page.getByTestId('review-error')).toHaveCount(0);
    await expect(page.getByTestId('review-count')).toHaveCount(0);
    await keepScreenshot(page, testInfo, 'review-signed-out');
    await expectNoAxeViolations(page, testInfo, 'review queue signed out');

    await prompt.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/signin\?next=%2Fconsole$/);
    await page.getByTestId('signin-key').fill('not-the-key-0123456789abcdefgh');
    await page.getByTestId('signin-submit').click();
    const error = page.getByTestId('signin-error');
    await expect(error).toHaveText('That key was not accepted. Check it (no spaces, the whole key) and try again.');
    await expect(error).toHaveClass(/alert-error/);
    await expect(error).not.toContainText('UNAUTHORIZED');
    await keepScreenshot(page, testInfo, 'signin-wrong-key');
    await expectNoAxeViolations(page, testInfo, 'sign-in with a wrong key');
  });
});
