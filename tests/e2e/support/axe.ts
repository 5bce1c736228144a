/**
 * axe-core (pinned, devDependency) on the page as it is now. The one accessibility check of the
 * browser tests: WCAG 2.0, 2.1 and 2.2 A/AA plus axe's best practices; any violation fails the test,
 * and the full violations are attached to the report.
 *
 * axe's source is evaluated in the page rather than added as a `<script>`: evaluation is not subject
 * to the page's Content-Security-Policy, which forbids inline scripts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page, type TestInfo } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

let source: string | undefined;
const axeSource = () => (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

async function runAxe(page: Page): Promise<AxeResults> {
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(axeSource());
  const options: RunOptions = { runOnly: { type: 'tag', values: TAGS }, resultTypes: ['violations'] };
  return page.evaluate(
    (opts) => (window as unknown as { axe: { run: (c: Document, o: RunOptions) => Promise<AxeResults> } }).axe.run(document, opts),
    options,
  );
}

/** Fails the test, naming each rule and up to five of its elements, when axe finds a violation in `state`. */
export async function expectNoAxeViolations(page: Page, testInfo: TestInfo, state: string): Promise<void> {
  const { violations } = await runAxe(page);
  const found = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 5)
        .join(', ')}`,
  );
  if (found.length)
    await testInfo.attach(`axe-${state}.json`, { body: JSON.stringify(violations, null, 2), contentType: 'application/json' });
  expect(found, `axe-core on ${state}`).toEqual([]);
}
