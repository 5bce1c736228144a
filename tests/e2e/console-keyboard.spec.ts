/**
 * Keyboard-first triage of the review queue (docs/decisions/191): ten items decided with the keyboard
 * alone (a number key picks the reason, c or o decides), focus staying on the current item after each
 * decision; shortcuts work while an item's selection box has the focus; each item shows its age and
 * the queue is worst first; the backlog is offered and the Batch and Jobs tabs say whether a run feeds
 * the queue (decision 190). axe finds nothing at 1440×900 and 390×844.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { ConsolePage } from './pages/console.page';
import { expectNoAxeViolations } from './support/axe';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function axeAtBothSizes(page: Page, testInfo: TestInfo, name: string) {
  for (const [suffix, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await expectNoAxeViolations(page, testInfo, `${name} at ${suffix}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** Whether the keyboard focus is inside the review list (not dropped to the page). */
const focusInList = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="review-list"]')));

test.use({ viewport: DESKTOP });

test.afterEach(async ({ page }) => {
  if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
});

test('ten items are triaged with the keyboard alone, focus staying on the current item', async ({ page, request }, testInfo) => {
  const stamp = Date.now();
  const texts = Array.from({ length: 10 }, (_, i) => `You are a worthless idiot and everyone knows it, keyboard ${stamp} #${i}.`);
  const results = await ConsolePage.moderate(request, texts);
  expect(results.every((r) => r.ensemble.summary !== 'likely_safe')).toBe(true);

  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('reviews');
  await c.waitForReviewItem(texts[0]!);
  await c.searchReviews(`keyboard ${stamp}`);
  await expect(c.reviewItems).toHaveCount(10);
  await expect(c.reviewCount).toContainText('worst first');
  await expect(c.reviewItems.first().getByTestId('review-age')).toContainText('waiting');
  await axeAtBothSizes(page, testInfo, 'review queue for keyboard triage');

  // The setup typed a search; from here on only keys.
  await page.getByTestId('review-search').evaluate((el) => (el as HTMLElement).blur());
  for (let done = 0; done < 10; done++) {
    await page.keyboard.press('1'); // the first reason code (harassment): a confirm reason
    await expect(c.reviewItems.first().getByTestId('review-reason')).toHaveValue('harassment');
    await page.keyboard.press('c');
    await expect(c.reviewItems).toHaveCount(9 - done);
    await expect(c.reviewMessage).toContainText('Confirmed 1 item');
    if (done < 9) {
      await expect.poll(() => focusInList(page)).toBe(true);
      await expect(c.reviewItems.first()).toHaveAttribute('data-focused', 'true');
    }
  }
  await expect(page.getByTestId('review-empty')).toBeVisible();
});

test("shortcuts act while the item's selection box has the focus", async ({ page, request }) => {
  const stamp = Date.now();
  const texts = [0, 1].map((i) => `You are a pathetic idiot, checkbox ${stamp} #${i}.`);
  await ConsolePage.moderate(request, texts);
  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('reviews');
  await c.waitForReviewItem(texts[0]!);
  await c.searchReviews(`checkbox ${stamp}`);
  await expect(c.reviewItems).toHaveCount(2);
  await c.reviewItems.first().getByTestId('review-select').focus();
  await page.keyboard.press('x');
  await expect(c.reviewItems.first().getByTestId('review-select')).toBeChecked();
  await page.keyboard.press('x');
  await expect(c.reviewItems.first().getByTestId('review-select')).not.toBeChecked();
  await page.keyboard.press('1');
  await page.keyboard.press('c');
  await expect(c.reviewItems).toHaveCount(1);
  await expect.poll(() => focusInList(page)).toBe(true);
});

test('the Batch and Jobs tabs say whether a run feeds the review queue', async ({ page }) => {
  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('batch');
  await page.getByTestId('batch-input').fill('You are a worthless idiot.');
  await expect(page.getByTestId('batch-review-feed')).toContainText('go to the review queue up to the hourly quota');
  await expect(page.getByTestId('batch-review-feed')).toContainText('backlog');
  await c.tab('jobs');
  await expect(page.getByTestId('jobs-review-feed')).toContainText('Jobs do not feed the review queue');
});
