/**
 * Bulk jobs from the console (docs/decisions/166-console-jobs.md): a CSV over
 * the job threshold goes to the server as a job instead of being chunked in the browser; its
 * progress bar reaches 100 %; its CSV results keep the input's columns; the Jobs tab lists it and
 * another browser (a fresh context: no state shared with the first) downloads its results. A job card
 * is named by its file and says its rows and how many the ensemble flagged (decision 198). A job's
 * flagged rows reach the review queue and open from its card as a filtered view of the queue; a job
 * that opted out says so on its card (decision 206). The large jobs here opt out, so the shared
 * queue of the browser tests holds only the texts each test sends for review.
 */
import { expect, test } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { ConsolePage } from './pages/console.page';
import { expectNoAxeViolations } from './support/axe';
import { keepScreenshot } from './support/page-errors';

const ROWS = 2_500;
const PHONE = { width: 390, height: 844 };
const SAMPLES = [
  'Thanks for sharing the meeting notes, they were really helpful.',
  'I will find you and hurt you, you pathetic idiot.',
  'The train was late again this morning; bring an umbrella, "just in case".',
  'You are a worthless loser and everyone hates you.',
  'Lovely photos from the hike, the lake looks beautiful.',
];

/** `id,comment,lang` with ROWS rows, quoted where needed; every text differs (no cache hits). */
function bigCsv(): string {
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const rows = Array.from({ length: ROWS }, (_, i) => `${i + 1},${quote(`${SAMPLES[i % SAMPLES.length]} (${i + 1})`)},en`);
  return `id,comment,lang\r\n${rows.join('\r\n')}\r\n`;
}

test.afterEach(async ({ page }) => {
  if (new URL(page.url()).pathname === '/console') await new ConsolePage(page).waitForPreviewModels().catch(() => undefined);
});

test('a CSV over the threshold becomes a job: progress to 100 %, CSV results with the input columns, listed and downloadable from another browser', async ({
  page,
  browser,
}, testInfo) => {
  // 2,500 texts on the e2e server's 2 cores, beside the page's own model downloads.
  test.setTimeout(600_000);
  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('batch');
  await c.uploadBatch('comments.csv', bigCsv());
  await expect(page.getByTestId('batch-file-count')).toContainText(`${ROWS} rows`);
  await expect(c.batchColumn.locator('option:checked')).toHaveText(/^comment/);
  await expect(page.getByTestId('job-upload-hint')).toContainText('sent to the server as a job');
  await expect(page.getByTestId('batch-job-review')).toBeChecked();
  await page.getByTestId('batch-job-review').uncheck();
  await expect(page.getByTestId('batch-review-feed')).toContainText('only be in the results');

  const created = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === '/v1/jobs' && r.request().method() === 'POST' && url.searchParams.get('text_column') === 'comment';
  });
  await c.batchRun.click();
  const createdRes = await created;
  expect(createdRes.status()).toBe(202);
  expect(JSON.parse(new URL(createdRes.url()).searchParams.get('metadata') ?? '{}')).toEqual({ file_name: 'comments.csv' });
  expect(new URL(createdRes.url()).searchParams.get('review')).toBe('false');
  await expect(page.getByTestId('job-upload-sent')).toBeVisible();
  // Not chunked in the browser: no batch progress of its own.
  await expect(c.batchStatus).toHaveCount(0);

  const job = page.getByTestId('job-upload').getByTestId('job');
  const jobId = (await job.getAttribute('data-job-id'))!;
  const bar = job.getByRole('progressbar');
  await expect(bar).toHaveAttribute('aria-valuemax', String(ROWS));
  await expect(job.getByTestId('job-name')).toHaveText('comments.csv');
  await expect(bar).toHaveAccessibleName('comments.csv');
  await expect(job.getByTestId('job-counts')).toContainText(`${ROWS.toLocaleString('en')} rows`);
  await keepScreenshot(page, testInfo, 'console-job-sent', { fullPage: false });

  // The poll moves the bar until every line has a result.
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 540_000 });
  await expect(bar).toHaveAttribute('aria-valuenow', String(ROWS));
  await expect(bar).toHaveAttribute('data-percent', '100');
  await expect(job.getByTestId('job-progress-text')).toContainText(
    `${ROWS.toLocaleString('en')} of ${ROWS.toLocaleString('en')} texts (100 %)`,
  );
  await expect(job.getByTestId('job-cancel')).toHaveCount(0);

  const download = page.waitForEvent('download');
  await job.getByTestId('job-download-csv').click();
  const csv = Buffer.concat(await (await (await download).createReadStream()).toArray()).toString('utf8');
  const rows = parseCsv(csv) as string[][];
  expect(rows[0]!.slice(0, 5)).toEqual(['id', 'comment', 'lang', 'vigil_line', 'vigil_summary']);
  expect(rows[0]).toContain('vigil_score');
  expect(rows).toHaveLength(ROWS + 1);
  expect(rows[1]!.slice(0, 4)).toEqual(['1', `${SAMPLES[0]} (1)`, 'en', '2']);
  expect(rows[ROWS]![0]).toBe(String(ROWS));
  // The card's flagged count is the results' own: every row whose summary is not likely_safe.
  const summary = rows[0]!.indexOf('vigil_summary');
  const flagged = rows.slice(1).filter((r) => r[summary] !== 'likely_safe').length;
  expect(flagged).toBeGreaterThan(0);
  await expect(job.getByTestId('job-counts')).toContainText(
    `${ROWS.toLocaleString('en')} rows · ${flagged.toLocaleString('en')} flagged · sent`,
  );

  // The Jobs tab lists it, accessible and without sideways scrolling on a phone.
  await page.getByTestId('job-upload-show-jobs').click();
  await expect(page.getByTestId('tab-jobs')).toHaveAttribute('aria-selected', 'true');
  const listed = page.locator(`#panel-jobs [data-testid="job"][data-job-id="${jobId}"]`);
  await expect(listed).toHaveAttribute('data-state', 'succeeded');
  await expect(listed.getByTestId('job-state')).toHaveText('Done');
  // A finished job says how long its results are kept (JOBS_RETENTION_HOURS, 7 days by default).
  await expect(listed.getByTestId('job-expires')).toContainText('Results kept until');
  await expect(listed.getByTestId('job-review')).toContainText('Not sent to review');
  await expect(listed.getByTestId('job-open-flagged')).toHaveCount(0);
  await expectNoAxeViolations(page, testInfo, 'jobs tab');
  await page.setViewportSize(PHONE);
  await keepScreenshot(page, testInfo, 'console-jobs-phone', { fullPage: false });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectNoAxeViolations(page, testInfo, 'jobs tab at 390 px');

  // Another browser (no cookies, storage or page state from the first) finds the job and its results.
  const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    const second = await other.newPage();
    const c2 = new ConsolePage(second);
    await c2.goto();
    await c2.tab('jobs');
    const again = second.locator(`[data-testid="job"][data-job-id="${jobId}"]`);
    await expect(again).toHaveAttribute('data-state', 'succeeded');
    const jsonl = second.waitForEvent('download');
    await again.getByTestId('job-download-jsonl').click();
    const lines = Buffer.concat(await (await (await jsonl).createReadStream()).toArray())
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; ensemble?: unknown });
    expect(lines).toHaveLength(ROWS);
    expect(lines.map((l) => l.line)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 2));
    expect(lines.every((l) => l.ensemble !== undefined)).toBe(true);
    await c2.waitForPreviewModels().catch(() => undefined);
  } finally {
    await other.close();
  }
  expect(c.errors.errors).toEqual([]);
});

test('pasted lines over the threshold become a JSON Lines job whose line numbers are the source lines', async ({ page }) => {
  test.setTimeout(600_000);
  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('batch');
  // Every tenth source line is blank: the job's results must still point at the right lines.
  const source = Array.from({ length: 2_300 }, (_, i) => (i % 10 === 9 ? '' : `${SAMPLES[i % SAMPLES.length]} [${i + 1}]`));
  const texts = source.filter((l) => l !== '').length;
  await page.getByTestId('batch-input').fill(source.join('\n'));
  await expect(c.batchRun).toHaveText(`Moderate ${texts} texts`);
  await page.getByTestId('batch-job-review').uncheck();

  const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/jobs' && r.request().method() === 'POST');
  await c.batchRun.click();
  const res = await created;
  expect(res.status()).toBe(202);
  expect(res.request().headers()['content-type']).toBe('application/x-ndjson');

  const job = page.getByTestId('job-upload').getByTestId('job');
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 540_000 });
  await expect(job.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(texts));
  await expect(job.getByTestId('job-name')).toHaveText('Pasted lines');
  const download = page.waitForEvent('download');
  await job.getByTestId('job-download-jsonl').click();
  const lines = Buffer.concat(await (await (await download).createReadStream()).toArray())
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { line: number });
  expect(lines).toHaveLength(texts);
  // Line n of the results is line n of what was pasted (its text ends in [n]).
  expect(lines.map((l) => l.line)).toEqual(source.flatMap((l, i) => (l === '' ? [] : [i + 1])));
  expect(c.errors.errors).toEqual([]);
});

test("a job's flagged row reaches the review queue and opens from its job card", async ({ page, request }, testInfo) => {
  const stamp = Date.now();
  const flagged = [`I will find you and hurt you, job row ${stamp}.`, `You are a worthless idiot and everyone knows it, job row ${stamp}.`];
  const lines = [flagged[0], `Lovely photos from the hike, job row ${stamp}.`, flagged[1], flagged[0]];
  const res = await request.post('/v1/jobs', {
    headers: { 'content-type': 'application/x-ndjson' },
    data: lines.map((text) => JSON.stringify({ text })).join('\n'),
  });
  expect(res.status()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await expect(async () => {
    const job = (await (await request.get(`/v1/jobs/${id}`)).json()) as { state: string; review: boolean };
    expect(job).toMatchObject({ state: 'succeeded', review: true });
  }).toPass({ timeout: 120_000 });

  const c = new ConsolePage(page);
  await c.goto();
  await c.tab('jobs');
  const card = page.locator(`#panel-jobs [data-testid="job"][data-job-id="${id}"]`);
  await expect(card.getByTestId('job-review')).toContainText('Flagged rows go to the review queue');
  // Recording for review follows the job's results by a moment: the card's link appears with the count.
  await expect(card.getByTestId('job-open-flagged')).toContainText('Open its 3 flagged rows in review');
  await card.getByTestId('job-open-flagged').click();
  await expect(page.getByTestId('tab-reviews')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`/console/review\\?status=all&job=${id}$`));
  await expect(page.getByTestId('review-view')).toContainText('Showing the flagged rows of');
  // One item per distinct text, each naming its job and first line.
  // Refresh only while the list lacks them: a click reloads the list, and under load a reload that
  // is still running when the check looks would otherwise hide items that had already arrived.
  await expect(async () => {
    if ((await c.reviewItems.count()) !== 2) await page.getByTestId('review-refresh').click();
    await expect(c.reviewItems).toHaveCount(2, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  const threat = c.reviewItem(flagged[0]!);
  await expect(threat.getByTestId('review-job-source')).toContainText('line 1 of');
  await expect(threat.getByTestId('review-seen')).toHaveAttribute('data-count', '2');
  await expect(c.reviewItem(flagged[1]!).getByTestId('review-job-source')).toContainText('line 3 of');
  await expect(threat).toHaveAttribute('data-status', 'pending');
  for (const [name, size] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await keepScreenshot(page, testInfo, `review-job-rows-${name}`, { fullPage: false });
    await expectNoAxeViolations(page, testInfo, `a job's flagged rows in review at ${name}`);
  }
  // The way back to the whole queue is in view.
  await page.getByTestId('review-back-to-queue').click();
  await expect(page).toHaveURL(/\/console\/review$/);
  await expect(page.getByTestId('review-view')).toHaveCount(0);
  expect(c.errors.errors).toEqual([]);
});
