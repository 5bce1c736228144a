import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

const { createInferencePool } = await import('./inference-pool');
const { poolModerator } = await import('./pool-moderator');

// A stand-in worker: it answers `load-models` as a worker whose toxicity file is broken (or not,
// with FAKE_WORKER_BROKEN=1, which the worker reads from the env it inherits), measures texts by
// their length, and echoes moderate tasks (with the chunk's batch shares); a text starting with
// "busy" holds the thread for 10 ms, like a long text in a real worker.
const WORKER = `
export default async function (task) {
  if (task.kind === 'load-models') {
    const broken = process.env.FAKE_WORKER_BROKEN === '1';
    return { ok: true, kind: 'load-models', models: {
      status: { sexism: { loaded: true }, toxicity: broken ? { loaded: false, error: 'toxicity model: bad.onnx is not a loadable ONNX model' } : { loaded: true }, rules: { loaded: true } },
      ...(broken ? {} : { policy: { sexismThreshold: 0.42, toxicityThresholds: { overall: 0.5, insult: 0.6, threat: 0.3, identity_attack: 0.4, profanity: 0.7 } } }),
    } };
  }
  if (task.kind === 'measure') return { ok: true, kind: 'measure', lengths: task.texts.map((t) => t.length) };
  if (task.kind === 'moderate') {
    // "slow": 100 steps of 10 ms, each one a transformer run that first reads the cancel flag; every
    // step taken is logged to FAKE_WORKER_LOG, so a test can tell how much work ran after a hang-up.
    for (const text of task.texts) if (text.startsWith('slow')) for (let step = 0; step < 100; step++) {
      if (task.cancel && Atomics.load(new Int32Array(task.cancel), 0) === 1) return { ok: false, error: { kind: 'cancelled', message: 'cancelled' } };
      (await import('node:fs')).appendFileSync(process.env.FAKE_WORKER_LOG, text + ' ' + step + '\\n');
      const until = Date.now() + 10; while (Date.now() < until);
      await new Promise((r) => setImmediate(r));
    }
    for (const text of task.texts) if (text.startsWith('busy')) { const until = Date.now() + 10; while (Date.now() < until); }
    return { ok: true, kind: 'moderate', results: task.texts.map((text, i) => ({ text, explained: task.explain, ...(task.explain ? { explanations: { rules: [], sexism: [{ feature: text, weight: 1 }] } } : {}), share: task.batchShares?.[i], thresholds: task.thresholds, cap: task.maxTokensPerRun, ...(task.texts.length > 1 ? { mates: task.texts } : {}) })), modelMs: { rules: 1 } };
  }
  return { ok: false, error: { kind: 'failed', message: 'unexpected task' } };
}`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-pool-'));
  writeFileSync(path.join(dir, 'worker.mjs'), WORKER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Moderator backed by an inference pool', () => {
  it('reports the shipped thresholds the workers loaded and sends the policy thresholds with every chunk (decision 172)', async () => {
    delete process.env.FAKE_WORKER_BROKEN;
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4);
    try {
      const moderator = poolModerator(pool);
      expect(await moderator.shippedPolicy()).toEqual({
        sexismThreshold: 0.42,
        toxicityThresholds: { overall: 0.5, insult: 0.6, threat: 0.3, identity_attack: 0.4, profanity: 0.7 },
      });
      const texts = Array.from({ length: 40 }, (_, i) => `t${i}`);
      const results = (await moderator.moderate(texts, { explain: false, client: 'a', thresholds: { insult: 0.8 } })) as unknown as {
        thresholds?: unknown;
      }[];
      expect(results.every((r) => JSON.stringify(r.thresholds) === '{"insult":0.8}')).toBe(true);
      const [plain] = (await moderator.moderate(['x'], { explain: false, client: 'a' })) as unknown as { thresholds?: unknown }[];
      expect(plain!.thresholds).toBeUndefined();
    } finally {
      await pool.close();
    }
  });

  it('reports what the worker loaded and moderates in the pool, holding no models itself', async () => {
    delete process.env.FAKE_WORKER_BROKEN;
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4);
    try {
      const moderator = poolModerator(pool);
      const status = await moderator.status();
      expect(status.map((s) => [s.key, s.loaded])).toEqual([
        ['sexism', true],
        ['toxicity', true],
        ['rules', true],
      ]);
      const times: [string, number][] = [];
      const spent: string[] = [];
      const results = await moderator.moderate(['hello'], {
        explain: true,
        client: 'a',
        admitted: async () => void spent.push('a'),
        onModelTime: (model, ms) => times.push([model, ms]),
      });
      expect(results).toEqual([
        { text: 'hello', explained: true, explanations: { rules: [], sexism: [{ feature: 'hello', weight: 1 }] }, share: undefined },
      ]);
      expect(spent).toEqual(['a']);
      expect(times).toEqual([['rules', 1]]);
    } finally {
      await pool.close();
    }
  });

  it('explains a text through the same pool', async () => {
    delete process.env.FAKE_WORKER_BROKEN;
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4);
    try {
      const explanations = await poolModerator(pool).explain('why', { client: 'a' });
      expect(explanations).toEqual({ rules: [], sexism: [{ feature: 'why', weight: 1 }] });
    } finally {
      await pool.close();
    }
  });

  it('stops the work of a client that hangs up: chunks not started never run, the running one stops at its next step', async () => {
    const log = path.join(dir, 'steps.log');
    writeFileSync(log, '');
    process.env.FAKE_WORKER_LOG = log;
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4, { maxTextsPerClient: 0, chunkTexts: 1, chunkChars: 1_000 });
    try {
      const moderator = poolModerator(pool);
      await moderator.status();
      const controller = new AbortController();
      const texts = Array.from({ length: 6 }, (_, i) => `slow ${i}`);
      const answer = moderator.moderate(texts, { explain: false, client: 'a', signal: controller.signal });
      // Abort once the first chunk has taken a few steps.
      while ((await readFile(log, 'utf8')).split('\n').length < 4) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      await expect(answer).rejects.toMatchObject({ name: 'WorkCancelledError' });
      while (pool.load().running > 0) await new Promise((r) => setTimeout(r, 5));
      const steps = (await readFile(log, 'utf8')).trim().split('\n');
      // 6 texts of 100 steps were asked for; one step per running chunk may pass after the abort.
      expect(steps.length).toBeLessThan(20);
      expect(new Set(steps.map((l) => l.split(' ')[1])).size).toBeLessThanOrEqual(2);
      expect(pool.load()).toMatchObject({ running: 0, queued: 0 });
      // A request already aborted does no work at all.
      await expect(moderator.moderate(['slow x'], { explain: false, client: 'a', signal: AbortSignal.abort() })).rejects.toMatchObject({
        name: 'WorkCancelledError',
      });
    } finally {
      delete process.env.FAKE_WORKER_LOG;
      await pool.close();
    }
  });

  it('names the model that failed in the worker, so health says degraded and moderation 503 before any budget is spent', async () => {
    process.env.FAKE_WORKER_BROKEN = '1';
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4);
    try {
      const moderator = poolModerator(pool);
      const toxicity = (await moderator.status()).find((s) => s.key === 'toxicity');
      expect(toxicity).toMatchObject({ loaded: false, error: expect.stringMatching(/bad\.onnx/) });
      const spent: string[] = [];
      await expect(
        moderator.moderate(['hello'], { explain: false, client: 'a', admitted: async () => void spent.push('a') }),
      ).rejects.toMatchObject({
        name: 'ModelsUnavailableError',
        message: expect.stringMatching(/toxic_transformer_v1 is not loaded \(.*bad\.onnx/),
      });
      expect(spent).toEqual([]);
    } finally {
      delete process.env.FAKE_WORKER_BROKEN;
      await pool.close();
    }
  });
});

describe('fair share of the pool between clients', () => {
  const limits = { maxTextNormalizedChars: 12_000, maxTextTokens: 2_500, maxBatchNormalizedChars: 400_000 };
  const fair = { maxTextsPerClient: 100, chunkTexts: 4, chunkChars: 16_000 };

  it("answers another client's single text before a long batch that was queued first", async () => {
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4, fair);
    try {
      const finished: string[] = [];
      const batch = pool
        .moderate(
          Array.from({ length: 40 }, (_, i) => `busy ${i}`),
          { explain: false, limits, client: 'A' },
        )
        .then((r) => {
          finished.push('A');
          return r;
        });
      const single = pool.moderate(['hello'], { explain: false, limits, client: 'B' }).then((r) => {
        finished.push('B');
        return r;
      });
      const [a, b] = await Promise.all([batch, single]);
      // The old pool ran the batch as one task and B after it; now B takes the next free worker.
      expect(finished).toEqual(['B', 'A']);
      // The chunks come back in order, and the model times add up over them.
      expect(a.results.map((r) => (r as unknown as { text: string }).text)).toEqual(Array.from({ length: 40 }, (_, i) => `busy ${i}`));
      expect(a.modelMs.rules).toBe(10);
      expect(b.results).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('cuts chunks from the texts in order of length, so a run pads little, and answers in input order', async () => {
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4, { ...fair, chunkTexts: 2 });
    try {
      const texts = ['long one text', 'a', 'long two text', 'b', 'mid text', 'mid two'];
      const { results } = await pool.moderate(texts, { explain: false, limits, client: 'A' });
      const out = results as unknown as { text: string; mates: string[] }[];
      expect(out.map((r) => r.text)).toEqual(texts);
      // Consecutive chunks would pair each long text with a one-letter one.
      expect(out.map((r) => r.mates.join('+'))).toEqual([
        'long one text+long two text',
        'a+b',
        'long one text+long two text',
        'a+b',
        'mid two+mid text',
        'mid two+mid text',
      ]);
    } finally {
      await pool.close();
    }
  });

  it('gives each chunk its part of the whole batch budget when the budget binds', async () => {
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4, fair);
    try {
      const texts = ['a'.repeat(9_000), 'b'.repeat(10), 'c'.repeat(9_000), 'd'.repeat(9_000), 'e'.repeat(9_000)];
      const { results } = await pool.moderate(texts, {
        explain: false,
        limits: { ...limits, maxBatchNormalizedChars: 20_010 },
        client: 'A',
      });
      expect(results.map((r) => (r as unknown as { share: number }).share)).toEqual([5_000, 10, 5_000, 5_000, 5_000]);
    } finally {
      await pool.close();
    }
  });

  it('refuses a client over its queue with 429 while another client is served', async () => {
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4, { ...fair, maxTextsPerClient: 50 });
    try {
      const first = pool.moderate(
        Array.from({ length: 40 }, (_, i) => `busy ${i}`),
        { explain: false, limits, client: 'A' },
      );
      let spent = 0;
      const admitted = async () => {
        spent++;
      };
      const over = await pool
        .moderate(
          Array.from({ length: 20 }, () => 'x'),
          { explain: false, limits, client: 'A', admitted },
        )
        .catch((e: unknown) => e);
      // A request refused for a full queue spends no budget.
      expect(spent).toBe(0);
      expect(over).toMatchObject({ code: 'RATE_LIMITED', headers: { 'Retry-After': expect.stringMatching(/^\d+$/) } });
      await expect(pool.moderate(['x'], { explain: false, limits, client: 'B', admitted })).resolves.toBeDefined();
      expect(spent).toBe(1);
      await first;
    } finally {
      await pool.close();
    }
  });
});

describe('background (bulk-job) work in the pool', () => {
  it('runs at full batch while no interactive request came in the last seconds, and in short runs after one', async () => {
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4, {
      maxTextsPerClient: 0,
      chunkTexts: 32,
      chunkChars: 4_000,
      backgroundTokensPerRun: 512,
    });
    try {
      const bulk = () => pool.moderate(['job text'], { explain: false, client: 'bulk', background: true });
      const alone = await bulk();
      expect((alone.results[0] as unknown as { cap?: number }).cap).toBeUndefined();
      await pool.moderate(['a live text'], { explain: false, client: 'someone' });
      const beside = await bulk();
      expect((beside.results[0] as unknown as { cap?: number }).cap).toBe(512);
    } finally {
      await pool.close();
    }
  });
});
