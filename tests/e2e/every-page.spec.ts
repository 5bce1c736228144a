/**
 * Every page, as it first loads, passes axe-core at both widths
 * (1440×900 and 390×844), and its screenshots at both widths are in the HTML report. The specs of
 * each feature check the pages' other states (dialogs, errors, the empty queue, results).
 */
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { keepScreenshotsAtWidths } from './support/page-errors';

const PAGES: { path: string; name: string; heading: RegExp }[] = [
  { path: '/', name: 'home', heading: /vigil/i },
  { path: '/console', name: 'console', heading: /./ },
  { path: '/register', name: 'register', heading: /./ },
  { path: '/recognize', name: 'recognize', heading: /./ },
  { path: '/people', name: 'people', heading: /./ },
  { path: '/lab/browser-inference', name: 'lab', heading: /./ },
  { path: '/signin', name: 'signin', heading: /sign in/i },
  { path: '/no-such-page', name: 'not-found', heading: /./ },
];

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

for (const p of PAGES) {
  test(`${p.path} passes axe-core at 1440 and 390 px wide`, async ({ page }, testInfo) => {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.heading);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await expectNoAxeViolations(page, testInfo, `${p.name}-${size.width}`);
    }
    await keepScreenshotsAtWidths(page, testInfo, p.name);
  });
}

// Browsers ask for /favicon.ico on every document, JSON answers included; a 404 there shows as a
// console error on each page, so the app serves its icon at both the page link and that path.
test('the site icon is served where browsers look for it', async ({ page, request }) => {
  const ico = await request.get('/favicon.ico');
  expect(ico.status()).toBe(200);
  expect(ico.headers()['content-type']).toMatch(/^image\//);
  await page.goto('/');
  const hrefs = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => l.getAttribute('href')));
  expect(hrefs.length).toBeGreaterThan(0);
  for (const href of hrefs) {
    const res = await request.get(href!);
    expect(res.status(), href!).toBe(200);
    expect(res.headers()['content-type'], href!).toMatch(/^image\//);
  }
});
