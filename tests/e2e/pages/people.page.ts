/** Page objects for /people and /recognize. */
import { expect, type Locator, type Page } from '@playwright/test';
import { PageErrors } from '../support/page-errors';

export class PeoplePage {
  readonly errors: PageErrors;
  readonly count: Locator;

  constructor(readonly page: Page) {
    this.errors = new PageErrors(page);
    this.count = page.getByTestId('people-count');
  }

  async goto(): Promise<void> {
    await this.page.goto('/people');
    await expect(this.count).toHaveAttribute('data-loaded', 'true');
  }

  person(name: string): Locator {
    return this.page.locator(`[data-testid="person"][data-name="${name}"]`);
  }

  async editRelationship(name: string, relationship: string): Promise<void> {
    const card = this.person(name);
    await card.getByTestId('edit').click();
    await card.getByTestId('edit-relationship').fill(relationship);
    await card.getByTestId('save').click();
    await expect(card.getByTestId('save')).toHaveCount(0);
  }

  /** Opens the person's faces and waits for the listing. */
  async openFaces(name: string): Promise<Locator> {
    const card = this.person(name);
    await card.getByTestId('faces-toggle').locator('summary').click();
    await expect(card.getByTestId('face-list')).toBeVisible();
    return card.getByTestId('face');
  }

  async delete(name: string): Promise<void> {
    const card = this.person(name);
    await card.getByTestId('delete').click();
    await card.getByTestId('confirm-delete').click();
    await expect(card).toHaveCount(0);
  }
}

export class RecognizePage {
  readonly errors: PageErrors;
  readonly now: Locator;
  readonly results: Locator;
  readonly faces: Locator;

  constructor(readonly page: Page) {
    this.errors = new PageErrors(page);
    this.now = page.getByTestId('recognize-now');
    this.results = page.getByTestId('recognize-results');
    this.faces = page.getByTestId('recognized-face');
  }

  async goto(): Promise<void> {
    await this.page.goto('/recognize');
  }

  /** The labels drawn over an uploaded photo, in image pixels, and the image size. */
  async photoLabels(): Promise<{
    width: number;
    height: number;
    labels: { x: number; y: number; width: number; height: number; text: string }[];
  }> {
    const canvas = this.page.getByTestId('photo-overlay');
    await expect(canvas).toHaveAttribute('data-labels', /.+/);
    return canvas.evaluate((c: HTMLCanvasElement) => ({ width: c.width, height: c.height, labels: JSON.parse(c.dataset.labels ?? '[]') }));
  }

  async recognizeNow(): Promise<void> {
    await expect(this.now).toBeEnabled({ timeout: 30_000 });
    await this.now.click();
    await expect(this.results).not.toHaveAttribute('data-count', '-1', { timeout: 60_000 });
  }
}
