/**
 * Explanations point at the reason (docs/decisions/196): a 3,000-character benign text whose last
 * sentence is a threat opens, in the Moderate tab and on its review card, on that sentence,
 * highlighted and in view, with a handful of marks at most; a short English text gets no language
 * warning. axe finds nothing at 1440×900 and 390×844 on each view.
 */
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { ConsolePage } from './pages/console.page';
import { expectNoAxeViolations } from './support/axe';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const THREAT = 'I know where you live and I am going to kill you tonight.';

const BENIGN = [
  'The community garden met on Saturday morning to plan the spring planting.',
  'Volunteers brought seedlings, compost and a long list of questions about the new raised beds.',
  'We agreed to rotate the tomatoes and beans so the soil can rest for a season.',
  'The library will host a workshop on saving seeds next month, and everyone is welcome.',
  'Please remember to return the shared tools to the shed after you finish watering.',
  'Our thanks go to the neighbours who repaired the fence and painted the gate last week.',
];

/** About 3,000 characters of benign sentences, a stamp to find it in the queue, then the threat. */
function longText(stamp: string): string {
  let text = `Garden notes ${stamp}. `;
  for (let i = 0; text.length < 2_950; i++) text += `${BENIGN[i % BENIGN.length]} `;
  return `${text}${THREAT}`;
}

async function axeAtBothSizes(page: Page, testInfo: TestInfo, name: string, show: Locator) {
  for (const [suffix, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await show.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page, testInfo, `${name} at ${suffix}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** The text a sighted reader sees in `el`: without the marks' words for screen readers ("(rule: threat)"). */
const shownText = (el: Locator) =>
  el.evaluate((node) => {
    const copy = node.cloneNode(true) as HTMLElement;
    for (const hidden of copy.querySelectorAll('.visually-hidden')) hidden.remove();
    return copy.textContent ?? '';
  });

/** Marks drawn over a text: the deciding sentence counts as one, as does each word mark. */
const marksIn = (text: Locator) => text.locator('mark').count();

test.use({ viewport: DESKTOP });

test.afterEach(async ({ page }) => {
  if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
});

test('the Moderate tab opens a long text on the sentence that decided it', async ({ page }, testInfo) => {
  const text = longText(`moderate ${Date.now()}`);
  const c = new ConsolePage(page);
  await c.goto();
  await c.input.fill(text);
  await c.moderateOnServer();
  await expect(c.serverVerdict).toHaveAttribute('data-summary', /^(possibly|likely|highly)_harmful$/);
  const marked = c.serverVerdict.getByTestId('verdict-marked-text');
  const passage = marked.getByTestId('deciding-span');
  await expect(passage).toBeVisible();
  expect(await shownText(passage)).toBe(THREAT);
  await expect(passage).toBeInViewport();
  expect(await marksIn(marked)).toBeLessThanOrEqual(5);
  // No sexism words marked on a verdict sexism did not decide.
  await expect(marked.getByTestId('sexism-match')).toHaveCount(0);

  // The in-browser preview runs the same code: it points at the same sentence.
  await c.waitForPreviewModels();
  const preview = page.getByTestId('preview-verdict').getByTestId('verdict-marked-text');
  await expect(preview.getByTestId('deciding-span')).toBeVisible({ timeout: 60_000 });
  expect(await shownText(preview.getByTestId('deciding-span'))).toBe(THREAT);
  expect(await marksIn(preview)).toBeLessThanOrEqual(5);
  await axeAtBothSizes(page, testInfo, 'moderate tab, long text', passage);
});

test('a short English text gets no language warning', async ({ page }) => {
  const c = new ConsolePage(page);
  await c.goto();
  for (const text of ['Women deserve equal pay.', 'Happy birthday to my wonderful sister!', 'Go kill yourself, nobody wants you here.']) {
    await c.input.fill(text);
    await c.moderateOnServer();
    await expect(c.serverVerdict).toHaveAttribute('data-summary', /./);
    await expect(page.getByTestId('server-verdict').getByTestId('decided-by')).toBeVisible();
    await expect(c.serverVerdict.getByTestId('language-note')).toHaveCount(0);
  }
});

test('the review card shows the deciding passage, and why flagged highlights the sentence in view', async ({ page, request }, testInfo) => {
  const stamp = `review ${Date.now()}`;
  const text = longText(stamp);
  const [r] = await ConsolePage.moderate(request, [text]);
  expect(r!.ensemble.summary).not.toBe('likely_safe');
  const c = new ConsolePage(page);
  const item = await c.openOnlyReviewFor(stamp);

  // Collapsed, the card shows the passage that decided, not the text's first 280 characters.
  await expect(item.getByTestId('review-text')).toHaveAttribute('data-excerpt', 'deciding');
  // Once the explanation has arrived, the marks' labels ("(rule: threat)") sit between the words.
  await expect(item.getByTestId('review-text')).toContainText(/kill you( \(rule: threat\))? tonight/);
  await expect(item.getByTestId('review-text')).not.toContainText(stamp);
  // The current item's explanation is fetched, so the passage shows what in it decided.
  await expect(item.getByTestId('review-text')).toHaveAttribute('data-marked', 'true');
  expect(await shownText(item.getByTestId('review-text').getByTestId('deciding-span'))).toBe(THREAT);

  // Show all: the whole text, the deciding sentence (not a whole window of harmless ones) highlighted and scrolled into view.
  await item.getByTestId('review-text-toggle').click();
  const whole = item.getByTestId('review-text');
  await expect(whole).toContainText(stamp);
  await expect(whole.getByTestId('deciding-span')).toContainText('kill you');
  expect(await shownText(whole.getByTestId('deciding-span'))).toBe(THREAT);
  await expect(whole.getByTestId('deciding-span')).toBeInViewport();
  await axeAtBothSizes(page, testInfo, 'review card, whole long text', whole.getByTestId('deciding-span'));
  await item.getByTestId('review-text-toggle').click();

  // Why flagged: the deciding sentence itself, highlighted in the card's own text (not a second copy), few marks elsewhere.
  await item.getByTestId('review-why').click();
  await expect(item.getByTestId('review-why-panel').getByTestId('decided-by')).toBeVisible();
  await expect(item.getByTestId('review-full-text')).toHaveCount(1);
  const full = item.getByTestId('review-full-text');
  const sentence = full.getByTestId('deciding-span');
  await expect(sentence).toBeVisible();
  expect(await shownText(sentence)).toBe(THREAT);
  await expect(sentence).toBeInViewport();
  expect(await marksIn(full)).toBeLessThanOrEqual(5);
  await axeAtBothSizes(page, testInfo, 'review card, why flagged', sentence);
});
