/**
 * Where flagged texts go and how the queue reads (docs/decisions/190, 191, 205): a flagged text from a
 * Batch run reaches the review queue or the backlog, never neither (a bulk job's rows: console-jobs.spec.ts);
 * the queue lists the worst first (threats, then severity) and shows claims, its own and another
 * moderator's, without reordering. Two browsers that typed no name are two moderators: each one's claim
 * shows in the other without a reload, and neither can decide the other's claimed item.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ConsolePage } from './pages/console.page';
import { expectNoAxeViolations } from './support/axe';

type Listed = { review_id: string; text: string; status: string; priority: number };

async function listed(request: APIRequestContext, q: string): Promise<Listed[]> {
  const res = await request.get(`/api/v1/reviews?status=all&limit=50&q=${encodeURIComponent(q)}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { items: Listed[] } }).data.items;
}

test.afterEach(async ({ page }) => {
  if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
});

test('a flagged text from a Batch run reaches the review queue or the backlog, never neither', async ({ page, request }) => {
  const stamp = Date.now();
  const flagged = [
    `You are a worthless idiot and everyone knows it, batch feed ${stamp}.`,
    `I will find you and hurt you, batch feed ${stamp}.`,
  ];
  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('batch');
  await page.getByTestId('batch-input').fill([...flagged, `Lovely photos from the hike, batch feed ${stamp}.`].join('\n'));
  await c.runBatchToEnd();
  await expect(page.getByTestId('batch-status')).toHaveAttribute('data-phase', 'done');

  // Recording is asynchronous: each flagged text is found, pending in the queue or waiting in the backlog.
  await expect(async () => {
    const items = await listed(request, `batch feed ${stamp}`);
    for (const text of flagged) expect(items.find((i) => i.text === text)?.status).toMatch(/^(pending|backlog)$/);
  }).toPass({ timeout: 30_000 });
  // And the console shows them where they are.
  await c.tab('reviews');
  await ConsolePage.setReviewFilter(page, 'status', 'all');
  await c.searchReviews(`batch feed ${stamp}`);
  for (const text of flagged) await expect(c.reviewItem(text)).toHaveAttribute('data-status', /^(pending|backlog)$/);
});

test('the queue lists the worst first and shows claims, its own and another moderator’s, without reordering', async ({ page, request }) => {
  const stamp = Date.now();
  const texts = [
    `That is a really dumb idea, order ${stamp}.`,
    `You are a worthless idiot and everyone knows it, order ${stamp}.`,
    `I know where you live and I am going to kill you tonight, order ${stamp}.`,
  ];
  await ConsolePage.moderate(request, texts);
  let items: Listed[] = [];
  await expect(async () => {
    items = (await listed(request, `order ${stamp}`)).filter((i) => i.status === 'pending');
    expect(items.length).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 30_000 });
  const priority = new Map(items.map((i) => [i.review_id, i.priority]));
  expect(new Set(priority.values()).size).toBeGreaterThan(1); // a real order to check

  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('reviews');
  await c.searchReviews(`order ${stamp}`);
  await expect(c.reviewItems).toHaveCount(items.length);
  const shown = async () => c.reviewItems.evaluateAll((els) => els.map((e) => e.getAttribute('data-review-id') ?? ''));
  const order = await shown();
  const ranks = order.map((id) => priority.get(id)!);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b)); // worst (lowest priority number) first
  // The threat leads.
  await expect(c.reviewItems.first().getByTestId('review-text')).toHaveText(texts[2]!);

  // Another moderator claims the worst item; this one claims the next.
  const [first, second] = order as [string, string];
  const other = await request.post(`/api/v1/reviews/${first}/claim`, { data: { moderator: 'Other Moderator' } });
  expect(other.ok()).toBe(true);
  await c.page.locator(`[data-testid="review-item"][data-review-id="${second}"]`).getByTestId('review-claim').click();
  await expect(c.reviewMessage).toContainText('Claimed by you');
  await c.searchReviews(`order ${stamp}`); // the same search again: a refresh
  const theirs = c.page.locator(`[data-testid="review-item"][data-review-id="${first}"]`);
  const mine = c.page.locator(`[data-testid="review-item"][data-review-id="${second}"]`);
  await expect(theirs.getByTestId('review-claimed')).toHaveAttribute('data-claimed-by', 'Other Moderator');
  await expect(theirs.getByTestId('review-claimed')).toContainText('Claimed by Other Moderator (not you)');
  await expect(theirs.getByTestId('review-confirm')).toBeDisabled();
  await expect(mine.getByTestId('review-claimed')).toHaveAttribute('data-mine', 'true');
  await expect(mine.getByTestId('review-claimed')).toContainText('Claimed by you');
  expect(await shown()).toEqual(order);
});

test('two browsers without typed names: a claim shows in the other without a reload, and neither decides the other’s item', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const stamp = Date.now();
  const text = `You are a worthless idiot and everyone knows it, two browsers ${stamp}.`;
  await ConsolePage.moderate(request, [text]);
  const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    const first = new ConsolePage(page);
    const second = new ConsolePage(await other.newPage());
    for (const c of [first, second]) {
      await expect(async () => {
        await c.page.goto(`/console/review?q=${encodeURIComponent(`two browsers ${stamp}`)}`);
        await expect(c.reviewItems).toHaveCount(1, { timeout: 3_000 });
      }).toPass({ timeout: 30_000 });
      await expect(c.moderatorName).toHaveValue('moderator'); // nobody typed a name
    }
    // The first browser claims it; the second, left as it was, sees the claim arrive.
    await first.reviewItems.first().getByTestId('review-claim').click();
    await expect(first.reviewItems.first().getByTestId('review-claimed')).toContainText('Claimed by you');
    const theirs = second.reviewItems.first();
    await expect(theirs.getByTestId('review-claimed')).toContainText('Claimed by moderator (not you)');
    await expect(theirs.getByTestId('review-confirm')).toBeDisabled();
    await expect(theirs.getByTestId('review-claim')).toBeDisabled();
    await expectNoAxeViolations(second.page, testInfo, 'a claim by another browser');
    // The server refuses the second browser's decision too (its own identity cookie, the same typed name).
    const id = (await theirs.getAttribute('data-review-id'))!;
    const refused = await other.request.post(`/api/v1/reviews/${id}/decision`, {
      data: { decision: 'confirm', moderator: 'moderator', reason_code: 'insult' },
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('REVIEW_CLAIMED');
    // The first decides it.
    await first.decide(first.reviewItems.first(), 'confirm', 'insult');
    await expect(first.reviewMessage).toContainText('Confirmed 1 item');
    await second.waitForPreviewModels().catch(() => undefined);
  } finally {
    await other.close();
  }
});
