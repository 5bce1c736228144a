/**
 * Browser serving: the Worker runs the same model files and the same TypeScript
 * (preprocess, tokeniser, post-processing, rules, ensemble) as the server, so its verdicts must
 * match `POST /v1/moderate/batch` to within TOLERANCE on every score and exactly on every decision.
 */
import { expect, test } from '@playwright/test';
import { benignThread } from '../fixtures/long-benign-text';
import { BrowserInferencePage } from './pages/browser-inference.page';
import { compareVerdicts } from './support/compare';
import { moderateOnServer } from './support/moderation-api';

/**
 * Scores may differ by this much; decisions (rules, summary, primary issue, severity, sexism's
 * threshold) must agree exactly. The encoder computes in float32 (decision 188), so the two runtimes'
 * kernels differ only in float rounding (about 1e-6); the API rounds scores to 4 decimals, so one
 * rounding step (1e-4) can separate them. Under the former int8 arithmetic this had to be 0.05.
 */
const TOLERANCE = 1e-3;

const TEXTS = [
  // benign
  'Thanks for sharing the meeting notes, they were really helpful.',
  // insult
  'You are a pathetic idiot and nobody will ever like you.',
  // threat
  'I know where you live and I am going to kill you tonight.',
  // sexist
  'Women are too emotional to lead, they should stay in the kitchen.',
  // obfuscated: zero-width joiners, leet, Cyrillic/Greek homoglyphs
  'y\u200Bo\u200Bu are an i\u200Dd\u200Di\u200Do\u200Dt, st00pid l0s3r, ѕһυт υр',
  // Cyrillic (not folded: a Russian sentence stays Russian)
  'Ты просто жалкий идиот, заткнись уже.',
  // emoji
  '🤬🤬 you absolute clown 🤡 get lost 😡',
  // caps abuse, repetition, a URL and a mention
  'SHUT UP SHUT UP!!!!!! nooooooooo @dave see https://example.com/x?y=1',
  // a thread of paragraphs whose last one, mild abuse, is flagged by its own reading (decision 222)
  [...benignThread(6, 0), 'I think you are a liar.'].join('\n\n'),
];

test.describe('browser inference', () => {
  test('wasm in the browser matches the server on the same texts', async ({ page, request }, testInfo) => {
    const lab = new BrowserInferencePage(page);
    await lab.goto('wasm');
    await lab.waitUntilReady();
    await expect(lab.backend).toHaveText('wasm');

    const [browser, server] = await Promise.all([lab.moderate(TEXTS), moderateOnServer(request, TEXTS)]);
    expect(browser.backend).toBe('wasm');

    const { maxDiff, problems, notes } = compareVerdicts(TEXTS, browser.results, server, TOLERANCE);
    const report = { backend: browser.backend, loadMs: await lab.loadMs.textContent(), browserMs: browser.ms, maxDiff, problems, notes };
    console.log(`browser (wasm) vs server: ${JSON.stringify(report)}`);
    await testInfo.attach('browser-vs-server.json', {
      body: JSON.stringify({ ...report, texts: TEXTS, browser: browser.results, server }, null, 2),
      contentType: 'application/json',
    });
    expect(problems).toEqual([]);

    // The UI path shows the same verdicts as the hook (its box takes one text a line).
    const lines = TEXTS.flatMap((t, i) => (t.includes('\n') ? [] : [i]));
    const shown = await lab.runThroughUi(lines.map((i) => TEXTS[i]!));
    expect(shown.map((r) => r.ensemble)).toEqual(lines.map((i) => browser.results[i]!.ensemble));
    await expect(lab.runMs).toHaveText(/^\d+ ms$/);
    expect(lab.consoleErrors).toEqual([]);
  });

  test('the page reports its backend and logs no console errors', async ({ page }) => {
    const lab = new BrowserInferencePage(page);
    await lab.goto('auto');
    await lab.waitUntilReady();
    const backend = await lab.backendName();
    expect(['webgpu', 'wasm']).toContain(backend);
    if (backend === 'wasm' && (await lab.fallbackReason.count()) > 0) {
      console.log(`auto chose wasm: ${await lab.fallbackReason.textContent()}`);
    }
    await expect(lab.loadMs).toHaveText(/^\d+ ms$/);

    const texts = ['have a nice day', 'you are an idiot'];
    const results = await lab.runThroughUi(texts);
    // Shape and order only: model quality is the evaluation scripts' job, not this smoke test's.
    expect(results.map((r) => r.text)).toEqual(texts);
    for (const r of results) {
      expect(r.meta.models_used).toEqual(['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1']);
      expect(r.ensemble.score).toBeGreaterThanOrEqual(0);
      expect(r.ensemble.score).toBeLessThanOrEqual(1);
    }
    expect(lab.consoleErrors).toEqual([]);
  });

  test('WebGPU (SwiftShader in headless Chromium) matches the server', async ({ page, request }, testInfo) => {
    const hasAdapter = await (async () => {
      // Any page of the app will do (a secure context on our origin); this one starts no Worker.
      await page.goto('/v1/health');
      return page.evaluate(async () => {
        const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
        return !!gpu && (await gpu.requestAdapter().catch(() => null)) != null;
      });
    })();
    test.skip(!hasAdapter, 'no WebGPU adapter in this Chromium (needs --enable-unsafe-webgpu and a secure context)');

    const lab = new BrowserInferencePage(page);
    await lab.goto('webgpu');
    await lab.waitUntilReady();
    await expect(lab.backend).toHaveText('webgpu');

    const [browser, server] = await Promise.all([lab.moderate(TEXTS), moderateOnServer(request, TEXTS)]);
    expect(browser.backend).toBe('webgpu');
    const { maxDiff, problems, notes } = compareVerdicts(TEXTS, browser.results, server, TOLERANCE);
    const adapter = await lab.adapter.textContent();
    const report = {
      backend: browser.backend,
      adapter,
      loadMs: await lab.loadMs.textContent(),
      browserMs: browser.ms,
      maxDiff,
      problems,
      notes,
    };
    console.log(`browser (webgpu) vs server: ${JSON.stringify(report)}`);
    await testInfo.attach('browser-webgpu-vs-server.json', {
      body: JSON.stringify(report, null, 2),
      contentType: 'application/json',
    });
    expect(problems).toEqual([]);
    expect(lab.consoleErrors).toEqual([]);
  });
});
