/**
 * The Policy view (docs/decisions/172): the thresholds in force measured on the decided review
 * items, what a change would do before it is saved, the change applied by the server at once, and
 * its revert from the versions list. The toxicity model's overall head is called Toxicity, as in every
 * verdict; too few decisions to judge a precision are said so; the preview lists the decided items a
 * change would flip (decision 198). Screenshots at 1440×900 and 390×844, axe on each state. A
 * change reaching a second instance is tested in tests/contract/postgres.test.ts.
 */
import { expect, test, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test';
import { MIN_DECIDED_FOR_PRECISION } from '@/lib/contracts/policy';
import { ConsolePage } from './pages/console.page';
import { expectNoAxeViolations } from './support/axe';
import { keepScreenshot } from './support/page-errors';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
// Under 0.99 (the highest threshold a policy may set) on every head, so raising one category unflags it.
const INSULT = 'Stop acting like a clown';

async function capture(page: Page, testInfo: TestInfo, name: string, show?: Locator) {
  for (const [suffix, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await show?.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, `${name}-${suffix}`, { fullPage: false });
    await expectNoAxeViolations(page, testInfo, `${name} at ${suffix}`);
    if (suffix === 'phone') expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  }
  await page.setViewportSize(DESKTOP);
}

async function reviewIdOf(request: APIRequestContext, q: string): Promise<string> {
  let id = '';
  await expect(async () => {
    const body = (await (await request.get(`/api/v1/reviews?status=all&q=${encodeURIComponent(q)}`)).json()) as {
      data: { items: { review_id: string }[] };
    };
    id = body.data.items[0]?.review_id ?? '';
    expect(id).not.toBe('');
  }).toPass({ timeout: 30_000 });
  return id;
}

type Explained = { ensemble: { score: number }; explanations: { decision: { issue: string } } };
const moderate = async (request: APIRequestContext, text: string) =>
  (await (await request.post('/v1/moderate/text', { data: { text, explain: true } })).json()) as Explained;

/** The e2e database is shared by every spec: leave the shipped thresholds in force. */
test.afterAll(async ({ request }) => {
  const policy = (await (await request.get('/api/v1/policy')).json()) as {
    data: { version: number; categories: { category: string; overridden: boolean }[] };
  };
  let version = policy.data.version;
  for (const c of policy.data.categories.filter((x) => x.overridden)) {
    const res = await request.post('/api/v1/policy/versions', {
      data: { category: c.category, threshold: null, reason: 'e2e clean-up', expected_version: version },
    });
    version = ((await res.json()) as { data: { version: number } }).data.version;
  }
});

test.use({ viewport: DESKTOP });

test.afterEach(async ({ page }) => {
  if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
});

test('the Policy view measures the thresholds on decided items, previews a change, saves it (applied at once) and reverts it', async ({
  page,
  request,
}, testInfo) => {
  const stamp = Date.now();
  const harmful = `${INSULT}, policy ${stamp}.`;
  const mild = `That is a really dumb idea, policy ${stamp}.`;
  await ConsolePage.moderate(request, [harmful, mild]);
  for (const [text, decision, reason_code] of [
    [harmful, 'confirm', 'harassment'],
    [mild, 'overturn', 'false positive: context'],
  ] as const) {
    const id = await reviewIdOf(request, text);
    expect((await request.post(`/api/v1/reviews/${id}/decision`, { data: { decision, reason_code } })).ok()).toBe(true);
  }
  const before = await moderate(request, harmful);
  const issue = before.explanations.decision.issue;
  const category = issue === 'toxicity' ? 'overall' : issue;

  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('policy');
  const summary = page.getByTestId('policy-summary');
  await expect(summary).toContainText('Measured on');
  const startVersion = Number(await summary.getAttribute('data-version'));
  await expect(page.getByTestId('policy-recall-note')).toContainText('recall here is relative');
  await expect(page.getByTestId('policy-row')).toHaveCount(6);
  const row = page.locator(`[data-testid="policy-row"][data-category="${category}"]`);
  const shipped = await row.getAttribute('data-threshold');
  // The overall head is "Toxicity" here as in every verdict; "overall" is the API's name only.
  await expect(page.locator('[data-testid="policy-row"][data-category="overall"] th')).toHaveText('Toxicity');
  await expect(page.getByTestId('policy-table')).not.toContainText('overall');
  // The shared e2e database holds what earlier specs decided: the warning is there exactly when too few are.
  const decided = ((await (await request.get('/api/v1/policy')).json()) as { data: { decided: { confirmed: number; overturned: number } } })
    .data.decided;
  const tooFew = decided.confirmed + decided.overturned < MIN_DECIDED_FOR_PRECISION;
  await expect(page.getByTestId('policy-too-few')).toHaveCount(tooFew ? 1 : 0);
  if (tooFew) await expect(page.getByTestId('policy-too-few')).toContainText('Too few decisions to judge precision');
  await capture(page, testInfo, 'policy-view');

  await page.getByTestId(`policy-adjust-${category}`).click();
  await page.getByTestId('policy-threshold').fill('0.99');
  const impact = page.getByTestId('policy-impact');
  await expect(impact).toContainText('At 0.99');
  expect(Number(await impact.getAttribute('data-changed'))).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('policy-adjust-overall')).toHaveAccessibleName('Adjust Toxicity');
  // Which decided items would flip, by their text: the confirmed insult is no longer flagged for this category.
  const flip = impact.getByTestId('policy-flip').filter({ hasText: harmful });
  await expect(flip).toHaveAttribute('data-decision', 'confirm');
  await expect(flip).toContainText('confirmed harmful');
  await expect(flip).toContainText(/flagged \(.+\) → (not flagged|flagged \(.+\))/);
  await expect(impact.getByTestId('policy-impact-too-few')).toHaveCount(tooFew ? 1 : 0);
  await expect(page.getByTestId('policy-save')).toBeDisabled(); // no reason yet
  await page.getByTestId('policy-reason').fill(`too strict for banter (${stamp})`);
  await capture(page, testInfo, 'policy-change-preview', page.getByTestId('policy-change'));

  await page.getByTestId('policy-save').click();
  await expect(page.getByTestId('policy-saved')).toContainText(`Saved as version ${startVersion + 1}`);
  await expect(row).toHaveAttribute('data-threshold', '0.99');
  await expect(summary).toHaveAttribute('data-version', String(startVersion + 1));
  // Applied by the server to the next moderation, no restart.
  // The raised category stops deciding: the score falls, or another category that also flags the
  // text (overall and insult often both do) gives the verdict.
  const after = await moderate(request, harmful);
  expect(after.explanations.decision.issue !== issue || after.ensemble.score < before.ensemble.score).toBe(true);
  const newest = page.getByTestId('policy-version').first();
  await expect(newest).toContainText(`too strict for banter (${stamp})`);
  await capture(page, testInfo, 'policy-saved', newest);

  await newest.getByTestId('policy-revert').click();
  await newest.getByTestId('policy-revert-reason').fill('back to shipped');
  await capture(page, testInfo, 'policy-revert-form', newest);
  await newest.getByTestId('policy-revert-confirm').click();
  await expect(page.getByTestId('policy-saved')).toContainText(`Saved as version ${startVersion + 2}`);
  await expect(row).toHaveAttribute('data-threshold', shipped!);
  await expect(page.getByTestId('policy-version').first()).toContainText(`reverts v${startVersion + 1}`);
  expect((await moderate(request, harmful)).ensemble.score).toBe(before.ensemble.score);
  await capture(page, testInfo, 'policy-reverted');

  const csv = await request.get('/api/v1/policy/export');
  expect(csv.headers()['content-type']).toContain('text/csv');
  expect(await csv.text()).toContain(`policy ${stamp}`);
});
