/** Page object for /console (moderation console). */
import { expect, type Locator, type Page } from '@playwright/test';
import { PageErrors } from '../support/page-errors';

export class ConsolePage {
  readonly errors: PageErrors;
  readonly input: Locator;
  readonly previewMeta: Locator;
  readonly previewVerdict: Locator;
  readonly serverVerdict: Locator;
  readonly moderateButton: Locator;
  readonly healthStatus: Locator;

  constructor(readonly page: Page) {
    this.errors = new PageErrors(page);
    this.input = page.getByTestId('moderate-input');
    this.previewMeta = page.getByTestId('preview-meta');
    this.previewVerdict = page.getByTestId('preview-verdict');
    this.serverVerdict = page.getByTestId('server-verdict');
    this.moderateButton = page.getByTestId('moderate-submit');
    this.healthStatus = page.getByTestId('health-status');
  }

  async goto(): Promise<void> {
    await this.page.goto('/console');
  }

  async tab(name: 'moderate' | 'batch' | 'jobs' | 'reviews' | 'audit' | 'policy'): Promise<void> {
    await this.page.getByTestId(`tab-${name}`).click();
    await expect(this.page.getByTestId(`tab-${name}`)).toHaveAttribute('aria-selected', 'true');
  }

  async waitForPreviewModels(timeout = 150_000): Promise<void> {
    await expect(this.previewMeta).toHaveAttribute('data-phase', /^(ready|running)$/, { timeout });
  }

  /** Types a text and returns the preview's ensemble score once the preview shows that text. */
  async previewScore(text: string): Promise<number> {
    await this.input.fill(text);
    const preview = this.page.locator(`[data-testid="preview"][data-for="${text.replace(/"/g, '\\"')}"]`);
    await expect(preview).toBeVisible({ timeout: 30_000 });
    return Number(await preview.getByTestId('preview-verdict').getAttribute('data-score'));
  }

  async moderateOnServer(): Promise<void> {
    await this.moderateButton.click();
    await expect(this.serverVerdict).toBeVisible();
  }

  // Batch tab
  get batchFile() {
    return this.page.getByTestId('batch-file');
  }
  get batchRun() {
    return this.page.getByTestId('batch-run');
  }
  get batchStatus() {
    return this.page.getByTestId('batch-status');
  }
  get batchRows() {
    return this.page.getByTestId('batch-row');
  }

  // Review tab
  get moderatorName() {
    return this.page.getByTestId('moderator-name');
  }
  reviewItem(text: string): Locator {
    return this.page.getByTestId('review-item').filter({ has: this.page.getByTestId('review-text').getByText(text, { exact: true }) });
  }
  /** Refreshes the queue until the item with `text` is listed (recording is asynchronous). */
  async waitForReviewItem(text: string): Promise<Locator> {
    const item = this.reviewItem(text);
    // The queue lists the worst first: a medium item may sit below the first page of older, worse
    // ones. After a few refreshes, search for its text instead.
    let tries = 0;
    await expect(async () => {
      tries++;
      if (tries === 4) await this.searchReviews(text);
      else await this.page.getByTestId('review-refresh').click();
      await expect(item).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    // The refresh's answer is in: the list will not be replaced under the next action.
    await expect(this.page.getByTestId('review-refresh')).toHaveText('Refresh');
    return item;
  }
  get reviewList() {
    return this.page.getByTestId('review-list');
  }
  get reviewItems() {
    return this.page.getByTestId('review-item');
  }
  get reviewCount() {
    return this.page.getByTestId('review-count');
  }
  get reviewMessage() {
    return this.page.getByTestId('review-message');
  }
  /** Sets one of the queue's select filters, unfolding the filters first (they start folded). */
  static async setReviewFilter(page: Page, id: 'status' | 'issue' | 'severity' | 'source', value: string): Promise<void> {
    const fold = page.getByTestId('review-filters-fold');
    if ((await fold.getAttribute('open')) === null) await page.getByTestId('review-filters-summary').click();
    await page.getByTestId(`review-filter-${id}`).selectOption(value);
  }
  /**
   * Opens the Review tab and searches until exactly one item answers `q` (a verdict reaches the
   * queue a moment after its answer); returns that item.
   */
  async openOnlyReviewFor(q: string): Promise<Locator> {
    await this.goto();
    await this.tab('reviews');
    await expect(async () => {
      await this.searchReviews(q);
      await expect(this.reviewItems).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    return this.reviewItems.first();
  }
  /** Types a search and waits for the list to answer it. */
  async searchReviews(q: string): Promise<void> {
    const box = this.page.getByTestId('review-search');
    // The tab trims the search; the same search again is a refresh.
    const answered = this.page.waitForResponse(
      (r) => r.url().includes('/api/v1/reviews?') && new URL(r.url()).searchParams.get('q') === q.trim(),
      { timeout: 10_000 },
    );
    if ((await box.inputValue()) === q) await this.page.getByTestId('review-refresh').click();
    else await box.fill(q);
    await answered;
  }
  /** Decides one item in the queue with a reason code (required) and an optional note. */
  async decide(item: Locator, decision: 'confirm' | 'overturn', reason: string, note?: string): Promise<void> {
    await item.getByTestId('review-reason').selectOption(reason);
    if (note !== undefined) await item.getByTestId('review-note').fill(note);
    await item.getByTestId(`review-${decision}`).click();
  }

  // Audit log
  get auditRowsShown() {
    return this.page.getByTestId('audit-row');
  }
  get auditCount() {
    return this.page.getByTestId('audit-count');
  }
  /** Sets one audit filter and waits for the log to answer it. */
  async auditFilter(testId: string, value: string): Promise<void> {
    const answered = this.page.waitForResponse((r) => r.url().includes('/api/v1/reviews/audit?'), { timeout: 10_000 });
    const el = this.page.getByTestId(testId);
    if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(value);
    else await el.fill(value);
    await answered;
  }

  /** Records texts through the moderation API (what the queue holds is what the server flagged). */
  static async moderate(
    request: import('@playwright/test').APIRequestContext,
    texts: string[],
  ): Promise<{ text: string; ensemble: { summary: string } }[]> {
    const res = await request.post('/v1/moderate/batch', { data: { texts } });
    expect(res.ok()).toBe(true);
    return ((await res.json()) as { results: { text: string; ensemble: { summary: string } }[] }).results;
  }

  // Batch tool
  async uploadBatch(name: string, content: string | Buffer, mimeType = 'text/csv'): Promise<void> {
    await this.batchFile.setInputFiles({ name, mimeType, buffer: Buffer.isBuffer(content) ? content : Buffer.from(content) });
  }
  get batchColumn() {
    return this.page.getByTestId('batch-column');
  }
  get batchHasHeader() {
    return this.page.getByTestId('batch-has-header');
  }
  async runBatchToEnd(timeout = 120_000): Promise<void> {
    await this.batchRun.click();
    await expect(this.batchStatus).toHaveAttribute('data-phase', /^(done|cancelled)$/, { timeout });
  }
  /** The export's rows (parsed by the caller). */
  async exportBatch(): Promise<string> {
    const download = this.page.waitForEvent('download');
    await this.page.getByTestId('batch-export').click();
    const file = await download;
    const chunks = await (await file.createReadStream()).toArray();
    return Buffer.concat(chunks).toString('utf8');
  }

  get queuedNotice() {
    return this.page.getByTestId('review-queued');
  }
  auditRows(reviewId: string): Locator {
    return this.page.locator(`[data-testid="audit-row"][data-review-id="${reviewId}"]`);
  }
}
