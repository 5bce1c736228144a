/** Page object for /lab/browser-inference (in-browser moderation in a Web Worker). */
import { expect, type ConsoleMessage, type Locator, type Page } from '@playwright/test';
import type { ModerationResponse } from '@/lib/contracts/moderation';

export type BackendChoice = 'auto' | 'wasm' | 'webgpu';

export interface BrowserRun {
  results: ModerationResponse[];
  backend: 'webgpu' | 'wasm';
  ms: number;
}

export class BrowserInferencePage {
  readonly status: Locator;
  readonly backend: Locator;
  readonly loadMs: Locator;
  readonly runMs: Locator;
  readonly input: Locator;
  readonly runButton: Locator;
  readonly result: Locator;
  readonly error: Locator;
  readonly fallbackReason: Locator;
  readonly adapter: Locator;
  /** Console errors, uncaught exceptions and failed requests of the page and its Workers. */
  readonly consoleErrors: string[] = [];

  constructor(readonly page: Page) {
    this.status = page.getByTestId('status');
    this.backend = page.getByTestId('backend');
    this.loadMs = page.getByTestId('load-ms');
    this.runMs = page.getByTestId('run-ms');
    this.input = page.getByTestId('input');
    this.runButton = page.getByTestId('run');
    this.result = page.getByTestId('result');
    this.error = page.getByTestId('error');
    this.fallbackReason = page.getByTestId('fallback-reason');
    this.adapter = page.getByTestId('adapter');

    const record = (where: string) => (msg: ConsoleMessage) => {
      // A Worker's failed fetch is not a page response: the message's location names the resource.
      if (msg.type() === 'error') this.consoleErrors.push(`${where}: ${msg.text()} (${msg.location().url})`);
    };
    page.on('console', record('page'));
    page.on('pageerror', (err) => this.consoleErrors.push(`pageerror: ${err.message}`));
    page.on('worker', (worker) => worker.on('console', record(`worker ${worker.url()}`)));
    // Chromium logs "Failed to load resource" without the URL; record which one it was.
    page.on('response', (res) => {
      if (res.status() >= 400) this.consoleErrors.push(`HTTP ${res.status()} ${res.url()}`);
    });
    page.on('requestfailed', (req) => this.consoleErrors.push(`request failed ${req.url()}: ${req.failure()?.errorText}`));
  }

  async goto(backend: BackendChoice = 'auto'): Promise<void> {
    await this.page.goto(backend === 'auto' ? '/lab/browser-inference' : `/lab/browser-inference?backend=${backend}`);
  }

  /** Waits until the Worker has loaded and warmed up the models (or failed). */
  async waitUntilSettled(timeout = 150_000): Promise<'ready' | 'error'> {
    await expect(this.status).toHaveAttribute('data-phase', /^(ready|error)$/, { timeout });
    return (await this.status.getAttribute('data-phase')) as 'ready' | 'error';
  }

  async waitUntilReady(timeout = 150_000): Promise<void> {
    const phase = await this.waitUntilSettled(timeout);
    if (phase === 'error') throw new Error(`browser models failed to load: ${await this.error.textContent()}`);
  }

  async backendName(): Promise<string> {
    return ((await this.backend.textContent()) ?? '').trim();
  }

  /** Moderates through the UI: one text per line, "Run in browser", the JSON shown. */
  async runThroughUi(texts: string[]): Promise<ModerationResponse[]> {
    await this.input.fill(texts.join('\n'));
    await this.runButton.click();
    await expect(this.status).toHaveAttribute('data-phase', 'ready');
    await expect(this.result).not.toBeEmpty();
    return JSON.parse((await this.result.textContent()) ?? '[]') as ModerationResponse[];
  }

  /** Moderates through the test hook, bypassing the textarea (texts may contain newlines). */
  moderate(texts: string[]): Promise<BrowserRun> {
    return this.page.evaluate(async (t) => {
      const hook = window.__vigilBrowserModerate;
      if (!hook) throw new Error('window.__vigilBrowserModerate is not installed');
      return hook(t);
    }, texts);
  }
}
