/** axe-core (pinned @axe-core/playwright) on the page as it is now: every WCAG 2.x A/AA violation fails the test. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

export async function expectNoAxeViolations(page: Page, testInfo: TestInfo, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  if (found.length) await testInfo.attach(`axe-${state}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  expect(found, `axe-core on ${state}`).toEqual([]);
}
