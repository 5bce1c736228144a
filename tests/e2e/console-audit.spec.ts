/**
 * The console's audit log as evidence, reason codes, reopen, the undo window and the review quota
 * (docs/decisions/160). The audit log: an undo reads "undone" with the moderator who pressed u and the
 * item's text; filters, pages back to the first entry, the filtered CSV. The review quota: it is per
 * API key, critical verdicts are queued anyway, and the review tab and the batch tool say how many
 * texts were not queued and why. Reasons: a reason code is required and fits the decision; reason and note are
 * cleared after each decision; a decided item can be reopened; Undo lasts the server's window.
 * axe checks each new state.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { keyId } from '@/lib/auth/api-keys';
import { startServer, type RunningServer } from '../../scripts/lib/server';
import { ConsolePage } from './pages/console.page';
import { expectNoAxeViolations } from './support/axe';
import { keepScreenshot } from './support/page-errors';

const INSULT = 'You are a pathetic idiot and nobody will ever like you';

async function check(page: Page, testInfo: TestInfo, name: string) {
  await keepScreenshot(page, testInfo, name, { fullPage: false });
  await expectNoAxeViolations(page, testInfo, name);
}

/** The review id of `text` once recording (fire-and-forget) has stored it. */
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

test.afterEach(async ({ page }) => {
  if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
});

test.describe('audit log', () => {
  test('an undo reads "undone", by the moderator who pressed u, with the item text (shortened, expandable)', async ({
    page,
    request,
  }, testInfo) => {
    const stamp = Date.now();
    const text = `${INSULT}, audit ${stamp}. This sentence keeps going so that the audit log has to shorten it before the end, and then it goes on.`;
    const [r] = await ConsolePage.moderate(request, [text]);
    expect(r!.ensemble.summary).not.toBe('likely_safe');
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await c.moderatorName.fill(`ana ${stamp}`);
    const item = await c.waitForReviewItem(text);
    await c.decide(item, 'confirm', 'harassment', 'first look');
    await expect(c.reviewMessage).toContainText(`Confirmed 1 item as ana ${stamp}`);
    await c.reviewCount.click(); // outside any field, so `u` is a shortcut
    await page.keyboard.press('u');
    await expect(c.reviewMessage).toContainText('Undone');

    await c.tab('audit');
    await c.auditFilter('audit-search', `audit ${stamp}`);
    const rows = c.auditRowsShown;
    await expect(rows).toHaveCount(2);
    const undo = rows.nth(0);
    await expect(undo).toHaveAttribute('data-action', 'undone');
    await expect(undo.getByTestId('audit-action')).toHaveText('undone');
    await expect(undo.getByTestId('audit-moderator')).toHaveText(`ana ${stamp}`);
    await expect(undo.getByTestId('audit-verdict')).toHaveText('(was confirmed harmful)');
    await expect(undo.getByTestId('audit-text')).toHaveAttribute('data-expanded', 'false');
    await expect(undo.getByTestId('audit-text')).toContainText(`audit ${stamp}`);
    await undo.getByTestId('audit-text-toggle').click();
    await expect(undo.getByTestId('audit-text')).toHaveText(text);
    const decision = rows.nth(1);
    await expect(decision).toHaveAttribute('data-action', 'decided');
    await expect(decision.getByTestId('audit-moderator')).toHaveText(`ana ${stamp}`);
    await expect(decision.getByTestId('audit-why')).toHaveText('harassment: first look');
    await check(page, testInfo, 'audit-undone-row');
  });

  test('filters by moderator, action, verdict and date on the server, pages back to the first entry, and exports the filtered log', async ({
    page,
    request,
  }, testInfo) => {
    const stamp = Date.now();
    await ConsolePage.moderate(request, [`${INSULT}, paging ${stamp}.`]);
    const id = await reviewIdOf(request, `paging ${stamp}`);
    const bo = `bo ${stamp}`;
    const cy = `cy ${stamp}`;
    // 55 decisions and 55 undos, then a last overturn: 111 entries, more than one page of 100.
    for (let i = 0; i < 55; i++) {
      const decided = await request.post(`/api/v1/reviews/${id}/decision`, {
        data: { decision: 'confirm', moderator: bo, reason_code: 'threat' },
      });
      expect(decided.ok()).toBe(true);
      expect((await request.post(`/api/v1/reviews/${id}/undo`, { data: { moderator: cy } })).ok()).toBe(true);
    }
    await request.post(`/api/v1/reviews/${id}/decision`, {
      data: { decision: 'overturn', moderator: bo, reason_code: 'false positive: context' },
    });

    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('audit');
    await c.auditFilter('audit-search', `paging ${stamp}`);
    await expect(c.auditCount).toHaveAttribute('data-total', '111');
    await expect(c.auditRowsShown).toHaveCount(100);
    await page.getByTestId('audit-more').click();
    await expect(c.auditRowsShown).toHaveCount(111);
    await expect(page.getByTestId('audit-more')).toHaveCount(0);
    // The last row is the first entry ever made on this item.
    await expect(c.auditRowsShown.last()).toHaveAttribute('data-action', 'decided');
    await expect(c.auditRowsShown.last()).toHaveAttribute('data-decision', 'confirm');
    await expect(c.auditRowsShown.first()).toHaveAttribute('data-decision', 'overturn');

    await c.auditFilter('audit-filter-moderator', cy);
    await expect(c.auditCount).toHaveAttribute('data-total', '55');
    await expect(c.auditRowsShown.filter({ hasNot: page.locator('[data-action="undone"]') })).toHaveCount(55);
    await expect(page.locator('[data-testid="audit-row"]:not([data-action="undone"])')).toHaveCount(0);
    await c.auditFilter('audit-filter-action', 'decided');
    await expect(c.auditCount).toHaveAttribute('data-total', '0');
    await c.auditFilter('audit-filter-moderator', '');
    await c.auditFilter('audit-filter-verdict', 'overturn');
    await expect(c.auditCount).toHaveAttribute('data-total', '1');
    await check(page, testInfo, 'audit-filtered');
    await c.auditFilter('audit-filter-verdict', '');
    await c.auditFilter('audit-filter-action', '');
    const today = new Date();
    const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await c.auditFilter('audit-filter-from', day(today));
    await expect(c.auditCount).toHaveAttribute('data-total', '111');
    await c.auditFilter('audit-filter-from', day(new Date(today.getTime() + 86_400_000)));
    await expect(c.auditCount).toHaveAttribute('data-total', '0');
    await c.auditFilter('audit-filter-from', '');

    // The download holds what the filters select, oldest first.
    await c.auditFilter('audit-filter-moderator', bo);
    await expect(c.auditCount).toHaveAttribute('data-total', '56');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
    const csv = parseCsv(readFileSync((await download.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(csv).toHaveLength(56);
    expect(new Set(csv.map((r) => r.moderator))).toEqual(new Set([bo]));
    expect(csv[0]).toMatchObject({ action: 'decided', decision: 'confirm', reason_code: 'threat' });
    expect(csv.at(-1)).toMatchObject({ decision: 'overturn', reason_code: 'false positive: context' });
    expect(csv[0]!.text).toContain(`paging ${stamp}`);
  });
});

test.describe('reasons, reopen and the undo window', () => {
  test('a fitting reason code is required; reason and note are cleared after each decision; a decided item reopens', async ({
    page,
    request,
  }, testInfo) => {
    const stamp = Date.now();
    const text = `${INSULT}, reasons ${stamp}.`;
    await ConsolePage.moderate(request, [text]);
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    await c.moderatorName.fill(`dee ${stamp}`);
    const item = await c.waitForReviewItem(text);
    await item.getByTestId('review-note').fill('typed for the confirm');
    await item.getByTestId('review-confirm').click();
    // Said beside the reason list; the focus stays where it was (no trap in the list).
    await expect(item.getByTestId('review-reason-problem')).toContainText('No reason chosen');
    await expect(item.getByTestId('review-confirm')).toBeFocused();
    await check(page, testInfo, 'review-reason-required');
    await item.getByTestId('review-reason').selectOption('false positive: context');
    await item.getByTestId('review-confirm').click();
    await expect(item.getByTestId('review-reason-problem')).toContainText('explains an overturn');
    await c.decide(item, 'confirm', 'harassment');
    await expect(c.reviewMessage).toContainText('Confirmed 1 item');
    await page.getByTestId('review-undo').click();
    await expect(c.reviewMessage).toContainText('Undone');

    // Pending again: the confirm's reason and note are gone, not waiting for the next decision.
    const again = await c.waitForReviewItem(text);
    await expect(again.getByTestId('review-note')).toHaveValue('');
    await expect(again.getByTestId('review-reason')).toHaveValue('');
    await c.decide(again, 'overturn', 'false positive: quote/counter-speech');
    await expect(c.reviewMessage).toContainText('Overturned 1 item');
    const log = (await (await request.get(`/api/v1/reviews/audit?q=${encodeURIComponent(`reasons ${stamp}`)}`)).json()) as {
      data: { entries: { action: string; decision: string; note: string; reason_code: string }[] };
    };
    expect(log.data.entries.map((e) => [e.action, e.decision, e.reason_code, e.note])).toEqual([
      ['decided', 'overturn', 'false positive: quote/counter-speech', ''],
      ['undone', 'confirm', '', `undid confirm by dee ${stamp}`],
      ['decided', 'confirm', 'harassment', 'typed for the confirm'],
    ]);

    await ConsolePage.setReviewFilter(page, 'status', 'overturned');
    await c.searchReviews(`reasons ${stamp}`);
    const decided = c.reviewItem(text);
    await expect(decided).toHaveAttribute('data-status', 'overturned');
    await decided.getByTestId('review-note').fill('the quote was a pretext');
    await decided.getByTestId('review-reopen').click();
    await expect(c.reviewMessage).toContainText('Reopened: 1 item is pending again');
    await check(page, testInfo, 'review-reopened');
    await c.tab('audit');
    await c.auditFilter('audit-search', `reasons ${stamp}`);
    await expect(c.auditRowsShown.first()).toHaveAttribute('data-action', 'reopened');
    await expect(c.auditRowsShown.first().getByTestId('audit-moderator')).toHaveText(`dee ${stamp}`);
    await expect(c.auditRowsShown.first().getByTestId('audit-why')).toHaveText('the quote was a pretext');
  });

  test('Undo stays as long as the server accepts it (REVIEW_UNDO_SECONDS), not a fixed 30 s', async ({ page, request }) => {
    const stamp = Date.now();
    const texts = [`${INSULT}, window ${stamp} one.`, `${INSULT}, window ${stamp} two.`];
    await ConsolePage.moderate(request, texts);
    const config = (await (await request.get('/api/v1/reviews/config')).json()) as { data: { undo_seconds: number } };
    const windowMs = config.data.undo_seconds * 1000;
    expect(windowMs).toBeGreaterThan(31_000);
    await page.clock.install();
    const c = new ConsolePage(page);
    await c.goto();
    await c.tab('reviews');
    const undo = page.getByTestId('review-undo');

    await c.decide(await c.waitForReviewItem(texts[0]!), 'confirm', 'threat');
    await page.clock.fastForward(31_000);
    await expect(undo).toBeVisible();
    await undo.click();
    await expect(c.reviewMessage).toContainText('Undone');

    await c.decide(await c.waitForReviewItem(texts[1]!), 'confirm', 'threat');
    await expect(undo).toBeVisible();
    await page.clock.fastForward(windowMs + 1_000);
    await expect(undo).toHaveCount(0);
  });
});

test.describe('review quota per key', () => {
  const KEY = 'e2e-quota-key-0123456789abcdef';
  let server: RunningServer;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-e2e-quota-'));
    server = await startServer({
      API_KEYS: KEY,
      DATA_DIR: dataDir,
      FACE_WARM_ON_START: 'false',
      RATE_LIMIT_PER_MINUTE: '0',
      REVIEW_QUOTA_PER_KEY_PER_HOUR: '1',
      REVIEW_QUOTA_PER_HOUR: '1',
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('a key spends its own quota, critical verdicts are queued anyway, and the console counts what was not queued', async ({
    page,
  }, testInfo) => {
    const stamp = Date.now();
    const texts = [1, 2, 3].map((i) => `${INSULT}, quota ${stamp} #${i}.`);
    const threat = `I know where you live and I am going to kill you tonight, quota ${stamp}.`;
    const res = await page.request.post(`${server.url}/v1/moderate/batch`, {
      data: { texts: [...texts, threat] },
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.ok()).toBe(true);
    expect((await page.request.post(`${server.url}/api/v1/session`, { data: { api_key: KEY } })).ok()).toBe(true);

    const c = new ConsolePage(page);
    await page.goto(`${server.url}/console`);
    await c.tab('reviews');
    await c.waitForReviewItem(threat);
    await expect(c.reviewItems).toHaveCount(2); // one insult (the key's quota of 1) and the threat
    const notice = page.getByTestId('review-not-queued');
    await expect(notice).toHaveAttribute('data-total', '2');
    const reason = notice.getByTestId('review-not-queued-reason');
    await expect(reason).toHaveAttribute('data-client', `key:${keyId(KEY)}`);
    await expect(reason).toContainText(`2 over the hourly quota of key:${keyId(KEY)} (1 new item an hour)`);
    await check(page, testInfo, 'review-not-queued');

    // The batch tool says so too: this browser sends no key, so its address's quota (1) applies.
    await c.tab('batch');
    await page.getByTestId('batch-input').fill([1, 2, 3].map((i) => `${INSULT}, batch quota ${stamp} #${i}.`).join('\n'));
    await c.runBatchToEnd();
    await expect(page.getByTestId('batch-not-queued')).toHaveAttribute('data-count', '2');
    await check(page, testInfo, 'batch-not-queued');
  });
});
