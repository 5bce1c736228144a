/**
 * The console: the batch tool keeps the user's data, the review queue is built for triage
 * (decision 065), mobile layout, errors in plain language and the 404 page, and the language note
 * (decision 067). axe-core checks the main states (dialogs,
 * errors, the empty queue) and screenshots are taken at 1440×900 and 390×844.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { ConsolePage } from './pages/console.page';
import { expectNoAxeViolations } from './support/axe';
import { keepScreenshot } from './support/page-errors';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const THREAT = 'I will find you and hurt you, you pathetic idiot.';
const SPANISH = 'Las mujeres son demasiado emocionales para ser líderes y deberían quedarse en casa con los niños.';

/** Screenshots of the current state at both widths, and axe on each. */
async function capture(page: Page, testInfo: TestInfo, name: string, options: { axe?: boolean } = {}) {
  for (const [suffix, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await keepScreenshot(page, testInfo, `${name}-${suffix}`, { fullPage: false });
    if (options.axe !== false) await expectNoAxeViolations(page, testInfo, `${name} at ${suffix}`);
  }
  await page.setViewportSize(DESKTOP);
}

test.use({ viewport: DESKTOP });

// Every console page starts the preview Worker; let its model downloads finish before the page
// closes (see console.spec.ts).
test.afterEach(async ({ page }) => {
  if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
});

test.describe('console: batch tool', () => {
  test('id,message gets its header detected and the message column moderated; binary files are refused', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('batch');

    await c.uploadBatch('photo.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
    await expect(page.getByTestId('batch-file-error')).toContainText('not text');
    await expect(c.batchRun).toBeDisabled();
    await capture(page, testInfo, 'batch-binary-error');

    await c.uploadBatch('messages.csv', `id,message\n1,${THREAT}\n2,Thanks for the notes, see you tomorrow.\n`);
    await expect(c.batchHasHeader).toBeChecked();
    await expect(c.batchColumn.locator('option:checked')).toHaveText(/^message/);
    await expect(page.getByTestId('batch-file-count')).toContainText('2 rows');
    await c.runBatchToEnd();
    await expect(c.batchRows).toHaveCount(2);
    // The messages were moderated, not the ids, and the header is not a row.
    await expect(c.batchRows.first()).toContainText('I will find you');
    await expect(c.batchRows.filter({ hasText: /^\s*\d+\s*$/ })).toHaveCount(0);
    await expect(c.batchRows.first().getByTestId('ensemble-badge')).toHaveAttribute('data-summary', /harmful/);
  });

  test('the export keeps every source column, in source order, with source line numbers that blank lines do not shift', async ({
    page,
  }) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('batch');
    await c.uploadBatch('keep.csv', `ticket,comment,author\nA-1,"${THREAT}",ana\n\n\nA-2,"Lovely weather, isn't it?",bo\nA-3,-5,cy\n`);
    await c.runBatchToEnd();
    await page.getByTestId('sort-score').click(); // the table order must not leak into the export
    const rows = parseCsv(await c.exportBatch());
    expect(rows[0]!.slice(0, 4)).toEqual(['source_line', 'ticket', 'comment', 'author']);
    expect(rows[0]).toContain('vigil_summary');
    expect(rows.slice(1).map((r) => r.slice(0, 4))).toEqual([
      ['2', 'A-1', THREAT, 'ana'],
      ['5', 'A-2', "Lovely weather, isn't it?", 'bo'],
      ['6', 'A-3', '-5', 'cy'],
    ]);
  });

  test('a 10,001-character row is marked by its source line and the other rows are processed', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('batch');
    const long = 'a'.repeat(10_001);
    await c.uploadBatch('long.txt', `${THREAT}\n\n${long}\nHave a nice day\n`, 'text/plain');
    await c.runBatchToEnd();
    await expect(c.batchStatus).toHaveAttribute('data-done', '3');
    await expect(c.batchStatus).toContainText('1 with errors');
    const errors = page.getByTestId('batch-row-errors-lines').locator('li');
    await expect(errors).toHaveCount(1);
    await expect(errors.first()).toContainText('Line 3');
    await expect(c.batchRows.filter({ has: page.getByTestId('ensemble-badge') })).toHaveCount(2);
    await capture(page, testInfo, 'batch-row-errors');
  });

  test('progress, and a summary chart when done', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('batch');
    const texts = Array.from({ length: 250 }, (_, i) =>
      i % 5 === 0 ? `${THREAT} #${i}` : `Good morning team, meeting ${i} moved to noon.`,
    );
    await page.getByTestId('batch-input').fill(texts.join('\n'));
    await c.runBatchToEnd();
    await expect(c.batchStatus).toHaveAttribute('data-done', '250');
    const chart = page.getByTestId('batch-chart');
    await expect(chart).toBeVisible();
    const counts = await page
      .getByTestId('chart-summary')
      .getByTestId('chart-bar')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(250);
    await expect(page.getByTestId('chart-issue').getByTestId('chart-bar').first()).toBeVisible();
    await capture(page, testInfo, 'batch-chart');
  });

  // A page of its own: no earlier run, resize or screenshot before the click.
  test('Cancel stops a run between chunks', async ({ page }) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('batch');
    const texts = Array.from({ length: 150 }, (_, i) => (i % 5 === 0 ? `${THREAT} #${i}` : `Lunch moved to the small room, ${i}.`));
    await page.getByTestId('batch-input').fill(texts.join('\n'));
    // The second chunk is held back until Cancel is pressed.
    let calls = 0;
    await page.route('**/v1/moderate/batch', async (route) => {
      calls++;
      if (calls === 2) await new Promise((r) => setTimeout(r, 5_000));
      await route.continue().catch(() => undefined);
    });
    await c.batchRun.click();
    await expect(page.getByTestId('batch-progress')).toBeVisible();
    await expect(c.batchStatus).toHaveAttribute('data-done', '100', { timeout: 60_000 });
    await page.getByTestId('batch-cancel').click();
    await expect(c.batchStatus).toHaveAttribute('data-phase', 'cancelled');
    await expect(c.batchStatus).toContainText('Cancelled');
    await expect(c.batchStatus).toHaveAttribute('data-done', '100');
  });

  test('on a phone the batch results are cards, not a table broken letter by letter', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await page.setViewportSize(PHONE);
    await c.goto();
    await c.tab('batch');
    await page.getByTestId('batch-input').fill(`${THREAT}\nSee you at the meeting tomorrow, and thanks again for everything.`);
    await c.runBatchToEnd();
    const row = c.batchRows.first();
    expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe('block');
    const textCell = row.locator('td').nth(1);
    expect((await textCell.boundingBox())!.width).toBeGreaterThan(250);
    // No word is split across lines: the text cell is not taller than its words need.
    expect(await textCell.evaluate((el) => getComputedStyle(el).wordBreak)).not.toBe('break-all');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await keepScreenshot(page, testInfo, 'batch-cards-phone', { fullPage: false });
  });
});

test.describe('console: review queue for triage', () => {
  test('empty queue state passes axe (status filter with nothing in it)', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await ConsolePage.setReviewFilter(page, 'status', 'expired');
    await expect(page.getByTestId('review-empty')).toBeVisible();
    await capture(page, testInfo, 'review-empty');
  });

  test('one item per distinct text, with count and first/last seen; the Moderate tab says when it was queued', async ({
    page,
    request,
  }) => {
    const text = `You are a pathetic idiot and I will hurt you, grouped ${Date.now()}`;
    for (const t of [text, text, `  ${text.replace(/ /g, '  ')} `]) {
      const res = await request.post('/v1/moderate/text', { data: { text: t } });
      expect(((await res.json()) as { ensemble: { summary: string } }).ensemble.summary).not.toBe('likely_safe');
    }
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await expect(async () => {
      await c.searchReviews(text.slice(-20));
      await expect(c.reviewItems).toHaveCount(1, { timeout: 1_000 });
      await expect(c.reviewItems.first().getByTestId('review-seen')).toHaveAttribute('data-count', '3', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(c.reviewItems.first()).toContainText('first queued');
    await expect(c.reviewItems.first()).toContainText('last seen');

    await c.tab('moderate');
    await c.input.fill(text);
    await c.moderateOnServer();
    await expect(page.getByTestId('moderate-queued')).toHaveAttribute('data-state', 'queued');
    await expect(page.getByTestId('moderate-queued')).toContainText('Queued for review');
    await expect(page.getByTestId('moderate-queued')).toContainText('seen 4 times');
  });

  test('cursor pages beyond the first, search, filters by source and status, and undo', async ({ page, request }, testInfo) => {
    const stamp = Date.now();
    const texts = Array.from({ length: 60 }, (_, i) => `I am going to kill you, page test ${stamp} number ${i}`);
    const results = await ConsolePage.moderate(request, texts);
    const flagged = results.filter((r) => r.ensemble.summary !== 'likely_safe');
    expect(flagged.length).toBeGreaterThan(50);
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await expect(async () => {
      await c.searchReviews(`page test ${stamp}`);
      await expect(c.reviewCount).toHaveAttribute('data-total', String(flagged.length), { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(c.reviewItems).toHaveCount(50);
    // Scrolling to the end loads the next page (Load more is the keyboard way to the same).
    await page.getByTestId('review-more').scrollIntoViewIfNeeded();
    await expect(c.reviewItems).toHaveCount(flagged.length);
    await expect(page.getByTestId('review-more')).toHaveCount(0);

    await c.searchReviews(`${stamp} number 7`);
    await expect(c.reviewItems).toHaveCount(1);
    await ConsolePage.setReviewFilter(page, 'source', 'text');
    await expect(page.getByTestId('review-empty')).toBeVisible();
    await ConsolePage.setReviewFilter(page, 'source', 'batch');
    await expect(c.reviewItems).toHaveCount(1);

    // Decide, see it under "confirmed", undo it back to pending.
    await c.decide(c.reviewItems.first(), 'confirm', 'threat');
    await expect(c.reviewMessage).toContainText('Confirmed 1 item');
    await ConsolePage.setReviewFilter(page, 'status', 'confirmed');
    await expect(c.reviewItems.first()).toHaveAttribute('data-status', 'confirmed');
    await page.getByTestId('review-undo').click();
    await expect(c.reviewMessage).toContainText('pending again');
    await expect(page.getByTestId('review-empty')).toBeVisible();
    await ConsolePage.setReviewFilter(page, 'status', 'pending');
    await expect(c.reviewItems).toHaveCount(1);
    await capture(page, testInfo, 'review-queue');
  });

  test('keyboard shortcuts listed with ?, bulk select and act, a dense list view', async ({ page, request }, testInfo) => {
    const stamp = Date.now();
    await ConsolePage.moderate(
      request,
      [1, 2, 3, 4].map((i) => `I am going to kill you, keys ${stamp} #${i}`),
    );
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await expect(async () => {
      await c.searchReviews(`keys ${stamp}`);
      await expect(c.reviewItems).toHaveCount(4, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });

    await page.getByTestId('review-count').click(); // focus on the page, outside any field
    await page.keyboard.press('?');
    const dialog = page.getByTestId('shortcuts-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('next item');
    await expect(dialog).toContainText('confirm harmful');
    await capture(page, testInfo, 'review-shortcuts-dialog');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // From outside the list, j first goes to the current item, then on.
    await page.keyboard.press('j');
    await expect(c.reviewItems.nth(0)).toBeFocused();
    await page.keyboard.press('j');
    await expect(c.reviewItems.nth(1)).toHaveAttribute('data-focused', 'true');
    await page.keyboard.press('k');
    await expect(c.reviewItems.nth(0)).toHaveAttribute('data-focused', 'true');
    await page.keyboard.press('n');
    await expect(c.reviewItems.nth(0).getByTestId('review-note')).toBeFocused();
    await page.keyboard.type('via keyboard');
    await page.keyboard.press('Escape');
    const firstId = await c.reviewItems.nth(0).getAttribute('data-review-id');
    // Without a reason, `c` says what is missing beside the reason list instead of deciding; the focus stays on the item.
    await page.keyboard.press('c');
    await expect(c.reviewItems.nth(0).getByTestId('review-reason-problem')).toContainText('No reason chosen');
    await expect(c.reviewItems.nth(0)).toBeFocused();
    await c.reviewItems.nth(0).getByTestId('review-reason').selectOption('threat');
    await page.getByTestId('review-count').click();
    await page.keyboard.press('c');
    await expect(c.reviewMessage).toContainText('Confirmed 1 item');
    await expect(page.locator(`[data-review-id="${firstId}"]`)).toHaveCount(0);

    await page.getByTestId('review-dense').check();
    await expect(c.reviewList).toHaveAttribute('data-dense', 'true');
    await capture(page, testInfo, 'review-dense');
    await c.reviewItems.nth(0).getByTestId('review-select').check();
    await c.reviewItems.nth(1).getByTestId('review-select').check();
    await expect(page.getByTestId('review-selected-count')).toHaveText('2 selected');
    await page.getByTestId('review-bulk-reason').selectOption('false positive: context');
    await page.getByTestId('review-bulk-overturn').click();
    await expect(c.reviewMessage).toContainText('Overturned 2 items');
    await expect(c.reviewItems).toHaveCount(1);
    await page.getByTestId('review-dense').uncheck();
  });

  test('why flagged shows the rule spans, the sexism words and the deciding model and threshold', async ({ page, request }, testInfo) => {
    const text = `Women are too emotional to lead and I will hurt you, why ${Date.now()}`;
    const [r] = await ConsolePage.moderate(request, [text]);
    expect(r!.ensemble.summary).not.toBe('likely_safe');
    const c = new ConsolePage(page);
    const item = await c.openOnlyReviewFor(text.slice(-18));
    await item.getByTestId('review-why').click();
    const panel = page.getByTestId('review-why-panel');
    // In words now: the model behind the sentence stays in data-model.
    await expect(panel.getByTestId('decided-by')).toHaveAttribute('data-model', /rules_v1|toxic_transformer_v1|sexism_lasso_v1/);
    // The spans are marked in the card's own text.
    await expect(item.getByTestId('rule-match').first()).toBeVisible();
    expect(await panel.getByTestId('sexism-phrase').count()).toBeGreaterThan(0);
    await capture(page, testInfo, 'review-why-flagged');
  });

  test('a slow answer to an older filter never overwrites the newer one', async ({ page, request }) => {
    const stamp = Date.now();
    const threat = `I am going to kill you tonight, race ${stamp}`;
    const insult = `You are a pathetic idiot, race ${stamp}`;
    const sexism = `Women are too emotional to be leaders, race ${stamp}`;
    await ConsolePage.moderate(request, [threat, insult, sexism]);
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await c.waitForReviewItem(threat);
    await c.waitForReviewItem(insult);
    await c.waitForReviewItem(sexism);
    // The race is between the list without a severity filter and the list with one; both search
    // these texts, so the first page holds them whatever else the shared queue holds.
    await c.searchReviews(`race ${stamp}`);
    const severityOf = (els: Element[]) => els.map((e) => e.querySelector('.badge:nth-of-type(2)')?.textContent ?? '');
    const before = await c.reviewItems.evaluateAll(severityOf);
    const target = before[0]!;
    // The test means something only if the unfiltered list mixes severities.
    expect(before.some((x) => x !== target)).toBe(true);

    // Hold back the answer for the unfiltered list; the filtered request goes through at once.
    let held = 0;
    await page.route('**/api/v1/reviews?*', async (route) => {
      const url = new URL(route.request().url());
      if (!url.searchParams.has('severity') && held === 0) {
        held++;
        await new Promise((r) => setTimeout(r, 3_000));
      }
      await route.continue().catch(() => undefined);
    });
    await page.getByTestId('review-refresh').click(); // the slow, older request
    await ConsolePage.setReviewFilter(page, 'severity', target); // the newer one
    await page.waitForTimeout(3_500); // the held answer has arrived by now
    const shown = await c.reviewItems.evaluateAll(severityOf);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((x) => x === target)).toBe(true);
    await expect(c.reviewCount).toContainText('(filtered)');
  });

  test('with API keys the decision is recorded against the signed-in key, not a typed name', async ({ page }) => {
    // The e2e server runs without keys; the session answer of a keyed server is given to the page.
    await page.route('**/api/v1/session', (route) =>
      route.fulfill({
        json: { success: true, data: { auth_required: true, authenticated: true, expires_at: null, moderator: 'key:abc123' }, error: null },
      }),
    );
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await expect(page.getByTestId('moderator-identity')).toContainText('key:abc123');
    await expect(c.moderatorName).toHaveCount(0);
  });
});

test.describe('console: mobile, errors, language', () => {
  test('on a phone the server verdict is scrolled into view', async ({ page }) => {
    await page.setViewportSize(PHONE);
    const c = new ConsolePage(page);
    await c.goto();
    await c.input.fill(THREAT);
    await c.moderateButton.click();
    await expect(c.serverVerdict).toBeVisible();
    await expect(c.serverVerdict).toBeInViewport({ ratio: 0.2, timeout: 5_000 });
  });

  test('plain-language errors with the code in details; a styled 404 with a way back; the lab title says Vigil once', async ({
    page,
  }, testInfo) => {
    const c = new ConsolePage(page);
    await page.route('**/v1/moderate/text', (route) => route.fulfill({ status: 503, json: { detail: 'Models are loading' } }));
    await c.goto();
    await c.input.fill(THREAT);
    await c.moderateButton.click();
    const alert = page.getByTestId('server-error');
    await expect(alert).toContainText('try again');
    await expect(alert.getByTestId('server-error-details')).not.toHaveAttribute('open', '');
    await alert.getByText('Details').click();
    await expect(alert.getByTestId('server-error-details')).toContainText('HTTP_503');
    await capture(page, testInfo, 'console-error');

    await page.goto('/no-such-page');
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await capture(page, testInfo, 'not-found');
    await page.getByTestId('not-found-home').click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto('/lab/browser-inference');
    expect((await page.title()).match(/Vigil/g)).toHaveLength(1);
  });

  test('the preview and the server verdict say when a text is not English', async ({ page }, testInfo) => {
    const c = new ConsolePage(page);
    await c.goto();
    await c.waitForPreviewModels();
    await c.input.fill(SPANISH);
    await expect(page.getByTestId('preview').getByTestId('language-note')).toContainText('Spanish', { timeout: 30_000 });
    await c.moderateOnServer();
    await expect(c.serverVerdict.getByTestId('language-note')).toHaveAttribute('data-language', 'spa');
    await c.input.fill(THREAT);
    await c.moderateOnServer();
    await expect(c.serverVerdict.getByTestId('language-note')).toHaveCount(0);
    await c.input.fill(SPANISH);
    await c.moderateOnServer();
    await capture(page, testInfo, 'moderate-not-english');
  });
});
