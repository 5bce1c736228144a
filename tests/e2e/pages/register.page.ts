/** Page object for /register (webcam registration with live face guidance). */
import { expect, type Locator, type Page } from '@playwright/test';
import { PageErrors } from '../support/page-errors';

export class RegisterPage {
  readonly errors: PageErrors;
  readonly checks: Locator;
  readonly capture: Locator;
  readonly photos: Locator;
  readonly name: Locator;
  readonly relationship: Locator;
  readonly submit: Locator;
  readonly result: Locator;
  readonly error: Locator;
  readonly backend: Locator;
  readonly upload: Locator;
  readonly fileErrors: Locator;
  readonly photoFailures: Locator;
  readonly short: Locator;
  readonly addToExisting: Locator;
  readonly cameraRetry: Locator;

  constructor(readonly page: Page) {
    this.errors = new PageErrors(page);
    this.checks = page.getByTestId('guide-checks');
    this.capture = page.getByTestId('capture');
    this.photos = page.getByTestId('photo-list').locator('li');
    this.name = page.getByTestId('person-name');
    this.relationship = page.getByTestId('person-relationship');
    this.submit = page.getByTestId('register-submit');
    this.result = page.getByTestId('register-result');
    this.error = page.getByTestId('register-error');
    this.backend = page.getByTestId('guide-backend');
    this.upload = page.getByTestId('photo-upload');
    this.fileErrors = page.getByTestId('file-errors');
    this.photoFailures = page.getByTestId('photo-failures');
    this.short = page.getByTestId('register-short');
    this.addToExisting = page.getByTestId('add-to-existing');
    this.cameraRetry = page.getByTestId('camera-retry');
  }

  /** Chooses files and waits until the page has checked them all (the input is enabled again). */
  async uploadPhotos(files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    await this.upload.setInputFiles(files);
    // While checking, the page says "Checking photo i of n…" (and disables the input).
    await expect(this.page.getByText(/Checking photo \d+ of \d+/)).toHaveCount(0, { timeout: 120_000 });
    await expect(this.upload).toBeEnabled();
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/register${query}`);
  }

  /** Waits until every guidance check passes for the fake camera's face. */
  async waitUntilReady(timeout = 120_000): Promise<void> {
    await expect(this.checks).toHaveAttribute('data-ready', 'true', { timeout });
    await expect(this.capture).toBeEnabled();
  }

  async captureN(n: number): Promise<void> {
    for (let i = 1; i <= n; i++) {
      await expect(this.capture).toBeEnabled({ timeout: 30_000 });
      await this.capture.click();
      await expect(this.photos).toHaveCount(i);
    }
  }

  async addDetail(key: string, value: string): Promise<void> {
    await this.page.getByTestId('meta-add').click();
    await this.page.getByTestId('meta-key').last().fill(key);
    await this.page.getByTestId('meta-value').last().fill(value);
  }
}
