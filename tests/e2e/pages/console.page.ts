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

  async tab(name: 'moderate' | 'batch' | 'reviews' | 'audit'): Promise<void> {
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
    await expect(async () => {
      await this.page.getByTestId('review-refresh').click();
      await expect(item).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    return item;
  }
  get queuedNotice() {
    return this.page.getByTestId('review-queued');
  }
  auditRows(reviewId: string): Locator {
    return this.page.locator(`[data-testid="audit-row"][data-review-id="${reviewId}"]`);
  }
}
