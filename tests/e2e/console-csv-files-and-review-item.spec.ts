/**
 * The review item for triage (the whole text with what drove the verdict
 * marked, explanations in words, the item's history, a phone layout without sideways scrolling)
 * and sturdy batch CSV files (delimiter detected, unreadable lines as rows, results kept when the
 * user leaves and comes back, failed rows run again, other columns shown). Screenshots at
 * 1440×900 and 390×844, axe on each state.
 */
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { ConsolePage } from './pages/console.page';
import { expectNoAxeViolations } from './support/axe';
import { keepScreenshot } from './support/page-errors';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const THREAT = 'I will find you and hurt you, you pathetic idiot.';

/** Screenshots at both widths (with `show` scrolled into view), axe on each, no sideways scrolling on the phone. */
async function capture(page: Page, testInfo: TestInfo, name: string, show?: Locator) {
  for (const [suffix, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await show?.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, `${name}-${suffix}`, { fullPage: false });
    await expectNoAxeViolations(page, testInfo, `${name} at ${suffix}`);
    if (suffix === 'phone') await expectNoSidewaysScroll(page);
  }
  await page.setViewportSize(DESKTOP);
}

async function expectNoSidewaysScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

test.use({ viewport: DESKTOP });

test.afterEach(async ({ page }) => {
  if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
});

test.describe('batch CSV files', () => {
  test('a semicolon file is split on semicolons; a line with an unclosed quote is one row error and the rest is moderated', async ({
    page,
  }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('batch');
    const long = 'x'.repeat(60);
    await c.uploadBatch(
      'semi.csv',
      `id;message;channel_with_a_rather_long_name_${long}\n1;${THREAT};chat\n2;"never closed;chat\n3;Lovely weather, isn't it?;mail\n`,
    );
    await expect(page.getByTestId('batch-delimiter')).toHaveValue(';');
    await expect(c.batchColumn.locator('option:checked')).toHaveText(/^message/);
    await expect(page.getByTestId('batch-unreadable')).toHaveAttribute('data-count', '1');
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(DESKTOP);
    await c.runBatchToEnd();
    await expect(c.batchStatus).toContainText('1 with errors');
    const bad = c.batchRows.filter({ has: page.getByTestId('batch-row-error') });
    await expect(bad).toHaveCount(1);
    await expect(bad).toHaveAttribute('data-line', '3');
    await expect(bad).toContainText('never closed');
    await expect(bad).not.toContainText('Invalid');
    await expect(c.batchRows.filter({ has: page.getByTestId('ensemble-badge') })).toHaveCount(2);

    // The other columns on request.
    await page.getByTestId('batch-columns').getByLabel('id').check();
    await expect(page.getByTestId('batch-extra-header')).toHaveText('id');
    await expect(c.batchRows.first().getByTestId('batch-extra-cell')).toHaveText('1');
    await capture(page, testInfo, 'batch-semicolon-row-error', page.getByTestId('batch-table'));

    // The separator can be changed: read as commas, the file has other columns.
    await page.getByTestId('batch-delimiter').selectOption(',');
    await expect(c.batchColumn.locator('option')).not.toHaveCount(3);
  });

  test('results survive leaving the console and coming back; failed rows run again', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('batch');
    // The server is busy for the first run: every row fails for the server, none for itself.
    await page.route('**/v1/moderate/batch', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'Server busy' }) }),
    );
    await page.getByTestId('batch-input').fill(`${THREAT}\nSee you at the meeting tomorrow.\n`);
    await c.runBatchToEnd();
    await expect(page.getByTestId('batch-rerun')).toHaveAttribute('data-count', '2');

    await page.goto('/');
    await c.goto();
    await c.tab('batch');
    await expect(page.getByTestId('batch-restored')).toContainText('pasted texts');
    await expect(c.batchRows).toHaveCount(2);
    await capture(page, testInfo, 'batch-restored');

    await page.unroute('**/v1/moderate/batch');
    await page.getByTestId('batch-rerun').click();
    await expect(c.batchStatus).toHaveAttribute('data-phase', 'done', { timeout: 120_000 });
    await expect(c.batchRows.filter({ has: page.getByTestId('ensemble-badge') })).toHaveCount(2);
    await expect(page.getByTestId('batch-rerun')).toHaveCount(0);

    // Still there after a reload; gone once cleared.
    await page.reload();
    await c.tab('batch');
    await expect(c.batchRows.filter({ has: page.getByTestId('ensemble-badge') })).toHaveCount(2);
    await page.getByTestId('batch-clear').click();
    await expect(c.batchRows).toHaveCount(0);
    await page.reload();
    await c.tab('batch');
    await expect(page.getByTestId('batch-restored')).toHaveCount(0);
  });
});

test.describe('review item for triage', () => {
  test('the whole text with its marks, explanations in words, and the history of decisions', async ({ page, request }, testInfo) => {
    const stamp = Date.now();
    const text = `Women are too emotional to lead and I will hurt you, you trashy idiot. ${'Long enough to be cut in the old dense list. '.repeat(2)}${stamp}`;
    await ConsolePage.moderate(request, [text]);
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await c.moderatorName.fill(`eve ${stamp}`);
    const item = await c.waitForReviewItem(text);
    await c.decide(item, 'confirm', 'harassment');
    await ConsolePage.setReviewFilter(page, 'status', 'all');
    await c.searchReviews(String(stamp));
    const decided = c.reviewItem(text);
    await decided.getByTestId('review-reopen').click();
    await expect(c.reviewMessage).toContainText('Reopened');

    // Dense list: the whole text, not cut.
    await page.getByTestId('review-dense').check();
    const found = c.reviewItem(text);
    await expect(found.getByTestId('review-text')).toHaveText(text);
    // Held by its id from here: once marked, the text is in pieces.
    const row = page.locator(`[data-testid="review-item"][data-review-id="${await found.getAttribute('data-review-id')}"]`);
    await row.getByTestId('review-why').click();
    const panel = row.getByTestId('review-why-panel');
    // What decided is marked in the row's own text, not in a second copy inside the panel.
    await expect(row.getByTestId('review-full-text')).toContainText('are too emotional to lead');
    await expect(row.getByTestId('rule-match').first()).toBeVisible();
    await expect(panel.getByTestId('review-full-text')).toHaveCount(0);
    await expect(panel.getByTestId('decided-by')).toContainText(/The (toxicity model|sexism model|word lists and patterns)/);
    await expect(panel).not.toContainText(/toxic_transformer_v1|sexism_lasso_v1|rules_v1|char:|word:|encoder:|_detected|_flag/);
    await expect(panel.getByTestId('sexism-plain')).toContainText('Sexism model');
    const history = panel.getByTestId('review-history-line');
    await expect(history.first()).toHaveAttribute('data-action', 'queued');
    const confirmed = panel.locator('[data-testid="review-history-line"][data-action="decided"]');
    await expect(confirmed).toContainText(`Confirmed harmful by eve ${stamp}`);
    await expect(confirmed).toContainText('reason: harassment');
    await expect(history.last()).toHaveAttribute('data-action', 'reopened');
    await capture(page, testInfo, 'review-triage-details', panel);
    await page.getByTestId('review-dense').uncheck();
  });

  test('at 390 px the filters start folded, the first item is on the first screen, and the audit log does not scroll sideways', async ({
    page,
    request,
  }, testInfo) => {
    const stamp = Date.now();
    await ConsolePage.moderate(request, [`${THREAT} phone ${stamp}`]);
    await page.setViewportSize(PHONE);
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await expect(page.getByTestId('review-filters-fold')).not.toHaveAttribute('open');
    const first = page.getByTestId('review-item').first();
    await expect(first).toBeVisible({ timeout: 30_000 });
    const box = await first.boundingBox();
    expect(box!.y).toBeLessThan(PHONE.height);
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, testInfo, 'review-phone-first-screen', { fullPage: false });
    await expectNoAxeViolations(page, testInfo, 'review queue at phone');
    await page.getByTestId('review-filters-summary').click();
    await expect(page.getByTestId('review-filter-status')).toBeVisible();

    await c.tab('audit');
    await expect(page.getByTestId('audit-table')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, testInfo, 'audit-phone', { fullPage: false });
    await expectNoAxeViolations(page, testInfo, 'audit log at phone');
  });
});
