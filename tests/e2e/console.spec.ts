/**
 * The moderation console: the in-browser preview ranks a toxic sentence above a benign one, the
 * server verdict shows beside it, a CSV batch upload completes, and a review decision (one made
 * online, one made offline and synced later) lands in the audit log exactly once.
 */
import { expect, test } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { ConsolePage } from './pages/console.page';
import { keepScreenshot, PageErrors, unlabelledControls } from './support/page-errors';

const BENIGN = 'Thanks for sharing the meeting notes, they were really helpful.';
// A threat the rules also catch: its ranking above the benign text does not hang on one model.
const TOXIC = 'I will find you and hurt you, you pathetic idiot.';

test.describe('moderation console', () => {
  // Every console page starts the preview Worker, which downloads the models. Let it finish before
  // the page closes: an aborted model download can crash the server (serve-static-file.ts on
  // Node 20, reported to the lead), which would fail every later test for the wrong reason.
  test.afterEach(async ({ page }) => {
    if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
  });

  test('home page links every section', async ({ page }, testInfo) => {
    const errors = new PageErrors(page);
    await page.goto('/');
    for (const name of ['console', 'register', 'people', 'recognize']) await expect(page.getByTestId(`nav-${name}`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Moderation console' })).toBeVisible();
    await keepScreenshot(page, testInfo, 'home');
    expect(errors.errors).toEqual([]);
  });

  test('the preview scores a toxic sentence higher than a benign one; the server verdict shows', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await expect(c.healthStatus).toHaveText('healthy');
    await c.waitForPreviewModels();
    await expect(page.getByTestId('preview-backend')).toHaveText(/^(wasm|webgpu)$/);

    // Keyboard: the console's tabs follow the WAI-ARIA pattern (arrows move, focus follows).
    await page.getByTestId('tab-moderate').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('tab-batch')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('tab-batch')).toBeFocused();
    // End selects the last tab, Policy.
    await page.keyboard.press('End');
    await expect(page.getByTestId('tab-policy')).toHaveAttribute('aria-selected', 'true');
    for (const tab of ['moderate', 'batch', 'jobs', 'reviews', 'audit', 'policy']) {
      await page.getByTestId(`tab-${tab}`).click();
      expect(await unlabelledControls(page), `unlabelled controls on the ${tab} tab`).toEqual([]);
    }
    await page.getByTestId('tab-moderate').click();

    const benign = await c.previewScore(BENIGN);
    const toxic = await c.previewScore(TOXIC);
    console.log(`preview scores: benign ${benign}, toxic ${toxic}`);
    expect(toxic).toBeGreaterThan(benign);
    await expect(page.getByTestId('preview-ms')).toHaveText(/^\d+ ms$/);

    await c.moderateOnServer();
    await expect(c.serverVerdict).toHaveAttribute('data-summary', /^(possibly|likely|highly)_harmful$/);
    await expect(c.previewVerdict.getByTestId('rule-match').first()).toBeVisible();
    await keepScreenshot(page, testInfo, 'console');

    // Responsive: the same page on a phone-sized viewport, still without horizontal scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await keepScreenshot(page, testInfo, 'console-mobile');
    expect(c.errors.errors).toEqual([]);
  });

  test('a CSV batch upload completes in chunks, sorts, filters and exports', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('batch');
    const texts = Array.from({ length: 150 }, (_, i) =>
      i % 3 === 0 ? `${TOXIC} (${i})` : `Have a lovely day, see you at ${i} o'clock, "friend"`,
    );
    const csv = `id,text\r\n${texts.map((t, i) => `${i},"${t.replace(/"/g, '""')}"`).join('\r\n')}\r\n`;
    await c.batchFile.setInputFiles({ name: 'batch.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('batch-file-count')).toContainText('150 rows');
    await c.batchRun.click();
    await expect(c.batchStatus).toHaveAttribute('data-phase', 'done', { timeout: 120_000 });
    await expect(c.batchStatus).toHaveAttribute('data-done', '150');
    await expect(c.batchRows).toHaveCount(150);

    await page.getByTestId('sort-score').click(); // highest first
    const first = Number(await c.batchRows.first().getAttribute('data-score'));
    const last = Number(await c.batchRows.last().getAttribute('data-score'));
    expect(first).toBeGreaterThanOrEqual(last);
    await keepScreenshot(page, testInfo, 'console-batch', { fullPage: false });

    const download = page.waitForEvent('download');
    await page.getByTestId('batch-export').click();
    const file = await download;
    const rows = parseCsv(await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8')));
    expect(rows[0]!.slice(0, 4)).toEqual(['source_line', 'id', 'text', 'vigil_summary']);
    expect(rows).toHaveLength(151);

    await page.getByTestId('batch-filter-summary').selectOption('likely_safe');
    const safe = await c.batchRows.count();
    expect(safe).toBeLessThan(150);
    expect(c.errors.errors).toEqual([]);
  });

  test('review decisions appear in the audit log, including one made offline', async ({ page, request, context }, testInfo) => {
    const stamp = Date.now();
    const online = `I will find you and hurt you, review ${stamp}`;
    const offline = `I am going to kill you, review ${stamp}`;
    for (const text of [online, offline]) {
      const res = await request.post('/v1/moderate/text', { data: { text } });
      expect(res.ok()).toBe(true);
      expect(((await res.json()) as { ensemble: { summary: string } }).ensemble.summary).not.toBe('likely_safe');
    }

    const c = new ConsolePage(page);
    await c.goto();
    // The page loads the in-browser models on open; going offline before they are in would make
    // onnxruntime-web log its failed wasm download (a race that showed under load).
    await c.waitForPreviewModels();
    await c.tab('reviews');
    await c.moderatorName.fill('e2e moderator');

    const item = await c.waitForReviewItem(online);
    const onlineId = (await item.getAttribute('data-review-id'))!;
    await c.decide(item, 'confirm', 'threat', 'confirmed by the e2e test');
    await expect(page.getByTestId('review-message')).toContainText('Confirmed 1 item as e2e moderator');
    await expect(item).toHaveCount(0);

    // Offline: the decision waits in IndexedDB, then syncs once when the browser is back online.
    const offItem = await c.waitForReviewItem(offline);
    const offlineId = (await offItem.getAttribute('data-review-id'))!;
    c.errors.ignore(/ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/);
    await context.setOffline(true);
    await c.decide(offItem, 'overturn', 'false positive: context');
    await expect(c.queuedNotice).toContainText('1 decision waiting to sync');
    await keepScreenshot(page, testInfo, 'console-review-offline', { fullPage: false });
    await context.setOffline(false);
    await expect(c.queuedNotice).toHaveCount(0, { timeout: 30_000 });

    await c.tab('audit');
    await expect(c.auditRows(onlineId)).toContainText('e2e moderator');
    await expect(c.auditRows(onlineId)).toContainText('confirmed by the e2e test');
    await expect(c.auditRows(offlineId)).toContainText('overturned');
    await expect(c.auditRows(offlineId)).toContainText('false positive: context');
    await keepScreenshot(page, testInfo, 'console-audit');

    const audit = (await (await request.get('/api/v1/reviews/audit?limit=1000')).json()) as { data: { entries: { review_id: string }[] } };
    expect(audit.data.entries.filter((e) => e.review_id === offlineId)).toHaveLength(1);
    const csv = parseCsv(await (await request.get('/api/v1/reviews/audit/export')).text());
    expect(csv.some((r) => r.includes(onlineId) && r.includes('confirmed by the e2e test'))).toBe(true);
    expect(c.errors.errors).toEqual([]);
  });
});
