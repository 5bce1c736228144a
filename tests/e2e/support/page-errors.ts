/** Collects console errors, CSP violations, uncaught exceptions and failed requests of a page and its Workers. */
import type { ConsoleMessage, Page, TestInfo } from '@playwright/test';
import { SCREENSHOT_DIR } from './paths';
import path from 'node:path';

export class PageErrors {
  readonly errors: string[] = [];
  /** Errors matching these are expected (e.g. while the test takes the browser offline). */
  private readonly ignored: RegExp[] = [];

  constructor(page: Page) {
    const record = (where: string) => (msg: ConsoleMessage) => {
      if (msg.type() === 'error') this.add(`${where}: ${msg.text()}`);
    };
    // A CSP refusal that the page catches (a feature probe) logs nothing by itself; report every
    // violation as a console error so that it fails the test like any other error.
    void page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
      });
    });
    page.on('console', record('page'));
    page.on('pageerror', (err) => this.add(`pageerror: ${err.message}`));
    page.on('worker', (worker) => worker.on('console', record(`worker ${worker.url()}`)));
    page.on('response', (res) => {
      if (res.status() >= 400) this.add(`HTTP ${res.status()} ${res.url()}`);
    });
    page.on('requestfailed', (req) => {
      // Navigations away abort in-flight requests; that is not an error of the page.
      if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
      this.add(`request failed ${req.url()}: ${req.failure()?.errorText}`);
    });
  }

  ignore(pattern: RegExp): void {
    this.ignored.push(pattern);
  }

  private add(line: string): void {
    if (!this.ignored.some((p) => p.test(line))) this.errors.push(line);
  }
}

/** A full-page screenshot in test-results/screenshots/<name>.png, also attached to the report. */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** Form controls without an accessible name (label, aria-label or aria-labelledby), described for the failure message. */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('input, select, textarea, button'))
      .filter((el) => {
        if (el instanceof HTMLInputElement && el.type === 'hidden') return false;
        const labelled =
          (el as HTMLInputElement).labels?.length ||
          el.getAttribute('aria-label')?.trim() ||
          el.getAttribute('aria-labelledby') ||
          (el.tagName === 'BUTTON' && el.textContent?.trim());
        return !labelled;
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** The two widths every page is checked at: a 1440×900 desktop and a 390×844 phone. Screenshots of the page at both, attached to the report. */
export const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

export async function keepScreenshotsAtWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await keepScreenshot(page, testInfo, `${name}-${w.name}`);
  }
  if (before) await page.setViewportSize(before);
}
