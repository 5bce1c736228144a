/**
 * Keyboard-first triage of the review queue (docs/decisions/191, 207): opened from its own address,
 * ten items decided with the keyboard alone (j reaches the first item, a number key picks the reason,
 * c or o decides; c without a reason says so in place, Esc from a field goes back to the item), focus
 * staying on the current item after each decision, and the tab remembered; shortcuts work while an item's selection box has the focus; each item shows its age and
 * the queue is worst first; the backlog is offered and the Batch and Jobs tabs say whether a run feeds
 * the queue (decision 190). The first item is on the first screen and one Tab from the queue's tab
 * (decision 198), and the reason list stays inside its card on a phone. axe finds nothing at 1440×900
 * and 390×844.
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

test("ten items are triaged with the keyboard alone from the queue's own address: Esc and c without a reason never trap the focus", async ({
  page,
  request,
}, testInfo) => {
  const stamp = Date.now();
  const texts = Array.from({ length: 10 }, (_, i) => `You are a worthless idiot and everyone knows it, keyboard ${stamp} #${i}.`);
  const results = await ConsolePage.moderate(request, texts);
  expect(results.every((r) => r.ensemble.summary !== 'likely_safe')).toBe(true);

  // The review queue has its own address, and a search can be part of it.
  const c = new ConsolePage(page);
  await expect(async () => {
    await page.goto(`/console/review?q=${encodeURIComponent(`keyboard ${stamp}`)}`);
    await expect(c.reviewItems).toHaveCount(10, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId('tab-reviews')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('review-search')).toHaveValue(`keyboard ${stamp}`);
  await expect(c.reviewCount).toContainText('worst first');
  await expect(c.reviewItems.first().getByTestId('review-age')).toContainText('waiting');
  await axeAtBothSizes(page, testInfo, 'review queue for keyboard triage');

  // From here on only keys. The queue's address opens with the focus on the first item; from outside
  // the list (Shift+Tab to the bulk bar), j goes back to it rather than past it.
  await expect(c.reviewItems.first()).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect.poll(() => focusInList(page)).toBe(false);
  await page.keyboard.press('j');
  await expect(c.reviewItems.first()).toBeFocused();
  const insult = await reasonKey(page, 'insult');
  for (let done = 0; done < 10; done++) {
    const item = c.reviewItems.first();
    if (done === 0) {
      // c before a reason: what is missing is said in place, and the focus stays on the item.
      await page.keyboard.press('c');
      await expect(item.getByTestId('review-reason-problem')).toContainText('No reason chosen');
      await expect(item).toBeFocused();
      await expect(c.reviewItems).toHaveCount(10);
    }
    if (done === 1) {
      // Esc brings the focus back from a field: the note, then the reason list.
      await page.keyboard.press('n');
      await expect(item.getByTestId('review-note')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(item).toBeFocused();
      await page.keyboard.press('Tab'); // the selection box
      await page.keyboard.press('x');
      await expect(item.getByTestId('review-select')).toBeChecked();
      await page.keyboard.press('x');
      // Tab on into the reason list, where a keyboard user may land.
      const reason = item.getByTestId('review-reason');
      for (let i = 0; i < 8 && !(await reason.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      await expect(reason).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(item).toBeFocused();
    }
    await page.keyboard.press(insult);
    await expect(item.getByTestId('review-reason')).toHaveValue('insult');
    await page.keyboard.press('c');
    await expect(c.reviewItems).toHaveCount(9 - done);
    await expect(c.reviewMessage).toContainText('Confirmed 1 item');
    if (done < 9) {
      await expect.poll(() => focusInList(page)).toBe(true);
      await expect(c.reviewItems.first()).toHaveAttribute('data-focused', 'true');
    }
  }
  await expect(page.getByTestId('review-empty')).toBeVisible();

  // The console remembers the tab: /console opens the queue again.
  await page.goto('/console');
  await expect(page.getByTestId('tab-reviews')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/console\/review$/);
});

/** The number key of a reason code (its place in the server's list, 1–9). */
async function reasonKey(page: Page, code: string): Promise<string> {
  const res = await page.request.get('/api/v1/reviews/config');
  const codes = ((await res.json()) as { data: { reason_codes: { code: string }[] } }).data.reason_codes.map((r) => r.code);
  const n = codes.indexOf(code) + 1;
  expect(n).toBeGreaterThan(0);
  expect(n).toBeLessThan(10);
  return String(n);
}

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
  await expect(page.getByTestId('jobs-review-feed')).toContainText('Flagged rows of a job go to the review queue');
});

/**
 * The worst case above the list: a backlog and a list of texts kept out of the queue by quota (answered
 * by a stand-in server here, since filling a real quota takes hundreds of requests).
 */
async function withNotQueuedNotice(page: Page) {
  const ok = (data: unknown) => ({ json: { success: true, data, error: null } });
  await page.route('**/api/v1/reviews/not-queued*', (route) =>
    route.fulfill(
      ok({
        since: new Date(Date.now() - 24 * 3_600_000).toISOString(),
        total: 1_840,
        counts: [
          { reason: 'quota', client: 'anonymous', count: 1_500 },
          { reason: 'quota', client: 'key:0123456789ab', count: 300 },
          { reason: 'evicted', client: 'all', count: 40 },
        ],
        recording_paused_until: null,
      }),
    ),
  );
  await page.route(
    (url) => url.pathname === '/api/v1/reviews' && url.searchParams.get('status') === 'backlog' && url.searchParams.get('limit') === '1',
    (route) => route.fulfill(ok({ items: [], total: 1_800, limit: 1, offset: 0, next_cursor: null })),
  );
}

for (const [name, size] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`at ${name} size the first review item is on the first screen and one Tab from the queue's tab`, async ({ page, request }) => {
    const stamp = Date.now();
    const texts = [0, 1].map((i) => `You are a worthless idiot and a fraud, first screen ${stamp} #${i}.`);
    await ConsolePage.moderate(request, texts);
    await withNotQueuedNotice(page);
    await page.setViewportSize(size);
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await expect(page.getByTestId('review-backlog-count')).toBeVisible();
    await expect(page.getByTestId('review-not-queued').locator('details')).toBeVisible();
    await expect(c.reviewItems.first()).toBeVisible({ timeout: 30_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = await c.reviewItems.first().evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThan(0);
    // More than a line of the first item's text is on the first screen: all of it, or its first four lines.
    const text = await c.reviewItems
      .first()
      .getByTestId('review-text')
      .evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    expect(Math.min(text.bottom, text.top + 4 * 20)).toBeLessThanOrEqual(size.height);

    // From the queue's tab: the first Tab stop is the way to the first item.
    await page.getByTestId('tab-reviews').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('review-skip')).toBeFocused();
    await expect(page.getByTestId('review-skip')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(c.reviewItems.first()).toBeFocused();
    await expect(c.reviewItems.first()).toHaveAttribute('data-focused', 'true');
    await expect.poll(() => focusInList(page)).toBe(true);
    // Keys act on it at once.
    await page.keyboard.press('x');
    await expect(c.reviewItems.first().getByTestId('review-select')).toBeChecked();

    // The backlog count is a link to the backlog, which has its own way back to the queue.
    await page.getByTestId('review-open-backlog').click();
    await expect(page).toHaveURL(/\/console\/review\?status=backlog$/);
    await expect(page.getByTestId('review-view')).toHaveAttribute('data-status', 'backlog');
    await expect(page.getByTestId('review-back-to-queue')).toBeVisible();
    await page.getByTestId('review-back-to-queue').click();
    await expect(page).toHaveURL(/\/console\/review$/);
    await expect(page.getByTestId('review-view')).toHaveCount(0);
  });
}

test('on a phone the reason list stays inside its review card', async ({ page, request }, testInfo) => {
  const stamp = Date.now();
  const text = `You are a worthless idiot, narrow card ${stamp}.`;
  await ConsolePage.moderate(request, [text]);
  await page.setViewportSize(PHONE);
  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('reviews');
  const item = await c.waitForReviewItem(text);
  const card = (await item.boundingBox())!;
  const select = (await item.getByTestId('review-reason').boundingBox())!;
  expect(select.x).toBeGreaterThanOrEqual(card.x);
  expect(select.x + select.width).toBeLessThanOrEqual(card.x + card.width);
  await expectNoAxeViolations(page, testInfo, 'review card at phone');
});

test('after a decision is reopened, Undo is no longer offered and u shows no error', async ({ page, request }) => {
  const stamp = Date.now();
  const text = `You are a worthless idiot, reopened ${stamp}.`;
  await ConsolePage.moderate(request, [text]);
  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('reviews');
  await c.decide(await c.waitForReviewItem(text), 'confirm', 'harassment');
  await expect(page.getByTestId('review-undo')).toBeVisible();

  await ConsolePage.setReviewFilter(page, 'status', 'confirmed');
  await c.searchReviews(`reopened ${stamp}`);
  await c.reviewItem(text).getByTestId('review-reopen').click();
  await expect(c.reviewMessage).toContainText('Reopened: 1 item is pending again.');
  await expect(page.getByTestId('review-undo')).toHaveCount(0);

  await page.getByTestId('review-search').evaluate((el) => (el as HTMLElement).blur());
  await page.keyboard.press('u');
  await expect(c.reviewMessage).toContainText('Reopened');
  await expect(page.getByTestId('review-error')).toHaveCount(0);
});
